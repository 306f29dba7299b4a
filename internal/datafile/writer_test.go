package datafile_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/avrofile"
	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/memfs"
	"github.com/paimon-go/paimon-go/internal/datafile"
	"github.com/paimon-go/paimon-go/internal/memcheck"
)

const bucketDir = "wh/db.db/t/dt=1/bucket-0"

// wideRows are n rows of (id, 100-character text): enough bytes for
// Parquet pages (1 MiB) and Avro blocks (64000 bytes) to reach the sink.
func wideRows(from, n int) [][]any {
	rows := make([][]any, n)
	for i := range rows {
		id := int64(from + i)
		rows[i] = []any{id, fmt.Sprintf("%0100d", id*7919%1000003)}
	}
	return rows
}

var wideFields = []schema.DataField{col("id", schema.BigIntType().NotNull()), col("txt", schema.StringType())}

func TestRolling(t *testing.T) {
	tests := []struct {
		name     string
		opts     map[string]string
		ext      string
		rows     int
		minFiles int
	}{
		{"parquet", map[string]string{"file.compression": "none", "target-file-size": "1 mb"}, ".parquet", 40_000, 3},
		{"avro", map[string]string{"file.format": "avro", "file.compression": "null", "target-file-size": "128kb"}, ".avro", 6_000, 3},
		{"avro zstd", map[string]string{"file.format": "avro", "target-file-size": "16kb"}, ".avro", 6_000, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			mem := memcheck.New()
			t.Cleanup(func() { mem.AssertSize(t, 0) })
			fsys := memfs.New(nil)
			ts := tableSchema(t, tt.opts, wideFields...)
			w, err := datafile.NewWriter(datafile.Options{
				FS: fsys, Dir: bucketDir, Schema: ts, Allocator: mem, FirstSequence: 100,
				Now: func() time.Time { return clock },
			})
			require.NoError(t, err)
			// Batches of uneven sizes, some larger than the roll check.
			var want [][]any
			for from := 0; from < tt.rows; {
				n := min(tt.rows-from, 1+from%2500)
				rows := wideRows(from, n)
				require.NoError(t, w.Write(ctx, record(t, mem, wideFields, rows)))
				want = append(want, rows...)
				from += n
			}
			require.Equal(t, int64(100+tt.rows), w.NextSequence())
			metas, err := w.Close(ctx)
			require.NoError(t, err)
			require.GreaterOrEqual(t, len(metas), tt.minFiles)

			names := regexp.MustCompile(`^data-([0-9a-f-]{36})-(\d+)` + regexp.QuoteMeta(tt.ext) + `$`)
			var got [][]any
			seq := int64(100)
			uuid := ""
			for i, m := range metas {
				match := names.FindStringSubmatch(m.FileName)
				require.NotNil(t, match, m.FileName)
				if i == 0 {
					uuid = match[1]
				}
				require.Equal(t, uuid, match[1], "one uuid per writer")
				require.Equal(t, fmt.Sprint(i), match[2])
				require.Equal(t, seq, m.MinSequenceNumber, "file %d", i)
				require.Equal(t, seq+m.RowCount-1, m.MaxSequenceNumber)
				seq = m.MaxSequenceNumber + 1
				path := bucketDir + "/" + m.FileName
				fi, err := fsys.Stat(ctx, path)
				require.NoError(t, err)
				require.Equal(t, fi.Size, m.FileSize)
				rows := readRows(t, fsys, path, ts.Fields)
				require.Len(t, rows, int(m.RowCount))
				got = append(got, rows...)
				mins, maxs := decodeStats(t, ts.Fields, m.ValueStatsCols, m.ValueStats)
				require.Equal(t, rows[0][0], mins[0], "file %d: ids ascend", i)
				require.Equal(t, rows[len(rows)-1][0], maxs[0])
				if i < len(metas)-1 {
					require.Zero(t, m.RowCount%1000, "rolled at a size check")
				}
			}
			require.Equal(t, int64(100+tt.rows), seq)
			require.Equal(t, want, got)
		})
	}
}

