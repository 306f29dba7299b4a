package paimon

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/index"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/memfs"
	"github.com/paimon-go/paimon-go/internal/datafile"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/internal/testtable"
)

// The deletion-vector tests build append tables with deletion vectors the
// way Java's DELETE on such a table does (Spark, through
// AppendDeleteFileMaintainer / BucketedDvMaintainer): index files committed
// in an OVERWRITE snapshot. This library writes no such vectors itself;
// the live interop tests compact tables whose vectors Java wrote.

var dvFields = []schema.DataField{
	{ID: 0, Name: "id", Type: schema.BigIntType().NotNull()},
	{ID: 1, Name: "s", Type: schema.StringType()},
}

type dvTable struct {
	t     *testing.T
	fsys  fs.FS
	tbl   *Table
	next  int64 // next id
	rows  map[int64]bool
	files []manifest.DataFileMeta // in write order
}

func newDVTable(t *testing.T, opts map[string]string) *dvTable {
	ctx := context.Background()
	fsys := memfs.New(nil)
	ts := &schema.TableSchema{Version: 3, Fields: dvFields, HighestFieldID: 1,
		Options: map[string]string{"deletion-vectors.enabled": "true", "file.format": "avro"}}
	for k, v := range opts {
		ts.Options[k] = v
	}
	_, err := testtable.Create(ctx, fsys, "t", ts)
	require.NoError(t, err)
	tbl, err := OpenTable(ctx, fsys, "t", nil)
	require.NoError(t, err)
	return &dvTable{t: t, fsys: fsys, tbl: tbl, rows: map[int64]bool{}}
}

func (d *dvTable) reopen() *Table {
	tbl, err := OpenTable(context.Background(), d.fsys, "t", nil)
	require.NoError(d.t, err)
	d.tbl = tbl
	return tbl
}

// write commits n rows (one file per bucket).
func (d *dvTable) write(n int) {
	ctx := context.Background()
	var rows [][]any
	for range n {
		rows = append(rows, []any{d.next, fmt.Sprintf("row %d", d.next)})
		d.rows[d.next] = true
		d.next++
	}
	w, err := d.reopen().NewWriter(nil)
	require.NoError(d.t, err)
	rec, err := testtable.BuildRecord(memcheck.New(), dvFields, rows)
	require.NoError(d.t, err)
	require.NoError(d.t, w.Write(ctx, rec))
	rec.Release()
	msgs, err := w.PrepareCommit(ctx)
	require.NoError(d.t, err)
	c, err := d.tbl.NewCommit(nil)
	require.NoError(d.t, err)
	_, err = c.Commit(ctx, BatchCommitIdentifier, msgs)
	require.NoError(d.t, err)
	for _, m := range msgs {
		d.files = append(d.files, m.NewFiles...)
	}
}

// fileIDs reads the ids of a data file, in file order.
func (d *dvTable) fileIDs(f manifest.DataFileMeta, bucket int32) []int64 {
	sp := Split{SnapshotID: d.latest().ID, Partition: manifest.EmptyRow(), Bucket: bucket, TotalBuckets: d.totalBuckets(),
		BucketPath: fmt.Sprintf("bucket-%d", bucket), Files: []manifest.DataFileMeta{f}, RawConvertible: true}
	var ids []int64
	for rec, err := range d.reopen().NewScan().ReadSplits(context.Background(), sp) {
		require.NoError(d.t, err)
		for r := 0; r < int(rec.NumRows()); r++ {
			v, err := parquet.ArrowValue(rec.Column(0), r, dvFields[0].Type)
			require.NoError(d.t, err)
			ids = append(ids, v.(int64))
		}
		rec.Release()
	}
	return ids
}

func (d *dvTable) totalBuckets() int32 {
	n, err := d.tbl.schema.Bucket()
	require.NoError(d.t, err)
	if n < 0 {
		return -1
	}
	return int32(n)
}

func (d *dvTable) latest() *snapshot.Snapshot {
	s, err := latestSnapshotOf(context.Background(), d.tbl.meta)
	require.NoError(d.t, err)
	return s
}

