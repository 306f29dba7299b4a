package mergetree_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	iofs "io/fs"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pqparquet "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/avrofile"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/orc"
	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/internal/evolution"
	"github.com/paimon-go/paimon-go/internal/mergefunc"
	"github.com/paimon-go/paimon-go/internal/mergetree"
)

const goldenRoot = "../../testdata/golden"

// mergedSections counts the sections of several sorted runs the golden
// test merged.
var mergedSections int

// goldenTable is one Java-written table of the golden corpus.
type goldenTable struct {
	scenario string // directory with expected*.jsonl
	dir      string // table directory
	files    map[string]string
}

func (g *goldenTable) read(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(g.dir, name))
	require.NoError(t, err)
	return b
}

func (g *goldenTable) schema(t *testing.T, id int64) *schema.TableSchema {
	t.Helper()
	ts, err := schema.Decode(g.read(t, fmt.Sprintf("schema/schema-%d", id)))
	require.NoError(t, err)
	return ts
}

// postponeBucket is the bucket of files a postpone-bucket table (bucket =
// -2) has not yet redistributed (Java BucketMode.POSTPONE_BUCKET).
const postponeBucket = -2

// liveFiles returns the data files of a snapshot grouped by partition and
// bucket: base and delta manifest lists, their manifests, merged.
func (g *goldenTable) liveFiles(t *testing.T, snap *snapshot.Snapshot) [][]manifest.DataFileMeta {
	t.Helper()
	var entries []manifest.ManifestEntry
	for _, list := range []string{snap.BaseManifestList, snap.DeltaManifestList} {
		metas, err := manifest.ReadManifestList(bytes.NewReader(g.read(t, "manifest/"+list)))
		require.NoError(t, err)
		for _, m := range metas {
			es, err := manifest.ReadManifest(bytes.NewReader(g.read(t, "manifest/"+m.FileName)))
			require.NoError(t, err)
			entries = append(entries, es...)
		}
	}
	merged, err := manifest.MergeEntries(entries)
	require.NoError(t, err)
	groups := map[string][]manifest.DataFileMeta{}
	var keys []string
	for _, e := range merged {
		require.Equal(t, manifest.FileKindAdd, e.Kind)
		if e.Bucket == postponeBucket {
			// Java's batch read skips files still waiting in bucket-postpone
			// (onlyReadRealBuckets); so does the table's planner.
			continue
		}
		k := fmt.Sprintf("%x/%d", e.Partition, e.Bucket)
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], e.File)
	}
	slices.Sort(keys)
	var out [][]manifest.DataFileMeta
	for _, k := range keys {
		out = append(out, groups[k])
	}
	return out
}

// open reads a data file through the file readers and the evolution
// mapping, as the table reader will.
func (g *goldenTable) open(t *testing.T, current *schema.TableSchema, mem memory.Allocator) mergetree.OpenFunc {
	return func(ctx context.Context, f *manifest.DataFileMeta) iter.Seq2[arrow.RecordBatch, error] {
		return func(yield func(arrow.RecordBatch, error) bool) {
			path, ok := g.files[f.FileName]
			if !ok {
				yield(nil, fmt.Errorf("data file %s not found", f.FileName))
				return
			}
			fileSchema := current
			if f.SchemaID != current.ID {
				fileSchema = g.schema(t, f.SchemaID)
			}
			mapping, err := evolution.New(mergetree.ReadFields(current), mergetree.ReadFields(fileSchema))
			if err != nil {
				yield(nil, err)
				return
			}
			raw, err := os.ReadFile(path)
			if err != nil {
				yield(nil, err)
				return
			}
			var src iter.Seq2[arrow.RecordBatch, error]
			switch filepath.Ext(path) {
			case ".parquet":
				r, err := parquet.Open(ctx, bytes.NewReader(raw), int64(len(raw)), &parquet.ReadOptions{Name: path})
				if err != nil {
					yield(nil, err)
					return
				}
				src = r.Read(ctx, mapping.FileFields(), &parquet.ReadRequest{BatchSize: 2, Allocator: mem})
			case ".orc":
				r, err := orc.Open(ctx, bytes.NewReader(raw), int64(len(raw)), &orc.ReadOptions{Name: path})
				if err != nil {
					yield(nil, err)
					return
				}
				src = r.Read(ctx, mapping.FileFields(), &orc.ReadRequest{BatchSize: 2, Allocator: mem})
			case ".avro":
				r, err := avrofile.Open(ctx, bytes.NewReader(raw), int64(len(raw)), &avrofile.ReadOptions{Name: path})
				if err != nil {
					yield(nil, err)
					return
				}
				src = r.Read(ctx, mapping.FileFields(), &avrofile.ReadRequest{BatchSize: 2, Allocator: mem})
			default:
				yield(nil, fmt.Errorf("data file %s: unsupported format", path))
				return
			}
			for rec, err := range src {
				if err != nil {
					yield(nil, err)
					return
				}
				out, err := mapping.Apply(rec, mem)
				rec.Release()
				if !yield(out, err) || err != nil {
					return
				}
			}
		}
	}
}

