package parquet_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	pq "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/memcheck"
)

// writeArrow writes one record of an arbitrary Arrow schema (no Paimon field
// ids unless the schema carries them), as a foreign writer would.
func writeArrow(t *testing.T, sc *arrow.Schema, build func(b *array.RecordBuilder), props ...pq.WriterProperty) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := pqarrow.NewFileWriter(sc, &buf, pq.NewWriterProperties(props...), pqarrow.DefaultWriterProps())
	require.NoError(t, err)
	b := array.NewRecordBuilder(memcheck.New(), sc)
	defer b.Release()
	build(b)
	rec := b.NewRecordBatch()
	defer rec.Release()
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
	return buf.Bytes()
}

// readAll reads fields from a file and returns the rows as data values.
func readAll(t *testing.T, file []byte, fields []schema.DataField, req *parquet.ReadRequest) ([][]any, error) {
	t.Helper()
	ctx := context.Background()
	r, err := parquet.Open(ctx, bytes.NewReader(file), int64(len(file)), &parquet.ReadOptions{Name: "mem.parquet"})
	if err != nil {
		return nil, err
	}
	var rows [][]any
	for rec, err := range r.Read(ctx, fields, req) {
		if err != nil {
			return nil, err
		}
		for i := 0; i < int(rec.NumRows()); i++ {
			row := make([]any, len(fields))
			for c, f := range fields {
				v, err := parquet.ArrowValue(rec.Column(c), i, f.Type)
				if err != nil {
					rec.Release()
					return nil, err
				}
				row[c] = v
			}
			rows = append(rows, row)
		}
		rec.Release()
	}
	return rows, nil
}

func TestForeignFileConversions(t *testing.T) {
	// A file without field ids and with physical types other than Java's.
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "b", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond}, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.Binary, Nullable: true},
		{Name: "t", Type: arrow.FixedWidthTypes.Time64us, Nullable: true},
		{Name: "blob", Type: arrow.BinaryTypes.Binary, Nullable: true},
	}, nil)
	file := writeArrow(t, sc, func(b *array.RecordBuilder) {
		b.Field(0).(*array.Int32Builder).AppendValues([]int32{-128, 127}, nil)
		b.Field(1).(*array.Int32Builder).AppendValues([]int32{-32768, 5}, []bool{true, false})
		b.Field(2).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{-1, 1_500_123}, nil)
		b.Field(3).(*array.BinaryBuilder).AppendValues([][]byte{[]byte("hé"), nil}, []bool{true, false})
		b.Field(4).(*array.Time64Builder).AppendValues([]arrow.Time64{1_999, 86_399_999_999}, nil)
		b.Field(5).(*array.BinaryBuilder).AppendValues([][]byte{{1, 2}, {}}, nil)
	})
	f := func(id int, name string, typ schema.DataType) schema.DataField {
		return schema.DataField{ID: id, Name: name, Type: typ}
	}
	tests := []struct {
		name   string
		fields []schema.DataField
		want   [][]any
	}{
		{"narrowing", []schema.DataField{f(10, "a", schema.TinyIntType()), f(11, "b", schema.SmallIntType())},
			[][]any{{int8(-128), int16(-32768)}, {int8(127), nil}}},
		{"timestamp to millis floors", []schema.DataField{f(1, "ts", schema.TimestampType(3))},
			[][]any{{data.Timestamp{Millis: -1}}, {data.Timestamp{Millis: 1500}}}},
		{"timestamp to nanos", []schema.DataField{f(1, "ts", schema.TimestampType(9))},
			[][]any{{data.Timestamp{Millis: -1, NanoOfMilli: 999_000}}, {data.Timestamp{Millis: 1500, NanoOfMilli: 123_000}}}},
		{"ltz relabel", []schema.DataField{f(1, "ts", schema.DataType{Root: schema.TimestampLTZ, Nullable: true, Precision: 6})},
			[][]any{{data.Timestamp{Millis: -1, NanoOfMilli: 999_000}}, {data.Timestamp{Millis: 1500, NanoOfMilli: 123_000}}}},
		{"binary as string", []schema.DataField{f(2, "s", schema.StringType())}, [][]any{{"hé"}, {nil}}},
		{"time micros to millis", []schema.DataField{f(3, "t", schema.TimeType(3))}, [][]any{{int32(1)}, {int32(86_399_999)}}},
		{"blob", []schema.DataField{f(4, "blob", schema.DataType{Root: schema.Blob, Nullable: true})}, [][]any{{[]byte{1, 2}}, {[]byte{}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mem := memcheck.New()
			defer mem.AssertSize(t, 0)
			got, err := readAll(t, file, tc.fields, &parquet.ReadRequest{Allocator: mem})
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
}

func TestNarrowingOutOfRange(t *testing.T) {
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	sc := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int32}}, nil)
	file := writeArrow(t, sc, func(b *array.RecordBuilder) {
		b.Field(0).(*array.Int32Builder).AppendValues([]int32{1, 300}, nil)
	})
	_, err := readAll(t, file, []schema.DataField{{ID: 0, Name: "a", Type: schema.TinyIntType()}}, &parquet.ReadRequest{Allocator: mem})
	require.ErrorIs(t, err, parquet.ErrCorrupt)
}

