package paimon_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"log/slog"
	"math"
	"math/rand/v2"
	"path"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/internal/testtable"
	"github.com/paimon-go/paimon-go/paimon"
)

// writeFields is the schema of the write tests: a partition key, a bucket
// key and a few payload columns.
var writeFields = []schema.DataField{
	{ID: 0, Name: "dt", Type: schema.StringType()},
	{ID: 1, Name: "id", Type: schema.BigIntType().NotNull()},
	{ID: 2, Name: "name", Type: schema.StringType()},
	{ID: 3, Name: "score", Type: schema.DoubleType()},
}

// newWriteTable creates an empty append table and opens it.
func newWriteTable(t *testing.T, partitioned bool, opts map[string]string) (*paimon.Table, fs.FS) {
	t.Helper()
	ctx := context.Background()
	fsys, err := localfs.New(t.TempDir(), nil)
	require.NoError(t, err)
	t.Cleanup(func() { fsys.Close() })
	ts := &schema.TableSchema{Version: 3, Fields: writeFields, HighestFieldID: 3, Options: map[string]string{}}
	if partitioned {
		ts.PartitionKeys = []string{"dt"}
	}
	for k, v := range opts {
		ts.Options[k] = v
	}
	_, err = testtable.Create(ctx, fsys, "db.db/t", ts)
	require.NoError(t, err)
	tbl, err := paimon.OpenTable(ctx, fsys, "db.db/t", nil)
	require.NoError(t, err)
	return tbl, fsys
}

// reopen loads the table again (its latest schema).
func reopen(t *testing.T, fsys fs.FS) *paimon.Table {
	t.Helper()
	tbl, err := paimon.OpenTable(context.Background(), fsys, "db.db/t", nil)
	require.NoError(t, err)
	return tbl
}

// rowsOf builds rows [dt, id, name, score] for ids in [from, to).
func rowsOf(from, to int, days int) [][]any {
	var rows [][]any
	for i := from; i < to; i++ {
		var dt any = fmt.Sprintf("2024-01-%02d", 1+i%days)
		if i%17 == 16 {
			dt = nil // the default partition
		}
		var name any = fmt.Sprintf("n%d", i)
		if i%5 == 0 {
			name = nil
		}
		rows = append(rows, []any{dt, int64(i), name, float64(i) / 4})
	}
	return rows
}

func render(t *testing.T, rows [][]any) []string {
	t.Helper()
	out := make([]string, len(rows))
	for i, r := range rows {
		b, err := canon.EncodeRow(writeFields, r)
		require.NoError(t, err)
		out[i] = string(b)
	}
	sort.Strings(out)
	return out
}

// dump reads the table's latest snapshot as sorted canonical rows.
func dump(t *testing.T, tbl *paimon.Table) []string {
	t.Helper()
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	var out []string
	for rec, err := range tbl.NewScan(paimon.WithAllocator(mem)).Records(context.Background()) {
		require.NoError(t, err)
		out = append(out, canonRows(t, tbl.Schema().Fields, rec)...)
		rec.Release()
	}
	sort.Strings(out)
	return out
}

// canonRows encodes the rows of rec, whose columns are fields, as
// canonical rows.
func canonRows(t *testing.T, fields []schema.DataField, rec arrow.RecordBatch) []string {
	t.Helper()
	var out []string
	for r := 0; r < int(rec.NumRows()); r++ {
		vals := make([]any, len(fields))
		for c := range fields {
			v, err := parquet.ArrowValue(rec.Column(c), r, fields[c].Type)
			require.NoError(t, err)
			vals[c] = v
		}
		b, err := canon.EncodeRow(fields, vals)
		require.NoError(t, err)
		out = append(out, string(b))
	}
	return out
}

func batch(t *testing.T, mem memory.Allocator, rows [][]any) arrow.RecordBatch {
	t.Helper()
	rec, err := testtable.BuildRecord(mem, writeFields, rows)
	require.NoError(t, err)
	return rec
}

