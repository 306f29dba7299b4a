package paimon_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/faultfs"
	"github.com/paimon-go/paimon-go/paimon"
)

// Regression tests of the findings in RELIABILITY.md (issue 7), each on a
// crafted file rather than a random one.

// requireCorruptFile asserts err is a paimon.CorruptError naming path.
func requireCorruptFile(t *testing.T, err error, path, what string) {
	t.Helper()
	require.ErrorIs(t, err, paimon.ErrCorrupt, what)
	var ce *paimon.CorruptError
	require.True(t, errors.As(err, &ce), "%s: %v", what, err)
	require.Equal(t, path, ce.Path, "%s: %v", what, err)
}

// TestFindingManifestSizes (F5): a manifest list or manifest cut right
// after one of its Avro sync markers is a valid, shorter container; the
// size its snapshot or manifest list records gives it away. A longer file
// is refused too, and a snapshot that records no sizes (Paimon before 1.1)
// is read without the check.
func TestFindingManifestSizes(t *testing.T) {
	ctx := context.Background()
	cuts := 0
	for _, ct := range corruptTables(t) {
		t.Run(ct.name, func(t *testing.T) {
			for _, kind := range []string{"manifest-list", "manifest"} {
				p := ct.files[kind]
				orig, err := fs.ReadFile(ctx, ct.fsys, p)
				require.NoError(t, err)
				ends := avroBlockEnds(orig)
				require.NotEmpty(t, ends, "the header ends at a sync marker")
				for _, n := range ends {
					o := &overlayFS{FS: ct.fsys, name: p, data: orig[:n]}
					_, err := relRows(ctx, o, ct.dir, ct.scanOpts()...)
					requireCorruptFile(t, err, p, fmt.Sprintf("%s cut to %d of %d bytes", kind, n, len(orig)))
					require.ErrorContains(t, err, "records")
					cuts++
				}
				o := &overlayFS{FS: ct.fsys, name: p, data: append(bytes.Clone(orig), 0)}
				_, err = relRows(ctx, o, ct.dir, ct.scanOpts()...)
				requireCorruptFile(t, err, p, kind+" one byte longer")
			}

			// Without recorded list sizes the lists are read unchecked.
			snapPath := ct.files["snapshot"]
			b, err := fs.ReadFile(ctx, ct.fsys, snapPath)
			require.NoError(t, err)
			s, err := snapshot.Decode(b)
			require.NoError(t, err)
			require.NotNil(t, s.DeltaManifestListSize, "the writer records list sizes")
			s.BaseManifestListSize, s.DeltaManifestListSize, s.ChangelogManifestListSize = nil, nil, nil
			o := &overlayFS{FS: ct.fsys, name: snapPath, data: s.Encode()}
			rows, err := relRows(ctx, o, ct.dir, ct.scanOpts()...)
			require.NoError(t, err)
			require.Equal(t, ct.rows, rows)
		})
	}
	relFigures(t, "manifest lists and manifests cut at an Avro block boundary %d, all refused with ErrCorrupt naming the file", cuts)
}

// TestFindingManifestSizesNoExtraIO: the size checks compare the length of
// the bytes read, so planning still opens each manifest list and manifest
// once, reads it with one ReadAt, and never asks for its size.
func TestFindingManifestSizesNoExtraIO(t *testing.T) {
	ctx := context.Background()
	for _, ct := range corruptTables(t) {
		t.Run(ct.name, func(t *testing.T) {
			ffs := faultfs.New(ct.fsys)
			tbl, err := paimon.OpenTable(ctx, ffs, ct.dir, nil)
			require.NoError(t, err)
			ffs.SetLogging(true)
			plan, err := tbl.NewScan(ct.scanOpts()...).Plan(ctx)
			require.NoError(t, err)
			ops := map[string]map[faultfs.Op]int{}
			for _, st := range ffs.Log() {
				if strings.HasPrefix(st.Name, ct.dir+"/manifest/") {
					if ops[st.Name] == nil {
						ops[st.Name] = map[faultfs.Op]int{}
					}
					ops[st.Name][st.Op]++
				}
			}
			require.NotEmpty(t, ops)
			for name, byOp := range ops {
				want := map[faultfs.Op]int{faultfs.OpOpen: 1, faultfs.OpReadAt: 1}
				require.Equal(t, want, byOp, name)
			}
			require.GreaterOrEqual(t, len(ops), plan.Stats.Manifests-plan.Stats.ManifestsPruned+1)
		})
	}
}

