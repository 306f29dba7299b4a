package interop_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/paimon"
)

// Checks of TestLiveWritesReadByJava against what our writer committed.

// wtFile is one live data file of our manifests.
type wtFile struct {
	bucket int32
	meta   manifest.DataFileMeta
}

// baseline checks the table with our own reader before any other reader
// sees it, and records its live files and snapshots: our scan must equal
// the rows committed, with and without every filter; the files' row counts,
// sizes and null counts must match the rows and the disk; the snapshots
// must be the commits we made.
func (wt *wtTable) baseline(ctx context.Context, t *testing.T, fsys *localfs.FS) {
	name := wt.spec.name
	tbl, err := paimon.OpenTable(ctx, fsys, wt.dir, nil)
	require.NoError(t, err)
	got, plan := goScan(ctx, t, tbl)
	wtCompare(t, "our scan of "+name, wt.model.lines(), got)

	wt.files = map[string]wtFile{}
	var rows int64
	for _, s := range plan.Splits {
		for _, f := range s.Files {
			rel := path.Join(s.BucketPath, f.FileName)
			require.NotContains(t, wt.files, rel)
			wt.files[rel] = wtFile{bucket: s.Bucket, meta: f}
			rows += f.RowCount
			st, err := os.Stat(filepath.Join(fsys.Root(), wt.dir, rel))
			if err != nil {
				t.Errorf("%s: data file %s of our manifests: %v", name, rel, err)
			} else if st.Size() != f.FileSize {
				t.Errorf("%s: data file %s holds %d bytes, its manifest entry says %d", name, rel, st.Size(), f.FileSize)
			}
		}
	}
	require.Equal(t, int64(len(wt.model.rows)), rows, "%s: row counts of the live files", name)
	t.Logf("%s: %d rows in %d files, %d splits", name, rows, len(wt.files), len(plan.Splits))
	wt.checkNullCountSums(t)

	ids, err := tbl.Meta().SnapshotIDs(ctx)
	require.NoError(t, err)
	want := make([]int64, len(wt.snaps))
	for i, s := range wt.snaps {
		want[i] = int64(i + 1)
		snap, err := tbl.Meta().ReadSnapshot(ctx, s.id)
		require.NoError(t, err)
		require.Equal(t, s.kind, snap.CommitKind, "%s snapshot %d: commit kind", name, s.id)
		require.Equal(t, s.identifier, snap.CommitIdentifier, "%s snapshot %d: commit identifier", name, s.id)
		require.Equal(t, wtUser(wt.spec), snap.CommitUser, "%s snapshot %d: commit user", name, s.id)
		require.Equal(t, s.total, snap.TotalRecordCount, "%s snapshot %d: total record count", name, s.id)
		require.Equal(t, s.delta, snap.DeltaRecordCount, "%s snapshot %d: delta record count", name, s.id)
		wt.snaps[i].snap = snap
	}
	require.Equal(t, want, ids, "%s: snapshot ids", name)
	for i, s := range wt.snaps {
		require.Equal(t, want[i], s.id, "%s: commit %d made snapshot %d", name, i, s.id)
	}
}

// goFilters runs our own scan with every filter of the table: it prunes by
// the same statistics Java does.
func (wt *wtTable) goFilters(ctx context.Context, t *testing.T, fsys *localfs.FS) {
	name := wt.spec.name
	tbl, err := paimon.OpenTable(ctx, fsys, wt.dir, nil)
	require.NoError(t, err)
	pruned := 0
	var all int64 = -1
	for _, f := range wt.filters {
		got, fp := goScan(ctx, t, tbl, paimon.WithFilter(f.pred))
		wtCompare(t, "our scan of "+name+" with filter "+f.arg, wt.model.filter(t, f.pred), got)
		if all < 0 {
			plan, err := tbl.NewScan().Plan(ctx)
			require.NoError(t, err)
			all = plan.Stats.RowCount
		}
		if fp.Stats.RowCount < all {
			pruned++
		}
	}
	t.Logf("%s: %d filters, %d of them pruned by our scan", name, len(wt.filters), pruned)
}

// checkNullCountSums checks that the null counts of the live files add up
// to the NULLs we wrote, column by column (where every file has a count).
func (wt *wtTable) checkNullCountSums(t *testing.T) {
	t.Helper()
	for i, f := range wt.fields {
		var sum int64
		known := true
		for _, file := range wt.files {
			n := wtNullCount(file.meta, f.Name, i)
			if n == nil {
				known = false
				break
			}
			sum += *n
		}
		if !known {
			continue
		}
		var want int64
		for _, r := range wt.model.rows {
			if r.vals[i] == nil {
				want++
			}
		}
		if sum != want {
			t.Errorf("%s column %s: the null counts of our files add up to %d, the rows hold %d NULLs",
				wt.spec.name, f.Name, sum, want)
		}
	}
}

// wtNullCount returns the stored null count of a column (nil: unknown).
func wtNullCount(f manifest.DataFileMeta, name string, i int) *int64 {
	if f.ValueStatsCols != nil {
		i = slices.Index(f.ValueStatsCols, name)
	}
	if i < 0 || i >= len(f.ValueStats.NullCounts) {
		return nil
	}
	return f.ValueStats.NullCounts[i]
}

