package interop_test

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/paimon-go/paimon-go/format/schema"
)

// Random canon-v1 values for the tables TestLiveWritesReadByJava writes with
// our writer. The values are JSON values in canon-v1 (what Java's apply
// decodes and its dump prints); the test turns them into Go values with
// canon.DecodeRow, so the rows our writer writes, the rows Java writes in a
// plan and the expected dump lines all come from the same text.

// wtGen generates the canon-v1 value of one column for a row of commit c (c
// counts the commits of the table, ours and Java's); nil is NULL.
type wtGen func(r *rand.Rand, c int) any

// wtRandomValue returns a random canon-v1 value of type t: NULL with
// probability nullPct percent when t is nullable, otherwise a value within
// what the type holds (strings up to the CHAR/VARCHAR length in code points,
// timestamps with no more digits than the precision).
func wtRandomValue(r *rand.Rand, t schema.DataType, nullPct int) any {
	if t.Nullable && r.IntN(100) < nullPct {
		return nil
	}
	switch t.Root {
	case schema.Boolean:
		return genBool(r)
	case schema.TinyInt:
		return genIntRange(math.MinInt8, math.MaxInt8)(r)
	case schema.SmallInt:
		return genIntRange(math.MinInt16, math.MaxInt16)(r)
	case schema.Int:
		return genIntRange(math.MinInt32, math.MaxInt32)(r)
	case schema.BigInt:
		return genIntRange(math.MinInt64, math.MaxInt64)(r)
	case schema.Float:
		return genFloat32(r)
	case schema.Double:
		return genFloat64(r)
	case schema.Decimal:
		return genDecimal(t.Precision, t.Scale)(r)
	case schema.Char:
		return genString(t.Length)(r)
	case schema.VarChar:
		return genString(min(t.Length, 40))(r)
	case schema.Binary:
		return genHex(t.Length, t.Length)(r)
	case schema.VarBinary:
		return genHex(0, min(t.Length, 40))(r)
	case schema.Date:
		return genDate(r)
	case schema.Time:
		ms := r.IntN(86_400_000)
		if t.Precision == 0 {
			ms -= ms % 1000
		}
		return fmt.Sprintf("%02d:%02d:%02d.%03d", ms/3_600_000, ms/60_000%60, ms/1000%60, ms%1000)
	case schema.Timestamp:
		return genTimestamp(t.Precision, false)(r)
	case schema.TimestampLTZ:
		return genTimestamp(t.Precision, true)(r)
	case schema.Array:
		out := make([]any, r.IntN(4))
		for i := range out {
			out[i] = wtRandomValue(r, *t.Element, 15)
		}
		return out
	case schema.Map, schema.Multiset:
		key := t.Key
		if t.Root == schema.Multiset {
			key = t.Element
		}
		seen := map[string]bool{}
		var out []any
		for range r.IntN(4) {
			k := wtRandomValue(r, *key, 0)
			kb, _ := json.Marshal(k)
			if seen[string(kb)] {
				continue
			}
			seen[string(kb)] = true
			var v any
			if t.Root == schema.Map {
				v = wtRandomValue(r, *t.Value, 15)
			} else {
				v = int64(1 + r.IntN(3))
			}
			out = append(out, []any{k, v})
		}
		if out == nil {
			out = []any{}
		}
		return out
	case schema.Row:
		m := map[string]any{}
		for _, f := range t.Fields {
			m[f.Name] = wtRandomValue(r, f.Type, 15)
		}
		return m
	}
	panic(fmt.Sprintf("wtRandomValue: no generator for %s", t))
}

// wtPick draws one of values (nil entries are NULL).
func wtPick(values ...any) wtGen {
	return func(r *rand.Rand, _ int) any { return values[r.IntN(len(values))] }
}

// Windowed generators: commit c draws from a window that moves with c and
// overlaps its neighbours a little, so that every data file covers a narrow
// range of each column and a filter at a window's edge lets Java prune the
// other files by the statistics our writer stored.

func wtWindowInt(base, step, width int64, nullPct int) wtGen {
	return func(r *rand.Rand, c int) any {
		if r.IntN(100) < nullPct {
			return nil
		}
		return base + int64(c)*step + r.Int64N(width)
	}
}

func wtWindowDecimal(step int64, scale int, nullPct int) wtGen {
	return func(r *rand.Rand, c int) any {
		if r.IntN(100) < nullPct {
			return nil
		}
		unscaled := (int64(c)*step + r.Int64N(step*3/2)) * int64(math.Pow10(scale))
		unscaled += r.Int64N(int64(math.Pow10(scale)))
		unscaled -= 4 * step * int64(math.Pow10(scale)) // negative values too
		return wtFormatScaled(unscaled, scale)
	}
}

func wtFormatScaled(unscaled int64, scale int) string {
	neg := unscaled < 0
	if neg {
		unscaled = -unscaled
	}
	s := strconv.FormatInt(unscaled, 10)
	for len(s) <= scale {
		s = "0" + s
	}
	if scale > 0 {
		s = s[:len(s)-scale] + "." + s[len(s)-scale:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

// wtWindowString draws strings that sort by commit: a two-letter window
// prefix, then a random tail that is often longer than 16 characters, where
// Java's default stats mode truncate(16) cuts the min/max.
func wtWindowString(nullPct int) wtGen {
	tail := genString(30)
	return func(r *rand.Rand, c int) any {
		if r.IntN(100) < nullPct {
			return nil
		}
		w := c
		if r.IntN(5) == 0 {
			w++ // overlap the next window
		}
		return fmt.Sprintf("%c%c-%s", 'a'+w/26, 'a'+w%26, tail(r))
	}
}

// wtWindowTime draws timestamps (or dates, as "YYYY-MM-DD") from a window of
// about 40 days per commit starting in 1969, so that pre-epoch values and
// the epoch itself are inside the windows; digits is the number of fraction
// digits the type keeps (0..9).
func wtWindowTime(digits int, ltz, date bool, nullPct int) wtGen {
	start := time.Date(1969, 11, 1, 0, 0, 0, 0, time.UTC)
	unit := int64(math.Pow10(9 - digits))
	return func(r *rand.Rand, c int) any {
		if r.IntN(100) < nullPct {
			return nil
		}
		off := time.Duration(c)*30*24*time.Hour + time.Duration(r.Int64N(int64(40*24*time.Hour)))
		at := start.Add(off)
		at = at.Add(-time.Duration(int64(at.Nanosecond()) % unit))
		if date {
			return at.Format("2006-01-02")
		}
		s := at.Format("2006-01-02T15:04:05.000000000")
		if ltz {
			s += "Z"
		}
		return s
	}
}

func wtWindowDouble(step float64, nullPct int, bits32 bool) wtGen {
	return func(r *rand.Rand, c int) any {
		if r.IntN(100) < nullPct {
			return nil
		}
		v := float64(c)*step + r.Float64()*step*1.3 - 3*step
		if bits32 {
			return fmt.Sprintf("f32:%08x", math.Float32bits(float32(v)))
		}
		return fmt.Sprintf("f64:%016x", math.Float64bits(v))
	}
}

// wtLongString draws random strings of n letters, which compress poorly.
func wtLongString(n int) wtGen {
	return func(r *rand.Rand, _ int) any {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('a' + r.IntN(26))
		}
		return string(b)
	}
}
