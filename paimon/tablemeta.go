package paimon

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"sort"
	"strconv"
	"strings"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/fs"
)

// File and directory names of a table, as Java Paimon's SnapshotManager,
// SchemaManager, TagManager, BranchManager and FileStorePathFactory define
// them.
const (
	snapshotDir    = "snapshot"
	schemaDir      = "schema"
	tagDir         = "tag"
	manifestDir    = "manifest"
	indexDir       = "index"
	consumerDir    = "consumer"
	branchDir      = "branch"
	snapshotPrefix = "snapshot-"
	schemaPrefix   = "schema-"
	tagPrefix      = "tag-"
	branchPrefix   = "branch-"
	consumerPrefix = "consumer-"
	latestHint     = "LATEST"
	earliestHint   = "EARLIEST"
	// MainBranch is the name of the default branch, whose metadata lives in
	// the table root.
	MainBranch = "main"
)

// TableMeta reads the metadata files of one table. Data, manifest and index
// files are shared by all branches and live under the table root; schemas,
// snapshots and tags of a branch other than main live under
// branch/branch-<name>/.
//
// A TableMeta is a small value and safe for concurrent use; it holds no
// context and no open files.
type TableMeta struct {
	fsys   fs.FS
	root   string // table directory, relative to the fs root ("." for the root itself)
	branch string
}

// NewTableMeta returns the metadata reader of the table in directory root of
// fsys, on the main branch.
func NewTableMeta(fsys fs.FS, root string) *TableMeta {
	if root == "" {
		root = "."
	}
	return &TableMeta{fsys: fsys, root: strings.TrimSuffix(root, "/"), branch: MainBranch}
}

// WithBranch returns a copy that reads the schemas, snapshots and tags of the
// named branch.
func (m *TableMeta) WithBranch(branch string) *TableMeta {
	c := *m
	if branch == "" {
		branch = MainBranch
	}
	c.branch = branch
	return &c
}

// FS returns the file system the table lives in.
func (m *TableMeta) FS() fs.FS { return m.fsys }

// Root returns the table directory, relative to the file system root.
func (m *TableMeta) Root() string { return m.root }

// Branch returns the branch this reader works on.
func (m *TableMeta) Branch() string { return m.branch }

// Path joins elements under the table root.
func (m *TableMeta) Path(elem ...string) string {
	p := strings.Join(elem, "/")
	if m.root == "." {
		return p
	}
	return m.root + "/" + p
}

// branchPath joins elements under the branch's metadata root.
func (m *TableMeta) branchPath(elem ...string) string {
	if m.branch == MainBranch {
		return m.Path(elem...)
	}
	return m.Path(append([]string{branchDir, branchPrefix + m.branch}, elem...)...)
}

// SnapshotPath is the name of snapshot-<id>.
func (m *TableMeta) SnapshotPath(id int64) string {
	return m.branchPath(snapshotDir, snapshotPrefix+strconv.FormatInt(id, 10))
}

// SchemaPath is the name of schema-<id>.
func (m *TableMeta) SchemaPath(id int64) string {
	return m.branchPath(schemaDir, schemaPrefix+strconv.FormatInt(id, 10))
}

// TagPath is the name of tag-<name>.
func (m *TableMeta) TagPath(name string) string { return m.branchPath(tagDir, tagPrefix+name) }

// ManifestPath is the name of a manifest, manifest list or index manifest
// file given its bare name as snapshots and manifest lists record it.
func (m *TableMeta) ManifestPath(name string) string { return m.Path(manifestDir, name) }

// IndexPath is the name of an index file in the table's index directory.
func (m *TableMeta) IndexPath(name string) string { return m.Path(indexDir, name) }

func (m *TableMeta) read(ctx context.Context, path string) ([]byte, error) {
	return fs.ReadFile(ctx, m.fsys, path)
}