// wtNullCountsText renders the null counts of a file as Java's $files
// does: a TreeMap of column name to count, printed by AbstractMap.toString.
func wtNullCountsText(fields []schema.DataField, f manifest.DataFileMeta) string {
	if f.ValueStatsCols == nil && len(f.ValueStats.NullCounts) == 0 {
		return "{}"
	}
	type kv struct{ k, v string }
	var out []kv
	for i, fd := range fields {
		v := "null"
		if n := wtNullCount(f, fd.Name, i); n != nil {
			v = fmt.Sprint(*n)
		}
		out = append(out, kv{fd.Name, v})
	}
	sort.Slice(out, func(a, b int) bool { return out[a].k < out[b].k })
	parts := make([]string, len(out))
	for i, p := range out {
		parts[i] = p.k + "=" + p.v
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// wtLocalTime renders epoch milliseconds as Java renders a Timestamp of the
// JVM's (UTC) wall clock in canon-v1.
func wtLocalTime(ms int64) string {
	return time.UnixMilli(ms).UTC().Format("2006-01-02T15:04:05.000000000")
}

func wtDecode(t *testing.T, line string) map[string]any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(line))
	dec.UseNumber()
	var m map[string]any
	require.NoError(t, dec.Decode(&m))
	return m
}

// wtSameFields reports every key of want whose JSON differs in got.
func wtSameFields(t *testing.T, what string, want, got map[string]any) {
	t.Helper()
	keys := make([]string, 0, len(want))
	for k := range want {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		g, ok := got[k]
		if !ok {
			t.Errorf("%s: Java's row has no %s", what, k)
			continue
		}
		if w, gj := wtJSON(want[k]), wtJSON(g); w != gj {
			t.Errorf("%s: %s is %s in Java, %s in our metadata", what, k, gj, w)
		}
	}
}

// checkFiles compares Java's $files with the live files of our manifests.
func (wt *wtTable) checkFiles(t *testing.T, whv string, lines []string) {
	name := wt.spec.name
	marker := "/" + wt.dir + "/"
	seen := map[string]bool{}
	for _, line := range lines {
		m := wtDecode(t, line)
		p, _ := m["file_path"].(string)
		i := strings.Index(p, marker)
		if i < 0 {
			t.Errorf("%s: Java's $files path %q is not under the table", name, p)
			continue
		}
		rel := p[i+len(marker):]
		f, ok := wt.files[rel]
		if !ok {
			t.Errorf("%s: Java's $files lists %s, which is not a live file of our manifests", name, rel)
			continue
		}
		if seen[rel] {
			t.Errorf("%s: Java's $files lists %s twice", name, rel)
		}
		seen[rel] = true
		var creation any
		if f.meta.CreationTime != nil {
			creation = wtLocalTime(*f.meta.CreationTime)
		}
		var source any
		if f.meta.FileSource != nil {
			source = map[manifest.FileSource]string{manifest.FileSourceAppend: "APPEND",
				manifest.FileSourceCompact: "COMPACT"}[*f.meta.FileSource]
		}
		wtSameFields(t, name+" $files "+rel, map[string]any{
			"bucket":              f.bucket,
			"file_format":         strings.TrimPrefix(path.Ext(rel), "."),
			"schema_id":           f.meta.SchemaID,
			"level":               f.meta.Level,
			"record_count":        f.meta.RowCount,
			"file_size_in_bytes":  f.meta.FileSize,
			"min_key":             nil,
			"max_key":             nil,
			"null_value_counts":   wtNullCountsText(wt.fields, f.meta),
			"min_sequence_number": f.meta.MinSequenceNumber,
			"max_sequence_number": f.meta.MaxSequenceNumber,
			"creation_time":       creation,
			"deleteRowCount":      f.meta.DeleteRowCount,
			"file_source":         source,
		}, m)
	}
	for rel := range wt.files {
		if !seen[rel] {
			t.Errorf("%s: Java's $files does not list our live file %s", name, rel)
		}
	}
}

// checkSnapshots compares Java's $snapshots with our snapshot files.
func (wt *wtTable) checkSnapshots(t *testing.T, lines []string) {
	name := wt.spec.name
	got := map[int64]map[string]any{}
	for _, line := range lines {
		m := wtDecode(t, line)
		id, err := m["snapshot_id"].(json.Number).Int64()
		require.NoError(t, err)
		got[id] = m
	}
	require.Len(t, got, len(wt.snaps), "%s: Java's $snapshots rows", name)
	for _, s := range wt.snaps {
		m, ok := got[s.id]
		if !ok {
			t.Errorf("%s: Java's $snapshots has no snapshot %d", name, s.id)
			continue
		}
		snap := s.snap
		wtSameFields(t, fmt.Sprintf("%s $snapshots %d", name, s.id), map[string]any{
			"schema_id":               snap.SchemaID,
			"commit_user":             snap.CommitUser,
			"commit_identifier":       snap.CommitIdentifier,
			"commit_kind":             string(snap.CommitKind),
			"commit_time":             wtLocalTime(snap.TimeMillis),
			"base_manifest_list":      snap.BaseManifestList,
			"delta_manifest_list":     snap.DeltaManifestList,
			"changelog_manifest_list": snap.ChangelogManifestList,
			"total_record_count":      snap.TotalRecordCount,
			"delta_record_count":      snap.DeltaRecordCount,
			"changelog_record_count":  snap.ChangelogRecordCount,
			"watermark":               snap.Watermark,
		}, m)
		// And against what we committed, not only what we wrote down.
		wtSameFields(t, fmt.Sprintf("%s $snapshots %d (expected)", name, s.id), map[string]any{
			"commit_kind": string(s.kind), "commit_identifier": s.identifier, "total_record_count": s.total,
			"delta_record_count": s.delta, "commit_user": wtUser(wt.spec),
		}, m)
	}
}

