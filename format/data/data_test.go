package data_test

import (
	"math/big"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/data"
)

func TestDecimalString(t *testing.T) {
	big38, _ := new(big.Int).SetString("-12345678901234567890123456789012345678", 10)
	for _, tc := range []struct {
		d    data.Decimal
		want string
	}{
		{data.NewDecimalFromInt64(-50, 10, 2), "-0.50"},
		{data.NewDecimalFromInt64(5, 3, 3), "0.005"},
		{data.NewDecimalFromInt64(12, 5, 0), "12"},
		{data.NewDecimalFromInt64(0, 5, 2), "0.00"},
		{data.NewDecimalFromInt64(7, 5, -2), "700"},
		{data.Decimal{Unscaled: big38, Precision: 38, Scale: 38}, "-0.12345678901234567890123456789012345678"},
	} {
		require.Equal(t, tc.want, tc.d.String())
	}
	require.Equal(t, 0, data.NewDecimalFromInt64(150, 5, 2).Cmp(data.NewDecimalFromInt64(15, 5, 1)))
	require.Equal(t, -1, data.NewDecimalFromInt64(-1, 5, 0).Cmp(data.NewDecimalFromInt64(1, 5, 3)))
	require.True(t, data.NewDecimalFromInt64(1, 18, 0).IsCompact())
	require.False(t, data.NewDecimalFromInt64(1, 19, 0).IsCompact())
}

func TestTimestampConversions(t *testing.T) {
	for _, us := range []int64{0, 1, -1, 1_715_680_800_123_456, -1_715_680_800_123_457} {
		ts := data.TimestampFromMicros(us)
		require.GreaterOrEqual(t, ts.NanoOfMilli, int32(0))
		require.Less(t, ts.NanoOfMilli, int32(1_000_000))
		require.Equal(t, us, ts.Micros())
	}
	for _, ns := range []int64{0, 999_999, -1, -1_000_001, 1_715_680_800_123_456_789} {
		ts := data.TimestampFromNanos(ns)
		require.Equal(t, ns, ts.Nanos())
	}
	a, b := data.Timestamp{Millis: 1, NanoOfMilli: 5}, data.Timestamp{Millis: 1, NanoOfMilli: 6}
	require.Equal(t, -1, a.Compare(b))
	require.Equal(t, 1, b.Compare(a))
	require.Equal(t, 0, a.Compare(a))
}

func TestRowKind(t *testing.T) {
	for _, k := range []data.RowKind{data.Insert, data.UpdateBefore, data.UpdateAfter, data.Delete} {
		back, err := data.ParseRowKind(k.String())
		require.NoError(t, err)
		require.Equal(t, k, back)
	}
	require.True(t, data.Delete.IsRetract())
	require.False(t, data.UpdateAfter.IsRetract())
	_, err := data.ParseRowKind("+X")
	require.Error(t, err)
}