func TestDataFileMeta(t *testing.T) {
	ctx := context.Background()
	fsys := memfs.New(nil)
	ts := tableSchema(t, nil, col("a", schema.IntType()))
	w, err := datafile.NewWriter(datafile.Options{FS: fsys, Dir: bucketDir, Schema: ts, FirstSequence: 7, Now: func() time.Time { return clock }})
	require.NoError(t, err)
	require.NoError(t, w.Write(ctx, record(t, nil, ts.Fields, [][]any{{int32(5)}, {nil}, {int32(-2)}})))
	metas, err := w.Close(ctx)
	require.NoError(t, err)
	require.Len(t, metas, 1)
	m := metas[0]
	created := manifest.CreationTimeMillis(clock)
	zero := int64(0)
	source := manifest.FileSourceAppend
	want := manifest.DataFileMeta{
		FileName:          m.FileName,
		FileSize:          m.FileSize,
		RowCount:          3,
		MinKey:            manifest.EmptyRow(),
		MaxKey:            manifest.EmptyRow(),
		KeyStats:          manifest.EmptyStats(),
		ValueStats:        m.ValueStats,
		MinSequenceNumber: 7,
		MaxSequenceNumber: 9,
		SchemaID:          3,
		ExtraFiles:        []string{},
		CreationTime:      &created,
		DeleteRowCount:    &zero,
		FileSource:        &source,
	}
	require.Equal(t, want, m)
	mins, maxs := decodeStats(t, ts.Fields, nil, m.ValueStats)
	require.Equal(t, []any{int32(-2)}, mins)
	require.Equal(t, []any{int32(5)}, maxs)
	require.Equal(t, counts(1), m.ValueStats.NullCounts)
	// Close again returns the same files; Write after Close is refused.
	again, err := w.Close(ctx)
	require.NoError(t, err)
	require.Equal(t, metas, again)
	require.ErrorIs(t, w.Write(ctx, record(t, nil, ts.Fields, [][]any{{int32(1)}})), datafile.ErrInvalid)
}

func TestNoRowsNoFile(t *testing.T) {
	ctx := context.Background()
	fsys := memfs.New(nil)
	ts := tableSchema(t, nil, col("a", schema.IntType()))
	w, err := datafile.NewWriter(datafile.Options{FS: fsys, Dir: bucketDir, Schema: ts})
	require.NoError(t, err)
	require.NoError(t, w.Write(ctx, record(t, nil, ts.Fields, nil)))
	metas, err := w.Close(ctx)
	require.NoError(t, err)
	require.Empty(t, metas)
	require.Empty(t, listDir(t, fsys, bucketDir))
}