func TestIncompatibleType(t *testing.T) {
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	sc := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.BinaryTypes.String}}, nil)
	file := writeArrow(t, sc, func(b *array.RecordBuilder) {
		b.Field(0).(*array.StringBuilder).Append("x")
	})
	_, err := readAll(t, file, []schema.DataField{{ID: 0, Name: "a", Type: schema.IntType()}}, &parquet.ReadRequest{Allocator: mem})
	require.ErrorIs(t, err, parquet.ErrSchema)
}

func TestRowGroupsAndStats(t *testing.T) {
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	fields := benchFields()
	file := writeFile(t, fields, 2500, pq.WithMaxRowGroupLength(1000))
	ctx := context.Background()
	r, err := parquet.Open(ctx, bytes.NewReader(file), int64(len(file)), nil)
	require.NoError(t, err)
	require.Equal(t, int64(2500), r.NumRows())
	rgs := r.RowGroups()
	require.Len(t, rgs, 3)
	require.Equal(t, []int64{1000, 1000, 500}, []int64{rgs[0].NumRows, rgs[1].NumRows, rgs[2].NumRows})
	id := rgs[1].Columns[0]
	require.Equal(t, "id", id.Path)
	require.True(t, id.HasMinMax)
	require.Equal(t, int64(1000), int64(binary.LittleEndian.Uint64(id.Min)))
	require.Equal(t, int64(1999), int64(binary.LittleEndian.Uint64(id.Max)))
	require.True(t, rgs[0].Columns[1].HasNullCount)
	require.Equal(t, int64(100), rgs[0].Columns[1].NullCount)

	rows, err := readAll(t, file, fields[:1], &parquet.ReadRequest{RowGroups: []int{2, 0}, BatchSize: 300, Allocator: mem})
	require.NoError(t, err)
	require.Len(t, rows, 1500)
	require.Equal(t, int64(2000), rows[0][0])
	require.Equal(t, int64(0), rows[500][0])

	_, err = readAll(t, file, fields[:1], &parquet.ReadRequest{RowGroups: []int{3}, Allocator: mem})
	require.Error(t, err)
}

func TestInt96Nanos(t *testing.T) {
	enc := func(nanos int64, jday uint32) []byte {
		b := make([]byte, 12)
		binary.LittleEndian.PutUint64(b, uint64(nanos))
		binary.LittleEndian.PutUint32(b[8:], jday)
		return b
	}
	tests := []struct {
		name  string
		in    []byte
		want  int64
		valid bool
	}{
		{"epoch", enc(0, 2440588), 0, true},
		{"java negative nanos of day", enc(-1, 2440588), -1, true},
		{"day before", enc(86_399_999_999_999, 2440587), -1, true},
		{"max", enc(85_636_854_775_807, 2440588+106751), 9223372036854775807, true},
		{"overflow", enc(85_636_854_775_808, 2440588+106751), 0, false},
		{"far past", enc(0, 0), 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := parquet.Int96Nanos(tc.in)
			require.Equal(t, tc.valid, ok)
			if ok {
				require.Equal(t, tc.want, got)
			}
		})
	}
}

func TestCorruptFiles(t *testing.T) {
	good, err := os.ReadFile(firstGoldenFile(t))
	require.NoError(t, err)
	ts := latestSchema(t, goldenTables[0].dir())
	tests := []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"garbage", []byte("this is not a parquet file at all")},
		{"truncated footer", good[:len(good)-10]},
		{"no magic", append(append([]byte{}, good[:len(good)-4]...), 'X', 'X', 'X', 'X')},
		{"zeroed pages", func() []byte {
			b := append([]byte{}, good...)
			for i := 4; i < len(b)/2; i++ {
				b[i] = 0
			}
			return b
		}()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mem := memcheck.New()
			defer mem.AssertSize(t, 0)
			_, err := readAll(t, tc.data, ts.Fields, &parquet.ReadRequest{Allocator: mem})
			require.Error(t, err)
			require.True(t, errors.Is(err, parquet.ErrCorrupt), "err %v", err)
		})
	}
}

func firstGoldenFile(t testing.TB) string {
	files, err := filepath.Glob(filepath.Join(goldenTables[0].dir(), "bucket-*", "*.parquet"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	return files[0]
}