// write writes rows in batches of size and commits them.
func write(t *testing.T, tbl *paimon.Table, commit *paimon.TableCommit, identifier int64, rows [][]any, size int) *paimon.CommitResult {
	t.Helper()
	ctx := context.Background()
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	w, err := tbl.NewWriter(&paimon.WriterOptions{Allocator: mem})
	require.NoError(t, err)
	defer w.Close(ctx)
	for i := 0; i < len(rows); i += size {
		rec := batch(t, mem, rows[i:min(i+size, len(rows))])
		require.NoError(t, w.Write(ctx, rec))
		rec.Release()
	}
	msgs, err := w.PrepareCommit(ctx)
	require.NoError(t, err)
	res, err := commit.Commit(ctx, identifier, msgs)
	require.NoError(t, err)
	return res
}

// writeBatches writes rows (values of fields, in table order) to tbl in
// batches of size rows, built on memcheck's allocator and released right
// after each Write, and commits them at once; the writer must end holding
// nothing.
func writeBatches(t *testing.T, tbl *paimon.Table, fields []schema.DataField, rows [][]any, size int) {
	t.Helper()
	ctx := context.Background()
	mem := memcheck.New()
	w, err := tbl.NewWriter(&paimon.WriterOptions{Allocator: mem})
	require.NoError(t, err)
	for i := 0; i < len(rows); i += size {
		rec, err := testtable.BuildRecord(mem, fields, rows[i:min(i+size, len(rows))])
		require.NoError(t, err)
		require.NoError(t, w.Write(ctx, rec))
		rec.Release()
	}
	msgs, err := w.PrepareCommit(ctx)
	require.NoError(t, err)
	require.NoError(t, w.Close(ctx))
	mem.AssertSize(t, 0)
	_, err = newCommit(t, tbl, "").Commit(ctx, paimon.BatchCommitIdentifier, msgs)
	require.NoError(t, err)
}

func newCommit(t *testing.T, tbl *paimon.Table, user string) *paimon.TableCommit {
	t.Helper()
	c, err := tbl.NewCommit(&paimon.CommitOptions{User: user})
	require.NoError(t, err)
	return c
}

func TestWriteReadBack(t *testing.T) {
	for _, tc := range []struct {
		name        string
		partitioned bool
		opts        map[string]string
	}{
		{"unaware", false, nil},
		{"unaware-partitioned", true, nil},
		{"fixed-bucket", false, map[string]string{"bucket": "3", "bucket-key": "id"}},
		{"fixed-bucket-partitioned", true, map[string]string{"bucket": "4", "bucket-key": "id,name"}},
		{"avro", true, map[string]string{"file.format": "avro"}},
		{"orc", true, map[string]string{"file.format": "orc"}},
		{"orc-rolling", false, map[string]string{"file.format": "orc", "target-file-size": "1 kb", "file.compression": "lz4"}},
		{"rolling", true, map[string]string{"target-file-size": "1 kb", "file.compression": "snappy"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tbl, fsys := newWriteTable(t, tc.partitioned, tc.opts)
			c := newCommit(t, tbl, "u1")
			all := rowsOf(0, 300, 3)
			res := write(t, tbl, c, 1, all[:100], 33)
			require.EqualValues(t, 1, res.Snapshot.ID)
			require.EqualValues(t, 100, res.Snapshot.TotalRecordCount)
			write(t, tbl, c, 2, all[100:], 64)
			tbl = reopen(t, fsys)
			require.Equal(t, render(t, all), dump(t, tbl))
			checkPlacement(t, tbl)
		})
	}
}

