package binaryrow_test

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
)

func TestNewRowRejects(t *testing.T) {
	tests := []struct {
		name  string
		b     []byte
		arity int
	}{
		{"empty", nil, 0},
		{"short fixed part", make([]byte, 15), 1},
		{"negative arity", make([]byte, 16), -1},
		{"huge arity", make([]byte, 16), 1 << 40},
		{"bad kind", append([]byte{4}, make([]byte, 15)...), 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := binaryrow.NewRow(tt.b, tt.arity)
			require.ErrorIs(t, err, binaryrow.ErrCorrupt)
		})
	}
}

func TestParseSerializedRejects(t *testing.T) {
	for _, b := range [][]byte{nil, {0, 0, 0}, {0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0}} {
		_, err := binaryrow.ParseSerialized(b)
		require.ErrorIs(t, err, binaryrow.ErrCorrupt, "%x", b)
	}
}

// setSlot overwrites slot i of a row with one field region of width 8.
func setSlot(b []byte, arity, i int, v uint64) []byte {
	out := append([]byte{}, b...)
	binary.LittleEndian.PutUint64(out[binaryrow.FixedPartSize(arity)-8*(arity-i):], v)
	return out
}

func TestCorruptReferences(t *testing.T) {
	tests := []struct {
		name string
		typ  schema.DataType
		v    any
		slot uint64
	}{
		{"string offset past end", tString(), "0123456789", 100<<32 | 10},
		{"string length past end", tString(), "0123456789", 16<<32 | 100},
		{"string negative length", tString(), "0123456789", 16<<32 | 0xffffffff},
		{"inline length 8", tString(), "abc", 0x88 << 56},
		{"decimal empty", tDecimal(38, 0), dec("5", 38, 0), 16 << 32},
		{"decimal 17 bytes", tDecimal(38, 0), dec("5", 38, 0), 16<<32 | 17},
		{"compact decimal too many digits", tDecimal(2, 0), dec("5", 2, 0), 100},
		{"timestamp bad nanos", tTimestamp(9), data.Timestamp{}, 16<<32 | 1_000_000},
		{"timestamp offset past end", tTimestamp(9), data.Timestamp{}, 20 << 32},
		{"array short", tArray(tInt()), vals(int32(1)), 16<<32 | 3},
		{"array past end", tArray(tInt()), vals(int32(1)), 16<<32 | 0x7fffffff},
		{"map short", tMap(tInt(), tInt()), data.Map{Keys: vals(int32(1)), Values: vals(int32(1))}, 16<<32 | 2},
		{"row too small", tRow(tInt(), tInt()), vals(int32(1), int32(2)), 16<<32 | 8},
		{"variant short", tOf(schema.Variant), data.Variant{Value: []byte{1}}, 16<<32 | 3},
		{"vector short", tVector(tOf(schema.Float), 1), vals(float32(1)), 16<<32 | 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			row, err := binaryrow.Encode(data.Insert, types(tt.typ), vals(tt.v))
			require.NoError(t, err)
			bad := setSlot(row, 1, 0, tt.slot)
			_, _, err = binaryrow.Decode(bad, types(tt.typ))
			require.ErrorIs(t, err, binaryrow.ErrCorrupt)
		})
	}
}

func TestCorruptNestedContents(t *testing.T) {
	typ := tArray(tString())
	row, err := binaryrow.Encode(data.Insert, types(typ), vals(vals("0123456789")))
	require.NoError(t, err)
	// The array starts at 16; its element count is at 16, its element slot
	// at 16+8.
	tests := []struct {
		name string
		at   int
		put  func(b []byte)
	}{
		{"negative count", 16, func(b []byte) { binary.LittleEndian.PutUint32(b, 0x80000000) }},
		{"count too big", 16, func(b []byte) { binary.LittleEndian.PutUint32(b, 1000) }},
		{"element past array", 24, func(b []byte) { binary.LittleEndian.PutUint64(b, 8<<32|100) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bad := append([]byte{}, row...)
			tt.put(bad[tt.at:])
			_, _, err := binaryrow.Decode(bad, types(typ))
			require.ErrorIs(t, err, binaryrow.ErrCorrupt)
		})
	}

	// A map whose key and value arrays disagree in length.
	mt := tMap(tInt(), tInt())
	row, err = binaryrow.Encode(data.Insert, types(mt), vals(data.Map{Keys: vals(int32(1)), Values: vals(int32(2))}))
	require.NoError(t, err)
	bad := append([]byte{}, row...)
	binary.LittleEndian.PutUint32(bad[16+4+16:], 2) // value array count
	_, _, err = binaryrow.Decode(bad, types(mt))
	require.ErrorIs(t, err, binaryrow.ErrCorrupt)
}

func TestValuesArityMismatch(t *testing.T) {
	row, err := binaryrow.Encode(data.Insert, types(tInt()), vals(int32(1)))
	require.NoError(t, err)
	r, err := binaryrow.NewRow(row, 1)
	require.NoError(t, err)
	_, err = r.Values(types(tInt(), tInt()))
	require.ErrorIs(t, err, binaryrow.ErrCorrupt)
}