// TestStats writes the same rows in both formats and checks what each
// keeps: Parquet (footer statistics) has nothing for nested columns, so
// dense store lists the others; Avro (Java's row collector) counts the
// nulls of every column. Strings are truncated to 16 code points.
func TestStats(t *testing.T) {
	long := strings.Repeat("z", 20)
	fields := []schema.DataField{
		col("id", schema.IntType().NotNull()),
		col("s", schema.StringType()),
		col("bin", schema.BytesType()),
		col("arr", schema.ArrayType(schema.IntType())),
		col("d", schema.DoubleType()),
		col("ts", schema.TimestampType(3)),
		col("dec", schema.DecimalType(20, 2)),
	}
	rows := [][]any{
		{int32(3), "b", []byte{9}, []any{int32(1)}, 1.5, data.Timestamp{Millis: 5}, data.NewDecimalFromInt64(-1, 20, 2)},
		{int32(-1), long, nil, nil, math.NaN(), nil, nil},
		{int32(2), nil, []byte{1}, []any{}, math.Copysign(0, -1), data.Timestamp{Millis: -3}, data.NewDecimalFromInt64(12345, 20, 2)},
	}
	truncated := strings.Repeat("z", 15) + "{"
	tests := []struct {
		format     string
		opts       map[string]string
		cols       []string
		nulls      []*int64
		mins, maxs []any
	}{
		{
			format: "parquet",
			cols:   []string{"id", "s", "bin", "d", "ts", "dec"},
			nulls:  counts(0, 1, 1, 0, 1, 1),
			mins:   []any{int32(-1), "b", nil, math.Copysign(0, -1), data.Timestamp{Millis: -3}, data.NewDecimalFromInt64(-1, 20, 2)},
			maxs:   []any{int32(3), truncated, nil, math.NaN(), data.Timestamp{Millis: 5}, data.NewDecimalFromInt64(12345, 20, 2)},
		},
		{
			format: "avro",
			nulls:  counts(0, 1, 1, 1, 0, 1, 1),
			mins:   []any{int32(-1), "b", nil, nil, math.Copysign(0, -1), data.Timestamp{Millis: -3}, data.NewDecimalFromInt64(-1, 20, 2)},
			maxs:   []any{int32(3), truncated, nil, nil, math.NaN(), data.Timestamp{Millis: 5}, data.NewDecimalFromInt64(12345, 20, 2)},
		},
		{
			format: "avro",
			opts:   map[string]string{"metadata.stats-mode": "counts", "fields.s.stats-mode": "full", "fields.arr.stats-mode": "none"},
			cols:   []string{"id", "s", "bin", "d", "ts", "dec"},
			nulls:  counts(0, 1, 1, 0, 1, 1),
			mins:   []any{nil, "b", nil, nil, nil, nil},
			maxs:   []any{nil, long, nil, nil, nil, nil},
		},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.format, tt.opts), func(t *testing.T) {
			ctx := context.Background()
			fsys := memfs.New(nil)
			opts := map[string]string{"file.format": tt.format}
			for k, v := range tt.opts {
				opts[k] = v
			}
			ts := tableSchema(t, opts, fields...)
			w, err := datafile.NewWriter(datafile.Options{FS: fsys, Dir: bucketDir, Schema: ts})
			require.NoError(t, err)
			require.NoError(t, w.Write(ctx, record(t, nil, ts.Fields, rows)))
			metas, err := w.Close(ctx)
			require.NoError(t, err)
			require.Len(t, metas, 1)
			m := metas[0]
			require.Equal(t, tt.cols, m.ValueStatsCols)
			require.Equal(t, tt.nulls, m.ValueStats.NullCounts)
			mins, maxs := decodeStats(t, ts.Fields, m.ValueStatsCols, m.ValueStats)
			require.Equal(t, fmt.Sprint(tt.mins), fmt.Sprint(mins)) // NaN != NaN for Equal
			require.Equal(t, fmt.Sprint(tt.maxs), fmt.Sprint(maxs))
			require.Equal(t, rows[0][0], readRows(t, fsys, bucketDir+"/"+m.FileName, ts.Fields)[0][0])
		})
	}
}

func TestAbort(t *testing.T) {
	for _, format := range []string{"parquet", "avro"} {
		for _, afterClose := range []bool{false, true} {
			t.Run(fmt.Sprint(format, afterClose), func(t *testing.T) {
				ctx := context.Background()
				mem := memcheck.New()
				t.Cleanup(func() { mem.AssertSize(t, 0) })
				fsys := memfs.New(nil)
				ts := tableSchema(t, map[string]string{"file.format": format, "target-file-size": "1b"}, wideFields...)
				w, err := datafile.NewWriter(datafile.Options{FS: fsys, Dir: bucketDir, Schema: ts, Allocator: mem})
				require.NoError(t, err)
				require.NoError(t, w.Write(ctx, record(t, mem, wideFields, wideRows(0, 2500))))
				require.Len(t, listDir(t, fsys, bucketDir), 2, "two files rolled, the third open")
				if afterClose {
					metas, err := w.Close(ctx)
					require.NoError(t, err)
					require.Len(t, metas, 3)
				}
				require.NoError(t, w.Abort(ctx))
				require.Empty(t, listDir(t, fsys, bucketDir))
				require.Error(t, w.Write(ctx, record(t, mem, wideFields, wideRows(0, 1))))
				_, err = w.Close(ctx)
				require.Error(t, err)
			})
		}
	}
}

// failingFS fails Create after the first `creates` calls.
type failingFS struct {
	fs.FS
	creates int
}