// checkPlacement verifies that every row of every data file lies in the
// partition and bucket Java would choose, and that sequence numbers are
// consecutive per bucket.
func checkPlacement(t *testing.T, tbl *paimon.Table) {
	t.Helper()
	ctx := context.Background()
	plan, err := tbl.NewScan().Plan(ctx)
	require.NoError(t, err)
	ts := tbl.Schema()
	n, err := ts.Bucket()
	require.NoError(t, err)
	var keyTypes []schema.DataType
	var keyIdx []int
	for _, k := range ts.BucketKeys() {
		keyIdx = append(keyIdx, ts.FieldIndex(k))
		keyTypes = append(keyTypes, ts.Fields[ts.FieldIndex(k)].Type)
	}
	for _, sp := range plan.Splits {
		for _, f := range sp.Files {
			require.Equal(t, f.RowCount, f.MaxSequenceNumber-f.MinSequenceNumber+1, f.FileName)
		}
		rows := 0
		for rec, err := range tbl.NewScan().ReadSplits(ctx, sp) {
			require.NoError(t, err)
			for r := 0; r < int(rec.NumRows()); r++ {
				rows++
				if len(ts.PartitionKeys) > 0 {
					v, err := parquet.ArrowValue(rec.Column(0), r, ts.Fields[0].Type)
					require.NoError(t, err)
					dir := "dt=__DEFAULT_PARTITION__/"
					if v != nil {
						dir = "dt=" + v.(string) + "/"
					}
					require.True(t, strings.HasPrefix(sp.BucketPath, dir), "%s in %s", dir, sp.BucketPath)
				}
				if n > 0 {
					vals := make([]any, len(keyIdx))
					for j, c := range keyIdx {
						vals[j], err = parquet.ArrowValue(rec.Column(c), r, keyTypes[j])
						require.NoError(t, err)
					}
					b, err := binaryrow.BucketOf(keyTypes, vals, n, binaryrow.BucketDefault)
					require.NoError(t, err)
					require.EqualValues(t, b, sp.Bucket)
					require.Equal(t, fmt.Sprintf("bucket-%d", b), path.Base(sp.BucketPath))
				}
			}
			rec.Release()
		}
		require.Positive(t, rows)
	}
}

func TestCommitIdempotent(t *testing.T) {
	ctx := context.Background()
	tbl, fsys := newWriteTable(t, true, nil)
	c := newCommit(t, tbl, "ingester")
	write(t, tbl, c, 7, rowsOf(0, 10, 2), 10)

	// A new committer of the same user (a restarted ingester) retries
	// identifier 7 with the very messages that were committed: nothing is
	// added and no file is removed (they are the table's files).
	c2 := newCommit(t, reopen(t, fsys), "ingester")
	plan, err := reopen(t, fsys).NewScan().Plan(ctx)
	require.NoError(t, err)
	var same []paimon.CommitMessage
	for _, sp := range plan.Splits {
		same = append(same, paimon.CommitMessage{Partition: sp.Partition, Bucket: sp.Bucket, TotalBuckets: -1, NewFiles: sp.Files})
	}
	var logged bytes.Buffer // the no-op is logged (not parallel: slog's default is global)
	defer slog.SetDefault(slog.Default())
	slog.SetDefault(slog.New(slog.NewTextHandler(&logged, nil)))
	res, err := c2.Commit(ctx, 7, same)
	require.NoError(t, err)
	require.True(t, res.AlreadyCommitted)
	require.Nil(t, res.Snapshot)
	require.Contains(t, logged.String(), "already committed")
	require.Contains(t, logged.String(), "identifier=7")
	require.Len(t, dump(t, reopen(t, fsys)), 10)
	ids, err := c2.FilterCommitted(ctx, []int64{6, 7, 8, 9})
	require.NoError(t, err)
	require.Equal(t, []int64{8, 9}, ids)
	require.Len(t, dump(t, reopen(t, fsys)), 10)

	// Batch commits are never deduplicated.
	write(t, tbl, c2, paimon.BatchCommitIdentifier, rowsOf(10, 20, 2), 10)
	write(t, tbl, c2, paimon.BatchCommitIdentifier, rowsOf(20, 30, 2), 10)
	require.Len(t, dump(t, reopen(t, fsys)), 30)
}

