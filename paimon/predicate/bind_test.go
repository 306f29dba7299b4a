package predicate_test

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/data"
	p "github.com/paimon-go/paimon-go/paimon/predicate"
)

func TestBindLiterals(t *testing.T) {
	ts := time.Date(2026, 8, 1, 12, 30, 0, 1500, time.FixedZone("X", 3600))
	tests := []struct {
		name string
		pred *p.Predicate
		want any
	}{
		{"int to bigint", p.Equal("amount", 5), int64(5)},
		{"uint8 to int", p.Equal("i", uint8(7)), int32(7)},
		{"int to tinyint", p.Equal("tiny", -128), int8(-128)},
		{"string", p.Equal("dt", "x"), "x"},
		{"char not padded", p.Equal("c", "a"), "a"},
		{"float64 to double", p.Equal("f", 1.5), 1.5},
		{"float32 to double", p.Equal("f", float32(1.5)), 1.5},
		{"float64 to float", p.Equal("r", 0.25), float32(0.25)},
		{"decimal string", p.Equal("d", "-12.3"), data.NewDecimalFromInt64(-1230, 10, 2)},
		{"decimal int", p.Equal("d", 12), data.NewDecimalFromInt64(1200, 10, 2)},
		{"decimal rescale", p.Equal("d", data.NewDecimalFromInt64(15000, 10, 4)), data.NewDecimalFromInt64(150, 10, 2)},
		{"bytes", p.Equal("b", []byte{1, 2}), []byte{1, 2}},
		{"bool", p.Equal("ok", true), true},
		{"date time", p.Equal("day", time.Date(1970, 1, 3, 23, 0, 0, 0, time.UTC)), int32(2)},
		{"date int32", p.Equal("day", int32(-1)), int32(-1)},
		{"time ms", p.Equal("tm", 1000), int32(1000)},
		{"time duration", p.Equal("tm", 2*time.Second), int32(2000)},
		// TIMESTAMP keeps the wall clock: 12:30 in +01:00 is stored as 12:30 UTC.
		{"timestamp wall clock", p.Equal("ts", ts),
			data.Timestamp{Millis: time.Date(2026, 8, 1, 12, 30, 0, 0, time.UTC).UnixMilli(), NanoOfMilli: 1500}},
		// TIMESTAMP_LTZ keeps the instant.
		{"ltz instant", p.Equal("ltz", ts),
			data.Timestamp{Millis: time.Date(2026, 8, 1, 11, 30, 0, 0, time.UTC).UnixMilli(), NanoOfMilli: 1500}},
		{"timestamp value", p.Equal("ts", data.Timestamp{Millis: -1, NanoOfMilli: 5}), data.Timestamp{Millis: -1, NanoOfMilli: 5}},
		{"nil literal", p.Equal("i", nil), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := mustBind(t, tt.pred)
			require.Equal(t, tt.pred.String()[:len(b.Field().Name)], b.Field().Name)
			lits := b.Literals()
			require.Len(t, lits, 1)
			if d, ok := tt.want.(data.Decimal); ok {
				got := lits[0].(data.Decimal)
				require.Zero(t, d.Cmp(got))
				require.Equal(t, d.Scale, got.Scale)
				require.Equal(t, 10, got.Precision)
				return
			}
			require.Equal(t, tt.want, lits[0])
		})
	}
}