// TestFindingDuplicateAdd (F3): a snapshot whose delta list is its base
// list adds every file twice; the plan fails with ErrCorrupt naming the
// manifest that adds a file again.
func TestFindingDuplicateAdd(t *testing.T) {
	ctx := context.Background()
	ct := corruptTables(t)[0]
	snapPath := ct.files["snapshot"]
	b, err := fs.ReadFile(ctx, ct.fsys, snapPath)
	require.NoError(t, err)
	s, err := snapshot.Decode(b)
	require.NoError(t, err)
	require.NotEmpty(t, s.BaseManifestList)
	s.DeltaManifestList, s.DeltaManifestListSize = s.BaseManifestList, s.BaseManifestListSize
	o := &overlayFS{FS: ct.fsys, name: snapPath, data: s.Encode()}

	tbl, err := paimon.OpenTable(ctx, o, ct.dir, nil)
	require.NoError(t, err)
	base, err := tbl.Meta().ReadManifestList(ctx, s.BaseManifestList)
	require.NoError(t, err)
	_, err = relRows(ctx, o, ct.dir)
	require.ErrorIs(t, err, manifest.ErrDuplicateAdd)
	requireCorruptFile(t, err, tbl.Meta().ManifestPath(base[0].FileName), "base list read twice")
}

// TestFindingDuplicateFieldID (F4): a schema file whose fields share an id
// is refused with ErrCorrupt naming it.
func TestFindingDuplicateFieldID(t *testing.T) {
	ctx := context.Background()
	ct := corruptTables(t)[0]
	p := ct.files["schema"]
	b, err := fs.ReadFile(ctx, ct.fsys, p)
	require.NoError(t, err)
	var doc map[string]any
	require.NoError(t, json.Unmarshal(b, &doc))
	fields := doc["fields"].([]any)
	require.GreaterOrEqual(t, len(fields), 2)
	fields[1].(map[string]any)["id"] = fields[0].(map[string]any)["id"]
	data, err := json.Marshal(doc)
	require.NoError(t, err)
	o := &overlayFS{FS: ct.fsys, name: p, data: data}
	_, err = relRows(ctx, o, ct.dir)
	require.ErrorIs(t, err, schema.ErrCorrupt)
	requireCorruptFile(t, err, p, "duplicate field id")
	require.ErrorContains(t, err, "duplicated")
}

// TestFindingDeletionVectorRange (F7): a deletion-vector range that cannot
// lie in its index file is reported as ErrCorrupt naming the index manifest
// that records it when the plan reads it, and naming the index file when a
// split carries it.
func TestFindingDeletionVectorRange(t *testing.T) {
	ctx := context.Background()
	var ct *corruptTable
	for _, c := range corruptTables(t) {
		if c.files["dv-index"] != "" {
			ct = c
		}
	}
	require.NotNil(t, ct, "a table with deletion vectors")
	p := ct.files["index-manifest"]
	b, err := fs.ReadFile(ctx, ct.fsys, p)
	require.NoError(t, err)
	for _, tc := range []struct {
		name  string
		bend  func(m *manifest.DeletionVectorMeta, fileSize int64)
		wants string
	}{
		{"negative offset", func(m *manifest.DeletionVectorMeta, _ int64) { m.Offset = -26 }, "-26+"},
		{"negative length", func(m *manifest.DeletionVectorMeta, _ int64) { m.Length = -1 }, "+-1"},
		{"past the end", func(m *manifest.DeletionVectorMeta, size int64) { m.Offset = int32(size) }, "bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			entries, err := manifest.ReadIndexManifest(bytes.NewReader(b))
			require.NoError(t, err)
			bent := false
			for i := range entries {
				f := &entries[i].IndexFile
				if f.IndexType == manifest.IndexTypeDeletionVectors && len(f.DVRanges) > 0 && !bent {
					tc.bend(&f.DVRanges[0], f.FileSize)
					bent = true
				}
			}
			require.True(t, bent)
			var buf bytes.Buffer
			require.NoError(t, manifest.WriteIndexManifest(&buf, entries, nil))
			o := &overlayFS{FS: ct.fsys, name: p, data: buf.Bytes()}
			_, err = relRows(ctx, o, ct.dir, ct.scanOpts()...)
			requireCorruptFile(t, err, p, tc.name)
			require.ErrorContains(t, err, tc.wants)
		})
	}

	// A split whose range lies outside the index file.
	tbl, err := paimon.OpenTable(ctx, ct.fsys, ct.dir, nil)
	require.NoError(t, err)
	scan := tbl.NewScan(ct.scanOpts()...)
	plan, err := scan.Plan(ctx)
	require.NoError(t, err)
	for _, sp := range plan.Splits {
		for i, df := range sp.DeletionFiles {
			if df == nil {
				continue
			}
			bad := *df
			bad.Offset = 1 << 20
			sp.DeletionFiles = append([]*paimon.DeletionFile(nil), sp.DeletionFiles...)
			sp.DeletionFiles[i] = &bad
			var err error
			for rec, e := range scan.ReadSplits(ctx, sp) {
				if rec != nil {
					rec.Release()
				}
				if e != nil {
					err = e
					break
				}
			}
			requireCorruptFile(t, err, tbl.Meta().Path(df.Path), "range past the index file")
			return
		}
	}
	t.Fatal("no split with a deletion file")
}