// deleteRows marks positions of files deleted: each group becomes one new
// index file of the bucket (unaware tables), or the bucket's index file is
// rewritten with all vectors (fixed buckets); replaced lists index files
// the commit deletes (Java rewrites an index file when one of its vectors
// changes).
func (d *dvTable) deleteRows(bucket int32, groups []map[int][]int64, replaced ...manifest.IndexFileMeta) []manifest.IndexFileMeta {
	ctx := context.Background()
	tbl := d.reopen()
	c, err := tbl.NewCommit(nil)
	require.NoError(d.t, err)
	var ch commitChanges
	var added []manifest.IndexFileMeta
	names := map[string]bool{}
	for _, g := range groups {
		w := index.NewDVWriter()
		keys := make([]int, 0, len(g))
		for k := range g {
			keys = append(keys, k)
		}
		sort.Ints(keys)
		for _, fi := range keys {
			f := d.files[fi]
			ids := d.fileIDs(f, bucket)
			dv := index.NewDeletionVector()
			for _, pos := range g[fi] {
				require.NoError(d.t, dv.Add(pos))
				delete(d.rows, ids[pos])
			}
			require.NoError(d.t, w.Write(f.FileName, dv))
			names[f.FileName] = true
		}
		dvs := &compactDVs{meta: tbl.meta, names: datafile.NewFileNames()}
		var written []string
		meta, err := dvs.write(ctx, w.Bytes(), w.Metas(), &written)
		require.NoError(d.t, err)
		added = append(added, meta)
		ch.index = append(ch.index, manifest.IndexManifestEntry{Kind: manifest.FileKindAdd, Partition: manifest.EmptyRow(), Bucket: bucket, IndexFile: meta})
	}
	for _, f := range replaced {
		ch.index = append(ch.index, manifest.IndexManifestEntry{Kind: manifest.FileKindDelete, Partition: manifest.EmptyRow(), Bucket: bucket, IndexFile: f})
	}
	provider := func(context.Context, *snapshot.Snapshot) (commitChanges, error) { return ch, nil }
	_, err = c.tryCommit(ctx, provider, BatchCommitIdentifier, snapshot.CommitOverwrite, true)
	require.NoError(d.t, err)
	return added
}

// check compares the table's rows with the model.
func (d *dvTable) check() {
	var want []int64
	for id := range d.rows {
		want = append(want, id)
	}
	slices.Sort(want)
	var got []int64
	for rec, err := range d.reopen().NewScan().Records(context.Background()) {
		require.NoError(d.t, err)
		for r := 0; r < int(rec.NumRows()); r++ {
			v, err := parquet.ArrowValue(rec.Column(0), r, dvFields[0].Type)
			require.NoError(d.t, err)
			got = append(got, v.(int64))
		}
		rec.Release()
	}
	slices.Sort(got)
	require.Equal(d.t, want, got)
}

// dvIndex returns the deletion-vector index entries of the latest snapshot.
func (d *dvTable) dvIndex() []manifest.IndexManifestEntry {
	s := d.latest()
	if s.IndexManifest == nil {
		return nil
	}
	entries, err := d.tbl.meta.ReadIndexManifest(context.Background(), *s.IndexManifest)
	require.NoError(d.t, err)
	return entries
}

func dvFilesOf(entries []manifest.IndexManifestEntry) map[string]string {
	out := map[string]string{}
	for _, e := range entries {
		for _, r := range e.IndexFile.DVRanges {
			out[r.DataFileName] = e.IndexFile.FileName
		}
	}
	return out
}

func TestCompactUnawareDeletionVectors(t *testing.T) {
	ctx := context.Background()
	d := newDVTable(t, map[string]string{"bucket": "-1", "target-file-size": "2 kb", "source.split.open-file-cost": "1 b"})
	d.write(1000) // f0: large
	for range 8 {
		d.write(20) // f1..f8: small
	}
	require.Len(t, d.files, 9)
	require.GreaterOrEqual(t, d.files[0].FileSize, int64(2048/10*7))
	idx := d.deleteRows(0, []map[int][]int64{
		{0: {3}, 1: {0, 1}, 2: {5}}, // index A: the large file and two small ones
		{3: {19}},                   // index B
	})
	res, err := d.reopen().Compact(ctx, nil)
	require.NoError(t, err)
	// Tasks: the files of A and B that are worth compacting (f1, f2, f3;
	// the large f0 is not, its vector deletes 1 row in 1000), and the five
	// files without vectors.
	require.Equal(t, 2, res.Tasks)
	require.Equal(t, 8, res.FilesRewritten)
	d.check()
	after := d.dvIndex()
	loc := dvFilesOf(after)
	require.Len(t, loc, 1, "only the large file keeps its vector")
	require.NotEqual(t, idx[0].FileName, loc[d.files[0].FileName], "moved to a new index file")
	require.Equal(t, snapshot.CommitCompact, d.latest().CommitKind)
	require.EqualValues(t, 1000+8*20-4, d.latest().TotalRecordCount) // file rows: the compacted files hold no deleted row

	// A vector deleting a fifth of a large file makes it worth compacting
	// (compaction.delete-ratio-threshold).
	var many []int64
	for i := int64(0); i < 300; i++ {
		many = append(many, i)
	}
	d.deleteRows(0, []map[int][]int64{{0: many}}, after[0].IndexFile)
	d.write(20)
	res, err = d.reopen().Compact(ctx, nil)
	require.NoError(t, err)
	require.Equal(t, 1, res.Tasks)
	d.check()
	require.Empty(t, dvFilesOf(d.dvIndex()))
}

