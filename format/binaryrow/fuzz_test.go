package binaryrow_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
)

// fuzzCase is a fixed type list the fuzzers decode arbitrary bytes
// against, with a sample row to seed the corpus.
type fuzzCase struct {
	types  []schema.DataType
	sample []any
}

func fuzzCases() []fuzzCase {
	return []fuzzCase{
		{types(tInt()), vals(int32(5))},
		{types(tString(), tInt()), vals("hello world!", int32(1))},
		{
			types(tDecimal(38, 10), tTimestamp(9), tDecimal(10, 2), tLTZ(3)),
			vals(dec("-123456789012345678901", 38, 10), data.Timestamp{Millis: -3, NanoOfMilli: 7}, dec("-5", 10, 2), data.Timestamp{Millis: 4}),
		},
		{
			types(tArray(tString()), tMap(tInt(), tDecimal(38, 2)), tMultiset(tString())),
			vals(vals("a", nil, "0123456789"), data.Map{Keys: vals(int32(1), nil), Values: vals(dec("7", 38, 2), nil)},
				data.Map{Keys: vals("x"), Values: vals(int32(3))}),
		},
		{
			types(tRow(tInt(), tString(), tArray(tTimestamp(6))), tOf(schema.Variant), tBytes()),
			vals(vals(int32(1), "nested value", vals(data.Timestamp{Millis: 1, NanoOfMilli: 1000}, nil)),
				data.Variant{Value: []byte{1, 2, 3}, Metadata: []byte{1, 0, 0}}, []byte("binary!!")),
		},
		{
			types(tVector(tOf(schema.Float), 3), tOf(schema.Boolean), tOf(schema.TinyInt), tOf(schema.SmallInt),
				tBigInt(), tOf(schema.Float), tOf(schema.Double), tOf(schema.Date)),
			vals(vals(float32(1), float32(2), float32(3)), true, int8(1), int16(2), int64(3), float32(4), 5.0, int32(6)),
		},
		{
			types(tArray(tArray(tInt())), tMap(tString(), tRow(tDecimal(20, 2)))),
			vals(vals(vals(int32(1)), nil), data.Map{Keys: vals("k"), Values: vals(vals(dec("1", 20, 2)))}),
		},
		{types(tDecimal(38, 0), tTimestamp(6)), vals(nil, nil)},
	}
}

// checkDecoded decodes r against c; when that succeeds, re-encoding the
// values must succeed and decode to the same values.
func checkDecoded(t *testing.T, r binaryrow.Row, c fuzzCase) {
	_ = r.Hash()
	got, err := r.Values(c.types)
	if err != nil {
		return
	}
	row, err := binaryrow.Encode(r.Kind(), c.types, got)
	require.NoError(t, err)
	_, again, err := binaryrow.Decode(row, c.types)
	require.NoError(t, err)
	requireSameValues(t, got, again)
}

func addSeeds(f *testing.F, serialized bool) {
	for i, c := range fuzzCases() {
		row, err := binaryrow.Encode(data.Insert, c.types, c.sample)
		require.NoError(f, err)
		if serialized {
			f.Add(binaryrow.MarshalSerialized(row, len(c.types)))
		} else {
			f.Add(row, uint8(i))
		}
	}
}

func FuzzParseSerialized(f *testing.F) {
	addSeeds(f, true)
	f.Add(binaryrow.EmptySerialized())
	cases := fuzzCases()
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := binaryrow.ParseSerialized(b)
		if err != nil {
			require.ErrorIs(t, err, binaryrow.ErrCorrupt)
			return
		}
		for _, c := range cases {
			if len(c.types) == r.Arity() {
				checkDecoded(t, r, c)
			}
		}
	})
}

func FuzzDecodeRow(f *testing.F) {
	addSeeds(f, false)
	cases := fuzzCases()
	f.Fuzz(func(t *testing.T, b []byte, pick uint8) {
		c := cases[int(pick)%len(cases)]
		r, err := binaryrow.NewRow(b, len(c.types))
		if err != nil {
			require.ErrorIs(t, err, binaryrow.ErrCorrupt)
			return
		}
		for i := range c.types {
			_ = r.IsNullAt(i)
			_, _ = r.Value(i, &c.types[i])
		}
		checkDecoded(t, r, c)
		_, _ = binaryrow.BucketOfRow(r, c.types, 7, binaryrow.BucketHive)
	})
}