var errDisk = errors.New("disk full")

func (f *failingFS) Create(ctx context.Context, name string, opts *fs.CreateOptions) (fs.Writer, error) {
	if f.creates == 0 {
		return nil, errDisk
	}
	f.creates--
	return f.FS.Create(ctx, name, opts)
}

// TestFailureAborts checks that a failed write removes every file, as
// Java's rolling writer does, and that the error sticks.
func TestFailureAborts(t *testing.T) {
	ctx := context.Background()
	mem := memcheck.New()
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	inner := memfs.New(nil)
	ts := tableSchema(t, map[string]string{"target-file-size": "1b"}, wideFields...)
	w, err := datafile.NewWriter(datafile.Options{FS: &failingFS{FS: inner, creates: 2}, Dir: bucketDir, Schema: ts, Allocator: mem})
	require.NoError(t, err)
	err = w.Write(ctx, record(t, mem, wideFields, wideRows(0, 2500)))
	require.ErrorIs(t, err, errDisk)
	require.Empty(t, listDir(t, inner, bucketDir))
	require.ErrorIs(t, w.Write(ctx, record(t, mem, wideFields, wideRows(0, 1))), errDisk)
	_, err = w.Close(ctx)
	require.ErrorIs(t, err, errDisk)
}

// lostAckFS publishes every file but reports the first `lost` Closes as
// failed, as a store whose acknowledgement was lost would.
type lostAckFS struct {
	fs.FS
	lost int
}

var errLostAck = errors.New("connection reset after upload")

func (f *lostAckFS) Create(ctx context.Context, name string, opts *fs.CreateOptions) (fs.Writer, error) {
	w, err := f.FS.Create(ctx, name, opts)
	if err != nil {
		return nil, err
	}
	return &lostAckWriter{Writer: w, fs: f}, nil
}

type lostAckWriter struct {
	fs.Writer
	fs *lostAckFS
}

func (w *lostAckWriter) Close() error {
	if err := w.Writer.Close(); err != nil {
		return err
	}
	if w.fs.lost > 0 {
		w.fs.lost--
		return errLostAck
	}
	return nil
}

// TestLostAckAborts: a file whose publish reported an error although it
// landed is removed with the others (Java SingleFileWriter.abort deletes
// its path in any case), both when a roll fails and when Close does.
func TestLostAckAborts(t *testing.T) {
	for _, format := range []string{"parquet", "avro"} {
		t.Run(format, func(t *testing.T) {
			ctx := context.Background()
			inner := memfs.New(nil)
			ts := tableSchema(t, map[string]string{"file.format": format, "target-file-size": "1b"}, wideFields...)

			// The second roll's publish loses its acknowledgement.
			lfs := &lostAckFS{FS: inner}
			w, err := datafile.NewWriter(datafile.Options{FS: lfs, Dir: bucketDir, Schema: ts})
			require.NoError(t, err)
			require.NoError(t, w.Write(ctx, record(t, nil, wideFields, wideRows(0, 1000))))
			require.Len(t, listDir(t, inner, bucketDir), 1)
			lfs.lost = 1
			err = w.Write(ctx, record(t, nil, wideFields, wideRows(1000, 1000)))
			require.ErrorIs(t, err, errLostAck)
			require.Empty(t, listDir(t, inner, bucketDir), "the published file is removed too")

			// Close's publish loses its acknowledgement.
			lfs = &lostAckFS{FS: inner}
			w, err = datafile.NewWriter(datafile.Options{FS: lfs, Dir: bucketDir, Schema: ts})
			require.NoError(t, err)
			require.NoError(t, w.Write(ctx, record(t, nil, wideFields, wideRows(0, 10))))
			lfs.lost = 1
			_, err = w.Close(ctx)
			require.ErrorIs(t, err, errLostAck)
			require.Empty(t, listDir(t, inner, bucketDir))
		})
	}
}

