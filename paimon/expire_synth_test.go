package paimon_test

import (
	"bytes"
	"context"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/paimon"
)

// synthDir is where synthTable writes its table.
const synthDir = "wh/db.db/s"

// synthTable writes table metadata by hand, the way Java's
// FileStoreCommitImpl lays it out, for histories the Java goldens do not
// have: compactions deleting files, level upgrades, index files, changelog
// files, statistics, extra files, external paths, branches and consumers.
// Data, index and statistics files hold a placeholder byte: expiration
// never reads them.
type synthTable struct {
	t        *testing.T
	fsys     fs.FS
	meta     *paimon.TableMeta
	n        int
	clock    int64
	branches map[string]*synthBranch
}

// synthBranch is the state a branch's next commit builds on, per snapshot.
type synthBranch struct {
	meta   *paimon.TableMeta
	root   string // directory of the branch's snapshot/, tag/ and schema/
	latest int64
	states map[int64]synthState
}

type synthState struct {
	manifests []manifest.ManifestFileMeta
	index     *string
	indexes   []manifest.IndexManifestEntry
	stats     *string
}

// synthFile is a file of a synthetic commit.
type synthFile struct {
	name     string
	part     string // value of the STRING partition key dt
	bucket   int32
	level    int32
	extra    []string
	external string
}

// synthCommit is one commit: files deleted then added, changelog files, the
// complete list of index files after the commit (nil keeps the previous
// index manifest) and a statistics file ("" inherits the previous one).
type synthCommit struct {
	del, add  []synthFile
	changelog []synthFile
	index     []string
	stats     string
	at        int64 // commit time in ms; 0 means a minute after the previous
}

func newSynthTable(t *testing.T, fsys fs.FS, options map[string]string) *synthTable {
	t.Helper()
	sch, err := schema.NewSchemaBuilder().
		Column("dt", schema.StringType().NotNull()).
		Column("id", schema.IntType()).
		PartitionKeys("dt").Option("bucket", "2").Options(options).Build()
	require.NoError(t, err)
	ts, err := schema.NewTableSchema(0, sch, 1)
	require.NoError(t, err)
	b, err := ts.Encode()
	require.NoError(t, err)
	s := &synthTable{t: t, fsys: fsys, meta: paimon.NewTableMeta(fsys, synthDir), clock: 1_700_000_000_000,
		branches: map[string]*synthBranch{}}
	s.put(s.meta.SchemaPath(0), b)
	s.branches[paimon.MainBranch] = &synthBranch{meta: s.meta, root: synthDir, states: map[int64]synthState{0: {}}}
	return s
}

func (s *synthTable) put(p string, b []byte) {
	s.t.Helper()
	require.NoError(s.t, fs.WriteFile(context.Background(), s.fsys, p, b, nil))
}

func (s *synthTable) name(prefix string) string {
	s.n++
	return prefix + strconv.Itoa(s.n)
}

// synthPart is the file's partition value, "p" by default.
func synthPart(f synthFile) string {
	if f.part == "" {
		return "p"
	}
	return f.part
}

// synthPath is where a non-external file of partition part and bucket lives.
func synthPath(f synthFile, name string) string {
	return synthDir + "/dt=" + synthPart(f) + "/bucket-" + strconv.Itoa(int(f.bucket)) + "/" + name
}

func (s *synthTable) entry(kind manifest.FileKind, f synthFile) manifest.ManifestEntry {
	s.t.Helper()
	f.part = synthPart(f)
	row, err := binaryrow.Encode(data.Insert, []schema.DataType{schema.StringType().NotNull()}, []any{f.part})
	require.NoError(s.t, err)
	e := manifest.ManifestEntry{
		Kind: kind, Partition: binaryrow.MarshalSerialized(row, 1), Bucket: f.bucket, TotalBuckets: 2,
		File: manifest.DataFileMeta{
			FileName: f.name, FileSize: 1, RowCount: 1,
			MinKey: binaryrow.EmptySerialized(), MaxKey: binaryrow.EmptySerialized(),
			KeyStats: manifest.EmptyStats(), ValueStats: manifest.EmptyStats(),
			Level: f.level, ExtraFiles: append([]string{}, f.extra...),
		},
	}
	if f.external != "" {
		ext := f.external
		e.File.ExternalPath = &ext
	}
	return e
}

// writeManifest writes entries as a new manifest and returns its list entry.
func (s *synthTable) writeManifest(entries []manifest.ManifestEntry) manifest.ManifestFileMeta {
	var buf bytes.Buffer
	require.NoError(s.t, manifest.WriteManifest(&buf, entries, nil))
	name := s.name("manifest-")
	s.put(s.meta.ManifestPath(name), buf.Bytes())
	m := manifest.ManifestFileMeta{FileName: name, FileSize: int64(buf.Len()), PartitionStats: manifest.EmptyStats()}
	for _, e := range entries {
		if e.Kind == manifest.FileKindAdd {
			m.NumAddedFiles++
		} else {
			m.NumDeletedFiles++
		}
	}
	return m
}

func (s *synthTable) writeList(metas []manifest.ManifestFileMeta) string {
	var buf bytes.Buffer
	require.NoError(s.t, manifest.WriteManifestList(&buf, metas, nil))
	name := s.name("manifest-list-")
	s.put(s.meta.ManifestPath(name), buf.Bytes())
	return name
}

// commit commits c to main.
func (s *synthTable) commit(c synthCommit) int64 { return s.commitTo(paimon.MainBranch, c) }