func TestCommitMessageRoundTrip(t *testing.T) {
	ctx := context.Background()
	tbl, fsys := newWriteTable(t, true, map[string]string{"bucket": "2", "bucket-key": "id"})
	w, err := tbl.NewWriter(nil)
	require.NoError(t, err)
	rec := batch(t, memcheck.New(), rowsOf(0, 50, 3))
	require.NoError(t, w.Write(ctx, rec))
	rec.Release()
	msgs, err := w.PrepareCommit(ctx)
	require.NoError(t, err)
	require.Len(t, msgs, 3*2+2) // 3 days x 2 buckets, default partition x 2 buckets
	var decoded []paimon.CommitMessage
	for _, m := range msgs {
		b, err := m.MarshalBinary()
		require.NoError(t, err)
		var back paimon.CommitMessage
		require.NoError(t, back.UnmarshalBinary(b))
		require.Equal(t, m, back)
		decoded = append(decoded, back)
	}
	var bad paimon.CommitMessage
	require.ErrorIs(t, bad.UnmarshalBinary([]byte("PGCM\x01{")), paimon.ErrInvalidCommitMessage)
	require.ErrorIs(t, bad.UnmarshalBinary([]byte("xx")), paimon.ErrInvalidCommitMessage)
	_, err = newCommit(t, tbl, "").Commit(ctx, paimon.BatchCommitIdentifier, decoded)
	require.NoError(t, err)
	require.Equal(t, render(t, rowsOf(0, 50, 3)), dump(t, reopen(t, fsys)))
}

func TestOverwrite(t *testing.T) {
	ctx := context.Background()
	prepare := func(t *testing.T, tbl *paimon.Table, rows [][]any) []paimon.CommitMessage {
		w, err := tbl.NewWriter(nil)
		require.NoError(t, err)
		if len(rows) > 0 {
			rec := batch(t, memcheck.New(), rows)
			require.NoError(t, w.Write(ctx, rec))
			rec.Release()
		}
		msgs, err := w.PrepareCommit(ctx)
		require.NoError(t, err)
		return msgs
	}
	base := rowsOf(0, 60, 3) // days 01..03 and the default partition
	keep := func(rows [][]any, drop func(dt any) bool) [][]any {
		var out [][]any
		for _, r := range rows {
			if !drop(r[0]) {
				out = append(out, r)
			}
		}
		return out
	}
	newRows := [][]any{{"2024-01-02", int64(1000), "x", 1.0}, {"2024-01-02", int64(1001), nil, 2.0}}

	t.Run("static", func(t *testing.T) {
		tbl, fsys := newWriteTable(t, true, nil)
		c := newCommit(t, tbl, "")
		write(t, tbl, c, 1, base, 100)
		res, err := c.Overwrite(ctx, 2, map[string]string{"dt": "2024-01-02"}, prepare(t, tbl, newRows))
		require.NoError(t, err)
		require.Equal(t, "OVERWRITE", string(res.Snapshot.CommitKind))
		want := append(keep(base, func(dt any) bool { return dt == "2024-01-02" }), newRows...)
		require.Equal(t, render(t, want), dump(t, reopen(t, fsys)))
		require.EqualValues(t, len(want), res.Snapshot.TotalRecordCount)
	})
	t.Run("static-mismatch", func(t *testing.T) {
		tbl, _ := newWriteTable(t, true, nil)
		c := newCommit(t, tbl, "")
		write(t, tbl, c, 1, base, 100)
		_, err := c.Overwrite(ctx, 2, map[string]string{"dt": "2024-01-03"}, prepare(t, tbl, newRows))
		require.ErrorIs(t, err, paimon.ErrInvalidPartition)
		_, err = c.Overwrite(ctx, 2, map[string]string{"nope": "x"}, nil)
		require.ErrorIs(t, err, paimon.ErrInvalidPartition)
	})
	t.Run("dynamic", func(t *testing.T) {
		tbl, fsys := newWriteTable(t, true, nil)
		c := newCommit(t, tbl, "")
		write(t, tbl, c, 1, base, 100)
		_, err := c.Overwrite(ctx, 2, nil, prepare(t, tbl, newRows))
		require.NoError(t, err)
		want := append(keep(base, func(dt any) bool { return dt == "2024-01-02" }), newRows...)
		require.Equal(t, render(t, want), dump(t, reopen(t, fsys)))
		res, err := c.Overwrite(ctx, 3, nil, nil) // no new files: nothing happens
		require.NoError(t, err)
		require.Nil(t, res.Snapshot)
	})
	t.Run("whole-table", func(t *testing.T) {
		tbl, fsys := newWriteTable(t, true, map[string]string{"dynamic-partition-overwrite": "false"})
		c := newCommit(t, tbl, "")
		write(t, tbl, c, 1, base, 100)
		_, err := c.Overwrite(ctx, 2, nil, prepare(t, tbl, newRows))
		require.NoError(t, err)
		require.Equal(t, render(t, newRows), dump(t, reopen(t, fsys)))
	})
	t.Run("drop-and-truncate", func(t *testing.T) {
		tbl, fsys := newWriteTable(t, true, nil)
		c := newCommit(t, tbl, "")
		write(t, tbl, c, 1, base, 100)
		_, err := c.DropPartitions(ctx, 2, []map[string]string{{"dt": "2024-01-01"}, {"dt": "__DEFAULT_PARTITION__"}})
		require.NoError(t, err)
		want := keep(base, func(dt any) bool { return dt == "2024-01-01" || dt == nil })
		require.Equal(t, render(t, want), dump(t, reopen(t, fsys)))
		res, err := c.Truncate(ctx, 3)
		require.NoError(t, err)
		require.Zero(t, res.Snapshot.TotalRecordCount)
		require.Empty(t, dump(t, reopen(t, fsys)))
	})
}