func TestWriteErrors(t *testing.T) {
	ctx := context.Background()
	fsys := memfs.New(nil)
	ts := tableSchema(t, nil, col("a", schema.IntType().NotNull()), col("b", schema.StringType()))
	w, err := datafile.NewWriter(datafile.Options{FS: fsys, Dir: bucketDir, Schema: ts})
	require.NoError(t, err)
	tests := []struct {
		name string
		rec  arrow.RecordBatch
	}{
		{"wrong type", record(t, nil, []schema.DataField{col("a", schema.BigIntType()), col("b", schema.StringType())}, [][]any{{int64(1), "x"}})},
		{"too few columns", record(t, nil, []schema.DataField{col("a", schema.IntType())}, [][]any{{int32(1)}})},
		{"null in NOT NULL", record(t, nil, []schema.DataField{col("a", schema.IntType()), col("b", schema.StringType())}, [][]any{{nil, "x"}})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.ErrorIs(t, w.Write(ctx, tt.rec), datafile.ErrInvalid)
		})
	}
	// The writer is still usable; field names and metadata do not matter.
	good := record(t, nil, []schema.DataField{col("x", schema.IntType().NotNull()), col("y", schema.StringType())}, [][]any{{int32(1), "x"}})
	require.NoError(t, w.Write(ctx, good))
	metas, err := w.Close(ctx)
	require.NoError(t, err)
	require.Len(t, metas, 1)
	require.Equal(t, int64(1), metas[0].RowCount)
}

func TestOptionErrors(t *testing.T) {
	intCol := col("a", schema.IntType())
	tests := []struct {
		name string
		opts map[string]string
		cols []schema.DataField
		want error
	}{
		{"csv", map[string]string{"file.format": "csv"}, nil, datafile.ErrUnsupported},
		{"orc lzo", map[string]string{"file.format": "orc", "file.compression": "lzo"}, nil, datafile.ErrUnsupported},
		{"orc gzip", map[string]string{"file.format": "orc", "file.compression": "gzip"}, nil, datafile.ErrInvalid},
		{"orc.compress", map[string]string{"file.format": "orc", "orc.compress": "brotli"}, nil, datafile.ErrInvalid},
		{"orc stride", map[string]string{"file.format": "orc", "orc.row.index.stride": "10"}, nil, datafile.ErrInvalid},
		{"orc threshold", map[string]string{"file.format": "orc", "orc.dictionary.key.threshold": "2"}, nil, datafile.ErrInvalid},
		{"orc 0.11", map[string]string{"file.format": "orc", "orc.write.format": "0.11"}, nil, datafile.ErrUnsupported},
		{"orc variant", map[string]string{"file.format": "orc"}, []schema.DataField{col("a", schema.VariantType())}, datafile.ErrUnsupported},
		{"unknown parquet codec", map[string]string{"file.compression": "zip"}, nil, datafile.ErrInvalid},
		{"lzo", map[string]string{"file.compression": "lzo"}, nil, datafile.ErrUnsupported},
		{"bad parquet.compression", map[string]string{"parquet.compression": "none"}, nil, datafile.ErrInvalid},
		{"zstd level", map[string]string{"file.compression.zstd-level": "high"}, nil, datafile.ErrInvalid},
		{"parquet zstd level", map[string]string{"parquet.compression.codec.zstd.level": "x"}, nil, datafile.ErrInvalid},
		{"target size", map[string]string{"target-file-size": "12 parsecs"}, nil, datafile.ErrInvalid},
		{"block size", map[string]string{"parquet.block.size": "128mb"}, nil, datafile.ErrInvalid},
		{"file block size", map[string]string{"file.block-size": "0"}, nil, datafile.ErrInvalid},
		{"suffix flag", map[string]string{"file.suffix.include.compression": "yes"}, nil, datafile.ErrInvalid},
		{"stats mode", map[string]string{"metadata.stats-mode": "truncate(0)"}, nil, datafile.ErrInvalid},
		{"field stats mode", map[string]string{"fields.a.stats-mode": "most"}, nil, datafile.ErrInvalid},
		{"keep first n", map[string]string{"metadata.stats-keep-first-n-columns": "two"}, nil, datafile.ErrInvalid},
		{"dense store", map[string]string{"metadata.stats-dense-store": "1"}, nil, datafile.ErrInvalid},
		{"timestamp(9)", nil, []schema.DataField{col("a", schema.ArrayType(schema.TimestampType(9)))}, datafile.ErrUnsupported},
		{"avro variant", map[string]string{"file.format": "avro"}, []schema.DataField{col("a", schema.VariantType())}, datafile.ErrUnsupported},
		{"avro none", map[string]string{"file.format": "avro", "file.compression": "none"}, nil, datafile.ErrUnsupported},
		{"avro bzip2", map[string]string{"file.format": "avro", "file.compression": "bzip2"}, nil, datafile.ErrUnsupported},
		{"avro.codec zstd", map[string]string{"file.format": "avro", "avro.codec": "zstd"}, nil, datafile.ErrInvalid},
		{"avro time(6)", map[string]string{"file.format": "avro"}, []schema.DataField{col("a", schema.TimeType(6))}, datafile.ErrUnsupported},
		{"orc blob", map[string]string{"file.format": "orc"}, []schema.DataField{intCol, col("b", schema.BlobType())}, datafile.ErrUnsupported},
		{"nested blob", nil, []schema.DataField{col("b", schema.ArrayType(schema.BlobType()))}, datafile.ErrUnsupported},
		{"blob target size", map[string]string{"blob.target-file-size": "x"}, []schema.DataField{intCol, col("b", schema.BlobType())}, datafile.ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cols := tt.cols
			if cols == nil {
				cols = []schema.DataField{intCol}
			}
			ts := tableSchema(t, tt.opts, cols...)
			require.ErrorIs(t, datafile.Validate(ts), tt.want)
			_, err := datafile.NewWriter(datafile.Options{FS: memfs.New(nil), Dir: bucketDir, Schema: ts})
			require.ErrorIs(t, err, tt.want)
		})
	}
	t.Run("options", func(t *testing.T) {
		ts := tableSchema(t, nil, intCol)
		for _, o := range []datafile.Options{{Dir: bucketDir, Schema: ts}, {FS: memfs.New(nil), Dir: bucketDir}, {FS: memfs.New(nil), Dir: "/abs", Schema: ts}} {
			_, err := datafile.NewWriter(o)
			require.ErrorIs(t, err, datafile.ErrInvalid)
		}
	})
}

