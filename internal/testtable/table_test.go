package testtable_test

import (
	"bytes"
	"context"
	"errors"
	iofs "io/fs"
	"math"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/memfs"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/internal/testtable"
)

func mixedSchema(t *testing.T) *schema.TableSchema {
	return newSchema(t, func(b *schema.SchemaBuilder) {
		b.Column("dt", schema.StringType()).
			Column("id", schema.BigIntType().NotNull()).
			Column("name", schema.StringType()).
			Column("amount", schema.DecimalType(18, 2)).
			Column("ts", schema.TimestampType(6)).
			Column("day", schema.DateType()).
			Column("score", schema.DoubleType()).
			Column("tags", schema.ArrayType(schema.StringType())).
			PartitionKeys("dt")
	})
}

func TestCommitRoundTrip(t *testing.T) {
	ctx := context.Background()
	mem := memcheck.New()
	t.Cleanup(func() { mem.AssertSize(t, 0) }) // after the batches' cleanups
	fsys := memfs.New(nil)
	ts := mixedSchema(t)
	tbl, err := testtable.Create(ctx, fsys, "wh/db.db/t", ts)
	require.NoError(t, err)
	tbl.SetAllocator(mem)
	clock := time.Date(2025, 6, 7, 8, 9, 10, 0, time.UTC)
	tbl.SetClock(func() time.Time { return clock })

	long := "abcdefghijklmnopqrstuvwxyz"
	rowsA := [][]any{
		{"2024-01-01", int64(3), "x", dec(1050, 18, 2), data.TimestampFromMicros(1_700_000_000_000_001), int32(19800), 1.5, []any{"a"}},
		{"2024-01-01", int64(-7), long, nil, nil, int32(19700), math.Inf(-1), nil},
		{"2024-01-01", int64(10), nil, dec(-99, 18, 2), data.TimestampFromMicros(-5), nil, nil, []any{}},
	}
	rowsB := [][]any{{"2024-01-02", int64(1), "b", dec(0, 18, 2), data.TimestampFromMicros(0), int32(0), 0.0, []any{"q", nil}}}
	rowsC := [][]any{{"2024-01-01", int64(100), "zz", dec(1, 18, 2), nil, int32(1), math.Copysign(0, -1), nil}}

	res1, err := tbl.Commit(ctx,
		testtable.DataFile{Partition: []any{"2024-01-01"}, Records: []arrow.RecordBatch{record(t, mem, ts.Fields, rowsA[:1]), record(t, mem, ts.Fields, rowsA[1:])}},
		testtable.DataFile{Partition: []any{"2024-01-02"}, Records: []arrow.RecordBatch{record(t, mem, ts.Fields, rowsB)}},
	)
	require.NoError(t, err)
	res2, err := tbl.Commit(ctx, testtable.DataFile{Partition: []any{"2024-01-01"}, Records: []arrow.RecordBatch{record(t, mem, ts.Fields, rowsC)}})
	require.NoError(t, err)
	require.Equal(t, res2.Snapshot, tbl.Latest())

	t.Run("schema", func(t *testing.T) {
		raw, err := fs.ReadFile(ctx, fsys, "wh/db.db/t/schema/schema-0")
		require.NoError(t, err)
		got, err := schema.Decode(raw)
		require.NoError(t, err)
		want, err := ts.Encode()
		require.NoError(t, err)
		require.Equal(t, string(want), string(raw))
		require.Equal(t, ts.Fields, got.Fields)
	})

	t.Run("snapshots and hints", func(t *testing.T) {
		for _, c := range []struct {
			id           int64
			total, delta int64
			res          *testtable.CommitResult
			base         []manifest.ManifestFileMeta
		}{
			{1, 4, 4, res1, nil},
			{2, 5, 1, res2, []manifest.ManifestFileMeta{res1.Manifest}},
		} {
			raw, err := fs.ReadFile(ctx, fsys, "wh/db.db/t/snapshot/snapshot-"+string(rune('0'+c.id)))
			require.NoError(t, err)
			s, err := snapshot.Decode(raw)
			require.NoError(t, err)
			require.Equal(t, c.res.Snapshot, s)
			require.Equal(t, c.id, s.ID)
			require.Equal(t, int64(0), s.SchemaID)
			require.Equal(t, snapshot.CommitAppend, s.CommitKind)
			require.Equal(t, snapshot.BatchCommitIdentifier, s.CommitIdentifier)
			require.Equal(t, c.total, s.TotalRecordCount)
			require.Equal(t, c.delta, s.DeltaRecordCount)
			require.Equal(t, clock.UnixMilli(), s.TimeMillis)
			require.NotNil(t, s.NextRowID)
			require.Zero(t, *s.NextRowID)
			require.Nil(t, s.IndexManifest)
			require.Nil(t, s.ChangelogManifestList)

			base := readList(t, fsys, s.BaseManifestList)
			require.Equal(t, int64(len(mustRead(t, fsys, "wh/db.db/t/manifest/"+s.BaseManifestList))), *s.BaseManifestListSize)
			require.Equal(t, len(c.base), len(base))
			for i := range c.base {
				require.Equal(t, c.base[i], base[i])
			}
			delta := readList(t, fsys, s.DeltaManifestList)
			require.Equal(t, []manifest.ManifestFileMeta{c.res.Manifest}, delta)
		}
		for hint, want := range map[string]string{"LATEST": "2", "EARLIEST": "1"} {
			require.Equal(t, want, string(mustRead(t, fsys, "wh/db.db/t/snapshot/"+hint)))
		}
	})

	t.Run("manifests", func(t *testing.T) {
		for _, res := range []*testtable.CommitResult{res1, res2} {
			raw := mustRead(t, fsys, "wh/db.db/t/manifest/"+res.Manifest.FileName)
			require.Equal(t, int64(len(raw)), res.Manifest.FileSize)
			entries, err := manifest.ReadManifest(bytes.NewReader(raw))
			require.NoError(t, err)
			require.Equal(t, res.Entries, entries)
			require.Equal(t, int64(len(entries)), res.Manifest.NumAddedFiles)
			require.Zero(t, res.Manifest.NumDeletedFiles)
			require.Equal(t, int32(0), *res.Manifest.MinBucket)
			require.Equal(t, int32(0), *res.Manifest.MaxLevel)
			require.Nil(t, res.Manifest.MinRowID)
		}
		mins, maxs := decodeStats(t, ts.PartitionFields(), nil, res1.Manifest.PartitionStats)
		require.Equal(t, []any{"2024-01-01"}, mins)
		require.Equal(t, []any{"2024-01-02"}, maxs)
		require.Equal(t, counts(0), res1.Manifest.PartitionStats.NullCounts)
		require.Regexp(t, `^manifest-[0-9a-f-]{36}-1$`, res2.Manifest.FileName)
	})

	t.Run("data files", func(t *testing.T) {
		nameRE := regexp.MustCompile(`^wh/db\.db/t/dt=2024-01-0[12]/bucket-0/data-([0-9a-f-]{36})-(\d)\.parquet$`)
		m1 := nameRE.FindStringSubmatch(res1.Paths[0])
		m3 := nameRE.FindStringSubmatch(res2.Paths[0])
		require.NotNil(t, m1, res1.Paths[0])
		require.NotNil(t, m3, res2.Paths[0])
		require.Equal(t, m1[1], m3[1], "one writer uuid per partition and bucket")
		require.Equal(t, []string{"0", "1"}, []string{m1[2], m3[2]})
		require.Regexp(t, nameRE, res1.Paths[1])

		for i, want := range [][][]any{rowsA, rowsB} {
			require.Equal(t, canonRows(t, ts.Fields, want), canonRows(t, ts.Fields, readRows(t, fsys, res1.Paths[i], ts.Fields)))
			require.True(t, strings.HasSuffix(res1.Paths[i], res1.Entries[i].File.FileName))
		}
		require.Equal(t, canonRows(t, ts.Fields, rowsC), canonRows(t, ts.Fields, readRows(t, fsys, res2.Paths[0], ts.Fields)))
	})

	t.Run("data file meta", func(t *testing.T) {
		e := res1.Entries[0]
		f := e.File
		require.Equal(t, manifest.FileKindAdd, e.Kind)
		require.Equal(t, int32(0), e.Bucket)
		require.Equal(t, int32(-1), e.TotalBuckets)
		row, err := binaryrow.Encode(data.Insert, []schema.DataType{schema.StringType()}, []any{"2024-01-01"})
		require.NoError(t, err)
		require.Equal(t, binaryrow.MarshalSerialized(row, 1), e.Partition)
		require.Equal(t, int64(3), f.RowCount)
		require.Equal(t, int64(len(mustRead(t, fsys, res1.Paths[0]))), f.FileSize)
		require.Equal(t, manifest.EmptyRow(), f.MinKey)
		require.Equal(t, manifest.EmptyStats(), f.KeyStats)
		require.Equal(t, [2]int64{0, 2}, [2]int64{f.MinSequenceNumber, f.MaxSequenceNumber})
		require.Equal(t, int64(0), *f.DeleteRowCount)
		require.Equal(t, manifest.FileSourceAppend, *f.FileSource)
		require.Equal(t, []string{}, f.ExtraFiles)
		require.Equal(t, manifest.CreationTimeMillis(clock), *f.CreationTime)
		require.Equal(t, [2]int64{0, 0}, [2]int64{res1.Entries[1].File.MinSequenceNumber, res1.Entries[1].File.MaxSequenceNumber})

		// The ARRAY column has no statistics, so dense storage names the
		// others; strings are truncated to 16 code points, the maximum
		// rounded up.
		require.Equal(t, []string{"dt", "id", "name", "amount", "ts", "day", "score"}, f.ValueStatsCols)
		mins, maxs := decodeStats(t, ts.Fields, f.ValueStatsCols, f.ValueStats)
		require.Equal(t, []any{"2024-01-01", int64(-7), "abcdefghijklmnop", dec(-99, 18, 2), data.TimestampFromMicros(-5), int32(19700), math.Inf(-1)}, mins)
		require.Equal(t, []any{"2024-01-01", int64(10), "x", dec(1050, 18, 2), data.TimestampFromMicros(1_700_000_000_000_001), int32(19800), 1.5}, maxs)
		require.Equal(t, counts(0, 0, 1, 1, 1, 1, 1), f.ValueStats.NullCounts)

		// -0.0 is below +0.0 in Java's Double.compare.
		_, maxs = decodeStats(t, ts.Fields, res2.Entries[0].File.ValueStatsCols, res2.Entries[0].File.ValueStats)
		require.True(t, math.Signbit(maxs[6].(float64)))
	})

	t.Run("parquet footer", func(t *testing.T) {
		raw := mustRead(t, fsys, res1.Paths[0])
		r, err := file.NewParquetReader(bytes.NewReader(raw))
		require.NoError(t, err)
		sc := r.MetaData().Schema
		require.Equal(t, "paimon_schema", sc.Root().Name())
		for i, f := range ts.Fields {
			require.Equal(t, int32(f.ID), sc.Root().Field(i).FieldID(), f.Name)
		}
		amount := sc.Column(sc.ColumnIndexByName("amount"))
		require.Equal(t, "INT64", amount.PhysicalType().String())
		cc, err := r.MetaData().RowGroup(0).ColumnChunk(0)
		require.NoError(t, err)
		require.Equal(t, compress.Codecs.Zstd, cc.Compression())
	})
}

