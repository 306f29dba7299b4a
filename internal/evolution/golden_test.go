package evolution_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/internal/evolution"
	"github.com/paimon-go/paimon-go/internal/memcheck"
)

// System fields of primary-key data files (Java SpecialFields).
var (
	sequenceField  = schema.NewField(math.MaxInt32-1, "_SEQUENCE_NUMBER", schema.BigIntType().NotNull())
	valueKindField = schema.NewField(math.MaxInt32-2, "_VALUE_KIND", schema.TinyIntType().NotNull())
)

// goldenTable is one golden-corpus table whose schema changed over time.
type goldenTable struct {
	dir   string // the scenario directory
	table string // the table directory inside the warehouse
	sc    struct {
		Name      string  `json:"name"`
		Producer  string  `json:"producer"`
		Table     string  `json:"table"`
		Snapshots []int64 `json:"snapshots"`
	}
}

func (g *goldenTable) path(elem ...string) string {
	return filepath.Join(append([]string{g.table}, elem...)...)
}

func (g *goldenTable) schema(t *testing.T, id int64) *schema.TableSchema {
	b, err := os.ReadFile(g.path("schema", fmt.Sprintf("schema-%d", id)))
	require.NoError(t, err)
	s, err := schema.Decode(b)
	require.NoError(t, err)
	return s
}

// liveFiles merges the manifests of a snapshot into its live data files.
func (g *goldenTable) liveFiles(t *testing.T, id int64) (*snapshot.Snapshot, []manifest.ManifestEntry) {
	b, err := os.ReadFile(g.path("snapshot", fmt.Sprintf("snapshot-%d", id)))
	require.NoError(t, err)
	s, err := snapshot.Decode(b)
	require.NoError(t, err)
	var all []manifest.ManifestEntry
	for _, list := range []string{s.BaseManifestList, s.DeltaManifestList} {
		if list == "" {
			continue
		}
		f, err := os.Open(g.path("manifest", list))
		require.NoError(t, err)
		metas, err := manifest.ReadManifestList(f)
		f.Close()
		require.NoError(t, err)
		for _, m := range metas {
			f, err := os.Open(g.path("manifest", m.FileName))
			require.NoError(t, err)
			entries, err := manifest.ReadManifest(f)
			f.Close()
			require.NoError(t, err)
			all = append(all, entries...)
		}
	}
	live, err := manifest.MergeEntries(all)
	require.NoError(t, err)
	return s, live
}

// evolvingTables finds the golden tables with more than one schema.
func evolvingTables(t *testing.T) []*goldenTable {
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "golden", "*", "*", "scenario.json"))
	require.NoError(t, err)
	require.NotEmpty(t, files, "no golden corpus")
	var out []*goldenTable
	for _, f := range files {
		g := &goldenTable{dir: filepath.Dir(f)}
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(b, &g.sc))
		db, table, ok := strings.Cut(g.sc.Table, ".")
		require.True(t, ok)
		g.table = filepath.Join(g.dir, "warehouse", db+".db", table)
		schemas, err := filepath.Glob(g.path("schema", "schema-*"))
		require.NoError(t, err)
		if len(schemas) > 1 {
			out = append(out, g)
		}
	}
	return out
}

// TestGoldenSchemaEvolution reads every data file of the golden tables whose
// schema evolved (java-1.4.2 and java-2.0.0 schema-evolution, pypaimon
// alter-rollback, ...) with format/parquet under the file's own schema,
// evolves it to the schema of each snapshot with a Mapping, merges primary
// keys (deduplicate: highest sequence number wins, retractions dropped) and
// compares with the producer's expected-snapshot-N.jsonl.
func TestGoldenSchemaEvolution(t *testing.T) {
	tables := evolvingTables(t)
	require.NotEmpty(t, tables)
	checked := 0
	for _, g := range tables {
		t.Run(g.sc.Producer+"/"+g.sc.Name, func(t *testing.T) {
			for _, id := range g.sc.Snapshots {
				t.Run(fmt.Sprintf("snapshot-%d", id), func(t *testing.T) {
					want := filepath.Join(g.dir, fmt.Sprintf("expected-snapshot-%d.jsonl", id))
					if _, err := os.Stat(want); err != nil {
						t.Skip("no expected rows")
					}
					if checkSnapshot(t, g, id, want) {
						checked++
					}
				})
			}
		})
	}
	require.Positive(t, checked, "no evolved Parquet snapshot was checked")
}

