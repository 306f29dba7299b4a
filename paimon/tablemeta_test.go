package paimon_test

import (
	"bytes"
	"context"
	"errors"
	iofs "io/fs"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/index"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/memfs"
	"github.com/paimon-go/paimon-go/paimon"
)

const tableDir = "wh/db.db/t"

// buildTable writes a small but complete table with our encoders: one schema,
// two snapshots, a tag, manifests, an index manifest and a deletion-vector file.
func buildTable(t *testing.T) (*memfs.FS, *paimon.TableMeta) {
	t.Helper()
	ctx := context.Background()
	fsys := memfs.New(nil)
	m := paimon.NewTableMeta(fsys, tableDir)
	put := func(name string, b []byte) {
		require.NoError(t, fs.WriteFile(ctx, fsys, name, b, nil))
	}
	sch, err := schema.NewSchemaBuilder().
		Column("id", schema.IntType().NotNull()).
		Column("v", schema.StringType()).
		PrimaryKey("id").Option("bucket", "1").Build()
	require.NoError(t, err)
	ts, err := schema.NewTableSchema(0, sch, 1)
	require.NoError(t, err)
	b, err := ts.Encode()
	require.NoError(t, err)
	put(m.SchemaPath(0), b)

	key, err := binaryrow.Encode(0, []schema.DataType{schema.IntType().NotNull()}, []any{int32(1)})
	require.NoError(t, err)
	entry := manifest.ManifestEntry{
		Kind: manifest.FileKindAdd, Partition: binaryrow.EmptySerialized(), Bucket: 0, TotalBuckets: 1,
		File: manifest.DataFileMeta{
			FileName: "data-1.parquet", FileSize: 10, RowCount: 1,
			MinKey: binaryrow.MarshalSerialized(key, 1), MaxKey: binaryrow.MarshalSerialized(key, 1),
			KeyStats: manifest.EmptyStats(), ValueStats: manifest.EmptyStats(), ExtraFiles: []string{},
		},
	}
	var buf bytes.Buffer
	require.NoError(t, manifest.WriteManifest(&buf, []manifest.ManifestEntry{entry}, nil))
	put(m.ManifestPath("manifest-a-0"), buf.Bytes())
	buf.Reset()
	require.NoError(t, manifest.WriteManifestList(&buf, []manifest.ManifestFileMeta{{
		FileName: "manifest-a-0", FileSize: 1, NumAddedFiles: 1, PartitionStats: manifest.EmptyStats(),
	}}, nil))
	put(m.ManifestPath("manifest-list-a-0"), buf.Bytes())
	buf.Reset()
	require.NoError(t, manifest.WriteManifestList(&buf, nil, nil))
	put(m.ManifestPath("manifest-list-a-1"), buf.Bytes())

	dv := index.NewDeletionVector()
	require.NoError(t, dv.Add(0))
	w := index.NewDVWriter()
	require.NoError(t, w.Write("data-1.parquet", dv))
	put(m.IndexPath("index-a-0"), w.Bytes())
	var ranges []manifest.DeletionVectorMeta
	for _, r := range w.Metas() {
		ranges = append(ranges, manifest.DeletionVectorMeta{DataFileName: r.DataFile, Offset: r.Offset, Length: r.Length, Cardinality: r.Cardinality})
	}
	buf.Reset()
	require.NoError(t, manifest.WriteIndexManifest(&buf, []manifest.IndexManifestEntry{{
		Kind: manifest.FileKindAdd, Partition: binaryrow.EmptySerialized(),
		IndexFile: manifest.IndexFileMeta{IndexType: manifest.IndexTypeDeletionVectors, FileName: "index-a-0",
			FileSize: int64(len(w.Bytes())), RowCount: 1, DVRanges: ranges},
	}}, nil))
	put(m.ManifestPath("index-manifest-a-0"), buf.Bytes())

	idx := "index-manifest-a-0"
	for id := int64(1); id <= 2; id++ {
		s := &snapshot.Snapshot{Version: 3, ID: id, SchemaID: 0, BaseManifestList: "manifest-list-a-1",
			DeltaManifestList: "manifest-list-a-0", IndexManifest: &idx, CommitUser: "u",
			CommitIdentifier: snapshot.BatchCommitIdentifier, CommitKind: snapshot.CommitAppend, TimeMillis: 1000 * id,
			TotalRecordCount: 1, DeltaRecordCount: 1}
		put(m.SnapshotPath(id), s.Encode())
	}
	put(tableDir+"/snapshot/LATEST", snapshot.FormatHint(2))
	put(tableDir+"/snapshot/EARLIEST", snapshot.FormatHint(1))
	tag := &snapshot.Tag{Snapshot: snapshot.Snapshot{Version: 3, ID: 1, BaseManifestList: "manifest-list-a-1",
		DeltaManifestList: "manifest-list-a-0", CommitUser: "u", CommitKind: snapshot.CommitAppend}}
	put(m.TagPath("t1"), tag.Encode())
	return fsys, m
}

func TestTableMetaReadsEverything(t *testing.T) {
	ctx := context.Background()
	_, m := buildTable(t)
	ids, err := m.SnapshotIDs(ctx)
	require.NoError(t, err)
	require.Equal(t, []int64{1, 2}, ids)
	latest, ok, err := m.LatestSnapshotID(ctx)
	require.NoError(t, err)
	require.True(t, ok)
	require.EqualValues(t, 2, latest)
	s, err := m.ReadSnapshot(ctx, latest)
	require.NoError(t, err)
	metas, err := m.DataManifests(ctx, s)
	require.NoError(t, err)
	require.Len(t, metas, 1)
	entries, err := m.ReadManifest(ctx, metas[0].FileName)
	require.NoError(t, err)
	require.Equal(t, "data-1.parquet", entries[0].File.FileName)
	sch, err := m.LatestSchema(ctx)
	require.NoError(t, err)
	require.Equal(t, []string{"id"}, sch.PrimaryKeys)
	tags, err := m.TagNames(ctx)
	require.NoError(t, err)
	require.Equal(t, []string{"t1"}, tags)
	idx, err := m.ReadIndexManifest(ctx, *s.IndexManifest)
	require.NoError(t, err)
	dvs, err := m.ReadDeletionVectors(ctx, idx[0].IndexFile)
	require.NoError(t, err)
	require.True(t, dvs["data-1.parquet"].IsDeleted(0))
}