// goldenMergeTables lists the golden primary-key tables without deletion
// vectors, in Parquet or Avro, with a merge engine engines accepts.
func goldenMergeTables(t *testing.T, engines ...string) []*goldenTable {
	var out []*goldenTable
	for _, producer := range []string{"java-1.4.2", "java-2.0.0"} {
		scenarios, err := os.ReadDir(filepath.Join(goldenRoot, producer))
		require.NoError(t, err)
		for _, sc := range scenarios {
			dir := filepath.Join(goldenRoot, producer, sc.Name())
			raw, err := os.ReadFile(filepath.Join(dir, "scenario.json"))
			if err != nil {
				continue
			}
			var meta struct{ Table string }
			require.NoError(t, json.Unmarshal(raw, &meta))
			db, table, _ := strings.Cut(meta.Table, ".")
			g := &goldenTable{scenario: dir, dir: filepath.Join(dir, "warehouse", db+".db", table), files: map[string]string{}}
			latest := g.latestSchema(t)
			engine := latest.Options["merge-engine"]
			if engine == "" {
				engine = "deduplicate"
			}
			if len(latest.PrimaryKeys) == 0 || latest.Options["deletion-vectors.enabled"] == "true" ||
				!slices.Contains(engines, engine) {
				continue
			}
			require.NoError(t, filepath.WalkDir(g.dir, func(p string, d iofs.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				if strings.Contains(p, "/bucket-") {
					g.files[d.Name()] = p
				}
				return nil
			}))
			out = append(out, g)
		}
	}
	return out
}

func (g *goldenTable) latestSchema(t *testing.T) *schema.TableSchema {
	entries, err := os.ReadDir(filepath.Join(g.dir, "schema"))
	require.NoError(t, err)
	latest := int64(-1)
	for _, e := range entries {
		id, err := strconv.ParseInt(strings.TrimPrefix(e.Name(), "schema-"), 10, 64)
		if err == nil && id > latest {
			latest = id
		}
	}
	return g.schema(t, latest)
}

// sequenceOptions derives the sequence.field options.
func sequenceOptions(t *testing.T, ts *schema.TableSchema) ([]int, bool) {
	idx, err := mergefunc.SequenceFields(ts)
	require.NoError(t, err)
	desc, err := mergefunc.SequenceDescending(ts)
	require.NoError(t, err)
	return idx, desc
}

// TestGoldenDedup merges every bucket of every snapshot of the golden
// deduplicate tables written by Java 1.4.2 and 2.0.0 and compares the rows
// with Java's own batch reads (expected.jsonl, expected-snapshot-N.jsonl)
// and, for the latest snapshot, with its audit log (audit.jsonl).
func TestGoldenDedup(t *testing.T) {
	tables := goldenMergeTables(t, "deduplicate")
	require.NotEmpty(t, tables)
	mergedSections = 0
	defer func() {
		// Java left overlapping files in some buckets, so the heap merge,
		// not only the single-run path, met Java data.
		require.Positive(t, mergedSections)
	}()
	for _, g := range tables {
		name, _ := filepath.Rel(goldenRoot, g.scenario)
		t.Run(name, func(t *testing.T) { g.checkSnapshots(t, nil) })
	}
}

// checkSnapshots checks every snapshot that has an expected file.
func (g *goldenTable) checkSnapshots(t *testing.T, newFactory func(*schema.TableSchema) (mergefunc.Factory, error)) {
	latest := strings.TrimSpace(string(g.read(t, "snapshot/LATEST")))
	snaps, err := os.ReadDir(filepath.Join(g.dir, "snapshot"))
	require.NoError(t, err)
	checked := 0
	for _, e := range snaps {
		id, ok := strings.CutPrefix(e.Name(), "snapshot-")
		if !ok {
			continue
		}
		var expected []string
		if id == latest {
			expected = append(expected, "expected.jsonl")
			if _, err := os.Stat(filepath.Join(g.scenario, "audit.jsonl")); err == nil {
				expected = append(expected, "audit.jsonl")
			}
		} else if _, err := os.Stat(filepath.Join(g.scenario, "expected-snapshot-"+id+".jsonl")); err == nil {
			expected = append(expected, "expected-snapshot-"+id+".jsonl")
		}
		for _, want := range expected {
			t.Run("snapshot-"+id+"/"+want, func(t *testing.T) {
				g.check(t, e.Name(), want, want == "audit.jsonl", newFactory)
			})
			checked++
		}
	}
	require.Positive(t, checked)
}

