#!/usr/bin/env python3
"""paimon_interop: PyPaimon side of the paimon-go interop harness.

Implements the CLI contract shared with interop/java/PaimonInterop.java:

    paimon_interop.py apply <warehouse> <plan.json>
    paimon_interop.py dump  <warehouse> <db.table> [--mode merged|audit]
                            [--snapshot N | --tag T] [--cols a,b]
    paimon_interop.py meta  <warehouse> <db.table> <snapshots|schemas|options|files|manifests|tags|partitions|buckets>

Values are encoded/decoded with canon-v1 (see /work/shared/docs/interop.md §A.3), always driven by the
PAIMON type of the column, never by the Arrow type alone.

Exit codes: 0 ok, 1 error (traceback on stderr), 2 usage error, 3 "unsupported: ..." (the installed
pypaimon cannot do what was asked; the harness should skip, not fail). stdout carries only the JSONL output.

Tested with pypaimon 2.1.0 and 1.4.2. With 1.4.2 the script degrades to exit 3 for: dump --snapshot
(1.4.2 silently ignores scan.snapshot-id), meta (no system tables), dumps of tables with renamed columns or
a non-deduplicate merge engine (1.4.2 reads them wrongly), dynamic-bucket PK writes, and a few format gaps.
Besides pypaimon's own gaps, apply also refuses layouts pypaimon writes but Java Paimon 1.4.2 cannot read
(see precheck_schema / rows_to_arrow), so a Python-written warehouse is always a valid Java-readable one.
"""

import json
import os
import re
import struct
import sys
import traceback
from decimal import Decimal

EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_UNSUPPORTED = 3

META_TABLES = ("snapshots", "schemas", "options", "files", "manifests", "tags", "partitions", "buckets")


class Unsupported(Exception):
    """Raised for anything the installed pypaimon cannot do; reported as exit 3."""


class UsageError(Exception):
    """Raised for bad command lines; reported as exit 2."""


class BadValue(ValueError):
    """A plan value that is not valid canon-v1 for its column type (names the column path)."""


# ---------------------------------------------------------------------------------------------------------
# Paimon type descriptor (our own, parsed from pypaimon's DataType objects / type strings)
# ---------------------------------------------------------------------------------------------------------

class PType:
    """A parsed Paimon logical type: root name plus the parameters canon-v1 needs."""

    __slots__ = ("root", "precision", "scale", "length", "elem", "key", "value", "fields", "text")

    def __init__(self, root, text, precision=None, scale=None, length=None, elem=None, key=None, value=None,
                 fields=None):
        self.root = root
        self.text = text
        self.precision = precision
        self.scale = scale
        self.length = length
        self.elem = elem
        self.key = key
        self.value = value
        self.fields = fields  # list of (name, PType) for ROW

    def __repr__(self):
        return self.text


_INT_ROOTS = {"TINYINT": (-(1 << 7), (1 << 7) - 1), "SMALLINT": (-(1 << 15), (1 << 15) - 1),
              "INT": (-(1 << 31), (1 << 31) - 1), "BIGINT": (-(1 << 63), (1 << 63) - 1)}
_STRING_ROOTS = ("CHAR", "VARCHAR")
_BINARY_ROOTS = ("BINARY", "VARBINARY")


def _opt_int(s, default):
    return int(s) if s is not None else default