func TestTableMetaNotFound(t *testing.T) {
	ctx := context.Background()
	_, m := buildTable(t)
	_, err := m.ReadSnapshot(ctx, 99)
	require.ErrorIs(t, err, paimon.ErrSnapshotNotFound)
	require.ErrorIs(t, err, iofs.ErrNotExist)
	_, err = m.ReadSchema(ctx, 7)
	require.ErrorIs(t, err, paimon.ErrSchemaNotFound)
	_, err = m.ReadTag(ctx, "nope")
	require.ErrorIs(t, err, paimon.ErrTagNotFound)
	_, err = m.ReadManifest(ctx, "manifest-missing")
	require.ErrorIs(t, err, iofs.ErrNotExist)
	require.Contains(t, err.Error(), "manifest-missing")
}

// TestTableMetaCorruption truncates and bit-flips every kind of metadata file
// and checks that reading it fails with a *CorruptError that names the file
// and keeps the codec's own sentinel; nothing may panic.
func TestTableMetaCorruption(t *testing.T) {
	ctx := context.Background()
	files := []struct {
		path     string
		sentinel error
		read     func(m *paimon.TableMeta) error
	}{
		{tableDir + "/snapshot/snapshot-1", snapshot.ErrCorrupt, func(m *paimon.TableMeta) error { _, err := m.ReadSnapshot(ctx, 1); return err }},
		{tableDir + "/schema/schema-0", schema.ErrCorrupt, func(m *paimon.TableMeta) error { _, err := m.ReadSchema(ctx, 0); return err }},
		{tableDir + "/tag/tag-t1", snapshot.ErrCorrupt, func(m *paimon.TableMeta) error { _, err := m.ReadTag(ctx, "t1"); return err }},
		{tableDir + "/manifest/manifest-a-0", manifest.ErrCorrupt, func(m *paimon.TableMeta) error { _, err := m.ReadManifest(ctx, "manifest-a-0"); return err }},
		{tableDir + "/manifest/manifest-list-a-0", manifest.ErrCorrupt, func(m *paimon.TableMeta) error {
			_, err := m.ReadManifestList(ctx, "manifest-list-a-0")
			return err
		}},
		{tableDir + "/manifest/index-manifest-a-0", manifest.ErrCorrupt, func(m *paimon.TableMeta) error {
			_, err := m.ReadIndexManifest(ctx, "index-manifest-a-0")
			return err
		}},
		{tableDir + "/index/index-a-0", index.ErrCorrupt, func(m *paimon.TableMeta) error {
			// The index manifest itself is intact in this case.
			fsys := m.FS()
			good, _ := buildTable(t)
			b, err := fs.ReadFile(ctx, good, tableDir+"/manifest/index-manifest-a-0")
			if err != nil {
				return err
			}
			if err := fs.WriteFile(ctx, fsys, tableDir+"/manifest/index-manifest-a-0", b, nil); err != nil {
				return err
			}
			idx, err := m.ReadIndexManifest(ctx, "index-manifest-a-0")
			if err != nil {
				return err
			}
			_, err = m.ReadDeletionVectors(ctx, idx[0].IndexFile)
			return err
		}},
	}
	damages := []struct {
		name string
		fn   func([]byte) []byte
	}{
		{"truncated to half", func(b []byte) []byte { return b[:len(b)/2] }},
		{"truncated to 3 bytes", func(b []byte) []byte { return b[:3] }},
		{"empty", func([]byte) []byte { return nil }},
		{"garbage", func(b []byte) []byte { return bytes.Repeat([]byte{0xA5}, len(b)) }},
	}
	for _, f := range files {
		for _, d := range damages {
			t.Run(f.path[strings.LastIndex(f.path, "/")+1:]+"/"+d.name, func(t *testing.T) {
				fsys, m := buildTable(t)
				b, err := fs.ReadFile(ctx, fsys, f.path)
				require.NoError(t, err)
				require.NoError(t, fs.WriteFile(ctx, fsys, f.path, d.fn(b), nil))
				err = f.read(m)
				require.Error(t, err)
				require.ErrorIs(t, err, paimon.ErrCorrupt)
				require.ErrorIs(t, err, f.sentinel)
				var ce *paimon.CorruptError
				require.True(t, errors.As(err, &ce))
				require.Equal(t, f.path, ce.Path)
				require.Contains(t, err.Error(), f.path)
			})
		}
	}
	// Every third single-bit flip of a snapshot and a manifest
	// either still decodes or fails with a corruption error; none panics.
	for _, f := range []int{0, 3} {
		path := files[f].path
		fsys, m := buildTable(t)
		orig, err := fs.ReadFile(ctx, fsys, path)
		require.NoError(t, err)
		for i := 0; i < len(orig)*8; i += 3 {
			b := bytes.Clone(orig)
			b[i/8] ^= 1 << (i % 8)
			require.NoError(t, fs.WriteFile(ctx, fsys, path, b, nil))
			if err := files[f].read(m); err != nil && !errors.Is(err, paimon.ErrCorrupt) {
				t.Errorf("%s bit %d: error without ErrCorrupt: %v", path, i, err)
			}
		}
	}
}
