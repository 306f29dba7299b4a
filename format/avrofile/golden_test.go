package avrofile_test

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/avrofile"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/internal/memcheck"
)

const goldenRoot = "../../testdata/golden"

// goldenTable locates a golden table written with file.format=avro.
type goldenTable struct {
	scenario string // <producer>/<scenario> under goldenRoot
	table    string // <db>.db/<table> under warehouse/
	pk       bool   // primary-key table: data files hold KeyValue rows
}

var goldenTables = []goldenTable{
	{"java-1.4.2/all-types-avro", "interop.db/all_types_avro", false},
	{"java-2.0.0/all-types-avro", "interop.db/all_types_avro", false},
	{"pypaimon-2.1.0/alltypes-avro", "d.db/alltypes_avro", false},
	{"java-1.4.2/append-partitioned-avro", "interop.db/append_partitioned_avro", false},
	{"java-2.0.0/append-partitioned-avro", "interop.db/append_partitioned_avro", false},
	{"pypaimon-2.1.0/append-part-avro", "d.db/tp", false},
	{"pypaimon-2.1.0/append-unpart-avro", "d.db/t", false},
	{"java-1.4.2/pk-dedup-avro", "interop.db/pk_dedup_avro", true},
	{"java-2.0.0/pk-dedup-avro", "interop.db/pk_dedup_avro", true},
	{"pypaimon-2.1.0/pk-dedup-avro", "d.db/pk", true},
}

func (g goldenTable) dir() string { return filepath.Join(goldenRoot, g.scenario, "warehouse", g.table) }

func latestSchema(t testing.TB, dir string) *schema.TableSchema {
	t.Helper()
	return readSchema(t, latestFile(t, filepath.Join(dir, "schema"), "schema-"))
}

func readSchema(t testing.TB, path string) *schema.TableSchema {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	ts, err := schema.Decode(b)
	require.NoError(t, err)
	return ts
}

// latestFile returns the file <dir>/<prefix>N with the highest N.
func latestFile(t testing.TB, dir, prefix string) string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, prefix+"*"))
	require.NoError(t, err)
	best, bestN := "", int64(-1)
	for _, n := range names {
		id, err := strconv.ParseInt(strings.TrimPrefix(filepath.Base(n), prefix), 10, 64)
		if err == nil && id > bestN {
			best, bestN = n, id
		}
	}
	require.NotEmpty(t, best, "no %s* in %s", prefix, dir)
	return best
}

// fileFields returns the columns of the table's data files: the table's
// fields, or for a primary-key table the KeyValue layout Java's
// KeyValueFieldsExtractor writes (_KEY_ fields, _SEQUENCE_NUMBER,
// _VALUE_KIND, then the value fields).
func fileFields(ts *schema.TableSchema, pk bool) []schema.DataField {
	if !pk {
		return ts.Fields
	}
	partition := map[string]bool{}
	for _, p := range ts.PartitionKeys {
		partition[p] = true
	}
	var out []schema.DataField
	for _, k := range ts.PrimaryKeys {
		if partition[k] { // Java's trimmed primary key
			continue
		}
		for _, f := range ts.Fields {
			if f.Name == k {
				f.Name = "_KEY_" + f.Name
				f.Type = f.Type.NotNull()
				out = append(out, f)
			}
		}
	}
	out = append(out,
		schema.DataField{Name: "_SEQUENCE_NUMBER", Type: schema.BigIntType().NotNull()},
		schema.DataField{Name: "_VALUE_KIND", Type: schema.TinyIntType().NotNull()})
	return append(out, ts.Fields...)
}

// dataFiles lists every Avro data file under a table directory.
func dataFiles(t testing.TB, dir string) []string {
	return dataFilesExt(t, dir, ".avro")
}

func dataFilesExt(t testing.TB, dir, ext string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasPrefix(d.Name(), "data-") && strings.HasSuffix(d.Name(), ext) {
			out = append(out, path)
		}
		return nil
	})
	require.NoError(t, err)
	require.NotEmpty(t, out)
	sort.Strings(out)
	return out
}

// liveFiles lists the data files of the latest snapshot, as paths: it
// merges the entries of the snapshot's base and delta manifest lists (Java
// FileStoreScan) and finds each file by its (unique) name under the table.
func liveFiles(t testing.TB, dir string) []string {
	t.Helper()
	b, err := os.ReadFile(latestFile(t, filepath.Join(dir, "snapshot"), "snapshot-"))
	require.NoError(t, err)
	snap, err := snapshot.Decode(b)
	require.NoError(t, err)
	var entries []manifest.ManifestEntry
	for _, list := range []string{snap.BaseManifestList, snap.DeltaManifestList} {
		lb, err := os.ReadFile(filepath.Join(dir, "manifest", list))
		require.NoError(t, err)
		metas, err := manifest.ReadManifestList(bytes.NewReader(lb))
		require.NoError(t, err)
		for _, m := range metas {
			mb, err := os.ReadFile(filepath.Join(dir, "manifest", m.FileName))
			require.NoError(t, err)
			es, err := manifest.ReadManifest(bytes.NewReader(mb))
			require.NoError(t, err)
			entries = append(entries, es...)
		}
	}
	merged, err := manifest.MergeEntries(entries)
	require.NoError(t, err)
	byName := map[string]string{}
	for _, p := range dataFilesExt(t, dir, "") {
		byName[filepath.Base(p)] = p
	}
	var out []string
	for _, e := range merged {
		require.Equal(t, manifest.FileKind(0), e.Kind)
		p, ok := byName[e.File.FileName]
		require.True(t, ok, "live file %s not found", e.File.FileName)
		out = append(out, p)
	}
	return out
}