func readList(t *testing.T, fsys fs.FS, name string) []manifest.ManifestFileMeta {
	t.Helper()
	metas, err := manifest.ReadManifestList(bytes.NewReader(mustRead(t, fsys, "wh/db.db/t/manifest/"+name)))
	require.NoError(t, err)
	return metas
}

func mustRead(t *testing.T, fsys fs.FS, name string) []byte {
	t.Helper()
	b, err := fs.ReadFile(context.Background(), fsys, name)
	require.NoError(t, err)
	return b
}

func TestPartitionDirectories(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name    string
		keys    []schema.DataField
		options map[string]string
		values  []any
		want    string
	}{
		{"string and int", []schema.DataField{schema.NewField(10, "dt", schema.StringType()), schema.NewField(11, "hr", schema.IntType())},
			nil, []any{"2024-01-01", int32(7)}, "dt=2024-01-01/hr=7/"},
		{"escaped", []schema.DataField{schema.NewField(10, "k", schema.StringType())}, nil, []any{"a/b:c=d%e f#"}, "k=a%2Fb%3Ac%3Dd%25e f%23/"},
		{"null and blank use the default name", []schema.DataField{schema.NewField(10, "a", schema.StringType()), schema.NewField(11, "b", schema.StringType())},
			nil, []any{nil, " \t"}, "a=__DEFAULT_PARTITION__/b=__DEFAULT_PARTITION__/"},
		{"custom default name", []schema.DataField{schema.NewField(10, "a", schema.IntType())},
			map[string]string{"partition.default-name": "NULL"}, []any{nil}, "a=NULL/"},
		{"legacy date is a day number", []schema.DataField{schema.NewField(10, "d", schema.DateType())}, nil, []any{int32(19857)}, "d=19857/"},
		{"date without legacy names", []schema.DataField{schema.NewField(10, "d", schema.DateType())},
			map[string]string{"partition.legacy-name": "false"}, []any{int32(19857)}, "d=2024-05-14/"},
		{"timestamp as LocalDateTime", []schema.DataField{schema.NewField(10, "t", schema.TimestampType(3))}, nil,
			[]any{data.Timestamp{Millis: time.Date(2024, 5, 14, 10, 0, 0, 0, time.UTC).UnixMilli()}}, "t=2024-05-14T10%3A00/"},
		{"decimal and boolean", []schema.DataField{schema.NewField(10, "x", schema.DecimalType(5, 2)), schema.NewField(11, "b", schema.BooleanType())},
			nil, []any{dec(-50, 5, 2), true}, "x=-0.50/b=true/"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fields := append([]schema.DataField{schema.NewField(0, "v", schema.IntType())}, tt.keys...)
			ts := newSchema(t, func(b *schema.SchemaBuilder) {
				for _, f := range fields {
					b.Column(f.Name, f.Type)
				}
				var keys []string
				for _, f := range tt.keys {
					keys = append(keys, f.Name)
				}
				b.PartitionKeys(keys...).Options(tt.options)
			})
			tbl, err := testtable.Create(ctx, memfs.New(nil), "t", ts)
			require.NoError(t, err)
			row := append([]any{int32(1)}, tt.values...)
			res, err := tbl.Commit(ctx, testtable.DataFile{Partition: tt.values, Records: []arrow.RecordBatch{record(t, nil, ts.Fields, [][]any{row})}})
			require.NoError(t, err)
			require.Regexp(t, "^t/"+regexp.QuoteMeta(tt.want)+`bucket-0/data-[0-9a-f-]{36}-0\.parquet$`, res.Paths[0])
		})
	}
}