// TestGoldenEngines merges the golden tables with the engines of package
// mergefunc (NewFactory): deduplicate, partial-update, aggregation and
// first-row, checked against Java's reads like TestGoldenDedup. First-row
// batch reads skip level 0 (Java DataTableBatchScan), as the caller's plan
// will.
func TestGoldenEngines(t *testing.T) {
	tables := goldenMergeTables(t, "deduplicate", "partial-update", "aggregation", "first-row")
	require.NotEmpty(t, tables)
	for _, g := range tables {
		name, _ := filepath.Rel(goldenRoot, g.scenario)
		t.Run(name, func(t *testing.T) { g.checkSnapshots(t, mergefunc.NewFactory) })
	}
}

// check merges every bucket of a snapshot with the test's dedupFunc, or
// with the engine newFactory builds for the snapshot's schema.
func (g *goldenTable) check(t *testing.T, snapName, expectedFile string, keep bool,
	newFactory func(*schema.TableSchema) (mergefunc.Factory, error)) {
	mem := checked(t)
	snap, err := snapshot.Decode(g.read(t, "snapshot/"+snapName))
	require.NoError(t, err)
	ts := g.schema(t, snap.SchemaID)
	seqFields, desc := sequenceOptions(t, ts)
	var merge mergefunc.Factory = dedupFactory()
	if newFactory != nil {
		merge, err = newFactory(ts)
		require.NoError(t, err)
	}
	lookup, err := mergefunc.LookupMerge(ts)
	require.NoError(t, err)
	opts := &mergetree.Options{
		Schema: ts, Merge: merge, SequenceFields: seqFields, SequenceDescending: desc,
		KeepDeletes: keep, BatchSize: 3, Allocator: mem, LookupHighLevel: lookup,
	}
	var got []string
	kc, err := mergetree.NewKeyComparator(keyTypes(ts))
	require.NoError(t, err)
	for _, files := range g.liveFiles(t, snap) {
		if ts.Options["merge-engine"] == "first-row" {
			files = slices.DeleteFunc(files, func(f manifest.DataFileMeta) bool { return f.Level == 0 })
		}
		sections, err := mergetree.Sections(files, kc)
		require.NoError(t, err)
		for _, sec := range sections {
			if len(sec) > 1 {
				mergedSections++
			}
		}
		rows, err := readAll(t, files, g.open(t, ts, mem), opts)
		require.NoError(t, err)
		got = append(got, rows...)
	}
	wantRaw, err := os.ReadFile(filepath.Join(g.scenario, expectedFile))
	require.NoError(t, err)
	want, err := canon.ReadLines(bytes.NewReader(wantRaw))
	require.NoError(t, err)
	gotSorted, err := canon.ReadLines(strings.NewReader(strings.Join(got, "\n")))
	require.NoError(t, err)
	if d := canon.Compare(want, gotSorted); d != "" {
		t.Fatalf("%s:\n%s", expectedFile, d)
	}
}

// TestKeyValueFieldsMatchJavaFiles compares KeyValueFields with the schema of
// every Parquet data file Java wrote for the golden primary-key tables:
// names, field ids and required-ness, in order.
func TestKeyValueFieldsMatchJavaFiles(t *testing.T) {
	n := 0
	for _, g := range goldenMergeTables(t, "deduplicate", "partial-update", "aggregation", "first-row") {
		for name, path := range g.files {
			if filepath.Ext(name) != ".parquet" {
				continue
			}
			raw, err := os.ReadFile(path)
			require.NoError(t, err)
			pr, err := file.NewParquetReader(bytes.NewReader(raw))
			require.NoError(t, err)
			root := pr.MetaData().Schema.Root()
			var got []fieldSig
			for i := 0; i < root.NumFields(); i++ {
				f := root.Field(i)
				got = append(got, fieldSig{ID: int(f.FieldID()), Name: f.Name(), Nullable: f.RepetitionType() != pqparquet.Repetitions.Required})
			}
			// The file's own schema id is in its manifest entry; every
			// golden file's fields are one of the table's schemas.
			var want [][]fieldSig
			schemas, err := filepath.Glob(filepath.Join(g.dir, "schema", "schema-*"))
			require.NoError(t, err)
			for _, s := range schemas {
				ts, err := schema.Decode(g.read(t, filepath.Join("schema", filepath.Base(s))))
				require.NoError(t, err)
				kv, err := mergetree.KeyValueFields(ts)
				require.NoError(t, err)
				var sig []fieldSig
				for _, f := range kv {
					sig = append(sig, fieldSig{ID: f.ID, Name: f.Name, Nullable: f.Type.Nullable})
				}
				want = append(want, sig)
			}
			require.Contains(t, want, got, "%s", path)
			n++
		}
	}
	require.Positive(t, n)
}
