"""Unit tests of the canon-v1 codec in paimon_interop.py (no pypaimon, no warehouse needed).

Run: python3 -m unittest interop/python/test_paimon_interop.py   (any Python >= 3.8; pyarrow optional)
"""

import datetime
import os
import random
import sys
import unittest
from decimal import Decimal

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import paimon_interop as pi  # noqa: E402


class CalendarTest(unittest.TestCase):
    def test_days_round_trip_against_datetime(self):
        rnd = random.Random(7)
        epoch = datetime.date(1970, 1, 1)
        for days in [0, -1, 1, -719162, 2932896] + [rnd.randint(-719162, 2932896) for _ in range(2000)]:
            d = epoch + datetime.timedelta(days=days)
            self.assertEqual(pi.fmt_date(days), d.isoformat())
            self.assertEqual(pi.days_from_civil(d.year, d.month, d.day), days)
            self.assertEqual(pi.parse_date(d.isoformat()), days)

    def test_timestamps(self):
        cases = [
            (0, "1970-01-01T00:00:00.000000000"),
            (-1, "1969-12-31T23:59:59.999999999"),
            (1, "1970-01-01T00:00:00.000000001"),
            (-62135596800 * 10 ** 9, "0001-01-01T00:00:00.000000000"),
            (253402300799 * 10 ** 9 + 999999999, "9999-12-31T23:59:59.999999999"),
            (951825600 * 10 ** 9 + 7, "2000-02-29T12:00:00.000000007"),
        ]
        for ns, text in cases:
            with self.subTest(text=text):
                self.assertEqual(pi.fmt_epoch_nanos(ns), text)
                self.assertEqual(pi.parse_ts_nanos(text, False), ns)
                self.assertEqual(pi.parse_ts_nanos(text + "Z", True), ns)
        self.assertEqual(pi.parse_ts_nanos("2024-01-01T00:00:00", False), 1704067200 * 10 ** 9)
        for bad, ltz in [("2024-01-01T00:00:00Z", False), ("2024-01-01T00:00:00", True), ("2024-01-01 00:00:00", False)]:
            with self.assertRaises(ValueError):
                pi.parse_ts_nanos(bad, ltz)

    def test_time(self):
        self.assertEqual(pi.fmt_time_millis(0), "00:00:00.000")
        self.assertEqual(pi.fmt_time_millis(86399999), "23:59:59.999")
        self.assertEqual(pi.parse_time_millis("01:02:03.456789"), 3723456)
        self.assertEqual(pi.parse_time_millis("01:02:03"), 3723000)
        with self.assertRaises(ValueError):
            pi.fmt_time_millis(86400000)


class DecimalTest(unittest.TestCase):
    def test_fmt_decimal(self):
        cases = [("-0.50", 2, "-0.50"), ("-0.5", 2, "-0.50"), ("12", 0, "12"), ("0", 3, "0.000"),
                 ("-0.000", 3, "0.000"), ("1E+2", 0, "100"), ("1234567890123456789012345678.0123456789", 10,
                                                              "1234567890123456789012345678.0123456789"),
                 ("-0.0000000001", 10, "-0.0000000001"), ("5.100", 1, "5.1")]
        for text, scale, want in cases:
            with self.subTest(text=text, scale=scale):
                self.assertEqual(pi.fmt_decimal(Decimal(text), scale), want)
        with self.assertRaises(ValueError):
            pi.fmt_decimal(Decimal("0.123"), 2)


class TypeParseTest(unittest.TestCase):
    def test_parse_atomic(self):
        cases = [("INT NOT NULL", "INT", None, None), ("INTEGER", "INT", None, None),
                 ("TIMESTAMP(3) WITH LOCAL TIME ZONE", "TIMESTAMP_LTZ", 3, None),
                 ("TIMESTAMP_LTZ(9)", "TIMESTAMP_LTZ", 9, None), ("TIMESTAMP", "TIMESTAMP", 6, None),
                 ("TIMESTAMP(0)", "TIMESTAMP", 0, None), ("TIME", "TIME", 0, None), ("TIME(3)", "TIME", 3, None),
                 ("DECIMAL(10, 2)", "DECIMAL", 10, 2), ("DECIMAL(38,10) NOT NULL", "DECIMAL", 38, 10),
                 ("DECIMAL", "DECIMAL", 10, 0), ("STRING", "VARCHAR", None, None), ("BYTES", "VARBINARY", None, None),
                 ("CHAR(5)", "CHAR", None, None), ("BINARY(4)", "BINARY", None, None)]
        for text, root, precision, scale in cases:
            with self.subTest(text=text):
                pt = pi.parse_atomic(text)
                self.assertEqual(pt.root, root)
                if precision is not None:
                    self.assertEqual(pt.precision, precision)
                if scale is not None:
                    self.assertEqual(pt.scale, scale)


class EncodeTest(unittest.TestCase):
    def test_floats(self):
        f32 = pi.parse_atomic("FLOAT")
        f64 = pi.parse_atomic("DOUBLE")
        self.assertEqual(pi.encode_value("f32:3fc00000", f32, None, "c"), 1.5)
        self.assertEqual(pi.encode_value("f64:bff0000000000000", f64, None, "c"), -1.0)
        v = pi.encode_value("f64:nan", f64, None, "c")
        self.assertNotEqual(v, v)
        for bad in ["1.5", 1.5, "f64:3ff", "f32:3ff0000000000000"]:
            with self.assertRaises(ValueError):
                pi.encode_value(bad, f32, None, "c")

    def test_ints_and_bools(self):
        self.assertEqual(pi.encode_value(-128, pi.parse_atomic("TINYINT"), None, "c"), -128)
        for bad, t in [(128, "TINYINT"), (True, "INT"), ("1", "BIGINT"), (1, "BOOLEAN")]:
            with self.assertRaises(ValueError):
                pi.encode_value(bad, pi.parse_atomic(t), None, "c")

    def test_decimal_exponent(self):
        d = pi.encode_value("-0.5", pi.parse_atomic("DECIMAL(10, 2)"), None, "c")
        self.assertEqual(d.as_tuple().exponent, -2)
        self.assertEqual(str(d), "-0.50")
        with self.assertRaises(ValueError):
            pi.encode_value("0.125", pi.parse_atomic("DECIMAL(10, 2)"), None, "c")


if __name__ == "__main__":
    unittest.main()