func TestManifestMerging(t *testing.T) {
	ctx := context.Background()
	tbl, fsys := newWriteTable(t, true, map[string]string{"manifest.merge-min-count": "4"})
	c := newCommit(t, tbl, "")
	var all [][]any
	for i := 0; i < 12; i++ {
		rows := rowsOf(i*10, i*10+10, 2)
		all = append(all, rows...)
		res := write(t, tbl, c, int64(i+1), rows, 10)
		metas, err := tbl.Meta().DataManifests(ctx, res.Snapshot)
		require.NoError(t, err)
		// Base manifests are merged once 4 accumulate; with the delta there
		// are never more than 4 + 1.
		require.LessOrEqual(t, len(metas), 5, "snapshot %d", res.Snapshot.ID)
	}
	_, err := c.DropPartitions(ctx, 100, []map[string]string{{"dt": "2024-01-01"}})
	require.NoError(t, err)
	for i := 0; i < 6; i++ {
		write(t, tbl, c, int64(101+i), rowsOf(1000+i, 1001+i, 1), 10)
	}
	var want [][]any
	for _, r := range all {
		if r[0] != "2024-01-01" {
			want = append(want, r)
		}
	}
	for i := 0; i < 6; i++ {
		want = append(want, rowsOf(1000+i, 1001+i, 1)...)
	}
	require.Equal(t, render(t, want), dump(t, reopen(t, fsys)))
}

func TestManifestFullCompaction(t *testing.T) {
	ctx := context.Background()
	// A tiny threshold makes every commit fully compact the manifests:
	// DELETE entries and the files they delete disappear.
	tbl, fsys := newWriteTable(t, true, map[string]string{"manifest.full-compaction-threshold-size": "1 b"})
	c := newCommit(t, tbl, "")
	for i := 0; i < 5; i++ {
		write(t, tbl, c, int64(i+1), rowsOf(i*10, i*10+10, 2), 10)
	}
	_, err := c.DropPartitions(ctx, 10, []map[string]string{{"dt": "2024-01-02"}})
	require.NoError(t, err)
	res := write(t, tbl, c, 11, rowsOf(500, 510, 2), 10)
	metas, err := tbl.Meta().ReadManifestList(ctx, res.Snapshot.BaseManifestList)
	require.NoError(t, err)
	for _, m := range metas {
		require.Zero(t, m.NumDeletedFiles, m.FileName)
	}
	var want [][]any
	for _, r := range rowsOf(0, 50, 2) {
		if r[0] != "2024-01-02" {
			want = append(want, r)
		}
	}
	want = append(want, rowsOf(500, 510, 2)...)
	require.Equal(t, render(t, want), dump(t, reopen(t, fsys)))
}

