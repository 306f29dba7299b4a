package paimon

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/javacompat"
)

func TestFormatIdentifier(t *testing.T) {
	for _, tt := range []struct{ name, want string }{
		{"data-1.parquet", "parquet"},
		{"data-1.zst.parquet", "parquet"},
		{"data-1.orc", "orc"},
		{"data-1.avro.zst", "avro"},
		{"data-1.GZ", ""},
		{"noext", ""},
	} {
		got, err := formatIdentifier(tt.name)
		if tt.want == "" {
			require.ErrorIs(t, err, ErrCorrupt, tt.name)
			continue
		}
		require.NoError(t, err, tt.name)
		require.Equal(t, tt.want, got, tt.name)
	}
}

func TestJavaObjectText(t *testing.T) {
	for _, tt := range []struct {
		v    any
		typ  schema.DataType
		want string
	}{
		{nil, schema.IntType(), "null"},
		{[]byte{0xca, 0xfe}, schema.BytesType(), "X'CAFE'"},
		{int32(19782), schema.DateType(), "19782"},
		{float32(math.Copysign(0, -1)), schema.FloatType(), "-0.0"},
		{1e10, schema.DoubleType(), "1.0E10"},
	} {
		require.Equal(t, tt.want, javaObjectText(tt.v, tt.typ))
	}
	require.Negative(t, javacompat.CompareStrings("Z", "a"))
	require.Negative(t, javacompat.CompareStrings("a", "ab"))
	// U+1F600 sorts after U+FF5E in UTF-8 but before it in UTF-16.
	require.True(t, "\uff5e" < "\U0001F600")
	require.Negative(t, javacompat.CompareStrings("\U0001F600", "\uff5e"))
}

func TestJavaDuration(t *testing.T) {
	for _, tt := range []struct {
		d    time.Duration
		want string
	}{
		{0, "PT0S"},
		{time.Hour, "PT1H"},
		{90 * time.Minute, "PT1H30M"},
		{24*time.Hour + 2*time.Second, "PT24H2S"},
		{61 * time.Second, "PT1M1S"},
		{1500 * time.Millisecond, "PT1.5S"},
		{time.Nanosecond, "PT0.000000001S"},
		{-500 * time.Millisecond, "PT-0.5S"},
		{-1500 * time.Millisecond, "PT-1.5S"},
		{-90 * time.Second, "PT-1M-30S"},
	} {
		require.Equal(t, tt.want, javaDuration(tt.d))
	}
}

// TestJavaOptionOrder checks the HashMap iteration order the system tables
// list options in against orders Java's $schemas printed in the golden
// corpus.
func TestJavaOptionOrder(t *testing.T) {
	order := func(keys ...string) []string {
		m := javacompat.NewStringMap()
		for _, k := range keys {
			m.Put(k, "")
		}
		return m.Keys()
	}
	require.Equal(t, []string{"bucket", "file.format"}, order("file.format", "bucket"))
	require.Equal(t, []string{
		"bucket", "fields.total.aggregate-function", "fields.last.aggregate-function", "merge-engine",
		"file.format", "fields.names.aggregate-function", "fields.mx.aggregate-function",
	}, order("bucket", "merge-engine", "fields.total.aggregate-function", "fields.last.aggregate-function",
		"fields.names.aggregate-function", "fields.mx.aggregate-function", "file.format"))
	require.Empty(t, order())
}

// TestPartitionText covers the renderings of partition values that the
// golden tables do not have.
func TestPartitionText(t *testing.T) {
	src := &systemSource{opts: &SystemTableOptions{TimeZone: time.UTC}}
	fields := []schema.DataField{
		{ID: 0, Name: "s", Type: schema.StringType()},
		{ID: 1, Name: "n", Type: schema.IntType()},
	}
	types := []schema.DataType{fields[0].Type, fields[1].Type}
	for _, tt := range []struct {
		vals            []any
		row, spec, dflt string
	}{
		{[]any{"a", int32(1)}, "{a, 1}", "s=a/n=1", defaultPartitionName},
		{[]any{nil, int32(-5)}, "{null, -5}", "s=__DEFAULT_PARTITION__/n=-5", defaultPartitionName},
		{[]any{" ", nil}, "{ , null}", "s=X/n=X", "X"},
	} {
		b, err := binaryrow.Encode(0, types, tt.vals)
		require.NoError(t, err)
		ser := binaryrow.MarshalSerialized(b, len(types))
		got, err := src.partitionRowText(ser, fields)
		require.NoError(t, err)
		require.Equal(t, tt.row, got)
		spec, err := src.partitionSpecText(ser, fields, tt.dflt)
		require.NoError(t, err)
		require.Equal(t, tt.spec, spec)
	}
	got, err := src.partitionRowText(binaryrow.EmptySerialized(), nil)
	require.NoError(t, err)
	require.Equal(t, "{}", got)
	_, err = src.partitionRowText([]byte{0, 0}, fields)
	require.Error(t, err, "a truncated row is an error, not a panic")
}