// TestFormatOptions checks file names and what the options put into the
// files: the codec (read back from the file) and Parquet row groups.
func TestFormatOptions(t *testing.T) {
	tests := []struct {
		opts      map[string]string
		name      string // file name pattern after the uuid
		codec     string // Parquet codec of every column chunk, or Avro codec
		rowGroups int    // Parquet: at least
		rows      int    // 0: 2000; more for row groups to fill pages
	}{
		{nil, `-0\.parquet`, "ZSTD", 1, 0},
		{map[string]string{"file.suffix.include.compression": "true"}, `-0\.zst\.parquet`, "ZSTD", 1, 0},
		{map[string]string{"file.suffix.include.compression": "TRUE", "file.compression": "none"}, `-0\.parquet`, "UNCOMPRESSED", 1, 0},
		{map[string]string{"file.suffix.include.compression": "true", "file.compression": "snappy"}, `-0\.snappy\.parquet`, "SNAPPY", 1, 0},
		{map[string]string{"file.suffix.include.compression": "true", "file.compression": "lz4_raw"}, `-0\.lz4_raw\.parquet`, "LZ4_RAW", 1, 0},
		{map[string]string{"file.suffix.include.compression": "true", "file.compression": "lz4"}, `-0\.lz4\.parquet`, "LZ4", 1, 0},
		{map[string]string{"file.compression": "gzip", "parquet.compression": "snappy"}, `-0\.parquet`, "SNAPPY", 1, 0},
		{map[string]string{"file.compression": "none", "parquet.block.size": "100000"}, `-0\.parquet`, "UNCOMPRESSED", 3, 30_000},
		{map[string]string{"file.compression": "none", "parquet.block.size": "1", "file.block-size": "1 gb"}, `-0\.parquet`, "UNCOMPRESSED", 1, 30_000},
		{map[string]string{"data-file.prefix": "part-"}, `-0\.parquet`, "ZSTD", 1, 0},
		{map[string]string{"file.format": "avro"}, `-0\.avro`, "zstandard", 0, 0},
		{map[string]string{"file.format": "AVRO", "file.compression": "snappy", "file.suffix.include.compression": "true"}, `-0\.snappy\.avro`, "snappy", 0, 0},
		{map[string]string{"file.format": "avro", "file.compression": "null", "file.suffix.include.compression": "true"}, `-0\.null\.avro`, "null", 0, 0},
		{map[string]string{"file.format": "avro", "file.compression": "deflate", "avro.codec": "snappy"}, `-0\.avro`, "snappy", 0, 0},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.opts), func(t *testing.T) {
			ctx := context.Background()
			fsys := memfs.New(nil)
			ts := tableSchema(t, tt.opts, wideFields...)
			w, err := datafile.NewWriter(datafile.Options{FS: fsys, Dir: bucketDir, Schema: ts})
			require.NoError(t, err)
			n := tt.rows
			if n == 0 {
				n = 2000
			}
			rows := wideRows(0, n)
			require.NoError(t, w.Write(ctx, record(t, nil, wideFields, rows)))
			metas, err := w.Close(ctx)
			require.NoError(t, err)
			require.Len(t, metas, 1)
			prefix := "data-"
			if p, ok := tt.opts["data-file.prefix"]; ok {
				prefix = p
			}
			require.Regexp(t, `^`+prefix+`[0-9a-f-]{36}`+tt.name+`$`, metas[0].FileName)
			path := bucketDir + "/" + metas[0].FileName
			raw, err := fs.ReadFile(ctx, fsys, path)
			require.NoError(t, err)
			if tt.rowGroups == 0 {
				r, err := avrofile.Open(ctx, bytes.NewReader(raw), int64(len(raw)), nil)
				require.NoError(t, err)
				require.Equal(t, tt.codec, r.Codec())
			} else {
				r, err := file.NewParquetReader(bytes.NewReader(raw))
				require.NoError(t, err)
				require.GreaterOrEqual(t, r.NumRowGroups(), tt.rowGroups)
				if tt.rowGroups == 1 {
					require.Equal(t, 1, r.NumRowGroups())
				}
				for g := range r.NumRowGroups() {
					cc, err := r.MetaData().RowGroup(g).ColumnChunk(0)
					require.NoError(t, err)
					require.Equal(t, tt.codec, strings.ToUpper(cc.Compression().String()))
				}
				require.Equal(t, "paimon_schema", r.MetaData().Schema.Root().Name())
			}
			require.Equal(t, rows, readRows(t, fsys, path, ts.Fields))
		})
	}
}