func TestWriteBadInput(t *testing.T) {
	ctx := context.Background()
	tbl, fsys := newWriteTable(t, true, nil)
	w, err := tbl.NewWriter(nil)
	require.NoError(t, err)
	defer w.Close(ctx)

	wrong := []schema.DataField{writeFields[0], writeFields[1], writeFields[2]}
	rec, err := testtable.BuildRecord(memcheck.New(), wrong, [][]any{{"a", int64(1), "x"}})
	require.NoError(t, err)
	require.ErrorIs(t, w.Write(ctx, rec), paimon.ErrSchemaMismatch)
	rec.Release()

	renamed := slices.Clone(writeFields)
	renamed[2].Name = "nom"
	rec, err = testtable.BuildRecord(memcheck.New(), renamed, [][]any{{"a", int64(1), "x", 1.0}})
	require.NoError(t, err)
	require.ErrorIs(t, w.Write(ctx, rec), paimon.ErrSchemaMismatch)
	rec.Release()

	retyped := slices.Clone(writeFields)
	retyped[3].Type = schema.FloatType()
	rec, err = testtable.BuildRecord(memcheck.New(), retyped, [][]any{{"a", int64(1), "x", float32(1)}})
	require.NoError(t, err)
	require.ErrorIs(t, w.Write(ctx, rec), paimon.ErrSchemaMismatch)
	rec.Release()

	nullable := slices.Clone(writeFields)
	nullable[1].Type = schema.BigIntType()
	rec, err = testtable.BuildRecord(memcheck.New(), nullable, [][]any{{"a", nil, "x", 1.0}})
	require.NoError(t, err)
	err = w.Write(ctx, rec)
	require.ErrorIs(t, err, paimon.ErrSchemaMismatch)
	require.Contains(t, err.Error(), "NOT NULL")
	rec.Release()

	msgs, err := w.PrepareCommit(ctx)
	require.NoError(t, err)
	require.Empty(t, msgs, "nothing may be written by rejected batches")

	// Unknown option values are refused when the writer opens.
	ts := &schema.TableSchema{Version: 3, Fields: writeFields, HighestFieldID: 3,
		Options: map[string]string{"file.format": "csv"}}
	require.NoError(t, fs.WriteFile(ctx, fsys, "csv/schema/schema-0", mustEncode(t, ts), nil))
	bad, err := paimon.OpenTable(ctx, fsys, "csv", nil)
	require.NoError(t, err)
	_, err = bad.NewWriter(nil)
	require.ErrorIs(t, err, paimon.ErrUnsupported)
	bad, _ = newWriteTable(t, false, map[string]string{"bucket": "2"})
	_, err = bad.NewWriter(nil)
	require.ErrorIs(t, err, paimon.ErrInvalidOption)
}

func mustEncode(t *testing.T, ts *schema.TableSchema) []byte {
	t.Helper()
	b, err := ts.Encode()
	require.NoError(t, err)
	return b
}

func TestCommitSchemaChanged(t *testing.T) {
	ctx := context.Background()
	tbl, fsys := newWriteTable(t, false, nil)
	w, err := tbl.NewWriter(nil)
	require.NoError(t, err)
	rec := batch(t, memcheck.New(), rowsOf(0, 5, 1))
	require.NoError(t, w.Write(ctx, rec))
	rec.Release()
	msgs, err := w.PrepareCommit(ctx)
	require.NoError(t, err)

	// Another process alters the table meanwhile.
	ts := *tbl.Schema()
	ts.ID = 1
	ts.Options = map[string]string{"snapshot.num-retained.min": "3"}
	require.NoError(t, fs.WriteFile(ctx, fsys, "db.db/t/schema/schema-1", mustEncode(t, &ts), nil))

	_, err = newCommit(t, tbl, "").Commit(ctx, paimon.BatchCommitIdentifier, msgs)
	require.ErrorIs(t, err, paimon.ErrSchemaChanged)
	// The files of the failed commit are gone and no snapshot exists.
	ok, err := fs.Exists(ctx, fsys, "db.db/t/snapshot/snapshot-1")
	require.NoError(t, err)
	require.False(t, ok)
	for _, m := range msgs {
		for _, f := range m.NewFiles {
			ok, err := fs.Exists(ctx, fsys, "db.db/t/bucket-0/"+f.FileName)
			require.NoError(t, err)
			require.False(t, ok, f.FileName)
		}
	}
}