func TestStatsOptions(t *testing.T) {
	ctx := context.Background()
	long := strings.Repeat("é", 20)
	tests := []struct {
		name      string
		options   map[string]string
		cols      []string
		mins      []any
		maxs      []any
		nullCount []*int64
	}{
		{"default truncate(16)", nil, nil,
			[]any{int32(1), strings.Repeat("é", 16), nil}, []any{int32(2), strings.Repeat("é", 15) + "ê", nil}, counts(0, 1, 0)},
		{"full", map[string]string{"metadata.stats-mode": "full"}, nil,
			[]any{int32(1), long, nil}, []any{int32(2), long, nil}, counts(0, 1, 0)},
		{"counts", map[string]string{"metadata.stats-mode": "COUNTS"}, nil,
			[]any{nil, nil, nil}, []any{nil, nil, nil}, counts(0, 1, 0)},
		{"none", map[string]string{"metadata.stats-mode": "none"}, []string{}, []any{}, []any{}, []*int64{}},
		{"per field", map[string]string{"metadata.stats-mode": "none", "fields.s.stats-mode": "truncate(2)"}, []string{"s"},
			[]any{"éé"}, []any{"éê"}, counts(1)},
		{"keep first column", map[string]string{"metadata.stats-keep-first-n-columns": "1"}, []string{"i"},
			[]any{int32(1)}, []any{int32(2)}, counts(0)},
		{"sparse store", map[string]string{"metadata.stats-mode": "none", "fields.i.stats-mode": "full", "metadata.stats-dense-store": "false"}, nil,
			[]any{int32(1), nil, nil}, []any{int32(2), nil, nil}, []*int64{counts(0)[0], nil, nil}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := newSchema(t, func(b *schema.SchemaBuilder) {
				b.Column("i", schema.IntType()).Column("s", schema.StringType()).Column("b", schema.BytesType()).Options(tt.options)
			})
			tbl, err := testtable.Create(ctx, memfs.New(nil), "t", ts)
			require.NoError(t, err)
			rec := record(t, nil, ts.Fields, [][]any{{int32(2), long, []byte{1}}, {int32(1), nil, []byte{0}}})
			res, err := tbl.Commit(ctx, testtable.DataFile{Records: []arrow.RecordBatch{rec}})
			require.NoError(t, err)
			f := res.Entries[0].File
			require.Equal(t, tt.cols, f.ValueStatsCols)
			mins, maxs := decodeStats(t, ts.Fields, f.ValueStatsCols, f.ValueStats)
			require.Equal(t, tt.mins, mins)
			require.Equal(t, tt.maxs, maxs)
			require.Equal(t, tt.nullCount, f.ValueStats.NullCounts)
		})
	}
}