// commitTo commits c to a branch and returns the new snapshot id.
func (s *synthTable) commitTo(branch string, c synthCommit) int64 {
	s.t.Helper()
	br := s.branches[branch]
	prev := br.states[br.latest]
	var entries []manifest.ManifestEntry
	for _, f := range c.del {
		entries = append(entries, s.entry(manifest.FileKindDelete, f))
	}
	for _, f := range c.add {
		entries = append(entries, s.entry(manifest.FileKindAdd, f))
		if f.external == "" {
			s.put(synthPath(f, f.name), []byte{1})
			for _, x := range f.extra {
				s.put(synthPath(f, x), []byte{1})
			}
		}
	}
	state := synthState{manifests: append([]manifest.ManifestFileMeta{}, prev.manifests...),
		index: prev.index, indexes: prev.indexes, stats: prev.stats}
	base := s.writeList(prev.manifests)
	var delta []manifest.ManifestFileMeta
	if len(entries) > 0 {
		m := s.writeManifest(entries)
		delta = append(delta, m)
		state.manifests = append(state.manifests, m)
	}
	deltaList := s.writeList(delta)
	snap := &snapshot.Snapshot{Version: 3, ID: br.latest + 1, SchemaID: 0, BaseManifestList: base,
		DeltaManifestList: deltaList, CommitUser: "u", CommitIdentifier: snapshot.BatchCommitIdentifier,
		CommitKind: snapshot.CommitAppend, TotalRecordCount: 1, DeltaRecordCount: 1}
	if len(c.del) > 0 {
		snap.CommitKind = snapshot.CommitCompact
	}
	if len(c.changelog) > 0 {
		var cl []manifest.ManifestEntry
		for _, f := range c.changelog {
			cl = append(cl, s.entry(manifest.FileKindAdd, f))
			s.put(synthPath(f, f.name), []byte{1})
		}
		list := s.writeList([]manifest.ManifestFileMeta{s.writeManifest(cl)})
		snap.ChangelogManifestList = &list
	}
	if c.index != nil {
		var idx []manifest.IndexManifestEntry
		for _, name := range c.index {
			s.put(s.meta.IndexPath(name), []byte{1})
			idx = append(idx, manifest.IndexManifestEntry{Kind: manifest.FileKindAdd, Partition: binaryrow.EmptySerialized(),
				IndexFile: manifest.IndexFileMeta{IndexType: manifest.IndexTypeHash, FileName: name, FileSize: 1, RowCount: 1}})
		}
		var buf bytes.Buffer
		require.NoError(s.t, manifest.WriteIndexManifest(&buf, idx, nil))
		name := s.name("index-manifest-")
		s.put(s.meta.ManifestPath(name), buf.Bytes())
		state.index, state.indexes = &name, idx
	}
	snap.IndexManifest = state.index
	if c.stats != "" {
		st := c.stats
		s.put(synthDir+"/statistics/"+st, []byte("{}"))
		state.stats = &st
	}
	snap.Statistics = state.stats
	if c.at != 0 {
		s.clock = c.at
	} else {
		s.clock += 60_000
	}
	snap.TimeMillis = s.clock
	s.put(br.meta.SnapshotPath(snap.ID), snap.Encode())
	s.put(br.root+"/snapshot/LATEST", snapshot.FormatHint(snap.ID))
	br.latest = snap.ID
	br.states[snap.ID] = state
	return snap.ID
}

// appends commits n snapshots that each add one file.
func (s *synthTable) appends(n int) {
	for range n {
		s.commit(synthCommit{add: []synthFile{{name: s.name("data-"), part: "p"}}})
	}
}

// tag tags snapshot id of a branch.
func (s *synthTable) tag(branch, name string, id int64) {
	s.t.Helper()
	m := s.branches[branch].meta
	snap, err := m.ReadSnapshot(context.Background(), id)
	require.NoError(s.t, err)
	s.put(m.TagPath(name), (&snapshot.Tag{Snapshot: *snap}).Encode())
}

func (s *synthTable) deleteTag(branch, name string) {
	s.t.Helper()
	require.NoError(s.t, s.fsys.Remove(context.Background(), s.branches[branch].meta.TagPath(name)))
}

// branch creates a branch from a tag of main, as Java's
// FileSystemBranchManager.createBranch does: the tag, its snapshot and the
// schema are copied into branch/branch-<name>/.
func (s *synthTable) branch(name, tag string) {
	s.t.Helper()
	ctx := context.Background()
	tg, err := s.meta.ReadTag(ctx, tag)
	require.NoError(s.t, err)
	bm := s.meta.WithBranch(name)
	s.put(bm.TagPath(tag), tg.Encode())
	s.put(bm.SnapshotPath(tg.ID), tg.Snapshot.Encode())
	b, err := fs.ReadFile(ctx, s.fsys, s.meta.SchemaPath(0))
	require.NoError(s.t, err)
	s.put(bm.SchemaPath(0), b)
	st := s.branches[paimon.MainBranch].states[tg.ID]
	s.branches[name] = &synthBranch{meta: bm, root: synthDir + "/branch/branch-" + name, latest: tg.ID,
		states: map[int64]synthState{tg.ID: st}}
}

// consumer records a streaming consumer's next snapshot.
func (s *synthTable) consumer(id string, next int64) {
	s.put(synthDir+"/consumer/consumer-"+id, snapshot.Consumer{NextSnapshot: next}.Encode())
}

func (s *synthTable) open(branch string) *paimon.Table {
	s.t.Helper()
	tbl, err := paimon.OpenTable(context.Background(), s.fsys, synthDir, &paimon.TableOptions{Branch: branch})
	require.NoError(s.t, err)
	return tbl
}