// TestConcurrentCommitters runs committers in goroutines against one table
// on local files; every commit lands exactly once and ids have no gaps.
func TestConcurrentCommitters(t *testing.T) {
	ctx := context.Background()
	tbl, fsys := newWriteTable(t, true, map[string]string{"commit.max-retries": "100", "commit.max-retry-wait": "50 ms"})
	const writers, commits = 6, 8
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	errs := make(chan error, writers)
	for g := 0; g < writers; g++ {
		go func(g int) {
			c, err := tbl.NewCommit(&paimon.CommitOptions{User: fmt.Sprintf("w%d", g)})
			if err != nil {
				errs <- err
				return
			}
			for i := 0; i < commits; i++ {
				w, err := tbl.NewWriter(nil)
				if err != nil {
					errs <- err
					return
				}
				from := (g*commits + i) * 3
				rec, err := testtable.BuildRecord(memcheck.New(), writeFields, rowsOf(from, from+3, 2))
				if err != nil {
					errs <- err
					return
				}
				err = w.Write(ctx, rec)
				rec.Release()
				if err != nil {
					errs <- err
					return
				}
				msgs, err := w.PrepareCommit(ctx)
				if err == nil {
					_, err = c.Commit(ctx, int64(i+1), msgs)
				}
				if err != nil {
					errs <- fmt.Errorf("writer %d commit %d: %w", g, i, err)
					return
				}
			}
			errs <- nil
		}(g)
	}
	for range writers {
		require.NoError(t, <-errs)
	}
	ids, err := tbl.Meta().SnapshotIDs(ctx)
	require.NoError(t, err)
	require.Len(t, ids, writers*commits)
	for i, id := range ids {
		require.EqualValues(t, i+1, id)
	}
	require.Equal(t, render(t, rowsOf(0, writers*commits*3, 2)), dump(t, reopen(t, fsys)))
}

// lostRaceFS makes the first n snapshot publications fail as if another
// writer had created the snapshot first.
type lostRaceFS struct {
	fs.FS
	n int
}

type lostWriter struct{ fs.Writer }

func (w lostWriter) Close() error {
	_ = w.Writer.Abort()
	return &iofs.PathError{Op: "create", Path: "snapshot", Err: iofs.ErrExist}
}

func (l *lostRaceFS) Create(ctx context.Context, name string, opts *fs.CreateOptions) (fs.Writer, error) {
	w, err := l.FS.Create(ctx, name, opts)
	if err == nil && opts != nil && opts.IfNotExist && strings.Contains(name, "/snapshot/snapshot-") && l.n > 0 {
		l.n--
		return lostWriter{w}, nil
	}
	return w, err
}

func TestCommitLostRaceCleansUp(t *testing.T) {
	ctx := context.Background()
	_, base := newWriteTable(t, false, map[string]string{"commit.max-retries": "2", "commit.min-retry-wait": "1 ms"})
	lfs := &lostRaceFS{FS: base, n: 100}
	tbl, err := paimon.OpenTable(ctx, lfs, "db.db/t", nil)
	require.NoError(t, err)
	w, err := tbl.NewWriter(nil)
	require.NoError(t, err)
	rec := batch(t, memcheck.New(), rowsOf(0, 5, 1))
	require.NoError(t, w.Write(ctx, rec))
	rec.Release()
	msgs, err := w.PrepareCommit(ctx)
	require.NoError(t, err)
	c, err := tbl.NewCommit(nil)
	require.NoError(t, err)
	_, err = c.Commit(ctx, paimon.BatchCommitIdentifier, msgs)
	require.ErrorIs(t, err, paimon.ErrCommitConflict)
	// Neither manifests of the failed attempts nor data files remain.
	var left []string
	for _, dir := range []string{"db.db/t/manifest", "db.db/t/bucket-0"} {
		for info, err := range base.List(ctx, dir) {
			require.NoError(t, err)
			left = append(left, info.Name)
		}
	}
	require.Empty(t, left)
	if errors.Is(err, paimon.ErrSchemaChanged) {
		t.Fatal("unexpected")
	}
}