func TestBindErrors(t *testing.T) {
	tests := []struct {
		name string
		pred *p.Predicate
		err  error
		msg  string
	}{
		{"unknown", p.Equal("nope", 1), p.ErrUnknownField, `"nope"`},
		{"case sensitive", p.Equal("DT", "x"), p.ErrUnknownField, `"DT"`},
		{"unknown in and", p.And(p.IsNull("i"), p.IsNull("zz")), p.ErrUnknownField, "zz"},
		{"string to int", p.Equal("i", "1"), p.ErrTypeMismatch, `field "i" of type INT: literal 1 (string)`},
		{"int overflow", p.Equal("i", int64(math.MaxInt32)+1), p.ErrTypeMismatch, "out of range"},
		{"tiny overflow", p.In("tiny", 1, 200), p.ErrTypeMismatch, "200"},
		{"uint64 overflow", p.Equal("amount", uint64(math.MaxUint64)), p.ErrTypeMismatch, "out of range"},
		{"float to int", p.Equal("amount", 1.5), p.ErrTypeMismatch, "amount"},
		{"int to double inexact", p.Equal("f", int64(1)<<53+1), p.ErrTypeMismatch, "not exactly representable as DOUBLE"},
		{"float range", p.Equal("r", 1e300), p.ErrTypeMismatch, "FLOAT"},
		{"int to string", p.Equal("dt", 1), p.ErrTypeMismatch, "VARCHAR"},
		{"decimal scale", p.Equal("d", "1.234"), p.ErrTypeMismatch, "fraction digits"},
		{"decimal precision", p.Equal("d", "123456789.1"), p.ErrTypeMismatch, "precision 10"},
		{"decimal syntax", p.Equal("d", "1e5"), p.ErrTypeMismatch, "not a decimal"},
		{"decimal nil", p.Equal("d", data.Decimal{}), p.ErrTypeMismatch, "nil unscaled"},
		{"decimal float inexact", p.Equal("d", 0.1), p.ErrTypeMismatch, "d"},
		{"string to bytes", p.Equal("b", "x"), p.ErrTypeMismatch, "VARBINARY"},
		{"bad date text", p.Equal("day", "2026-13-01"), p.ErrTypeMismatch, "not a DATE"},
		{"time range", p.Equal("tm", 86_400_000), p.ErrTypeMismatch, "out of range"},
		{"bad timestamp", p.Equal("ts", data.Timestamp{NanoOfMilli: 1_000_000}), p.ErrTypeMismatch, "NanoOfMilli"},
		{"int to bool", p.Equal("ok", 1), p.ErrTypeMismatch, "BOOLEAN"},
		{"startswith int", p.StartsWith("i", "1"), p.ErrTypeMismatch, "STARTS WITH"},
		{"startswith bytes", p.StartsWith("b", "1"), p.ErrTypeMismatch, "STARTS WITH"},
		{"nested", p.IsNull("tags"), p.ErrUnsupported, "tags"},
		{"not startswith", p.Not(p.StartsWith("dt", "a")), p.ErrUnsupported, "StartsWith"},
		{"not or startswith", p.Not(p.Or(p.IsNull("i"), p.StartsWith("dt", "a"))), p.ErrUnsupported, "dt"},
		{"nil", nil, p.ErrInvalid, "nil"},
		{"empty and", p.And(), p.ErrInvalid, "AND"},
		{"empty or", p.Or(), p.ErrInvalid, "OR"},
		{"nil child", p.Or(p.IsNull("i"), nil), p.ErrInvalid, "nil"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := p.Bind(tt.pred, testFields)
			require.Error(t, err)
			require.True(t, errors.Is(err, tt.err), "%v", err)
			require.Contains(t, err.Error(), tt.msg)
		})
	}
	require.ErrorIs(t, p.ErrUnsupported, errors.ErrUnsupported)
}

func TestBindAccessors(t *testing.T) {
	b := mustBind(t, p.Or(p.And(p.Equal("dt", "x"), p.In("i", 1, 2)), p.Not(p.IsNull("d"))))
	require.Equal(t, p.KindOr, b.Kind())
	require.Equal(t, -1, b.FieldIndex())
	require.Len(t, b.Children(), 2)
	leaves := b.Leaves()
	require.Len(t, leaves, 3)
	require.Equal(t, p.KindEqual, leaves[0].Kind())
	require.Equal(t, 0, leaves[0].FieldIndex())
	require.Equal(t, p.KindIn, leaves[1].Kind())
	require.Equal(t, []any{int32(1), int32(2)}, leaves[1].Literals())
	require.Equal(t, p.KindIsNotNull, leaves[2].Kind())
	require.Equal(t, 3, leaves[2].FieldIndex())
	require.Equal(t, "d", leaves[2].Field().Name)
	require.Empty(t, leaves[2].Literals())

	// Literals returns a copy.
	leaves[1].Literals()[0] = int32(9)
	require.Equal(t, int32(1), leaves[1].Literals()[0])

	n, ok := b.Negate()
	require.True(t, ok)
	require.Equal(t, "(dt != 'x' OR i NOT IN (1, 2)) AND d IS NULL", n.String())
	_, ok = mustBind(t, p.StartsWith("dt", "a")).Negate()
	require.False(t, ok)
}
