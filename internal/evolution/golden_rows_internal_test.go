package evolution

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/internal/arrowrow"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/internal/memcheck"
)

// TestGoldenRowsEvolve checks the casts of every evolving append-only golden
// table, whatever its file format (the schema-evolution-append scenarios are
// ORC, which no package here reads): the rows the producer returned for an
// older snapshot, under that snapshot's schema, evolved to a later
// snapshot's schema, must all be among the rows the producer returned for
// the later snapshot (append-only tables only gain rows).
func TestGoldenRowsEvolve(t *testing.T) {
	scenarios, err := filepath.Glob(filepath.Join("..", "..", "testdata", "golden", "*", "*", "scenario.json"))
	require.NoError(t, err)
	pairs := 0
	for _, f := range scenarios {
		var sc struct {
			Name, Producer, Table string
			Snapshots             []int64
		}
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(b, &sc))
		dir := filepath.Dir(f)
		db, table, _ := strings.Cut(sc.Table, ".")
		tableDir := filepath.Join(dir, "warehouse", db+".db", table)
		if ss, _ := filepath.Glob(filepath.Join(tableDir, "schema", "schema-*")); len(ss) < 2 {
			continue
		}
		schemas := map[int64]*schema.TableSchema{}
		for _, id := range sc.Snapshots {
			b, err := os.ReadFile(filepath.Join(tableDir, "snapshot", fmt.Sprintf("snapshot-%d", id)))
			require.NoError(t, err)
			s, err := snapshot.Decode(b)
			require.NoError(t, err)
			b, err = os.ReadFile(filepath.Join(tableDir, "schema", fmt.Sprintf("schema-%d", s.SchemaID)))
			require.NoError(t, err)
			ts, err := schema.Decode(b)
			require.NoError(t, err)
			schemas[id] = ts
		}
		if evolvesRows(schemas) {
			continue
		}
		if len(schemas[sc.Snapshots[0]].PrimaryKeys) > 0 {
			continue // updates replace rows: no subset relation
		}
		t.Run(sc.Producer+"/"+sc.Name, func(t *testing.T) {
			for i, old := range sc.Snapshots {
				for _, cur := range sc.Snapshots[i+1:] {
					from, to := schemas[old], schemas[cur]
					if from.ID == to.ID {
						continue
					}
					pairs++
					t.Run(fmt.Sprintf("%d-to-%d", old, cur), func(t *testing.T) {
						oldRows := readExpected(t, filepath.Join(dir, fmt.Sprintf("expected-snapshot-%d.jsonl", old)), from.Fields)
						want := readExpectedLines(t, filepath.Join(dir, fmt.Sprintf("expected-snapshot-%d.jsonl", cur)))
						for _, line := range evolveRows(t, oldRows, from.Fields, to.Fields) {
							require.Contains(t, want, line, "evolved row of snapshot %d not in snapshot %d", old, cur)
						}
					})
				}
			}
		})
	}
	require.Positive(t, pairs)
}

func readExpected(t *testing.T, file string, fields []schema.DataField) [][]any {
	f, err := os.Open(file)
	require.NoError(t, err)
	defer f.Close()
	var out [][]any
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		vals, err := canon.DecodeRow(fields, line)
		require.NoError(t, err)
		out = append(out, vals)
	}
	require.NoError(t, sc.Err())
	return out
}

func readExpectedLines(t *testing.T, file string) map[string]int {
	f, err := os.Open(file)
	require.NoError(t, err)
	defer f.Close()
	lines, err := canon.ReadLines(f)
	require.NoError(t, err)
	out := map[string]int{}
	for _, l := range lines {
		out[l]++
	}
	return out
}

// evolveRows builds a batch of rows under from, applies the mapping to to and
// returns the canonical lines of the result.
func evolveRows(t *testing.T, rows [][]any, from, to []schema.DataField) []string {
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	m, err := New(to, from)
	require.NoError(t, err)
	read := m.FileFields()
	sc, err := schema.ToArrowSchema(read)
	require.NoError(t, err)
	cols := make([]arrow.Array, len(read))
	defer releaseAll(cols)
	for c, rf := range read {
		idx := -1
		for k, f := range from {
			if f.ID == rf.ID {
				idx = k
			}
		}
		require.GreaterOrEqual(t, idx, 0)
		b := array.NewBuilder(mem, sc.Field(c).Type)
		for _, r := range rows {
			if r[idx] == nil {
				b.AppendNull()
			} else {
				require.NoError(t, arrowrow.AppendValue(b, rf.Type, r[idx]))
			}
		}
		cols[c] = b.NewArray()
		b.Release()
	}
	rec := array.NewRecordBatch(sc, cols, int64(len(rows)))
	defer rec.Release()
	out, err := m.Apply(rec, mem)
	require.NoError(t, err)
	defer out.Release()
	var lines []string
	for i := 0; i < int(out.NumRows()); i++ {
		vals := make([]any, len(to))
		for c, f := range to {
			vals[c], err = parquet.ArrowValue(out.Column(c), i, f.Type)
			require.NoError(t, err)
		}
		line, err := canon.EncodeRow(to, vals)
		require.NoError(t, err)
		cl, err := canon.Canonicalize(line)
		require.NoError(t, err)
		lines = append(lines, cl)
	}
	return lines
}

// evolvesRows reports whether a table updates rows in place (data
// evolution rewrites columns of existing rows), so that an older
// snapshot's rows need not survive.
func evolvesRows(schemas map[int64]*schema.TableSchema) bool {
	for _, ts := range schemas {
		if strings.EqualFold(ts.Options["data-evolution.enabled"], "true") {
			return true
		}
	}
	return false
}