// readRows reads every row of an Avro data file with the given fields,
// checking each batch's schema and size.
func readRows(t testing.TB, mem memory.Allocator, path string, fields []schema.DataField, batch int) [][]any {
	t.Helper()
	ctx := context.Background()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	st, err := f.Stat()
	require.NoError(t, err)
	r, err := avrofile.Open(ctx, f, st.Size(), &avrofile.ReadOptions{Name: path})
	require.NoError(t, err)
	want, err := schema.ToArrowSchema(fields)
	require.NoError(t, err)
	max := batch
	if max == 0 {
		max = avrofile.DefaultBatchSize
	}
	var rows [][]any
	for rec, err := range r.Read(ctx, fields, &avrofile.ReadRequest{BatchSize: batch, Allocator: mem}) {
		require.NoError(t, err)
		require.True(t, want.Equal(rec.Schema()), "schema\n got %s\nwant %s", rec.Schema(), want)
		require.LessOrEqual(t, rec.NumRows(), int64(max))
		require.Positive(t, rec.NumRows())
		for i := 0; i < int(rec.NumRows()); i++ {
			vals := make([]any, len(fields))
			for c, fd := range fields {
				require.Equal(t, int(rec.NumRows()), rec.Column(c).Len())
				v, err := parquet.ArrowValue(rec.Column(c), i, fd.Type)
				require.NoError(t, err)
				vals[c] = v
			}
			rows = append(rows, vals)
		}
		rec.Release()
	}
	return rows
}

// readCanon reads a file and renders each row as a canon-v1 line.
func readCanon(t testing.TB, mem memory.Allocator, path string, fields []schema.DataField, batch int) []string {
	t.Helper()
	var lines []string
	for _, vals := range readRows(t, mem, path, fields, batch) {
		line, err := canon.EncodeRow(fields, vals)
		require.NoError(t, err)
		c, err := canon.Canonicalize(line)
		require.NoError(t, err)
		lines = append(lines, c)
	}
	return lines
}

// TestGoldenEveryFileReads reads every Avro data file of the golden tables
// (live or not, append and primary-key) with several batch sizes; the rows
// must not depend on the batch size.
func TestGoldenEveryFileReads(t *testing.T) {
	for _, g := range goldenTables {
		t.Run(g.scenario, func(t *testing.T) {
			fields := fileFields(latestSchema(t, g.dir()), g.pk)
			for _, path := range dataFiles(t, g.dir()) {
				t.Run(filepath.Base(path), func(t *testing.T) {
					var first []string
					for _, batch := range []int{0, 1, 2, 3} {
						mem := memcheck.New()
						got := readCanon(t, mem, path, fields, batch)
						mem.AssertSize(t, 0)
						require.NotEmpty(t, got)
						if first == nil {
							first = got
						}
						require.Equal(t, first, got, "batch size %d", batch)
					}
				})
			}
		})
	}
}

