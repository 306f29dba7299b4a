package paimon_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/memfs"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/paimon"
)

// Crash-matrix cases of the compactions that write more than data files
// (issue 18): the lookup compaction of a deletion-vector primary-key table
// (Java LookupMergeTreeCompactRewriter), which marks replaced rows of the
// highest level in a new deletion-vector index file and removes the
// bucket's old one; the compaction of an append table with deletion
// vectors, which applies them and drops them; and the compaction of a
// changelog-producer = lookup table, which writes changelog files. The
// setups check that the vectors really exist, so that no case passes
// without exercising the index files.

// relPKModel is a primary-key table's expected rows by id.
type relPKModel map[int64][]any

func (m relPKModel) apply(upserts [][]any, dels []int64) relPKModel {
	out := relPKModel{}
	for k, v := range m {
		out[k] = v
	}
	for _, r := range upserts {
		out[r[1].(int64)] = r
	}
	for _, k := range dels {
		delete(out, k)
	}
	return out
}

func (m relPKModel) rows() [][]any {
	keys := make([]int64, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	out := make([][]any, 0, len(keys))
	for _, k := range keys {
		out = append(out, m[k])
	}
	return out
}

// relUpserts builds updates of the ids [from, to) tagged with round.
func relUpserts(round string, from, to int) [][]any {
	var rows [][]any
	for i := from; i < to; i++ {
		rows = append(rows, []any{"2024-03-01", int64(i), fmt.Sprintf("%s%d", round, i), float64(i) + 0.5})
	}
	return rows
}

func relIDs(from, to int) []int64 {
	var out []int64
	for i := from; i < to; i++ {
		out = append(out, int64(i))
	}
	return out
}

// relDVIndex returns the deletion-vector index files of snapshot id and,
// per data file, the number of rows its vector deletes.
func relDVIndex(ctx context.Context, fsys fs.FS, id int64) (files map[string]bool, deleted map[string]int, err error) {
	tbl, err := paimon.OpenTable(ctx, fsys, relDir, nil)
	if err != nil {
		return nil, nil, err
	}
	s, err := tbl.Meta().ReadSnapshot(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	files, deleted = map[string]bool{}, map[string]int{}
	if s.IndexManifest == nil {
		return files, deleted, nil
	}
	idx, err := tbl.Meta().ReadIndexManifest(ctx, *s.IndexManifest)
	if err != nil {
		return nil, nil, err
	}
	for _, e := range idx {
		if e.Kind != manifest.FileKindAdd || e.IndexFile.IndexType != manifest.IndexTypeDeletionVectors {
			continue
		}
		files[e.IndexFile.FileName] = true
		dvs, err := tbl.Meta().ReadDeletionVectors(ctx, e.IndexFile)
		if err != nil {
			return nil, nil, err
		}
		for name, dv := range dvs {
			n := 0
			for range dv.Positions() {
				n++
			}
			deleted[name] += n
		}
	}
	return files, deleted, nil
}

// relDVChange reads the deletion-vector index files of snapshots id-1 and
// id and fails when an index file of id-1 is still in id (the compaction
// replaces or drops the index files of the buckets it compacts). It
// returns how many index files of id are new and the rows id's vectors
// delete.
func relDVChange(ctx context.Context, fsys fs.FS, id int64) (fresh, deleted int, err error) {
	before, _, err := relDVIndex(ctx, fsys, id-1)
	if err != nil {
		return 0, 0, err
	}
	after, perFile, err := relDVIndex(ctx, fsys, id)
	if err != nil {
		return 0, 0, err
	}
	for f := range before {
		if after[f] {
			return 0, 0, fmt.Errorf("index file %s of snapshot %d is still in snapshot %d", f, id-1, id)
		}
	}
	for f := range after {
		if !before[f] {
			fresh++
		}
	}
	for _, n := range perFile {
		deleted += n
	}
	return fresh, deleted, nil
}

// relCheckDVReplaced checks that the operation's snapshot id replaced the
// deletion-vector index files of the snapshot before with new ones whose
// vectors delete at least minDeleted rows.
func relCheckDVReplaced(minDeleted int) func(ctx context.Context, fsys fs.FS, id int64) error {
	return func(ctx context.Context, fsys fs.FS, id int64) error {
		fresh, deleted, err := relDVChange(ctx, fsys, id)
		if err != nil {
			return err
		}
		if fresh == 0 || deleted < minDeleted {
			return fmt.Errorf("snapshot %d: %d new index files, %d rows deleted by vectors (want >= %d)", id, fresh, deleted, minDeleted)
		}
		return nil
	}
}

// relCheckDVDropped checks that the operation's snapshot id keeps none of
// the deletion-vector index files of the snapshot before and no vector.
func relCheckDVDropped(ctx context.Context, fsys fs.FS, id int64) error {
	_, deleted, err := relDVChange(ctx, fsys, id)
	if err != nil {
		return err
	}
	if deleted > 0 {
		return fmt.Errorf("snapshot %d keeps deletion vectors deleting %d rows", id, deleted)
	}
	return nil
}

// relCheckChangelog checks the changelog of snapshot id: its (row kind,
// row) pairs, sorted, equal want.
func relCheckChangelog(want []string) func(ctx context.Context, fsys fs.FS, id int64) error {
	return func(ctx context.Context, fsys fs.FS, id int64) error {
		tbl, err := paimon.OpenTable(ctx, fsys, relDir, nil)
		if err != nil {
			return err
		}
		fields := tbl.Schema().Fields
		var got []string
		for rec, err := range tbl.NewScan(paimon.WithIncremental(id-1, id, paimon.IncrementalChangelog)).Records(ctx) {
			if err != nil {
				return err
			}
			for r := 0; r < int(rec.NumRows()); r++ {
				kind, err := parquet.ArrowValue(rec.Column(0), r, schema.StringType())
				if err != nil {
					rec.Release()
					return err
				}
				vals := make([]any, len(fields))
				for c := range fields {
					if vals[c], err = parquet.ArrowValue(rec.Column(c+1), r, fields[c].Type); err != nil {
						rec.Release()
						return err
					}
				}
				b, err := canon.EncodeRow(fields, vals)
				if err != nil {
					rec.Release()
					return err
				}
				got = append(got, fmt.Sprint(kind, " ", string(b)))
			}
			rec.Release()
		}
		sort.Strings(got)
		if !equalRows(want, got) {
			return fmt.Errorf("changelog of snapshot %d:\n%v\nwant:\n%v", id, got, want)
		}
		return nil
	}
}

// relChangelog renders changelog rows as relCheckChangelog reads them.
func relChangelog(t *testing.T, kind string, rows [][]any) []string {
	t.Helper()
	var out []string
	for _, r := range relRender(t, rows) {
		out = append(out, kind+" "+r)
	}
	return out
}

// relCompactPK compacts the primary-key table in a setup.
func relCompactPK(t *testing.T, fsys fs.FS, full bool) {
	t.Helper()
	ctx := context.Background()
	tbl, err := paimon.OpenTable(ctx, fsys, relDir, nil)
	require.NoError(t, err)
	res, err := tbl.Compact(ctx, &paimon.CompactOptions{Full: full, Workers: 1})
	require.NoError(t, err)
	require.NotNil(t, res.Commit)
}

func crashCompactOps(t *testing.T, compact func(full bool) func(ctx context.Context, fsys fs.FS) error) []crashOp {
	ctx := context.Background()
	// The primary-key history: keys 0-399 compacted to the highest level;
	// round 1 updates keys 10-19 and is compacted by trigger (a lookup
	// compaction: level 0 goes below the highest level and the replaced
	// rows of the highest level get deletion vectors); round 2, left at
	// level 0 for the operation, updates 15-24 (in both levels above 0),
	// deletes 40-44 and inserts 400-409.
	base := rowsOf(0, 400, 3)
	round1 := relUpserts("a", 10, 20)
	round2, round2Dels := append(relUpserts("b", 15, 25), relUpserts("b", 400, 410)...), relIDs(40, 45)
	m0 := relPKModel{}.apply(base, nil)
	m1 := m0.apply(round1, nil)
	m2 := m1.apply(round2, round2Dels)
	write := func(t *testing.T, fsys fs.FS, id int64, upserts [][]any, dels []int64) {
		t.Helper()
		_, err := relWritePK(ctx, fsys, relDir, "base", id, upserts, dels)
		require.NoError(t, err)
	}
	lookupDV := func(t *testing.T, fsys fs.FS) {
		write(t, fsys, 1, base, nil)
		relCompactPK(t, fsys, true)
		write(t, fsys, 2, round1, nil)
		relCompactPK(t, fsys, false)
		files, deleted, err := relDVIndex(ctx, fsys, latestID(t, fsys))
		require.NoError(t, err)
		require.Len(t, files, 1, "round 1's lookup compaction wrote the bucket's index file")
		total := 0
		for _, n := range deleted {
			total += n
		}
		require.Equal(t, 10, total, "round 1 marked keys 10-19 of the highest level")
		write(t, fsys, 3, round2, round2Dels)
	}
	// changelog-producer = lookup without deletion vectors: keys 0-399 at
	// the highest level, round 2 at level 0; the compaction by trigger
	// writes -U/+U for the updated keys, -D for the deleted and +I for the
	// new ones.
	lookupCL := func(t *testing.T, fsys fs.FS) {
		write(t, fsys, 1, base, nil)
		relCompactPK(t, fsys, true)
		write(t, fsys, 2, round2, round2Dels)
	}
	var clWant []string
	var old, deleted [][]any
	for _, k := range relIDs(15, 25) {
		old = append(old, m0[k])
	}
	for _, k := range round2Dels {
		deleted = append(deleted, m0[k])
	}
	clWant = append(clWant, relChangelog(t, "-U", old)...)
	clWant = append(clWant, relChangelog(t, "+U", round2[:10])...)
	clWant = append(clWant, relChangelog(t, "-D", deleted)...)
	clWant = append(clWant, relChangelog(t, "+I", round2[10:])...)
	sort.Strings(clWant)
	clAfter := relRender(t, m0.apply(round2, round2Dels).rows())
	// An append table (unaware buckets) of three small files whose rows
	// with id % 7 == 3 a DELETE marked in deletion vectors: the compaction
	// (compaction.min.file-num = 3, to keep the steps few) rewrites the
	// three files without those rows and drops the vectors.
	dropped := func(id int64) bool { return id%7 == 3 }
	var kept [][]any
	for _, r := range rowsOf(0, 120, 3) {
		if !dropped(r[1].(int64)) {
			kept = append(kept, r)
		}
	}
	appendDV := func(t *testing.T, fsys fs.FS) {
		for i := range 3 {
			_, err := relWrite(ctx, fsys, relDir, "base", int64(i+1), rowsOf(i*40, i*40+40, 3))
			require.NoError(t, err)
		}
		tbl, err := paimon.OpenTable(ctx, fsys, relDir, nil)
		require.NoError(t, err)
		require.NoError(t, paimon.MarkDeleted(ctx, tbl, 1, func(v any) bool { return dropped(v.(int64)) }))
		files, deleted, err := relDVIndex(ctx, fsys, latestID(t, fsys))
		require.NoError(t, err)
		require.NotEmpty(t, files)
		require.Len(t, deleted, 3, "every small file has a vector")
	}
	// The last two run on the in-memory file system only, to keep the
	// matrix's time moderate: the local disk adds nothing to their steps
	// (create, write, close, read of data, index, changelog and manifest
	// files) that the other compaction cases do not run there.
	return []crashOp{
		// Deletion vectors written by a lookup compaction: batch reads see
		// the compacted levels only, so round 2 appears with it. Keys
		// 15-19 sit in the level below the highest, 20-24 and 40-44 in the
		// highest: the new index file marks both or rewrites the lower.
		{name: "compact-primary-key-dv-lookup", primaryKey: true, setup: lookupDV, publishes: true, laterHidden: true,
			opts:   map[string]string{"bucket": "1", "deletion-vectors.enabled": "true", "write-only": "true"},
			before: relRender(t, m1.rows()), after: relRender(t, m2.rows()), run: compact(false),
			check: relCheckDVReplaced(20)},
		{name: "compact-primary-key-lookup-changelog", primaryKey: true, setup: lookupCL, publishes: true, memfsOnly: true,
			opts:   map[string]string{"bucket": "1", "changelog-producer": "lookup", "write-only": "true"},
			before: clAfter, after: clAfter, run: compact(false), check: relCheckChangelog(clWant)},
		{name: "compact-dv-append", setup: appendDV, publishes: true, memfsOnly: true,
			opts:   map[string]string{"deletion-vectors.enabled": "true", "compaction.min.file-num": "3"},
			before: relRender(t, kept), after: relRender(t, kept), run: compact(false), check: relCheckDVDropped},
	}
}

// relListing returns every file below dir with its content.
func relListing(t *testing.T, fsys fs.FS, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for p := range expListFiles(t, fsys, dir) {
		b, err := fs.ReadFile(context.Background(), fsys, p)
		require.NoError(t, err)
		out[p] = string(b)
	}
	return out
}

// TestCompactRefusedChangesNothing (issue 18, bad input and limits): a
// compaction of a table holding data, with a format or option Compact does
// not compact as Java does, fails with one ErrUnsupported error naming the
// option, by trigger and full, and changes nothing: the same snapshots and
// the same files with the same bytes, nothing written and nothing removed.
func TestCompactRefusedChangesNothing(t *testing.T) {
	ctx := context.Background()
	check := func(t *testing.T, fsys fs.FS, dir, want string) {
		t.Helper()
		before := relListing(t, fsys, dir)
		tbl, err := paimon.OpenTable(ctx, fsys, dir, nil)
		require.NoError(t, err)
		id, _, err := tbl.Meta().LatestSnapshotID(ctx)
		require.NoError(t, err)
		for _, full := range []bool{false, true} {
			tbl, err := paimon.OpenTable(ctx, fsys, dir, nil)
			require.NoError(t, err)
			res, err := tbl.Compact(ctx, &paimon.CompactOptions{Full: full})
			require.ErrorIs(t, err, paimon.ErrUnsupported, "full=%v", full)
			require.Nil(t, res)
			msg := err.Error()
			require.Contains(t, msg, want)
			require.Equal(t, 1, strings.Count(msg, "paimon:"), "one prefix: %s", msg)
			for _, pkg := range []string{"datafile:", "mergefunc:", "coreoptions:"} {
				require.NotContains(t, msg, pkg, "one prefix: %s", msg)
			}
			now, _, err := tbl.Meta().LatestSnapshotID(ctx)
			require.NoError(t, err)
			require.Equal(t, id, now)
			require.Equal(t, before, relListing(t, fsys, dir), "full=%v: the refused compaction changed the table's files", full)
			t.Logf("full=%v: %s", full, msg)
		}
	}
	// A Java-written primary-key table in ORC (this library writes
	// key-value files in Parquet and Avro only).
	t.Run("pk-orc-java", func(t *testing.T) {
		_, fsys := openAt(t, copyGolden(t, "java-1.4.2", "pk-dedup-orc"), "pk_dedup_orc")
		check(t, fsys, "interop.db/pk_dedup_orc", `file.format="orc"`)
	})
	for _, tc := range []struct {
		name string
		pk   bool
		opts map[string]string
		want string
	}{
		{name: "pk-lookup-changelog-row-deduplicate-double", pk: true,
			opts: map[string]string{"changelog-producer": "lookup", "changelog-producer.row-deduplicate": "true"}, want: "changelog-producer.row-deduplicate"},
		{name: "pk-record-level-expire", pk: true,
			opts: map[string]string{"record-level.expire-time": "1 d", "record-level.time-field": "id"}, want: "record-level.expire-time"},
		{name: "pk-full-changelog-row-deduplicate", pk: true,
			opts: map[string]string{"changelog-producer": "full-compaction", "changelog-producer.row-deduplicate": "true"},
			want: "changelog-producer.row-deduplicate"},
		{name: "append-row-tracking", opts: map[string]string{"row-tracking.enabled": "true"}, want: "row-tracking.enabled"},
		{name: "append-clustering", opts: map[string]string{"clustering.incremental": "true", "clustering.columns": "id"},
			want: "clustering.incremental"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := memfs.New(nil)
			opts := map[string]string{"write-only": "true"}
			for k, v := range tc.opts {
				opts[k] = v
			}
			for i := range 6 {
				if i == 0 {
					if tc.pk {
						relCreatePK(t, fsys, relDir, opts)
					} else {
						relCreate(t, fsys, relDir, false, opts)
					}
				}
				var err error
				if tc.pk {
					_, err = relWritePK(ctx, fsys, relDir, "w", int64(i+1), relUpserts("v", i*10, i*10+20), nil)
				} else {
					_, err = relWrite(ctx, fsys, relDir, "w", int64(i+1), rowsOf(i*10, i*10+20, 3))
				}
				require.NoError(t, err)
			}
			check(t, fsys, relDir, tc.want)
		})
	}
}