func TestFixedBucketSequenceNumbers(t *testing.T) {
	ctx := context.Background()
	ts := newSchema(t, func(b *schema.SchemaBuilder) {
		b.Column("k", schema.IntType()).Options(map[string]string{"bucket": "2", "bucket-key": "k"})
	})
	tbl, err := testtable.Create(ctx, memfs.New(nil), "t", ts)
	require.NoError(t, err)
	rec := record(t, nil, ts.Fields, [][]any{{int32(1)}, {int32(2)}})
	var got [][2]int64
	for range 2 {
		res, err := tbl.Commit(ctx, testtable.DataFile{Bucket: 1, Records: []arrow.RecordBatch{rec}}, testtable.DataFile{Bucket: 0, Records: []arrow.RecordBatch{rec}})
		require.NoError(t, err)
		require.Equal(t, int32(2), res.Entries[0].TotalBuckets)
		require.True(t, strings.Contains(res.Paths[0], "/bucket-1/"))
		for _, e := range res.Entries {
			got = append(got, [2]int64{e.File.MinSequenceNumber, e.File.MaxSequenceNumber})
		}
	}
	require.Equal(t, [][2]int64{{0, 1}, {0, 1}, {2, 3}, {2, 3}}, got)
	_, err = tbl.Commit(ctx, testtable.DataFile{Bucket: 2, Records: []arrow.RecordBatch{rec}})
	require.ErrorIs(t, err, testtable.ErrInvalid)
}

