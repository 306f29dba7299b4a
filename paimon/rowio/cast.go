package rowio

import (
	"math"
	"math/big"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/canon"
)

// Columns whose type differs from the table column's (a Parquet file's) are
// cast value by value. A cast exists between types of one family (integers and
// floating point numbers into wider or narrower numbers and decimals,
// decimals into decimals, strings into strings, bytes into bytes,
// timestamps into timestamps of the same kind, and nested types whose
// parts cast); it is safe, as Arrow's safe casts are: every value must
// convert exactly, and one that does not (out of range, too many digits,
// a fraction lost) fails the load with its row. Everything else, text into
// numbers say, is a column mismatch reported before any row is read.

// Castable reports whether values of src can be cast to dst by Cast.
func Castable(src, dst schema.DataType) bool {
	switch {
	case src.Root.IsIntegerNumeric():
		return dst.Root.IsIntegerNumeric() || dst.Root == schema.Float || dst.Root == schema.Double || dst.Root == schema.Decimal
	case src.Root == schema.Float || src.Root == schema.Double:
		return dst.Root == schema.Float || dst.Root == schema.Double
	case src.Root == schema.Decimal:
		return dst.Root == schema.Decimal
	case src.Root.IsCharacterString():
		return dst.Root.IsCharacterString()
	case src.Root.IsBinaryString() || src.Root == schema.Blob:
		return dst.Root.IsBinaryString() || dst.Root == schema.Blob
	case src.Root == schema.Array || src.Root == schema.Vector:
		return (dst.Root == schema.Array || dst.Root == schema.Vector) && src.Element != nil && dst.Element != nil &&
			Castable(*src.Element, *dst.Element)
	case src.Root == schema.Map || src.Root == schema.Multiset:
		sk, sv := mapTypes(src)
		dk, dv := mapTypes(dst)
		return (dst.Root == schema.Map || dst.Root == schema.Multiset) && sk != nil && sv != nil && dk != nil && dv != nil &&
			Castable(*sk, *dk) && Castable(*sv, *dv)
	case src.Root == schema.Row:
		if dst.Root != schema.Row {
			return false
		}
		for _, f := range src.Fields {
			df, ok := dst.FieldByName(f.Name)
			if !ok || !Castable(f.Type, df.Type) {
				return false
			}
		}
		for _, df := range dst.Fields {
			if _, ok := src.FieldByName(df.Name); !ok && !df.Type.Nullable {
				return false
			}
		}
		return true
	}
	return src.Root == dst.Root
}

