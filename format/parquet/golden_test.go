package parquet_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/paimon"
)

const goldenRoot = "../../testdata/golden/java-1.4.2"

// goldenTable locates a golden table: its directory, relative to the
// warehouse, and the latest table schema.
type goldenTable struct {
	scenario string // directory under goldenRoot
	table    string // <db>.db/<table> under warehouse/
}

var goldenTables = []goldenTable{
	{"all-types-parquet", "interop.db/all_types_parquet"},
	{"append-unpartitioned", "interop.db/append_unpartitioned"},
}

func (g goldenTable) dir() string { return filepath.Join(goldenRoot, g.scenario, "warehouse", g.table) }

func latestSchema(t *testing.T, dir string) *schema.TableSchema {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "schema", "schema-*"))
	require.NoError(t, err)
	require.NotEmpty(t, names)
	sort.Slice(names, func(i, j int) bool {
		return len(names[i]) < len(names[j]) || len(names[i]) == len(names[j]) && names[i] < names[j]
	})
	b, err := os.ReadFile(names[len(names)-1])
	require.NoError(t, err)
	ts, err := schema.Decode(b)
	require.NoError(t, err)
	return ts
}

// readCanon reads every row of a Parquet file with the given fields and
// renders each as a canon-v1 line.
func readCanon(t *testing.T, mem memory.Allocator, path string, fields []schema.DataField, batch int) []string {
	t.Helper()
	ctx := context.Background()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	st, err := f.Stat()
	require.NoError(t, err)
	r, err := parquet.Open(ctx, f, st.Size(), &parquet.ReadOptions{Name: path})
	require.NoError(t, err)
	want, err := schema.ToArrowSchema(fields)
	require.NoError(t, err)
	var lines []string
	var rows int64
	for rec, err := range r.Read(ctx, fields, &parquet.ReadRequest{BatchSize: batch, Allocator: mem}) {
		require.NoError(t, err)
		require.True(t, want.Equal(rec.Schema()), "schema\n got %s\nwant %s", rec.Schema(), want)
		for i := 0; i < int(rec.NumRows()); i++ {
			vals := make([]any, len(fields))
			for c, fd := range fields {
				v, err := parquet.ArrowValue(rec.Column(c), i, fd.Type)
				require.NoError(t, err)
				vals[c] = v
			}
			line, err := canon.EncodeRow(fields, vals)
			require.NoError(t, err)
			c, err := canon.Canonicalize(line)
			require.NoError(t, err)
			lines = append(lines, c)
		}
		rows += rec.NumRows()
		rec.Release()
	}
	require.Equal(t, r.NumRows(), rows, "footer row count")
	var rg int64
	for _, g := range r.RowGroups() {
		rg += g.NumRows
	}
	require.Equal(t, r.NumRows(), rg)
	return lines
}

func TestGoldenEveryFileReads(t *testing.T) {
	for _, g := range goldenTables {
		t.Run(g.scenario, func(t *testing.T) {
			ts := latestSchema(t, g.dir())
			files, err := filepath.Glob(filepath.Join(g.dir(), "bucket-*", "*.parquet"))
			require.NoError(t, err)
			require.NotEmpty(t, files)
			for _, path := range files {
				t.Run(filepath.Base(path), func(t *testing.T) {
					for _, batch := range []int{0, 1, 2} {
						mem := memcheck.New()
						defer mem.AssertSize(t, 0)
						readCanon(t, mem, path, ts.Fields, batch)
					}
				})
			}
		})
	}
}

// liveFiles lists the data files of the latest snapshot, as paths.
func liveFiles(t *testing.T, dir string) []string {
	t.Helper()
	ctx := context.Background()
	fsys, err := localfs.New(dir, nil)
	require.NoError(t, err)
	m := paimon.NewTableMeta(fsys, "")
	id, ok, err := m.LatestSnapshotID(ctx)
	require.NoError(t, err)
	require.True(t, ok)
	snap, err := m.ReadSnapshot(ctx, id)
	require.NoError(t, err)
	metas, err := m.DataManifests(ctx, snap)
	require.NoError(t, err)
	var entries []manifest.ManifestEntry
	for _, mf := range metas {
		es, err := m.ReadManifest(ctx, mf.FileName)
		require.NoError(t, err)
		entries = append(entries, es...)
	}
	merged, err := manifest.MergeEntries(entries)
	require.NoError(t, err)
	var out []string
	for _, e := range merged {
		require.Equal(t, manifest.FileKind(0), e.Kind)
		out = append(out, filepath.Join(dir, "bucket-"+strconv.Itoa(int(e.Bucket)), e.File.FileName))
	}
	return out
}

