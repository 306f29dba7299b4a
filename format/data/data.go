// Package data defines the Go representation of Paimon's internal values, the
// counterpart of Java Paimon's org.apache.paimon.data package (GenericRow,
// Decimal, Timestamp, GenericArray, GenericMap, RowKind).
//
// A value of a field is held in an `any` whose dynamic type depends on the
// field's schema.DataType:
//
//	BOOLEAN                      bool
//	TINYINT, SMALLINT            int8, int16
//	INT                          int32
//	BIGINT                       int64
//	FLOAT, DOUBLE                float32, float64
//	DECIMAL(p, s)                Decimal
//	CHAR, VARCHAR, STRING        string (UTF-8 bytes as stored; never padded or trimmed)
//	BINARY, VARBINARY, BYTES     []byte
//	DATE                         int32, days since 1970-01-01
//	TIME(p)                      int32, milliseconds of the day (Paimon stores millis only)
//	TIMESTAMP(p), TIMESTAMP_LTZ  Timestamp
//	ARRAY<T>                     []any
//	MAP<K, V>                    Map
//	MULTISET<T>                  Map with int32 values (the element counts)
//	ROW<...>                     []any, one entry per field
//	VARIANT                      Variant
//
// A SQL NULL is a nil interface. Values are plain data: no schema travels with
// them, so every codec takes the types alongside the values.
package data

import (
	"fmt"
	"math/big"
)

// RowKind is the change type of a row (Java org.apache.paimon.types.RowKind).
// Its byte value is what BinaryRow's header byte and the _VALUE_KIND column
// store.
type RowKind int8

// Row kinds with their Java byte values.
const (
	Insert       RowKind = 0 // +I
	UpdateBefore RowKind = 1 // -U
	UpdateAfter  RowKind = 2 // +U
	Delete       RowKind = 3 // -D
)

// String returns the short form Java prints: +I, -U, +U or -D.
func (k RowKind) String() string {
	switch k {
	case Insert:
		return "+I"
	case UpdateBefore:
		return "-U"
	case UpdateAfter:
		return "+U"
	case Delete:
		return "-D"
	}
	return fmt.Sprintf("RowKind(%d)", int8(k))
}

// IsRetract reports whether the kind retracts a previous row (-U or -D).
func (k RowKind) IsRetract() bool { return k == UpdateBefore || k == Delete }

// ParseRowKind parses the short form (+I, -U, +U, -D).
func ParseRowKind(s string) (RowKind, error) {
	switch s {
	case "+I":
		return Insert, nil
	case "-U":
		return UpdateBefore, nil
	case "+U":
		return UpdateAfter, nil
	case "-D":
		return Delete, nil
	}
	return 0, fmt.Errorf("data: unknown row kind %q", s)
}

// Decimal is an exact decimal number: Unscaled × 10^-Scale, with the declared
// precision of its column (Java org.apache.paimon.data.Decimal).
type Decimal struct {
	Unscaled  *big.Int
	Precision int
	Scale     int
}

// CompactDecimalMaxPrecision is the largest precision whose unscaled value is
// stored in a long (Java Decimal.isCompact).
const CompactDecimalMaxPrecision = 18

// NewDecimalFromInt64 returns the decimal unscaled×10^-scale.
func NewDecimalFromInt64(unscaled int64, precision, scale int) Decimal {
	return Decimal{Unscaled: big.NewInt(unscaled), Precision: precision, Scale: scale}
}

// IsCompact reports whether the decimal's precision lets it be stored as an
// int64 unscaled value.
func (d Decimal) IsCompact() bool { return d.Precision <= CompactDecimalMaxPrecision }

// String renders the decimal in plain notation with exactly Scale fraction
// digits (Java BigDecimal.toPlainString), e.g. "-0.50".
func (d Decimal) String() string {
	if d.Unscaled == nil {
		return "<nil decimal>"
	}
	s := new(big.Int).Abs(d.Unscaled).String()
	neg := d.Unscaled.Sign() < 0
	if d.Scale > 0 {
		for len(s) <= d.Scale {
			s = "0" + s
		}
		s = s[:len(s)-d.Scale] + "." + s[len(s)-d.Scale:]
	} else if d.Scale < 0 {
		for i := 0; i < -d.Scale; i++ {
			s += "0"
		}
	}
	if neg {
		s = "-" + s
	}
	return s
}

// Cmp compares two decimals by value (scales may differ).
func (d Decimal) Cmp(o Decimal) int {
	a, b := new(big.Int).Set(d.Unscaled), new(big.Int).Set(o.Unscaled)
	switch {
	case d.Scale < o.Scale:
		a.Mul(a, pow10(o.Scale-d.Scale))
	case d.Scale > o.Scale:
		b.Mul(b, pow10(d.Scale-o.Scale))
	}
	return a.Cmp(b)
}

func pow10(n int) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil) }

// Timestamp is a point on the time line with nanosecond precision, stored as
// Java Paimon does (org.apache.paimon.data.Timestamp): milliseconds since the
// epoch plus the nanoseconds within that millisecond. For TIMESTAMP WITHOUT
// TIME ZONE the millis are the wall clock read as UTC; for TIMESTAMP_LTZ they
// are the UTC instant.
type Timestamp struct {
	Millis      int64
	NanoOfMilli int32 // 0..999999
}

// CompactTimestampMaxPrecision is the largest precision stored as epoch
// millis alone (Java Timestamp.isCompact).
const CompactTimestampMaxPrecision = 3

// TimestampFromMicros converts epoch microseconds (floor semantics for
// negative values).
func TimestampFromMicros(us int64) Timestamp {
	ms := floorDiv(us, 1000)
	return Timestamp{Millis: ms, NanoOfMilli: int32((us - ms*1000) * 1000)}
}

// TimestampFromNanos converts epoch nanoseconds (floor semantics for
// negative values).
func TimestampFromNanos(ns int64) Timestamp {
	ms := floorDiv(ns, 1_000_000)
	return Timestamp{Millis: ms, NanoOfMilli: int32(ns - ms*1_000_000)}
}

// Micros returns the timestamp as epoch microseconds, truncating nanoseconds.
func (t Timestamp) Micros() int64 { return t.Millis*1000 + int64(t.NanoOfMilli)/1000 }

// Nanos returns the timestamp as epoch nanoseconds. It overflows outside the
// years 1677-2262, like any int64 nanosecond clock.
func (t Timestamp) Nanos() int64 { return t.Millis*1_000_000 + int64(t.NanoOfMilli) }

// Compare orders timestamps chronologically.
func (t Timestamp) Compare(o Timestamp) int {
	switch {
	case t.Millis < o.Millis:
		return -1
	case t.Millis > o.Millis:
		return 1
	case t.NanoOfMilli < o.NanoOfMilli:
		return -1
	case t.NanoOfMilli > o.NanoOfMilli:
		return 1
	}
	return 0
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// Map is a MAP or MULTISET value: parallel key and value slices, in the order
// the map was written (Java GenericMap / BinaryMap keep entries as arrays).
type Map struct {
	Keys   []any
	Values []any
}

// Len returns the number of entries.
func (m Map) Len() int { return len(m.Keys) }

// Variant is a VARIANT value in its binary encoding: the value bytes and the
// metadata (dictionary) bytes.
type Variant struct {
	Value    []byte
	Metadata []byte
}