def parse_atomic(text):
    """Parses an atomic Paimon type string (as found in schema JSON / pypaimon AtomicType.type)."""
    t = re.sub(r"\s+", " ", text.strip().upper())
    t = re.sub(r" NOT NULL$", "", t)
    t = re.sub(r" NULL$", "", t)
    m = re.fullmatch(r"TIMESTAMP(?:\((\d+)\))? WITH LOCAL TIME ZONE", t) or \
        re.fullmatch(r"TIMESTAMP_LTZ(?:\((\d+)\))?", t)
    if m:
        return PType("TIMESTAMP_LTZ", text, precision=_opt_int(m.group(1), 6))
    m = re.fullmatch(r"TIMESTAMP(?:\((\d+)\))?(?: WITHOUT TIME ZONE)?", t)
    if m:
        return PType("TIMESTAMP", text, precision=_opt_int(m.group(1), 6))
    m = re.fullmatch(r"TIME(?:\((\d+)\))?(?: WITHOUT TIME ZONE)?", t)
    if m:
        return PType("TIME", text, precision=_opt_int(m.group(1), 0))
    m = re.fullmatch(r"(?:DECIMAL|NUMERIC|DEC)(?:\((\d+)(?:, ?(\d+))?\))?", t)
    if m:
        return PType("DECIMAL", text, precision=_opt_int(m.group(1), 10), scale=_opt_int(m.group(2), 0))
    m = re.fullmatch(r"(CHAR|VARCHAR|BINARY|VARBINARY)(?:\((\d+)\))?", t)
    if m:
        return PType(m.group(1), text, length=_opt_int(m.group(2), 1))
    if t == "STRING":
        return PType("VARCHAR", text, length=2147483647)
    if t == "BYTES":
        return PType("VARBINARY", text, length=2147483647)
    if t == "INTEGER":
        return PType("INT", text)
    if t in ("BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "DATE", "VARIANT", "BLOB"):
        return PType(t, text)
    raise ValueError("unknown Paimon type %r" % text)


def ptype_of(dt):
    """Converts a pypaimon DataType (AtomicType/ArrayType/MapType/RowType/...) into a PType."""
    cls = type(dt).__name__
    if cls == "AtomicType":
        return parse_atomic(dt.type)
    if cls == "ArrayType":
        return PType("ARRAY", str(dt), elem=ptype_of(dt.element))
    if cls == "MultisetType":
        return PType("MULTISET", str(dt), elem=ptype_of(dt.element))
    if cls == "MapType":
        return PType("MAP", str(dt), key=ptype_of(dt.key), value=ptype_of(dt.value))
    if cls == "RowType":
        return PType("ROW", str(dt), fields=[(f.name, ptype_of(f.type)) for f in dt.fields])
    if cls == "VectorType":
        return PType("VECTOR", str(dt), elem=ptype_of(dt.element))
    raise ValueError("unknown pypaimon data type %r" % (dt,))


def unsupported_roots(pt, out):
    """Collects type roots that canon-v1 / pypaimon cannot carry (VARIANT, BLOB, VECTOR, MULTISET)."""
    if pt.root in ("VARIANT", "BLOB", "VECTOR", "MULTISET"):
        out.add(pt.root)
    for child in (pt.elem, pt.key, pt.value):
        if child is not None:
            unsupported_roots(child, out)
    for _, f in pt.fields or ():
        unsupported_roots(f, out)
    return out


def contains_root(pt, roots, pred=None):
    if pt.root in roots and (pred is None or pred(pt)):
        return True
    for child in (pt.elem, pt.key, pt.value):
        if child is not None and contains_root(child, roots, pred):
            return True
    return any(contains_root(f, roots, pred) for _, f in pt.fields or ())


# ---------------------------------------------------------------------------------------------------------
# canon-v1: integer calendar arithmetic (no datetime, so nanoseconds and any year stay exact)
# ---------------------------------------------------------------------------------------------------------

NANOS_PER_DAY = 86400 * 10 ** 9
_UNIT_NANOS = {"s": 10 ** 9, "ms": 10 ** 6, "us": 10 ** 3, "ns": 1}


def days_from_civil(y, m, d):
    """Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm, integer only)."""
    y -= m <= 2
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def civil_from_days(z):
    """Inverse of days_from_civil: (year, month, day)."""
    z += 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    y = yoe + era * 400
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + (3 if mp < 10 else -9)
    return y + (m <= 2), m, d


def fmt_date(days):
    y, m, d = civil_from_days(days)
    return "%04d-%02d-%02d" % (y, m, d)


def fmt_epoch_nanos(ns):
    days, nod = divmod(ns, NANOS_PER_DAY)
    secs, frac = divmod(nod, 10 ** 9)
    return "%sT%02d:%02d:%02d.%09d" % (fmt_date(days), secs // 3600, secs // 60 % 60, secs % 60, frac)


def fmt_time_millis(ms):
    if not 0 <= ms < 86400000:
        raise ValueError("TIME value %d ms out of range" % ms)
    secs, milli = divmod(ms, 1000)
    return "%02d:%02d:%02d.%03d" % (secs // 3600, secs // 60 % 60, secs % 60, milli)


_DATE_RE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_TIME_RE = re.compile(r"(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?")
_TS_RE = re.compile(r"(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z?)")


def parse_date(s):
    m = _DATE_RE.fullmatch(s)
    if not m:
        raise ValueError("bad DATE %r" % s)
    return days_from_civil(int(m.group(1)), int(m.group(2)), int(m.group(3)))


def parse_time_millis(s):
    m = _TIME_RE.fullmatch(s)
    if not m:
        raise ValueError("bad TIME %r" % s)
    frac = (m.group(4) or "").ljust(9, "0")
    return (int(m.group(1)) * 3600 + int(m.group(2)) * 60 + int(m.group(3))) * 1000 + int(frac) // 10 ** 6


def parse_ts_nanos(s, ltz):
    m = _TS_RE.fullmatch(s)
    if not m or (m.group(8) == "Z") != ltz:
        raise ValueError("bad %s %r" % ("TIMESTAMP_LTZ (needs trailing Z)" if ltz else "TIMESTAMP", s))
    days = days_from_civil(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    secs = int(m.group(4)) * 3600 + int(m.group(5)) * 60 + int(m.group(6))
    frac = int((m.group(7) or "").ljust(9, "0"))
    return days * NANOS_PER_DAY + secs * 10 ** 9 + frac


def fmt_decimal(d, scale):
    """Plain notation with exactly `scale` fraction digits, computed from the exact digits of d."""
    sign, digits, exp = d.as_tuple()
    if not isinstance(exp, int):
        raise ValueError("non-finite decimal %r" % d)
    unscaled = int("".join(map(str, digits)) or "0")
    shift = exp + scale
    if shift >= 0:
        unscaled *= 10 ** shift
    else:
        q, r = divmod(unscaled, 10 ** -shift)
        if r:
            raise ValueError("decimal %s has more than %d fraction digits" % (d, scale))
        unscaled = q
    text = str(unscaled)
    if scale > 0:
        text = text.rjust(scale + 1, "0")
        text = text[:-scale] + "." + text[-scale:]
    if sign and unscaled != 0:
        text = "-" + text
    return text


def canon_json(v):
    return json.dumps(v, separators=(",", ":"), ensure_ascii=False, sort_keys=True)


# ---------------------------------------------------------------------------------------------------------
# canon-v1 -> Python values accepted by pyarrow for pypaimon's Arrow mapping of each Paimon type
# ---------------------------------------------------------------------------------------------------------

def encode_value(v, pt, arrow_type, path):
    """Converts one canon-v1 value into the Python value pyarrow needs for `arrow_type`."""
    if v is None:
        return None
    r = pt.root
    try:
        if r == "BOOLEAN":
            if not isinstance(v, bool):
                raise ValueError("expected true/false")
            return v
        if r in _INT_ROOTS:
            if isinstance(v, bool) or not isinstance(v, int):
                raise ValueError("expected a JSON integer")
            lo, hi = _INT_ROOTS[r]
            if not lo <= v <= hi:
                raise ValueError("out of range")
            return v
        if r in ("FLOAT", "DOUBLE"):
            pfx, fmt, width = ("f32:", ">f", 8) if r == "FLOAT" else ("f64:", ">d", 16)
            if not isinstance(v, str) or not v.startswith(pfx):
                raise ValueError("expected %s<hex bits>" % pfx)
            body = v[len(pfx):]
            if body == "nan":
                return float("nan")
            if len(body) != width:
                raise ValueError("expected %d hex digits" % width)
            return struct.unpack(fmt, bytes.fromhex(body))[0]
        if r == "DECIMAL":
            if not isinstance(v, str) or not re.fullmatch(r"-?\d+(\.\d+)?", v):
                raise ValueError("expected a plain decimal string")
            # Decimal(str) is exact whatever the context precision; re-rendering with exactly `scale`
            # digits (which also rejects extra digits) gives the exponent -scale pyarrow expects.
            return Decimal(fmt_decimal(Decimal(v), pt.scale))
        if r in _STRING_ROOTS:
            if not isinstance(v, str):
                raise ValueError("expected a string")
            return v
        if r in _BINARY_ROOTS:
            if not isinstance(v, str) or not re.fullmatch(r"(?:[0-9a-f]{2})*", v):
                raise ValueError("expected lowercase hex")
            return bytes.fromhex(v)
        if r == "DATE":
            return parse_date(v)
        if r == "TIME":
            ms = parse_time_millis(v)
            unit = arrow_type.unit
            return ms // 1000 if unit == "s" else ms * (_UNIT_NANOS["ms"] // _UNIT_NANOS[unit])
        if r in ("TIMESTAMP", "TIMESTAMP_LTZ"):
            ns = parse_ts_nanos(v, r == "TIMESTAMP_LTZ")
            # floor to the storage unit, as Java's Timestamp.getMillisecond()/toMicros() do
            raw = ns // _UNIT_NANOS[arrow_type.unit]
            if not -(1 << 63) <= raw < (1 << 63):
                raise ValueError("outside the int64 range of Arrow unit %s" % arrow_type.unit)
            return raw
        if r == "ARRAY":
            if not isinstance(v, list):
                raise ValueError("expected a JSON array")
            et = arrow_type.value_type
            return [encode_value(e, pt.elem, et, "%s[%d]" % (path, i)) for i, e in enumerate(v)]
        if r == "MAP":
            if not isinstance(v, list) or not all(isinstance(p, list) and len(p) == 2 for p in v):
                raise ValueError("expected a JSON array of [key, value] pairs")
            kt, it = arrow_type.key_type, arrow_type.item_type
            return [(encode_value(k, pt.key, kt, path + ".key"), encode_value(x, pt.value, it, path + ".value"))
                    for k, x in v]
        if r == "ROW":
            if not isinstance(v, dict):
                raise ValueError("expected a JSON object")
            names = [n for n, _ in pt.fields]
            extra = set(v) - set(names)
            if extra:
                raise ValueError("unknown nested fields %s" % sorted(extra))
            out = {}
            for i, (name, ft) in enumerate(pt.fields):
                out[name] = encode_value(v.get(name), ft, arrow_type.field(i).type, path + "." + name)
            return out
    except BadValue:
        raise
    except (ValueError, TypeError, struct.error) as e:
        raise BadValue("column %s (%s): bad canon-v1 value %r: %s" % (path, pt.text, v, e)) from None
    raise Unsupported("type %s" % pt.text)


def null_array_element(v, pt):
    """True if canon value v (of type pt) holds an ARRAY with a null element anywhere inside."""
    if v is None:
        return False
    if pt.root == "ARRAY":
        return any(e is None or null_array_element(e, pt.elem) for e in v)
    if pt.root == "MAP":
        return any(null_array_element(k, pt.key) or null_array_element(x, pt.value) for k, x in v)
    if pt.root == "ROW":
        return any(null_array_element(v.get(n), ft) for n, ft in pt.fields)
    return False


def null_map(v, pt):
    """True if canon value v (of type pt) is or holds a null MAP."""
    if pt.root == "MAP":
        return v is None or any(null_map(k, pt.key) or null_map(x, pt.value) for k, x in v)
    if v is None:
        return False
    if pt.root == "ARRAY":
        return any(null_map(e, pt.elem) for e in v)
    if pt.root == "ROW":
        return any(null_map(v.get(n), ft) for n, ft in pt.fields)
    return False


def pre_epoch_sub_milli(v, pt):
    """True if canon value v holds a TIMESTAMP(p>3) before 1970 with a non-zero sub-millisecond part."""
    if v is None:
        return False
    if pt.root in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        ns = parse_ts_nanos(v, pt.root == "TIMESTAMP_LTZ")
        return pt.precision > 3 and ns < 0 and ns % 10 ** 6 != 0
    if pt.root == "ARRAY":
        return any(pre_epoch_sub_milli(e, pt.elem) for e in v)
    if pt.root == "MAP":
        return any(pre_epoch_sub_milli(k, pt.key) or pre_epoch_sub_milli(x, pt.value) for k, x in v)
    if pt.root == "ROW":
        return any(pre_epoch_sub_milli(v.get(n), ft) for n, ft in pt.fields)
    return False


def rows_to_arrow(table, rows):
    """Builds a pyarrow Table in the table's own Arrow schema (pypaimon's mapping) from canon-v1 rows."""
    import pyarrow as pa
    from pypaimon.schema.data_types import PyarrowFieldParser
    fields = table.table_schema.fields
    schema = PyarrowFieldParser.from_paimon_schema(fields)
    names = [f.name for f in fields]
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            raise ValueError("row %d is not a JSON object" % i)
        extra = set(row) - set(names)
        if extra:
            raise ValueError("row %d has unknown columns %s (schema: %s)" % (i, sorted(extra), names))
    fmt = str(table.options.options.to_map().get("file.format", "parquet")).lower()
    avro = fmt == "avro"
    old_parquet = fmt == "parquet" and _version_tuple() < (2, 0, 0)
    arrays = []
    for f, af in zip(fields, schema):
        pt = ptype_of(f.type)
        if fmt == "orc" and any(pre_epoch_sub_milli(row.get(f.name), pt) for row in rows):
            # Observed: Java Paimon 1.4.2 fails (IllegalArgumentException in Timestamp.fromEpochMillis via
            # OrcTimestampColumnVector) on such values in ORC files written by pyarrow.
            raise Unsupported("orc writer: TIMESTAMP before 1970 with sub-millisecond digits in column %s "
                              "(Java Paimon cannot read pyarrow's encoding)" % f.name)
        if old_parquet and any(null_map(row.get(f.name), pt) for row in rows):
            # Observed: pypaimon 1.4.2 parquet files hold an empty map where a null MAP was written.
            raise Unsupported("parquet writer of pypaimon %s: null MAP in column %s (written as empty map)"
                              % (pypaimon_version(), f.name))
        if avro and any(null_array_element(row.get(f.name), pt) for row in rows):
            # PyarrowFieldParser.to_avro_type writes array items without a null union, so fastavro
            # rejects a null element.
            raise Unsupported("avro writer: null ARRAY element in column %s" % f.name)
        values = [encode_value(row.get(f.name), pt, af.type, f.name) for row in rows]
        arrays.append(pa.array(values, type=af.type))
    return pa.Table.from_arrays(arrays, schema=schema)


# ---------------------------------------------------------------------------------------------------------
# Arrow -> canon-v1, driven by the Paimon type
# ---------------------------------------------------------------------------------------------------------

def _valid_mask(arr):
    if arr.null_count == 0:
        return None
    return arr.is_valid().to_pylist()


def _with_nulls(values, mask):
    if mask is None:
        return values
    return [v if ok else None for v, ok in zip(values, mask)]


def _ints(arr, width):
    import pyarrow as pa
    raw = arr.view(pa.int64() if width == 64 else pa.int32())
    return raw.to_pylist()


def render_array(arr, pt):
    """Renders every element of a pyarrow Array (or ChunkedArray) as canon-v1 values for Paimon type pt."""
    import pyarrow as pa
    import pyarrow.types as pat
    if isinstance(arr, pa.ChunkedArray):
        out = []
        for chunk in arr.chunks:
            out.extend(render_array(chunk, pt))
        return out
    if pat.is_dictionary(arr.type):
        arr = arr.dictionary_decode()
    r = pt.root
    mask = _valid_mask(arr)
    at = arr.type
    if r == "BOOLEAN" or r in _INT_ROOTS:
        return arr.to_pylist()
    if r in ("FLOAT", "DOUBLE"):
        pfx, fmt = ("f32:", ">f") if r == "FLOAT" else ("f64:", ">d")
        return [None if x is None else (pfx + "nan" if x != x else pfx + struct.pack(fmt, x).hex())
                for x in arr.to_pylist()]
    if r == "DECIMAL":
        return [None if x is None else fmt_decimal(x, pt.scale) for x in arr.to_pylist()]
    if r in _STRING_ROOTS:
        return [x.decode("utf-8") if isinstance(x, bytes) else x for x in arr.to_pylist()]
    if r in _BINARY_ROOTS:
        return [None if x is None else x.hex() for x in arr.to_pylist()]
    if r == "DATE":
        if pat.is_date32(at):
            days = _ints(arr, 32)
        elif pat.is_date64(at):
            days = [None if x is None else x // 86400000 for x in _ints(arr, 64)]
        else:
            raise ValueError("DATE column read as Arrow %s" % at)
        return _with_nulls([None if x is None else fmt_date(x) for x in days], mask)
    if r == "TIME":
        if pat.is_time32(at):
            raw = _ints(arr, 32)
        elif pat.is_time64(at):
            raw = _ints(arr, 64)
        else:
            raise ValueError("TIME column read as Arrow %s" % at)
        div = _UNIT_NANOS["ms"]
        mul = _UNIT_NANOS[at.unit]
        return _with_nulls([None if x is None else fmt_time_millis(x * mul // div) for x in raw], mask)
    if r in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        if not pat.is_timestamp(at):
            raise ValueError("%s column read as Arrow %s" % (r, at))
        mul = _UNIT_NANOS[at.unit]
        z = "Z" if r == "TIMESTAMP_LTZ" else ""
        return _with_nulls([None if x is None else fmt_epoch_nanos(x * mul) + z for x in _ints(arr, 64)], mask)
    if r == "ARRAY":
        if pat.is_fixed_size_list(at):
            child = render_array(arr.flatten(), pt.elem)
            n = at.list_size
            return _with_nulls([child[i * n:(i + 1) * n] for i in range(len(arr))], mask)
        child = render_array(arr.values, pt.elem)
        offs = arr.offsets.to_pylist()
        return _with_nulls([child[offs[i]:offs[i + 1]] for i in range(len(arr))], mask)
    if r == "MAP":
        keys = render_array(arr.keys, pt.key)
        items = render_array(arr.items, pt.value)
        offs = arr.offsets.to_pylist()
        out = []
        for i in range(len(arr)):
            pairs = [[keys[j], items[j]] for j in range(offs[i], offs[i + 1])]
            pairs.sort(key=lambda p: canon_json(p[0]).encode("utf-8"))
            out.append(pairs)
        return _with_nulls(out, mask)
    if r == "ROW":
        children = arr.flatten()
        arrow_names = [at.field(i).name for i in range(at.num_fields)]
        cols = []
        for i, (name, ft) in enumerate(pt.fields):
            idx = arrow_names.index(name) if name in arrow_names else i
            cols.append((name, render_array(children[idx], ft)))
        out = [{name: col[i] for name, col in cols} for i in range(len(arr))]
        return _with_nulls(out, mask)
    raise Unsupported("unsupported type %s" % pt.text)


def render_table(arrow_table, fields):
    """Renders a pyarrow Table as sorted canon-v1 JSONL bytes; fields = [(name, PType)] in output order."""
    for name, pt in fields:
        bad = unsupported_roots(pt, set())
        if bad:
            raise Unsupported("unsupported type %s in column %s" % (pt.text, name))
    n = arrow_table.num_rows
    cols = []
    for name, pt in fields:
        if name not in arrow_table.column_names:
            raise ValueError("column %s missing from the read result %s" % (name, arrow_table.column_names))
        col = render_array(arrow_table.column(name), pt)
        if len(col) != n:
            raise ValueError("column %s rendered %d values for %d rows" % (name, len(col), n))
        cols.append((name, col))
    lines = [json.dumps({name: col[i] for name, col in cols}, separators=(",", ":"), ensure_ascii=False)
             .encode("utf-8") for i in range(n)]
    lines.sort()
    return b"".join(line + b"\n" for line in lines)


# ---------------------------------------------------------------------------------------------------------
# pypaimon capability detection (2.1.0 is the full target; 1.4.2 degrades to exit 3)
# ---------------------------------------------------------------------------------------------------------

def pypaimon_version():
    try:
        from importlib.metadata import version
        return version("pypaimon")
    except Exception:  # pragma: no cover
        return "unknown"


def _version_tuple():
    m = re.match(r"(\d+)\.(\d+)\.(\d+)", pypaimon_version())
    return tuple(int(x) for x in m.groups()) if m else (0, 0, 0)


def has_system_tables():
    try:
        import pypaimon.table.system.system_table_loader  # noqa: F401
        return True
    except ImportError:
        return False


def has_snapshot_time_travel():
    # pypaimon 1.4.2 silently ignores scan.snapshot-id and reads the latest snapshot; 2.x resolves it in
    # pypaimon.snapshot.time_travel_util.
    try:
        from pypaimon.snapshot.time_travel_util import SCAN_KEYS
        return "scan.snapshot-id" in SCAN_KEYS
    except ImportError:
        return False


def _catalog_implements(catalog, name):
    from pypaimon.catalog.catalog import Catalog
    impl = getattr(type(catalog), name, None)
    base = getattr(Catalog, name, None)
    return impl is not None and impl is not base


def has_alter(catalog):
    try:
        import pypaimon.schema.schema_change  # noqa: F401
    except ImportError:
        return False
    return _catalog_implements(catalog, "alter_table")


def has_drop_partitions():
    # Catalog.drop_partitions of the filesystem catalog (2.x) is a thin wrapper over this commit method,
    # which 1.4.2 already has.
    from pypaimon.write.table_commit import BatchTableCommit
    return hasattr(BatchTableCommit, "truncate_partitions")


# ---------------------------------------------------------------------------------------------------------
# apply
# ---------------------------------------------------------------------------------------------------------

SUPPORTED_OPS = ("create", "write", "overwrite", "tag", "deleteTag", "rollback", "alter", "dropPartition")
ALTER_KINDS = ("addColumn", "dropColumn", "renameColumn", "updateColumnType", "setOption", "removeOption")


def new_catalog(warehouse):
    from pypaimon import CatalogFactory
    if not os.path.isabs(warehouse):
        raise UsageError("warehouse must be an absolute path: %r" % warehouse)
    return CatalogFactory.create({"warehouse": warehouse})


def plan_schema(plan):
    from pypaimon import Schema
    from pypaimon.schema.data_types import DataField
    s = plan.get("schema")
    if not isinstance(s, dict):
        raise ValueError("plan has no schema object")
    fields = [DataField.from_dict(f) for f in s.get("fields") or []]
    return Schema(fields=fields, partition_keys=list(s.get("partitionKeys") or []),
                  primary_keys=list(s.get("primaryKeys") or []), options=dict(s.get("options") or {}),
                  comment=s.get("comment"))


def precheck_schema(schema):
    """Refuses (exit 3) table layouts and types the installed pypaimon is known not to write correctly, or
    to write in a layout Java Paimon 1.4.2 cannot read. `schema` is a pypaimon Schema or TableSchema."""
    opts = schema.options
    fmt = str(opts.get("file.format", "parquet")).lower()
    for f in schema.fields:
        pt = ptype_of(f.type)
        bad = unsupported_roots(pt, set())
        if bad:
            raise Unsupported("type %s of column %s (pypaimon/canon-v1 cannot carry %s)"
                              % (pt.text, f.name, ",".join(sorted(bad))))
        if fmt == "avro":
            # pypaimon's PyarrowFieldParser.to_avro_type has no MAP branch and no nanosecond timestamps.
            if contains_root(pt, ("MAP",)):
                raise Unsupported("avro writer: MAP column %s (pypaimon to_avro_type has no map mapping)"
                                  % f.name)
            if contains_root(pt, ("TIMESTAMP", "TIMESTAMP_LTZ"), lambda t: t.precision > 6):
                raise Unsupported("avro writer: TIMESTAMP precision > 6 in column %s" % f.name)
            if _version_tuple() < (2, 0, 0) and \
                    contains_root(pt, ("TIMESTAMP", "TIMESTAMP_LTZ"), lambda t: t.precision == 0):
                # 1.4.2's to_avro_type only knows ms/us; TIMESTAMP(0) maps to Arrow unit "s".
                raise Unsupported("avro writer of pypaimon %s: TIMESTAMP(0) column %s"
                                  % (pypaimon_version(), f.name))
        if fmt == "parquet" and contains_root(pt, ("TIMESTAMP", "TIMESTAMP_LTZ"), lambda t: t.precision > 6):
            # pyarrow writes timestamp[ns] as INT64 nanos; Java Paimon 1.4.2 writes and expects INT96 for
            # precision > 6 (ParquetSchemaConverter.createTimestampWithLogicalType) and misreads the file
            # (wrong values for TIMESTAMP, an exception for TIMESTAMP_LTZ).
            raise Unsupported("parquet writer: TIMESTAMP precision > 6 in column %s (pypaimon writes INT64 "
                              "nanos, Java Paimon expects INT96)" % f.name)
        if fmt == "orc" and contains_root(pt, ("TIME",)):
            raise Unsupported("orc writer: TIME column %s (pyarrow ORC cannot write time32)" % f.name)
    if schema.primary_keys:
        bucket = int(opts.get("bucket", "-1"))
        if bucket == -1 and not set(schema.partition_keys) <= set(schema.primary_keys):
            raise Unsupported("cross-partition-update PK table (bucket -1, partition keys not in PK)")
        if bucket == -1 and _version_tuple() < (2, 0, 0):
            raise Unsupported("dynamic-bucket PK write in pypaimon %s (no persisted hash index)"
                              % pypaimon_version())
        if opts.get("deletion-vectors.enabled", "false").lower() == "true":
            raise Unsupported("PK write with deletion vectors (pypaimon writes level-0 only, no lookup)")
        engine = opts.get("merge-engine", "deduplicate")
        if engine != "deduplicate" and _version_tuple() < (2, 0, 0):
            raise Unsupported("merge-engine %s in pypaimon %s" % (engine, pypaimon_version()))


def precheck_plan(plan, catalog):
    """Validates the whole plan before touching the warehouse, so an unsupported op leaves nothing behind."""
    ops = plan.get("ops")
    if not isinstance(ops, list):
        raise ValueError("plan has no ops list")
    for i, op in enumerate(ops):
        name = op.get("op")
        if name not in SUPPORTED_OPS:
            raise Unsupported("%s (op #%d; pypaimon %s has no %s)" % (name, i, pypaimon_version(),
                                                                      "API for it"))
        if name == "write":
            kinds = op.get("kinds")
            if kinds is not None:
                if len(kinds) != len(op.get("rows") or []):
                    raise ValueError("op #%d: kinds has %d entries for %d rows"
                                     % (i, len(kinds), len(op.get("rows") or [])))
                other = sorted(set(k for k in kinds if k != "+I"))
                if other:
                    raise Unsupported("write kinds %s (op #%d; pypaimon writes +I only)" % (",".join(other), i))
        if name == "overwrite" and op.get("kinds") and any(k != "+I" for k in op["kinds"]):
            raise Unsupported("overwrite kinds other than +I (op #%d)" % i)
        if name == "alter":
            if not has_alter(catalog):
                raise Unsupported("alter (op #%d; pypaimon %s has no alter_table)" % (i, pypaimon_version()))
            for ch in op.get("changes") or []:
                kinds = [k for k in ch if k in ALTER_KINDS]
                if len(kinds) != 1 or len(ch) != 1:
                    raise Unsupported("alter change %s (op #%d)" % (json.dumps(ch), i))
        if name == "dropPartition" and not has_drop_partitions():
            raise Unsupported("dropPartition (op #%d; pypaimon %s has no drop_partitions)"
                              % (i, pypaimon_version()))
        if name == "rollback" and ("snapshot" in op) == ("tag" in op):
            raise ValueError("op #%d: rollback needs exactly one of snapshot/tag" % i)


def typed_partition(table, spec):
    """Converts a Java-style partition spec (all strings) into the Python values pypaimon compares with
    partition statistics: pypaimon 2.1.0 builds `equal(key, value)` predicates from the spec verbatim, so
    a string for an INT partition fails with "'<=' not supported between 'int' and 'str'"."""
    import datetime
    if spec is None:
        return None
    types = {f.name: ptype_of(f.type) for f in table.table_schema.fields}
    default_name = table.options.options.to_map().get("partition.default-name", "__DEFAULT_PARTITION__")
    out = {}
    for k, v in spec.items():
        if k not in types:
            raise ValueError("partition spec key %r is not a column" % k)
        v = None if v is None else str(v)
        r = types[k].root
        if v is None or v == default_name:
            out[k] = v
        elif r == "BOOLEAN":
            out[k] = {"true": True, "false": False}[v.lower()]
        elif r in _INT_ROOTS:
            out[k] = int(v)
        elif r in ("FLOAT", "DOUBLE"):
            out[k] = float(v)
        elif r == "DECIMAL":
            out[k] = Decimal(v)
        elif r == "DATE":
            out[k] = datetime.date.fromisoformat(v)
        elif r == "TIME":
            out[k] = datetime.time.fromisoformat(v)
        elif r in ("TIMESTAMP", "TIMESTAMP_LTZ"):
            out[k] = datetime.datetime.fromisoformat(v.replace(" ", "T").rstrip("Z"))
        elif r in _STRING_ROOTS:
            out[k] = v
        else:
            raise Unsupported("partition spec on %s column %s" % (types[k].text, k))
    return out


def _commit_rows(table, rows, overwrite_partition=None, overwrite=False):
    """ONE batch write + ONE commit, like Java's BatchWriteBuilder flow."""
    precheck_schema(table.table_schema)  # again: an alter may have added a column pypaimon cannot write
    wb = table.new_batch_write_builder()
    if overwrite:
        wb = wb.overwrite(overwrite_partition)
    tw = wb.new_write()
    tc = wb.new_commit()
    try:
        if rows:
            tw.write_arrow(rows_to_arrow(table, rows))
        tc.commit(tw.prepare_commit())
    finally:
        tw.close()
        tc.close()


def _alter_changes(changes):
    from pypaimon.schema.data_types import DataTypeParser
    from pypaimon.schema.schema_change import SchemaChange
    out = []
    for ch in changes:
        (kind, arg), = ch.items()
        if kind == "addColumn":
            out.append(SchemaChange.add_column(arg["name"], DataTypeParser.parse_data_type(arg["type"]),
                                               arg.get("comment")))
        elif kind == "dropColumn":
            out.append(SchemaChange.drop_column(arg))
        elif kind == "renameColumn":
            out.append(SchemaChange.rename_column(arg["from"], arg["to"]))
        elif kind == "updateColumnType":
            out.append(SchemaChange.update_column_type(arg["name"], DataTypeParser.parse_data_type(arg["type"])))
        elif kind == "setOption":
            out.append(SchemaChange.set_option(arg["key"], str(arg["value"])))
        elif kind == "removeOption":
            out.append(SchemaChange.remove_option(arg))
    return out


def cmd_apply(warehouse, plan_path):
    with open(plan_path, "rb") as fh:
        plan = json.loads(fh.read().decode("utf-8"))
    db, tbl = plan.get("db"), plan.get("table")
    if not db or not tbl:
        raise ValueError("plan needs db and table")
    ident = "%s.%s" % (db, tbl)
    catalog = new_catalog(warehouse)
    precheck_plan(plan, catalog)
    if any(op.get("op") == "create" for op in plan["ops"]):
        precheck_schema(plan_schema(plan))
    elif any(op.get("op") in ("write", "overwrite") for op in plan["ops"]):
        precheck_schema(catalog.get_table(ident).table_schema)  # a table made earlier (maybe by Java)
    for op in plan["ops"]:
        name = op["op"]
        if name == "create":
            catalog.create_database(db, True)
            catalog.create_table(ident, plan_schema(plan), False)
            continue
        table = catalog.get_table(ident)  # fresh: picks up schema changes and new snapshots
        if name == "write":
            _commit_rows(table, op.get("rows") or [])
        elif name == "overwrite":
            _commit_rows(table, op.get("rows") or [], typed_partition(table, op.get("partition")), overwrite=True)
        elif name == "tag":
            snap = op.get("snapshot")
            table.create_tag(op["name"], snapshot_id=int(snap) if snap is not None else None)
        elif name == "deleteTag":
            table.delete_tag(op["name"])
        elif name == "rollback":
            table.rollback_to(int(op["snapshot"]) if "snapshot" in op else str(op["tag"]))
        elif name == "alter":
            catalog.alter_table(ident, _alter_changes(op.get("changes") or []))
        elif name == "dropPartition":
            # Java: catalog.dropPartitions -> a truncate-partitions OVERWRITE commit; same here.
            tc = table.new_batch_write_builder().new_commit()
            try:
                tc.truncate_partitions([typed_partition(table, op["partition"])])
            finally:
                tc.close()
    return b""


# ---------------------------------------------------------------------------------------------------------
# dump / meta
# ---------------------------------------------------------------------------------------------------------

def renamed_columns(table):
    """Top-level field ids whose name differs between schema versions, as 'old->new' strings."""
    names = {}
    for sid in range(0, table.table_schema.id + 1):
        sch = table.schema_manager.get_schema(sid)
        for f in sch.fields if sch is not None else ():
            names.setdefault(f.id, [])
            if f.name not in names[f.id]:
                names[f.id].append(f.name)
    return sorted("->".join(v) for v in names.values() if len(v) > 1)


def cmd_dump(warehouse, ident, mode="merged", snapshot=None, tag=None, cols=None):
    if mode == "audit":
        raise Unsupported("dump --mode audit (pypaimon %s has no $audit_log system table)" % pypaimon_version())
    if mode != "merged":
        raise UsageError("unknown --mode %r" % mode)
    catalog = new_catalog(warehouse)
    table = catalog.get_table(ident)
    if snapshot is not None:
        if not has_snapshot_time_travel():
            raise Unsupported("--snapshot (pypaimon %s ignores scan.snapshot-id)" % pypaimon_version())
        sid = int(snapshot)
        if table.snapshot_manager().get_snapshot_by_id(sid) is None:
            raise ValueError("snapshot %d does not exist" % sid)
        table = table.copy({"scan.snapshot-id": str(sid)})
    elif tag is not None:
        if tag not in table.list_tags():
            raise ValueError("tag %r does not exist" % tag)
        table = table.copy({"scan.tag-name": tag})
    if _version_tuple() < (2, 0, 0):
        engine = table.options.options.to_map().get("merge-engine", "deduplicate")
        if table.primary_keys and engine != "deduplicate":
            raise Unsupported("merge-engine %s read (pypaimon %s always merges with deduplicate)"
                              % (engine, pypaimon_version()))
        renamed = renamed_columns(table)
        if renamed:
            raise Unsupported("dump of a table with renamed columns %s (pypaimon %s matches old data files "
                              "by column name, not field id)" % (renamed, pypaimon_version()))
    fields = [(f.name, ptype_of(f.type)) for f in table.fields]
    by_name = dict(fields)
    if cols:
        missing = [c for c in cols if c not in by_name]
        if missing:
            raise ValueError("unknown columns %s (schema: %s)" % (missing, [n for n, _ in fields]))
        fields = [(c, by_name[c]) for c in cols]
    for name, pt in fields:
        if unsupported_roots(pt, set()):
            raise Unsupported("unsupported type %s in column %s" % (pt.text, name))
    rb = table.new_read_builder()
    if cols and _version_tuple() >= (2, 0, 0):
        rb = rb.with_projection(list(cols))
    # else: pypaimon 1.4.2 projection of PK tables returns shifted/empty columns, so read whole rows and
    # let render_table pick the requested columns by name (same output, no pushdown).
    splits = rb.new_scan().plan().splits()
    result = rb.new_read().to_arrow(splits)
    return render_table(result, fields)


def cmd_meta(warehouse, ident, name):
    if name not in META_TABLES:
        raise UsageError("unknown meta table %r (want one of %s)" % (name, ", ".join(META_TABLES)))
    if not has_system_tables():
        raise Unsupported("meta %s (pypaimon %s has no system tables)" % (name, pypaimon_version()))
    catalog = new_catalog(warehouse)
    st = catalog.get_table("%s$%s" % (ident, name))
    fields = [(f.name, ptype_of(f.type)) for f in st.row_type().fields]
    rb = st.new_read_builder()
    result = rb.new_read().to_arrow(rb.new_scan().plan().splits())
    return render_table(result, fields)


# ---------------------------------------------------------------------------------------------------------
# CLI
# ---------------------------------------------------------------------------------------------------------

USAGE = """usage:
  paimon_interop.py apply <warehouse> <plan.json>
  paimon_interop.py dump  <warehouse> <db.table> [--mode merged|audit] [--snapshot N | --tag T] [--cols a,b]
  paimon_interop.py meta  <warehouse> <db.table> <%s>
  paimon_interop.py batch <script>   (lines: <out>\t<command>\t<args...>)
  paimon_interop.py version""" % "|".join(META_TABLES)


def run(argv):
    if not argv:
        raise UsageError("missing command")
    cmd, args = argv[0], argv[1:]
    if cmd == "apply":
        if len(args) != 2:
            raise UsageError("apply takes <warehouse> <plan.json>")
        return cmd_apply(args[0], args[1])
    if cmd == "dump":
        if len(args) < 2:
            raise UsageError("dump takes <warehouse> <db.table> [flags]")
        opts = {"mode": "merged", "snapshot": None, "tag": None, "cols": None}
        rest = args[2:]
        i = 0
        while i < len(rest):
            flag = rest[i]
            if flag not in ("--mode", "--snapshot", "--tag", "--cols") or i + 1 >= len(rest):
                raise UsageError("bad dump flag %r" % flag)
            opts[flag[2:]] = rest[i + 1]
            i += 2
        if opts["snapshot"] is not None and opts["tag"] is not None:
            raise UsageError("--snapshot and --tag are exclusive")
        cols = [c for c in opts["cols"].split(",")] if opts["cols"] else None
        return cmd_dump(args[0], args[1], opts["mode"], opts["snapshot"], opts["tag"], cols)
    if cmd == "meta":
        if len(args) != 3:
            raise UsageError("meta takes <warehouse> <db.table> <name>")
        return cmd_meta(args[0], args[1], args[2])
    if cmd == "batch":
        if len(args) != 1:
            raise UsageError("batch takes <script>")
        return cmd_batch(args[0])
    if cmd == "version":
        return ("pypaimon %s\n" % pypaimon_version()).encode("utf-8")
    raise UsageError("unknown command %r" % cmd)


def cmd_batch(script):
    """Runs many dump/meta/apply commands in this process, in order, as the Java program's batch does: each
    line is <output file>\t<command>\t<args...>; an apply line leaves its file empty. The interpreter and
    pypaimon start once instead of once per command. The first failing command fails the batch (its error,
    so an unsupported command still exits 3)."""
    with open(script, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for n, line in enumerate(lines, 1):
        if not line:
            continue
        parts = line.split("\t")
        if len(parts) < 2 or parts[1] == "batch":
            raise UsageError("batch line %d: want <out>\\t<dump|meta|apply> args..." % n)
        data = run(parts[1:])
        with open(parts[0], "wb") as out:
            out.write(data or b"")
    return b""


def main(argv=None):
    # Keep the real stdout for our JSONL only: anything else (prints, native libraries) goes to stderr.
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    import logging
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING)
    try:
        data = run(sys.argv[1:] if argv is None else argv)
    except UsageError as e:
        sys.stderr.write("%s\n%s\n" % (e, USAGE))
        return EXIT_USAGE
    except Unsupported as e:
        sys.stderr.write("unsupported: %s\n" % e)
        return EXIT_UNSUPPORTED
    except NotImplementedError as e:
        # pypaimon's own refusals (e.g. 2.x merge_engine_support.check_supported for merge options it
        # cannot evaluate in Python).
        traceback.print_exc(file=sys.stderr)
        sys.stderr.write("unsupported: %s\n" % (e or "NotImplementedError"))
        return EXIT_UNSUPPORTED
    except Exception:  # noqa: BLE001 - the contract wants the exception text on stderr
        traceback.print_exc(file=sys.stderr)
        return EXIT_ERROR
    finally:
        sys.stderr.flush()
    with out:
        out.write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