func TestRowGroups(t *testing.T) {
	ctx := context.Background()
	fsys := memfs.New(nil)
	ts := newSchema(t, func(b *schema.SchemaBuilder) { b.Column("k", schema.BigIntType()) })
	tbl, err := testtable.Create(ctx, fsys, "t", ts)
	require.NoError(t, err)
	var recs []arrow.RecordBatch
	for i := range 5 {
		recs = append(recs, record(t, nil, ts.Fields, [][]any{{int64(i * 2)}, {int64(i*2 + 1)}}))
	}
	res, err := tbl.Commit(ctx, testtable.DataFile{Records: recs, RowGroupRows: 3})
	require.NoError(t, err)
	r, err := file.NewParquetReader(bytes.NewReader(mustRead(t, fsys, res.Paths[0])))
	require.NoError(t, err)
	var sizes []int64
	for i := range r.NumRowGroups() {
		sizes = append(sizes, r.MetaData().RowGroup(i).NumRows())
	}
	require.Equal(t, []int64{3, 3, 3, 1}, sizes)
}

func TestErrors(t *testing.T) {
	ctx := context.Background()
	plain := func(b *schema.SchemaBuilder) {
		b.Column("a", schema.IntType().NotNull()).Column("p", schema.StringType()).PartitionKeys("p")
	}
	tests := []struct {
		name   string
		schema func(b *schema.SchemaBuilder)
		commit func(t *testing.T, tbl *testtable.Table) error
		want   error
	}{
		{"primary key", func(b *schema.SchemaBuilder) { b.Column("a", schema.IntType().NotNull()).PrimaryKey("a") }, nil, testtable.ErrUnsupported},
		{"csv", func(b *schema.SchemaBuilder) { b.Column("a", schema.IntType()).Option("file.format", "csv") }, nil, testtable.ErrUnsupported},
		{"timestamp(9)", func(b *schema.SchemaBuilder) { b.Column("a", schema.ArrayType(schema.TimestampType(9))) }, nil, testtable.ErrUnsupported},
		{"bad stats mode", func(b *schema.SchemaBuilder) {
			b.Column("a", schema.IntType()).Option("metadata.stats-mode", "truncate(0)")
		}, nil, testtable.ErrInvalid},
		{"empty commit", plain, func(t *testing.T, tbl *testtable.Table) error {
			_, err := tbl.Commit(ctx)
			return err
		}, testtable.ErrInvalid},
		{"empty file", plain, func(t *testing.T, tbl *testtable.Table) error {
			_, err := tbl.Commit(ctx, testtable.DataFile{Partition: []any{"x"}})
			return err
		}, testtable.ErrInvalid},
		{"missing partition", plain, func(t *testing.T, tbl *testtable.Table) error {
			_, err := tbl.Commit(ctx, testtable.DataFile{Records: []arrow.RecordBatch{record(t, nil, tbl.Schema().Fields, [][]any{{int32(1), "x"}})}})
			return err
		}, testtable.ErrInvalid},
		{"wrong partition type", plain, func(t *testing.T, tbl *testtable.Table) error {
			_, err := tbl.Commit(ctx, testtable.DataFile{Partition: []any{int32(1)}, Records: []arrow.RecordBatch{record(t, nil, tbl.Schema().Fields, [][]any{{int32(1), "x"}})}})
			return err
		}, testtable.ErrInvalid},
		{"wrong columns", plain, func(t *testing.T, tbl *testtable.Table) error {
			rec := record(t, nil, []schema.DataField{schema.NewField(0, "a", schema.BigIntType()), schema.NewField(1, "p", schema.StringType())}, [][]any{{int64(1), "x"}})
			_, err := tbl.Commit(ctx, testtable.DataFile{Partition: []any{"x"}, Records: []arrow.RecordBatch{rec}})
			return err
		}, testtable.ErrInvalid},
		{"null in NOT NULL column", plain, func(t *testing.T, tbl *testtable.Table) error {
			fields := []schema.DataField{schema.NewField(0, "a", schema.IntType()), schema.NewField(1, "p", schema.StringType())}
			_, err := tbl.Commit(ctx, testtable.DataFile{Partition: []any{"x"}, Records: []arrow.RecordBatch{record(t, nil, fields, [][]any{{nil, "x"}})}})
			return err
		}, testtable.ErrInvalid},
		{"bucket of an unaware table", plain, func(t *testing.T, tbl *testtable.Table) error {
			_, err := tbl.Commit(ctx, testtable.DataFile{Partition: []any{"x"}, Bucket: 1, Records: []arrow.RecordBatch{record(t, nil, tbl.Schema().Fields, [][]any{{int32(1), "x"}})}})
			return err
		}, testtable.ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tbl, err := testtable.Create(ctx, memfs.New(nil), "t", newSchema(t, tt.schema))
			if tt.commit == nil {
				require.ErrorIs(t, err, tt.want)
				return
			}
			require.NoError(t, err)
			require.ErrorIs(t, tt.commit(t, tbl), tt.want)
			require.Nil(t, tbl.Latest())
		})
	}

	t.Run("existing table", func(t *testing.T) {
		fsys := memfs.New(nil)
		ts := newSchema(t, plain)
		_, err := testtable.Create(ctx, fsys, "t", ts)
		require.NoError(t, err)
		_, err = testtable.Create(ctx, fsys, "t", ts)
		require.True(t, errors.Is(err, iofs.ErrExist), "%v", err)
	})
}