// wtCheckLatestTotal checks the total record count of the latest snapshot
// Java lists: Java adds its deltas to the totals of our snapshots.
func wtCheckLatestTotal(t *testing.T, what string, lines []string, rows int) {
	t.Helper()
	var latest map[string]any
	var latestID int64 = -1
	for _, line := range lines {
		m := wtDecode(t, line)
		id, err := m["snapshot_id"].(json.Number).Int64()
		require.NoError(t, err)
		if id > latestID {
			latest, latestID = m, id
		}
	}
	require.NotNil(t, latest, "no snapshots %s", what)
	require.Equal(t, json.Number(fmt.Sprint(rows)), latest["total_record_count"],
		"total_record_count of the latest snapshot (%d, %v) %s", latestID, latest["commit_kind"], what)
}

// checkFilters compares Java's filtered dumps with the rows the reference
// evaluator matches, and counts the filters where Java pruned files.
func (wt *wtTable) checkFilters(t *testing.T, out, version string) {
	name := wt.spec.name
	pruned := 0
	for i, f := range wt.filters {
		want := wt.model.wantFor(t, f, version)
		wtCompare(t, fmt.Sprintf("Java's dump of %s with --filter %s (%d files)", name, f.arg, len(wt.files)),
			want, readCanon(t, wt.out(out, filterName(i)+".jsonl")))
		b, err := os.ReadFile(wt.out(out, filterName(i)+".files"))
		require.NoError(t, err)
		planned := 0
		for _, p := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if p == "" {
				continue
			}
			planned++
			rel := ""
			if j := strings.Index(p, "/"+wt.dir+"/"); j >= 0 {
				rel = p[j+len(wt.dir)+2:]
			}
			if _, ok := wt.files[rel]; !ok {
				t.Errorf("%s --filter %s: Java planned %s, not a live file of ours", name, f.arg, p)
			}
		}
		if planned < len(wt.files) {
			pruned++
		}
	}
	t.Logf("%s: Java pruned files for %d of %d filters (%d files)", name, pruned, len(wt.filters), len(wt.files))
	if wt.spec.windowed && 2*pruned < len(wt.filters) {
		t.Errorf("%s: Java pruned files for only %d of %d filters: the windowed data should let it prune most",
			name, pruned, len(wt.filters))
	}
}

// wtCheckDataFilesOnDisk checks the data files left on disk after Java
// expired snapshots: exactly the files the retained snapshots reference.
// Java finds the files to delete in the delta manifests of the snapshots
// it expires (the DELETE entries of our overwrites and drops, and of its
// own compactions), so a file left over, or one missing, means it read our
// manifests differently from us. retained is the number of snapshots the
// expire op keeps.
func wtCheckDataFilesOnDisk(ctx context.Context, t *testing.T, tbl *paimon.Table, root string, retained int) {
	t.Helper()
	ids, err := tbl.Meta().SnapshotIDs(ctx)
	require.NoError(t, err)
	require.Len(t, ids, retained, "snapshots left by Java's expire")
	referenced := map[string]bool{}
	for _, id := range ids {
		plan, err := tbl.NewScan(paimon.WithSnapshotID(id)).Plan(ctx)
		require.NoError(t, err)
		for _, s := range plan.Splits {
			for _, f := range s.Files {
				referenced[path.Join(s.BucketPath, f.FileName)] = true
			}
		}
	}
	onDisk := map[string]bool{}
	require.NoError(t, filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		switch strings.Split(filepath.ToSlash(rel), "/")[0] {
		case "manifest", "snapshot", "schema", "index", "tag", "branch", "statistics", "changelog":
			if d.IsDir() {
				return filepath.SkipDir
			}
		}
		if !d.IsDir() && strings.HasPrefix(d.Name(), "data-") {
			onDisk[filepath.ToSlash(rel)] = true
		}
		return nil
	}))
	for f := range onDisk {
		if !referenced[f] {
			t.Errorf("data file %s is left on disk after Java's expire, but no retained snapshot (%v) references it", f, ids)
		}
	}
	for f := range referenced {
		if !onDisk[f] {
			t.Errorf("data file %s of a retained snapshot is gone after Java's expire", f)
		}
	}
}