// ReadSnapshot reads snapshot-<id>. A missing file yields an error wrapping
// ErrSnapshotNotFound (and io/fs.ErrNotExist).
func (m *TableMeta) ReadSnapshot(ctx context.Context, id int64) (*snapshot.Snapshot, error) {
	p := m.SnapshotPath(id)
	b, err := m.read(ctx, p)
	if errors.Is(err, iofs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %d in %s: %w", ErrSnapshotNotFound, id, m.root, err)
	}
	if err != nil {
		return nil, err
	}
	s, err := snapshot.Decode(b)
	if err != nil {
		return nil, corrupt(p, err)
	}
	if s.ID != id {
		return nil, corrupt(p, fmt.Errorf("file holds snapshot id %d", s.ID))
	}
	return s, nil
}

// SnapshotIDs lists the ids of the snapshot files present, ascending. Hint
// files and temporary files are ignored.
func (m *TableMeta) SnapshotIDs(ctx context.Context) ([]int64, error) {
	return m.listIDs(ctx, m.branchPath(snapshotDir), snapshotPrefix)
}

// SchemaIDs lists the ids of the schema files present, ascending.
func (m *TableMeta) SchemaIDs(ctx context.Context) ([]int64, error) {
	return m.listIDs(ctx, m.branchPath(schemaDir), schemaPrefix)
}