// Cast converts v, a value of src, to dst exactly; a value that does not
// convert exactly is an error wrapping ErrValue.
func Cast(src, dst schema.DataType, v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	switch {
	case src.Root.IsIntegerNumeric():
		return castInteger(dst, toInt64(v))
	case src.Root == schema.Float || src.Root == schema.Double:
		f := toFloat64(v)
		if dst.Root == schema.Double {
			return f, nil
		}
		if g := float32(f); float64(g) == f || math.IsNaN(f) {
			return g, nil
		}
		return nil, badValue("%v does not fit FLOAT exactly", f)
	case src.Root == schema.Decimal:
		d, ok := v.(data.Decimal)
		if !ok || d.Unscaled == nil {
			return nil, badValue("%T is not a DECIMAL", v)
		}
		r := new(big.Rat).SetFrac(d.Unscaled, pow10(d.Scale))
		return decimalOf(dst, r, d.String())
	case src.Root.IsCharacterString():
		s, _ := v.(string)
		return s, checkLength(dst, len([]rune(s)), "characters")
	case src.Root.IsBinaryString() || src.Root == schema.Blob:
		b, _ := v.([]byte)
		return b, checkLength(dst, len(b), "bytes")
	case src.Root.IsTimestamp():
		ts, ok := v.(data.Timestamp)
		if !ok {
			return nil, badValue("%T is not a timestamp", v)
		}
		if dst.Precision < 3 {
			if ts.NanoOfMilli != 0 || ts.Millis%int64(math.Pow10(3-dst.Precision)) != 0 {
				return nil, badValue("%s has more fraction digits than %s holds", canon.FormatTimestamp(ts), dst.String())
			}
		} else if err := checkFraction(dst, int64(ts.NanoOfMilli), dst.Precision, canon.FormatTimestamp(ts)); err != nil {
			return nil, err
		}
		return ts, nil
	case src.Root == schema.Array || src.Root == schema.Vector:
		arr, _ := v.([]any)
		if dst.Root == schema.Vector && len(arr) != dst.Length {
			return nil, badValue("%d elements for %s", len(arr), dst.String())
		}
		out := make([]any, len(arr))
		for i, e := range arr {
			x, err := Cast(*src.Element, *dst.Element, e)
			if err != nil {
				return nil, err
			}
			if err := notNull(*dst.Element, x, "element"); err != nil {
				return nil, err
			}
			out[i] = x
		}
		return out, nil
	case src.Root == schema.Map || src.Root == schema.Multiset:
		m, _ := v.(data.Map)
		sk, sv := mapTypes(src)
		dk, dv := mapTypes(dst)
		out := data.Map{Keys: make([]any, len(m.Keys)), Values: make([]any, len(m.Values))}
		for i := range m.Keys {
			k, err := Cast(*sk, *dk, m.Keys[i])
			if err != nil {
				return nil, err
			}
			x, err := Cast(*sv, *dv, m.Values[i])
			if err != nil {
				return nil, err
			}
			if err := notNull(*dv, x, "map value"); err != nil {
				return nil, err
			}
			out.Keys[i], out.Values[i] = k, x
		}
		return out, nil
	case src.Root == schema.Row:
		vals, _ := v.([]any)
		out := make([]any, len(dst.Fields))
		for i, df := range dst.Fields {
			si := src.FieldIndex(df.Name)
			if si < 0 || si >= len(vals) {
				continue
			}
			x, err := Cast(src.Fields[si].Type, df.Type, vals[si])
			if err != nil {
				return nil, err
			}
			if err := notNull(df.Type, x, "field "+df.Name); err != nil {
				return nil, err
			}
			out[i] = x
		}
		return out, nil
	}
	return v, nil
}

// castInteger converts an integer to an integer, floating point or
// decimal type exactly.
func castInteger(dst schema.DataType, n int64) (any, error) {
	switch dst.Root {
	case schema.TinyInt, schema.SmallInt, schema.Int, schema.BigInt:
		lo, hi := intRange(dst.Root)
		if n < lo || n > hi {
			return nil, badValue("%d is out of range for %s", n, typeName(dst))
		}
		return narrowInt(dst.Root, n), nil
	case schema.Float:
		if f := float32(n); int64(f) == n && f < math.MaxInt64 {
			return f, nil
		}
		return nil, badValue("%d does not fit FLOAT exactly", n)
	case schema.Double:
		if f := float64(n); int64(f) == n && f < math.MaxInt64 {
			return f, nil
		}
		return nil, badValue("%d does not fit DOUBLE exactly", n)
	case schema.Decimal:
		return decimalOf(dst, new(big.Rat).SetInt64(n), big.NewInt(n).String())
	}
	return nil, badValue("no cast from an integer to %s", typeName(dst))
}

func intRange(root schema.TypeRoot) (lo, hi int64) {
	switch root {
	case schema.TinyInt:
		return math.MinInt8, math.MaxInt8
	case schema.SmallInt:
		return math.MinInt16, math.MaxInt16
	case schema.Int:
		return math.MinInt32, math.MaxInt32
	}
	return math.MinInt64, math.MaxInt64
}

func toInt64(v any) int64 {
	switch n := v.(type) {
	case int8:
		return int64(n)
	case int16:
		return int64(n)
	case int32:
		return int64(n)
	case int64:
		return n
	}
	return 0
}

func toFloat64(v any) float64 {
	switch f := v.(type) {
	case float32:
		return float64(f)
	case float64:
		return f
	}
	return 0
}