// TestGoldenLatestSnapshotMatchesExpected reads the live files of the append
// tables and compares their rows with the producer's expected.jsonl.
func TestGoldenLatestSnapshotMatchesExpected(t *testing.T) {
	for _, g := range goldenTables {
		if g.pk { // needs merging, which is the table reader's job
			continue
		}
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

// TestGoldenSameAsParquet reads the Java all-types table written as Avro
// and as Parquet: both readers must return equal rows of equal Arrow types.
func TestGoldenSameAsParquet(t *testing.T) {
	for _, producer := range []string{"java-1.4.2", "java-2.0.0"} {
		t.Run(producer, func(t *testing.T) {
			mem := memcheck.New()
			defer mem.AssertSize(t, 0)
			avroDir := filepath.Join(goldenRoot, producer, "all-types-avro", "warehouse", "interop.db", "all_types_avro")
			pqDir := filepath.Join(goldenRoot, producer, "all-types-parquet", "warehouse", "interop.db", "all_types_parquet")
			// The Avro table declares TIMESTAMP(6) where the Parquet
			// table has TIMESTAMP(9), which Avro cannot store: compare the
			// columns both declare alike.
			pqFields := latestSchema(t, pqDir).Fields
			var fields []schema.DataField
			for i, f := range latestSchema(t, avroDir).Fields {
				if f.Name == pqFields[i].Name && f.Type.Equal(pqFields[i].Type) {
					fields = append(fields, f)
				}
			}
			require.Greater(t, len(fields), 30)
			var avroRows, pqRows []string
			for _, p := range liveFiles(t, avroDir) {
				avroRows = append(avroRows, readCanon(t, mem, p, fields, 0)...)
			}
			for _, p := range liveFiles(t, pqDir) {
				pqRows = append(pqRows, readParquetCanon(t, mem, p, fields)...)
			}
			sort.Strings(avroRows)
			sort.Strings(pqRows)
			require.Equal(t, pqRows, avroRows)
		})
	}
}

func readParquetCanon(t testing.TB, mem memory.Allocator, path string, fields []schema.DataField) []string {
	t.Helper()
	ctx := context.Background()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	r, err := parquet.Open(ctx, bytes.NewReader(b), int64(len(b)), nil)
	require.NoError(t, err)
	want, err := schema.ToArrowSchema(fields)
	require.NoError(t, err)
	var lines []string
	for rec, err := range r.Read(ctx, fields, &parquet.ReadRequest{Allocator: mem}) {
		require.NoError(t, err)
		require.True(t, want.Equal(rec.Schema()))
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
		rec.Release()
	}
	return lines
}

// TestGoldenProjection reads reordered, repeated and missing columns.
func TestGoldenProjection(t *testing.T) {
	g := goldenTables[0]
	ts := latestSchema(t, g.dir())
	path := dataFiles(t, g.dir())[0]
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
	all := readRows(t, memcheck.New(), path, ts.Fields, 0)
	col := func(name string) int {
		for i, f := range ts.Fields {
			if f.Name == name {
				return i
			}
		}
		t.Fatalf("no column %s", name)
		return -1
	}
	missing := pick("id")
	missing[0].Name = "nope"
	wrongType := pick("c_string")
	wrongType[0].Type = schema.IntType()
	tests := []struct {
		name    string
		fields  []schema.DataField
		wantErr error
	}{
		{"reordered with duplicate", pick("c_ts6", "id", "c_map", "c_row", "id", "c_map_int_arr"), nil},
		{"nested only", pick("c_arr_row"), nil},
		{"missing", missing, avrofile.ErrSchema},
		{"wrong type", wrongType, avrofile.ErrSchema},
		{"empty projection", nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mem := memcheck.New()
			defer mem.AssertSize(t, 0)
			ctx := context.Background()
			b, err := os.ReadFile(path)
			require.NoError(t, err)
			r, err := avrofile.Open(ctx, bytes.NewReader(b), int64(len(b)), &avrofile.ReadOptions{Name: path})
			require.NoError(t, err)
			want, err := schema.ToArrowSchema(tc.fields)
			require.NoError(t, err)
			var rows int
			for rec, err := range r.Read(ctx, tc.fields, &avrofile.ReadRequest{BatchSize: 2, Allocator: mem}) {
				if tc.wantErr != nil {
					require.ErrorIs(t, err, tc.wantErr)
					require.Contains(t, err.Error(), path)
					return
				}
				require.NoError(t, err)
				require.True(t, want.Equal(rec.Schema()))
				for i := 0; i < int(rec.NumRows()); i++ {
					for c, f := range tc.fields {
						v, err := parquet.ArrowValue(rec.Column(c), i, f.Type)
						require.NoError(t, err)
						require.Equal(t, all[rows+i][col(f.Name)], v, "row %d column %s", rows+i, f.Name)
					}
				}
				rows += int(rec.NumRows())
				rec.Release()
			}
			require.Nil(t, tc.wantErr)
			require.Equal(t, len(all), rows)
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
	path := dataFiles(t, g.dir())[0]
	ctx := context.Background()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	r, err := avrofile.Open(ctx, bytes.NewReader(b), int64(len(b)), nil)
	require.NoError(t, err)
	require.Equal(t, "zstandard", r.Codec())
	n := 0
	for rec, err := range r.Read(ctx, ts.Fields, &avrofile.ReadRequest{BatchSize: 1, Allocator: mem}) {
		require.NoError(t, err)
		rec.Release()
		n++
		break
	}
	require.Equal(t, 1, n)
}

// TestCanceledContext checks that Open and Read honour cancellation.
func TestCanceledContext(t *testing.T) {
	g := goldenTables[0]
	ts := latestSchema(t, g.dir())
	b, err := os.ReadFile(dataFiles(t, g.dir())[0])
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	r, err := avrofile.Open(ctx, bytes.NewReader(b), int64(len(b)), nil)
	require.NoError(t, err)
	cancel()
	_, err = avrofile.Open(ctx, bytes.NewReader(b), int64(len(b)), nil)
	require.True(t, errors.Is(err, context.Canceled))
	for rec, err := range r.Read(ctx, ts.Fields, nil) {
		require.Nil(t, rec)
		require.ErrorIs(t, err, context.Canceled)
	}
}
