package binaryrow_test

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
)

// Shorthand type constructors for tests.
func tInt() schema.DataType    { return schema.DataType{Root: schema.Int, Nullable: true} }
func tBigInt() schema.DataType { return schema.DataType{Root: schema.BigInt, Nullable: true} }
func tString() schema.DataType {
	return schema.DataType{Root: schema.VarChar, Nullable: true, Length: schema.MaxLength}
}

func tBytes() schema.DataType {
	return schema.DataType{Root: schema.VarBinary, Nullable: true, Length: schema.MaxLength}
}

func tDecimal(p, s int) schema.DataType {
	return schema.DataType{Root: schema.Decimal, Nullable: true, Precision: p, Scale: s}
}

func tTimestamp(p int) schema.DataType {
	return schema.DataType{Root: schema.Timestamp, Nullable: true, Precision: p}
}

func tLTZ(p int) schema.DataType {
	return schema.DataType{Root: schema.TimestampLTZ, Nullable: true, Precision: p}
}

func types(ts ...schema.DataType) []schema.DataType { return ts }
func vals(vs ...any) []any                          { return vs }

// unhex decodes hex with optional spaces.
func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	require.NoError(t, err)
	return b
}

// TestSerializedExamples covers paimon-format.md §5.2.
func TestSerializedExamples(t *testing.T) {
	tests := []struct {
		name   string
		types  []schema.DataType
		values []any
		want   string // serialized: BE arity + row
	}{
		{"empty row", nil, nil, "00000000 0000000000000000"},
		{"partition INT 5", types(tInt()), vals(int32(5)), "00000001 0000000000000000 0500000000000000"},
		{
			"partition STRING 8 bytes", types(tString()), vals("20240514"),
			"00000001 0000000000000000 0800000010000000 3230323430353134",
		},
		{"key STRING a", types(tString()), vals("a"), "00000001 0000000000000000 6100000000000081"},
		{
			"key STRING+INT", types(tString(), tInt()), vals("hello world!", int32(1)),
			"00000002 0000000000000000 0c00000018000000 0100000000000000 68656c6c6f20776f726c642100000000",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := unhex(t, tt.want)
			row, err := binaryrow.Encode(data.Insert, tt.types, tt.values)
			require.NoError(t, err)
			require.Equal(t, want[4:], row)
			require.Equal(t, want, binaryrow.MarshalSerialized(row, len(tt.types)))

			r, err := binaryrow.ParseSerialized(want)
			require.NoError(t, err)
			require.Equal(t, len(tt.types), r.Arity())
			require.Equal(t, data.Insert, r.Kind())
			got, err := r.Values(tt.types)
			require.NoError(t, err)
			if len(tt.values) == 0 {
				require.Empty(t, got)
			} else {
				require.Equal(t, tt.values, got)
			}
		})
	}
	require.Equal(t, unhex(t, "0000000000000000"), binaryrow.EmptyRow())
	require.Equal(t, unhex(t, "00000000 0000000000000000"), binaryrow.EmptySerialized())
}

// TestBucketExamples covers the §5.3/§6.2 table (values asserted by Java
// FixedBucketRowKeyExtractorTest: 96 / 27 / 40 for (5, 6, 7) and 100
// buckets).
func TestBucketExamples(t *testing.T) {
	tests := []struct {
		name    string
		types   []schema.DataType
		values  []any
		row     string // "" = not checked
		hash    int32
		buckets int
		bucket  int
	}{
		{"INT 5", types(tInt()), vals(int32(5)), "0000000000000000 0500000000000000", 260196596, 100, 96},
		{
			"INT,INT 5,6", types(tInt(), tInt()), vals(int32(5), int32(6)),
			"0000000000000000 0500000000000000 0600000000000000", 131015827, 100, 27,
		},
		{"INT,INT,INT 5,6,7", types(tInt(), tInt(), tInt()), vals(int32(5), int32(6), int32(7)), "", 1805332940, 100, 40},
		{"INT 3", types(tInt()), vals(int32(3)), "0000000000000000 0300000000000000", -771300025, 4, 1},
		{"INT NULL", types(tInt()), vals(nil), "0001000000000000 0000000000000000", -1748325344, 4, 0},
		{"STRING a", types(tString()), vals("a"), "0000000000000000 6100000000000081", 943281246, 10, 6},
		{
			"STRING abcdefgh", types(tString()), vals("abcdefgh"),
			"0000000000000000 0800000010000000 6162636465666768", -843760178, 10, 8,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			row, err := binaryrow.Encode(data.Insert, tt.types, tt.values)
			require.NoError(t, err)
			if tt.row != "" {
				require.Equal(t, unhex(t, tt.row), row)
			}
			require.Equal(t, tt.hash, binaryrow.Hash(row))
			require.Equal(t, tt.bucket, binaryrow.DefaultBucket(tt.hash, tt.buckets))

			h, err := binaryrow.KeyHash(tt.types, tt.values)
			require.NoError(t, err)
			require.Equal(t, tt.hash, h)

			b, err := binaryrow.BucketOf(tt.types, tt.values, tt.buckets, binaryrow.BucketDefault)
			require.NoError(t, err)
			require.Equal(t, tt.bucket, b)

			r, err := binaryrow.NewRow(row, len(tt.types))
			require.NoError(t, err)
			require.Equal(t, tt.hash, r.Hash())
			b, err = binaryrow.BucketOfRow(r, tt.types, tt.buckets, binaryrow.BucketDefault)
			require.NoError(t, err)
			require.Equal(t, tt.bucket, b)
		})
	}
}