func TestCommitExpiresSnapshots(t *testing.T) {
	ctx := context.Background()
	tbl, fsys := newWriteTable(t, true, map[string]string{
		"snapshot.num-retained.min": "3", "snapshot.num-retained.max": "3",
	})
	// Each commit two minutes after the previous one: snapshots leave the
	// commit grace (a minute after their successor) before they expire.
	clock := time.Now()
	c, err := tbl.NewCommit(&paimon.CommitOptions{Now: func() time.Time { clock = clock.Add(2 * time.Minute); return clock }})
	require.NoError(t, err)
	var all [][]any
	var expired []int64
	for i := 0; i < 8; i++ {
		rows := rowsOf(i*5, i*5+5, 2)
		all = append(all, rows...)
		res := write(t, tbl, c, int64(i+1), rows, 5)
		require.NoError(t, res.ExpireErr)
		expired = append(expired, res.Expired...)
	}
	require.Equal(t, []int64{1, 2, 3, 4, 5}, expired)
	ids, err := tbl.Meta().SnapshotIDs(ctx)
	require.NoError(t, err)
	require.Equal(t, []int64{6, 7, 8}, ids)
	require.Equal(t, render(t, all), dump(t, reopen(t, fsys)))

	// write-only tables leave expiration to a separate job.
	tbl2, _ := newWriteTable(t, false, map[string]string{
		"snapshot.num-retained.min": "1", "snapshot.num-retained.max": "1", "write-only": "true",
	})
	c2 := newCommit(t, tbl2, "")
	for i := 0; i < 3; i++ {
		require.Empty(t, write(t, tbl2, c2, int64(i+1), rowsOf(i, i+1, 1), 1).Expired)
	}
}

// TestWriteIntegerBucketKeys: a bucket key of every integer type (TINYINT,
// SMALLINT, INT, DATE, BIGINT), with NULLs and extreme values, is routed
// without boxing its values (binaryrow.IntKey); every row must land in the
// bucket binaryrow.BucketOf gives for its values, as Java's would.
func TestWriteIntegerBucketKeys(t *testing.T) {
	ctx := context.Background()
	fsys, err := localfs.New(t.TempDir(), nil)
	require.NoError(t, err)
	defer fsys.Close()
	fields := []schema.DataField{
		{ID: 0, Name: "a", Type: schema.TinyIntType()},
		{ID: 1, Name: "b", Type: schema.SmallIntType()},
		{ID: 2, Name: "c", Type: schema.IntType()},
		{ID: 3, Name: "d", Type: schema.DateType()},
		{ID: 4, Name: "e", Type: schema.BigIntType()},
		{ID: 5, Name: "v", Type: schema.StringType()},
	}
	ts := &schema.TableSchema{Version: 3, Fields: fields, HighestFieldID: 5,
		Options: map[string]string{"bucket": "7", "bucket-key": "a,b,c,d,e"}}
	_, err = testtable.Create(ctx, fsys, "db.db/t", ts)
	require.NoError(t, err)
	tbl := reopen(t, fsys)
	r := rand.New(rand.NewPCG(3, 5))
	var rows [][]any
	for i := range 600 {
		row := []any{int8(r.Int32()), int16(r.Int32()), r.Int32(), r.Int32N(40000) - 20000, r.Int64(), fmt.Sprint("v", i)}
		switch i % 10 {
		case 0:
			row[r.IntN(5)] = nil
		case 1:
			row[0], row[1], row[2], row[4] = int8(math.MinInt8), int16(math.MaxInt16), int32(math.MinInt32), int64(math.MaxInt64)
		}
		rows = append(rows, row)
	}
	writeBatches(t, tbl, fields, rows, 200)
	tbl = reopen(t, fsys)
	checkPlacement(t, tbl)
	n, err := countRows(t, tbl.NewScan())
	require.NoError(t, err)
	require.EqualValues(t, len(rows), n)
}