func checkSnapshot(t *testing.T, g *goldenTable, id int64, wantFile string) bool {
	ctx := context.Background()
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)

	snap, live := g.liveFiles(t, id)
	table := g.schema(t, snap.SchemaID)
	if len(table.PartitionKeys) > 0 {
		t.Skip("partitioned tables are not needed here")
	}
	if e := table.Options["merge-engine"]; e != "" && e != "deduplicate" {
		t.Skipf("merge engine %s", e)
	}
	if strings.EqualFold(table.Options["data-evolution.enabled"], "true") {
		t.Skip("data-evolution files hold some columns each; the paimon package reads them")
	}
	pk := len(table.PrimaryKeys) > 0
	tableFields := table.Fields
	if pk {
		tableFields = append(append([]schema.DataField{}, table.Fields...), sequenceField, valueKindField)
	}

	type row struct {
		key    string
		seq    int64
		kind   int8
		values []any
	}
	var rows []row
	evolved := false
	for _, e := range live {
		if !strings.HasSuffix(e.File.FileName, ".parquet") {
			t.Skipf("%s: only Parquet data files can be read here", e.File.FileName)
		}
		fileSchema := g.schema(t, e.File.SchemaID)
		fileFields := fileSchema.Fields
		if pk {
			fileFields = append(append([]schema.DataField{}, fileFields...), sequenceField, valueKindField)
		}
		m, err := evolution.New(tableFields, fileFields)
		require.NoError(t, err)
		evolved = evolved || !m.Identity()

		path := g.path(fmt.Sprintf("bucket-%d", e.Bucket), e.File.FileName)
		f, err := os.Open(path)
		require.NoError(t, err)
		st, err := f.Stat()
		require.NoError(t, err)
		r, err := parquet.Open(ctx, f, st.Size(), &parquet.ReadOptions{Name: path})
		require.NoError(t, err)
		for rec, err := range r.Read(ctx, m.FileFields(), &parquet.ReadRequest{Allocator: mem, BatchSize: 2}) {
			require.NoError(t, err)
			out, err := m.Apply(rec, mem)
			rec.Release()
			require.NoError(t, err)
			for i := 0; i < int(out.NumRows()); i++ {
				vals := make([]any, len(tableFields))
				for c, tf := range tableFields {
					vals[c], err = parquet.ArrowValue(out.Column(c), i, tf.Type)
					require.NoError(t, err)
				}
				rw := row{values: vals[:len(table.Fields)]}
				if pk {
					var kb bytes.Buffer
					for _, name := range table.PrimaryKeys {
						fmt.Fprintf(&kb, "%v|", vals[table.FieldIndex(name)])
					}
					rw.key = kb.String()
					rw.seq = vals[len(table.Fields)].(int64)
					rw.kind = vals[len(table.Fields)+1].(int8)
				}
				rows = append(rows, rw)
			}
			out.Release()
		}
		require.NoError(t, f.Close())
	}

	if pk {
		latest := map[string]row{}
		for _, r := range rows {
			if old, ok := latest[r.key]; !ok || r.seq >= old.seq {
				latest[r.key] = r
			}
		}
		rows = rows[:0]
		for _, r := range latest {
			if r.kind == 0 || r.kind == 2 { // +I, +U
				rows = append(rows, r)
			}
		}
	}
	var got []string
	for _, r := range rows {
		line, err := canon.EncodeRow(table.Fields, r.values)
		require.NoError(t, err)
		c, err := canon.Canonicalize(line)
		require.NoError(t, err)
		got = append(got, c)
	}
	sort.Strings(got)
	wf, err := os.Open(wantFile)
	require.NoError(t, err)
	defer wf.Close()
	want, err := canon.ReadLines(wf)
	require.NoError(t, err)
	if diff := canon.Compare(want, got); diff != "" {
		t.Fatal(diff)
	}
	return evolved
}
