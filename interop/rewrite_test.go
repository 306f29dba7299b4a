package interop_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/internal/interop"
	"github.com/paimon-go/paimon-go/paimon"
)

// TestLiveRewrittenMetadataReadByJava takes every golden warehouse, rewrites
// all of its manifests, manifest lists, index manifests, snapshots and tags
// with our encoders (fixing the recorded file sizes), and checks that Java
// still reads exactly the rows the producer dumped before, at the latest
// snapshot and at every snapshot and tag. Java warehouses are read by the
// Java version that wrote them, pypaimon's by Java 1.4.2. All dumps of one
// Java version run in one JVM (a batch over every rewritten warehouse).
func TestLiveRewrittenMetadataReadByJava(t *testing.T) {
	runners := map[string]*interop.Runner{}
	for _, r := range interop.RequireJava(t) {
		runners[r.Name()] = r
	}
	ctx := context.Background()
	type check struct {
		c     goldenCase
		items []interop.BatchItem
	}
	checks := map[string][]check{} // by runner name
	var names []string
	for _, c := range goldenCases(t) {
		r, ok := runners[c.sc.Producer]
		if !ok {
			r, ok = runners["java-1.4.2"]
		}
		if !ok {
			continue
		}
		// The parent's directories: they outlive the subtest until the
		// batch has read them.
		wh, out := t.TempDir(), t.TempDir()
		var items []interop.BatchItem
		if !t.Run("rewrite/"+c.name(), func(t *testing.T) {
			require.NoError(t, copyTree(filepath.Join(c.dir, "warehouse"), wh))
			fsys, err := localfs.New(wh, nil)
			require.NoError(t, err)
			db, table, _ := strings.Cut(c.sc.Table, ".")
			n := rewriteMetadata(ctx, t, paimon.NewTableMeta(fsys, db+".db/"+table))
			t.Logf("rewrote %d metadata files", n)
			add := func(name string, o interop.DumpOptions) {
				items = append(items, interop.BatchItem{Out: filepath.Join(out, name), Args: interop.DumpArgs(wh, c.sc.Table, o)})
			}
			add("expected.jsonl", interop.DumpOptions{})
			for _, id := range c.sc.Snapshots {
				add(snapshotFile(id), interop.DumpOptions{Snapshot: id})
			}
			for _, tag := range c.sc.Tags {
				add("expected-tag-"+tag+".jsonl", interop.DumpOptions{Tag: tag})
			}
		}) {
			continue
		}
		if _, ok := checks[r.Name()]; !ok {
			names = append(names, r.Name())
		}
		checks[r.Name()] = append(checks[r.Name()], check{c: c, items: items})
	}
	slices.Sort(names)
	for _, name := range names {
		var items []interop.BatchItem
		for _, ck := range checks[name] {
			items = append(items, ck.items...)
		}
		require.NoError(t, runners[name].Batch(ctx, items), name)
		for _, ck := range checks[name] {
			t.Run(ck.c.name(), func(t *testing.T) {
				for _, it := range ck.items {
					name := filepath.Base(it.Out)
					if d := canon.Compare(readCanon(t, filepath.Join(ck.c.dir, name)), readCanon(t, it.Out)); d != "" {
						t.Errorf("%s after rewriting the metadata: %s", name, d)
					}
				}
			})
		}
	}
}

func snapshotFile(id int64) string { return fmt.Sprintf("expected-snapshot-%d.jsonl", id) }

func readCanon(t *testing.T, file string) []string {
	t.Helper()
	f, err := os.Open(file)
	require.NoError(t, err)
	defer f.Close()
	lines, err := canon.ReadLines(f)
	require.NoError(t, err)
	return lines
}

// rewriteMetadata re-encodes the metadata of a table in place: manifests
// first, then manifest lists with the new manifest sizes, then snapshots and
// tags with the new list sizes. It returns the number of files rewritten.
func rewriteMetadata(ctx context.Context, t *testing.T, m *paimon.TableMeta) int {
	t.Helper()
	fsys := m.FS()
	infos, err := fs.ReadDir(ctx, fsys, m.Path("manifest"))
	require.NoError(t, err)
	sizes := map[string]int64{}
	n := 0
	put := func(name string, b []byte) {
		require.NoError(t, fs.WriteFile(ctx, fsys, m.ManifestPath(name), b, nil))
		sizes[name] = int64(len(b))
		n++
	}
	// Manifests and index manifests.
	for _, fi := range infos {
		var buf bytes.Buffer
		switch {
		case strings.HasPrefix(fi.Name, "manifest-list-"):
			continue
		case strings.HasPrefix(fi.Name, "index-manifest-"):
			e, err := m.ReadIndexManifest(ctx, fi.Name)
			require.NoError(t, err)
			require.NoError(t, manifest.WriteIndexManifest(&buf, e, nil))
		case strings.HasPrefix(fi.Name, "manifest-"):
			e, err := m.ReadManifest(ctx, fi.Name)
			require.NoError(t, err)
			require.NoError(t, manifest.WriteManifest(&buf, e, nil))
		default:
			continue
		}
		put(fi.Name, buf.Bytes())
	}
	// Manifest lists, pointing at the new manifest sizes.
	for _, fi := range infos {
		if !strings.HasPrefix(fi.Name, "manifest-list-") {
			continue
		}
		metas, err := m.ReadManifestList(ctx, fi.Name)
		require.NoError(t, err)
		for i := range metas {
			if s, ok := sizes[metas[i].FileName]; ok {
				metas[i].FileSize = s
			}
		}
		var buf bytes.Buffer
		require.NoError(t, manifest.WriteManifestList(&buf, metas, nil))
		put(fi.Name, buf.Bytes())
	}
	fix := func(s *snapshot.Snapshot) {
		for _, p := range []struct {
			name string
			size **int64
		}{{s.BaseManifestList, &s.BaseManifestListSize}, {s.DeltaManifestList, &s.DeltaManifestListSize}} {
			if sz, ok := sizes[p.name]; ok && *p.size != nil {
				v := sz
				*p.size = &v
			}
		}
		if s.ChangelogManifestList != nil && s.ChangelogManifestListSize != nil {
			if sz, ok := sizes[*s.ChangelogManifestList]; ok {
				v := sz
				s.ChangelogManifestListSize = &v
			}
		}
	}
	ids, err := m.SnapshotIDs(ctx)
	require.NoError(t, err)
	for _, id := range ids {
		s, err := m.ReadSnapshot(ctx, id)
		require.NoError(t, err)
		fix(s)
		require.NoError(t, fs.WriteFile(ctx, fsys, m.SnapshotPath(id), s.Encode(), nil))
		n++
	}
	tags, err := m.TagNames(ctx)
	require.NoError(t, err)
	for _, name := range tags {
		tag, err := m.ReadTag(ctx, name)
		require.NoError(t, err)
		fix(&tag.Snapshot)
		require.NoError(t, fs.WriteFile(ctx, fsys, m.TagPath(name), tag.Encode(), nil))
		n++
	}
	return n
}