func TestCompactDeletionVectorConflict(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		race func(d *dvTable, a manifest.IndexFileMeta)
	}{
		// A DELETE gives a file the compaction rewrites its first vector.
		{"new-vector", func(d *dvTable, _ manifest.IndexFileMeta) {
			d.deleteRows(0, []map[int][]int64{{4: {2}}})
		}},
		// A DELETE rewrites the index file holding a rewritten file's
		// vector (Java merges the new deletions into it).
		{"changed-vector", func(d *dvTable, a manifest.IndexFileMeta) {
			d.deleteRows(0, []map[int][]int64{{0: {1, 2}, 1: {0, 3}}}, a)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := newDVTable(t, map[string]string{"bucket": "-1"})
			for range 8 {
				d.write(10)
			}
			a := d.deleteRows(0, []map[int][]int64{{0: {1}, 1: {0}}})[0]
			raced := false
			_, err := d.reopen().Compact(ctx, &CompactOptions{Workers: 1, Progress: func(p CompactProgress) {
				if !raced {
					raced = true
					tc.race(d, a)
				}
			}})
			require.ErrorIs(t, err, ErrCommitConflict)
			d.check() // the racing deletion is kept
			// A new attempt plans on the new state and succeeds.
			_, err = d.reopen().Compact(ctx, nil)
			require.NoError(t, err)
			d.check()
			require.Empty(t, dvFilesOf(d.dvIndex()))
		})
	}
}

func TestCompactBucketedDeletionVectors(t *testing.T) {
	ctx := context.Background()
	d := newDVTable(t, map[string]string{"bucket": "1", "bucket-key": "id"})
	for range 3 {
		d.write(10)
	}
	d.deleteRows(0, []map[int][]int64{{0: {0}, 2: {9}}})
	res, err := d.reopen().Compact(ctx, &CompactOptions{Full: true})
	require.NoError(t, err)
	require.Equal(t, 3, res.FilesRewritten)
	d.check()
	// The bucket's index file was replaced by one without vectors (Java
	// writes it, holding only the version byte).
	after := d.dvIndex()
	require.Len(t, after, 1)
	require.Empty(t, after[0].IndexFile.DVRanges)
	require.EqualValues(t, 1, after[0].IndexFile.FileSize)
}

func TestCombineIndexEntries(t *testing.T) {
	dv := func(kind manifest.FileKind, bucket int32, name string, files ...string) manifest.IndexManifestEntry {
		var ranges []manifest.DeletionVectorMeta
		for _, f := range files {
			ranges = append(ranges, manifest.DeletionVectorMeta{DataFileName: f})
		}
		return manifest.IndexManifestEntry{Kind: kind, Bucket: bucket, Partition: manifest.EmptyRow(),
			IndexFile: manifest.IndexFileMeta{IndexType: manifest.IndexTypeDeletionVectors, FileName: name, DVRanges: ranges}}
	}
	names := func(es []manifest.IndexManifestEntry) []string {
		var out []string
		for _, e := range es {
			require.Equal(t, manifest.FileKindAdd, e.Kind)
			out = append(out, e.IndexFile.FileName)
		}
		sort.Strings(out)
		return out
	}
	add, del := manifest.FileKindAdd, manifest.FileKindDelete
	prev := []manifest.IndexManifestEntry{dv(add, 0, "a", "f1", "f2"), dv(add, 0, "b", "f3")}

	// Unaware buckets: by file name.
	out, err := combineIndexEntries(prev, []manifest.IndexManifestEntry{dv(del, 0, "a", "f1", "f2"), dv(add, 0, "c", "f2")}, true)
	require.NoError(t, err)
	require.Equal(t, []string{"b", "c"}, names(out))
	_, err = combineIndexEntries(prev, []manifest.IndexManifestEntry{dv(del, 0, "x")}, true)
	require.ErrorIs(t, err, ErrCommitConflict)
	_, err = combineIndexEntries(prev, []manifest.IndexManifestEntry{dv(add, 0, "c", "f3")}, true)
	require.ErrorIs(t, err, ErrCommitConflict)

	// Fixed buckets: an added file replaces the bucket's file.
	prev = []manifest.IndexManifestEntry{dv(add, 0, "a", "f1"), dv(add, 1, "b", "f3")}
	out, err = combineIndexEntries(prev, []manifest.IndexManifestEntry{dv(add, 0, "c")}, false)
	require.NoError(t, err)
	require.Equal(t, []string{"b", "c"}, names(out))
	out, err = combineIndexEntries(prev, []manifest.IndexManifestEntry{dv(del, 1, "b"), dv(add, 1, "d")}, false)
	require.NoError(t, err)
	require.Equal(t, []string{"a", "d"}, names(out))
}