// listIDs lists <prefix><number> files. Unlike Java's
// FileUtils.listVersionedFiles it skips names whose suffix is not a number
// instead of failing, so a stray temporary file cannot break a reader.
func (m *TableMeta) listIDs(ctx context.Context, dir, prefix string) ([]int64, error) {
	var ids []int64
	for fi, err := range m.fsys.List(ctx, dir) {
		if err != nil {
			return nil, err
		}
		rest, ok := strings.CutPrefix(fi.Name, prefix)
		if !ok || fi.IsDir {
			continue
		}
		id, err := strconv.ParseInt(rest, 10, 64)
		if err != nil || id < 0 {
			continue
		}
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	return ids, nil
}

// LatestSnapshotID returns the id of the newest snapshot, following Java's
// SnapshotManager: trust the LATEST hint when snapshot-<hint+1> does not
// exist, otherwise list the directory. ok is false when the table has no
// snapshot.
func (m *TableMeta) LatestSnapshotID(ctx context.Context) (id int64, ok bool, err error) {
	if hint, herr := m.readHint(ctx, latestHint); herr == nil && hint > 0 {
		next, err := fs.Exists(ctx, m.fsys, m.SnapshotPath(hint+1))
		if err != nil {
			return 0, false, err
		}
		cur, err := fs.Exists(ctx, m.fsys, m.SnapshotPath(hint))
		if err != nil {
			return 0, false, err
		}
		if !next && cur {
			return hint, true, nil
		}
	}
	ids, err := m.SnapshotIDs(ctx)
	if err != nil || len(ids) == 0 {
		return 0, false, err
	}
	return ids[len(ids)-1], true, nil
}

// EarliestSnapshotID returns the id of the oldest snapshot still present,
// trusting the EARLIEST hint when that snapshot exists and the one before
// it does not (Java checks only the first; a damaged or stale hint above
// an existing snapshot would make expiration skip snapshots).
func (m *TableMeta) EarliestSnapshotID(ctx context.Context) (id int64, ok bool, err error) {
	if hint, herr := m.readHint(ctx, earliestHint); herr == nil && hint > 0 {
		exists, err := fs.Exists(ctx, m.fsys, m.SnapshotPath(hint))
		if err != nil {
			return 0, false, err
		}
		prev := false
		if exists && hint > snapshot.FirstSnapshotID {
			if prev, err = fs.Exists(ctx, m.fsys, m.SnapshotPath(hint-1)); err != nil {
				return 0, false, err
			}
		}
		if exists && !prev {
			return hint, true, nil
		}
	}
	ids, err := m.SnapshotIDs(ctx)
	if err != nil || len(ids) == 0 {
		return 0, false, err
	}
	return ids[0], true, nil
}

// hintOptions writes LATEST after a commit and EARLIEST after an
// expiration without the fsyncs that make snapshots and manifests durable
// (fs.CreateOptions.NoSync; two of the ten fsyncs of a local append
// commit, its data files' aside). LatestSnapshotID and EarliestSnapshotID
// check a hint against the snapshots that exist and list the directory
// when it is unreadable or stale, so a hint lost in a crash costs one
// listing; Java's local FileIO writes hints without syncing too. A
// rollback's hints stay synced: it deletes the snapshots above its hint,
// and Java's reader trusts a LATEST whose next snapshot is absent without
// checking that the hinted one exists.
var hintOptions = &fs.CreateOptions{NoSync: true}

// readHint reads LATEST or EARLIEST. Hints are accelerators only: any
// failure means "no hint".
func (m *TableMeta) readHint(ctx context.Context, name string) (int64, error) {
	b, err := m.read(ctx, m.branchPath(snapshotDir, name))
	if err != nil {
		return 0, err
	}
	return snapshot.ParseHint(b)
}

// ReadSchema reads schema-<id>.
func (m *TableMeta) ReadSchema(ctx context.Context, id int64) (*schema.TableSchema, error) {
	p := m.SchemaPath(id)
	b, err := m.read(ctx, p)
	if errors.Is(err, iofs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %d in %s: %w", ErrSchemaNotFound, id, m.root, err)
	}
	if err != nil {
		return nil, err
	}
	s, err := schema.Decode(b)
	if err != nil {
		return nil, corrupt(p, err)
	}
	return s, nil
}

// LatestSchema reads the schema with the highest id, as Java's
// SchemaManager.latest does.
func (m *TableMeta) LatestSchema(ctx context.Context) (*schema.TableSchema, error) {
	ids, err := m.SchemaIDs(ctx)
	if err != nil {
		return nil, err
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("%w: no schema file in %s", ErrSchemaNotFound, m.branchPath(schemaDir))
	}
	return m.ReadSchema(ctx, ids[len(ids)-1])
}

// TagNames lists the tags, sorted by name.
func (m *TableMeta) TagNames(ctx context.Context) ([]string, error) {
	var names []string
	for fi, err := range m.fsys.List(ctx, m.branchPath(tagDir)) {
		if err != nil {
			return nil, err
		}
		if n, ok := strings.CutPrefix(fi.Name, tagPrefix); ok && !fi.IsDir && n != "" {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names, nil
}

// ReadTag reads tag-<name>.
func (m *TableMeta) ReadTag(ctx context.Context, name string) (*snapshot.Tag, error) {
	p := m.TagPath(name)
	b, err := m.read(ctx, p)
	if errors.Is(err, iofs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %q in %s: %w", ErrTagNotFound, name, m.root, err)
	}
	if err != nil {
		return nil, err
	}
	t, err := snapshot.DecodeTag(b)
	if err != nil {
		return nil, corrupt(p, err)
	}
	return t, nil
}

// ReadManifestList reads a manifest list by its bare name. It cannot tell
// a list cut at an Avro block boundary from a shorter one: prefer
// DataManifests, DeltaManifests and ChangelogManifests, which check the
// size the snapshot records.
func (m *TableMeta) ReadManifestList(ctx context.Context, name string) ([]manifest.ManifestFileMeta, error) {
	return m.readManifestList(ctx, manifestListRef{name: name})
}

// readManifestList reads a manifest list and checks its length against the
// size its snapshot records, when it records one.
func (m *TableMeta) readManifestList(ctx context.Context, ref manifestListRef) ([]manifest.ManifestFileMeta, error) {
	p := m.ManifestPath(ref.name)
	b, err := m.read(ctx, p)
	if err != nil {
		return nil, err
	}
	metas, err := manifest.ReadManifestList(bytes.NewReader(b))
	if err != nil {
		return nil, corrupt(p, err)
	}
	if ref.size != nil {
		if err := checkRecordedSize(p, len(b), *ref.size, "the snapshot"); err != nil {
			return nil, err
		}
	}
	return metas, nil
}

// ReadManifest reads a manifest file by its bare name. It cannot tell a
// manifest cut at an Avro block boundary from a shorter one: prefer
// ReadListedManifest.
func (m *TableMeta) ReadManifest(ctx context.Context, name string) ([]manifest.ManifestEntry, error) {
	return m.readManifest(ctx, name, 0, 0)
}

// ReadListedManifest reads the manifest a manifest list record names and
// checks that the file has the size the record holds (Java reads manifests
// with ManifestFileMeta.fileSize as their length, so a shorter file fails
// there too). A size of 0 or less is not checked.
func (m *TableMeta) ReadListedManifest(ctx context.Context, mf *manifest.ManifestFileMeta) ([]manifest.ManifestEntry, error) {
	return m.readManifest(ctx, mf.FileName, mf.FileSize, mf.NumAddedFiles+mf.NumDeletedFiles)
}

// readManifest reads a manifest; count is the number of entries its
// manifest list records (0: unknown), so that the entries are allocated
// once. It is only trusted as far as the file could hold that many: a
// Java manifest spends far more than 16 bytes on an entry, even
// compressed.
func (m *TableMeta) readManifest(ctx context.Context, name string, size, count int64) ([]manifest.ManifestEntry, error) {
	p := m.ManifestPath(name)
	b, err := m.read(ctx, p)
	if err != nil {
		return nil, err
	}
	entries, err := manifest.ReadManifestN(bytes.NewReader(b), int(max(0, min(count, int64(len(b)/16)))))
	if err != nil {
		return nil, corrupt(p, err)
	}
	if err := checkRecordedSize(p, len(b), size, "its manifest list"); err != nil {
		return nil, err
	}
	return entries, nil
}

// ReadIndexManifest reads an index manifest by its bare name.
func (m *TableMeta) ReadIndexManifest(ctx context.Context, name string) ([]manifest.IndexManifestEntry, error) {
	p := m.ManifestPath(name)
	b, err := m.read(ctx, p)
	if err != nil {
		return nil, err
	}
	entries, err := manifest.ReadIndexManifest(bytes.NewReader(b))
	if err != nil {
		return nil, corrupt(p, err)
	}
	return entries, nil
}

// DataManifests reads the base and delta manifest lists of a snapshot, in
// that order (the order matters: a DELETE entry may only follow its ADD),
// checking each list's length against the size the snapshot records (Java
// ManifestList.readDataManifests).
func (m *TableMeta) DataManifests(ctx context.Context, s *snapshot.Snapshot) ([]manifest.ManifestFileMeta, error) {
	return m.readManifestLists(ctx, dataManifestLists(s))
}

// DeltaManifests reads the delta manifest list of a snapshot, checking its
// recorded size (Java ManifestList.readDeltaManifests).
func (m *TableMeta) DeltaManifests(ctx context.Context, s *snapshot.Snapshot) ([]manifest.ManifestFileMeta, error) {
	return m.readManifestLists(ctx, []manifestListRef{{s.DeltaManifestList, s.DeltaManifestListSize}})
}

// ChangelogManifests reads the changelog manifest list of a snapshot, none
// when it has none, checking its recorded size (Java
// ManifestList.readChangelogManifests).
func (m *TableMeta) ChangelogManifests(ctx context.Context, s *snapshot.Snapshot) ([]manifest.ManifestFileMeta, error) {
	if s.ChangelogManifestList == nil {
		return nil, nil
	}
	return m.readManifestLists(ctx, []manifestListRef{{*s.ChangelogManifestList, s.ChangelogManifestListSize}})
}

func (m *TableMeta) readManifestLists(ctx context.Context, refs []manifestListRef) ([]manifest.ManifestFileMeta, error) {
	var out []manifest.ManifestFileMeta
	for _, ref := range refs {
		if ref.name == "" {
			continue
		}
		metas, err := m.readManifestList(ctx, ref)
		if err != nil {
			return nil, err
		}
		out = append(out, metas...)
	}
	return out, nil
}