func TestDataFileNames(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		options map[string]string
		want    string
	}{
		{nil, `^t/bucket-0/data-[0-9a-f-]{36}-0\.parquet$`},
		{map[string]string{"file.suffix.include.compression": "true"}, `^t/bucket-0/data-[0-9a-f-]{36}-0\.zst\.parquet$`},
		{map[string]string{"file.suffix.include.compression": "true", "file.compression": "none"}, `^t/bucket-0/data-[0-9a-f-]{36}-0\.parquet$`},
		{map[string]string{"file.suffix.include.compression": "true", "file.compression": "snappy"}, `^t/bucket-0/data-[0-9a-f-]{36}-0\.snappy\.parquet$`},
		{map[string]string{"data-file.prefix": "part-"}, `^t/bucket-0/part-[0-9a-f-]{36}-0\.parquet$`},
		{map[string]string{"file.format": "avro"}, `^t/bucket-0/data-[0-9a-f-]{36}-0\.avro$`},
		{map[string]string{"file.format": "avro", "file.compression": "snappy", "file.suffix.include.compression": "true"}, `^t/bucket-0/data-[0-9a-f-]{36}-0\.snappy\.avro$`},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			fsys := memfs.New(nil)
			ts := newSchema(t, func(b *schema.SchemaBuilder) { b.Column("a", schema.IntType()).Options(tt.options) })
			tbl, err := testtable.Create(ctx, fsys, "t", ts)
			require.NoError(t, err)
			res, err := tbl.Commit(ctx, testtable.DataFile{Records: []arrow.RecordBatch{record(t, nil, ts.Fields, [][]any{{int32(1)}})}})
			require.NoError(t, err)
			require.Regexp(t, tt.want, res.Paths[0])
			require.Len(t, readRows(t, fsys, res.Paths[0], ts.Fields), 1)
		})
	}
}