// TestSharedNames checks that writers given one FileNames number their
// files on, and RowGroupRows fixes Parquet row groups.
func TestSharedNamesAndRowGroups(t *testing.T) {
	ctx := context.Background()
	fsys := memfs.New(nil)
	ts := tableSchema(t, nil, wideFields...)
	names := datafile.NewFileNames()
	var got []string
	for i := range 2 {
		w, err := datafile.NewWriter(datafile.Options{FS: fsys, Dir: bucketDir, Schema: ts, Names: names, RowGroupRows: 3, TargetFileSize: math.MaxInt64})
		require.NoError(t, err)
		require.NoError(t, w.Write(ctx, record(t, nil, wideFields, wideRows(i*10, 10))))
		metas, err := w.Close(ctx)
		require.NoError(t, err)
		require.Len(t, metas, 1)
		got = append(got, metas[0].FileName)
		raw, err := fs.ReadFile(ctx, fsys, bucketDir+"/"+metas[0].FileName)
		require.NoError(t, err)
		r, err := file.NewParquetReader(bytes.NewReader(raw))
		require.NoError(t, err)
		require.Equal(t, 4, r.NumRowGroups())
	}
	require.Equal(t, []string{"data-" + names.UUID() + "-0.parquet", "data-" + names.UUID() + "-1.parquet"}, got)
}