// TestBigIntKeySameBytesAsInt checks §6.2's note: BIGINT 1 and INT 1 give
// the same slot bytes, hence the same hash.
func TestBigIntKeySameBytesAsInt(t *testing.T) {
	a, err := binaryrow.Encode(data.Insert, types(tInt()), vals(int32(1)))
	require.NoError(t, err)
	b, err := binaryrow.Encode(data.Insert, types(tBigInt()), vals(int64(1)))
	require.NoError(t, err)
	require.Equal(t, a, b)
	// But a negative value differs: INT does not sign-extend into the slot.
	a, err = binaryrow.Encode(data.Insert, types(tInt()), vals(int32(-1)))
	require.NoError(t, err)
	b, err = binaryrow.Encode(data.Insert, types(tBigInt()), vals(int64(-1)))
	require.NoError(t, err)
	require.Equal(t, unhex(t, "0000000000000000 ffffffff00000000"), a)
	require.Equal(t, unhex(t, "0000000000000000 ffffffffffffffff"), b)
}

// TestNullNonCompactTrap covers §5.1's reservation for NULL DECIMAL(p>18)
// and TIMESTAMP(p>3): null bit set, slot = offset<<32, zeroed area kept.
func TestNullNonCompactTrap(t *testing.T) {
	tests := []struct {
		name string
		typ  schema.DataType
		want string
	}{
		{"DECIMAL(38,18)", tDecimal(38, 18), "0001000000000000 0000000010000000 00000000000000000000000000000000"},
		{"TIMESTAMP(6)", tTimestamp(6), "0001000000000000 0000000010000000 0000000000000000"},
		{"TIMESTAMP_LTZ(9)", tLTZ(9), "0001000000000000 0000000010000000 0000000000000000"},
		{"DECIMAL(18,2) compact", tDecimal(18, 2), "0001000000000000 0000000000000000"},
		{"TIMESTAMP(3) compact", tTimestamp(3), "0001000000000000 0000000000000000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			row, err := binaryrow.Encode(data.Insert, types(tt.typ), vals(nil))
			require.NoError(t, err)
			require.Equal(t, unhex(t, tt.want), row)
			kind, got, err := binaryrow.Decode(row, types(tt.typ))
			require.NoError(t, err)
			require.Equal(t, data.Insert, kind)
			require.Equal(t, vals(nil), got)
		})
	}

	// Java FixedBucketRowKeyExtractorTest.testUnCompactDecimalAndTimestampNullValueBucketNumber:
	// the extractor's projection and RowHelper agree, which needs the trap
	// in the middle of a row too.
	row, err := binaryrow.Encode(data.Insert,
		types(tDecimal(38, 18), tLTZ(6), tTimestamp(6), tInt()), vals(nil, nil, nil, int32(1)))
	require.NoError(t, err)
	require.Equal(t, unhex(t, "0007000000000000"+
		"0000000028000000"+"0000000038000000"+"0000000040000000"+"0100000000000000"+
		"00000000000000000000000000000000"+"0000000000000000"+"0000000000000000"), row)
}