func TestGoldenLatestSnapshotMatchesExpected(t *testing.T) {
	for _, g := range goldenTables {
		t.Run(g.scenario, func(t *testing.T) {
			mem := memcheck.New()
			defer mem.AssertSize(t, 0)
			ts := latestSchema(t, g.dir())
			var got []string
			for _, path := range liveFiles(t, g.dir()) {
				got = append(got, readCanon(t, mem, path, ts.Fields, 0)...)
			}
			sort.Strings(got)
			f, err := os.Open(filepath.Join(goldenRoot, g.scenario, "expected.jsonl"))
			require.NoError(t, err)
			defer f.Close()
			want, err := canon.ReadLines(f)
			require.NoError(t, err)
			if diff := canon.Compare(want, got); diff != "" {
				t.Fatal(diff)
			}
		})
	}
}

// TestGoldenProjection reads a reordered subset of columns, by id and by
// name, and checks the output order and types.
func TestGoldenProjection(t *testing.T) {
	g := goldenTables[0]
	ts := latestSchema(t, g.dir())
	files, err := filepath.Glob(filepath.Join(g.dir(), "bucket-*", "*.parquet"))
	require.NoError(t, err)
	path := files[0]
	pick := func(names ...string) []schema.DataField {
		var out []schema.DataField
		for _, n := range names {
			for _, f := range ts.Fields {
				if f.Name == n {
					out = append(out, f)
				}
			}
		}
		return out
	}
	full := pick("c_ts9", "id", "c_map", "c_row", "id")
	renamed := pick("c_ts9", "id")
	renamed[1].Name = "renamed_id" // found by id despite the new name
	missing := pick("id")
	missing[0].ID = 999
	missing[0].Name = "nope"
	tests := []struct {
		name    string
		fields  []schema.DataField
		wantErr error
	}{
		{"reordered with duplicate", full, nil},
		{"by id", renamed, nil},
		{"missing", missing, parquet.ErrSchema},
		{"empty projection", nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mem := memcheck.New()
			defer mem.AssertSize(t, 0)
			ctx := context.Background()
			f, err := os.Open(path)
			require.NoError(t, err)
			defer f.Close()
			st, err := f.Stat()
			require.NoError(t, err)
			r, err := parquet.Open(ctx, f, st.Size(), nil)
			require.NoError(t, err)
			want, err := schema.ToArrowSchema(tc.fields)
			require.NoError(t, err)
			var rows int64
			for rec, err := range r.Read(ctx, tc.fields, &parquet.ReadRequest{Allocator: mem}) {
				if tc.wantErr != nil {
					require.True(t, errors.Is(err, tc.wantErr), "err %v", err)
					return
				}
				require.NoError(t, err)
				require.True(t, want.Equal(rec.Schema()))
				rows += rec.NumRows()
				rec.Release()
			}
			require.Nil(t, tc.wantErr)
			require.Equal(t, r.NumRows(), rows)
		})
	}
}

// TestGoldenEarlyBreak stops after the first batch: the iterator must still
// release everything it holds.
func TestGoldenEarlyBreak(t *testing.T) {
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	g := goldenTables[0]
	ts := latestSchema(t, g.dir())
	files, err := filepath.Glob(filepath.Join(g.dir(), "bucket-*", "*.parquet"))
	require.NoError(t, err)
	ctx := context.Background()
	f, err := os.Open(files[0])
	require.NoError(t, err)
	defer f.Close()
	st, err := f.Stat()
	require.NoError(t, err)
	r, err := parquet.Open(ctx, f, st.Size(), nil)
	require.NoError(t, err)
	n := 0
	for rec, err := range r.Read(ctx, ts.Fields, &parquet.ReadRequest{BatchSize: 1, Allocator: mem}) {
		require.NoError(t, err)
		rec.Release()
		n++
		break
	}
	require.Equal(t, 1, n)
}
