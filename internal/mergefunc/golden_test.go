package mergefunc_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/internal/mergefunc"
)

const goldenRoot = "../../testdata/golden/java-1.4.2"

type plan struct {
	DB    string `json:"db"`
	Table string `json:"table"`
	Ops   []struct {
		Op    string            `json:"op"`
		Rows  []json.RawMessage `json:"rows"`
		Kinds []string          `json:"kinds"`
	} `json:"ops"`
}

// simTable replays a plan's writes through the merge engine: every written
// row is a new version of its key (sequence = write order), a compaction
// replaces the versions of every key by their merge (dropping keys whose
// merge is absent or a retraction, as a full compaction to the top level
// does), and a read merges the versions of every key and drops
// retractions, as Java's DropDeleteReader does.
type simTable struct {
	ts      *schema.TableSchema
	fn      mergefunc.Function
	pk      []int
	keys    []string
	version map[string][]mergefunc.Row
}

func (s *simTable) key(vals []any) string {
	var b strings.Builder
	for _, i := range s.pk {
		x, err := canon.EncodeValue(s.ts.Fields[i].Type, vals[i])
		if err != nil {
			panic(err)
		}
		fmt.Fprintf(&b, "%v|", x)
	}
	return b.String()
}

func (s *simTable) merged(k string) (*mergefunc.Row, error) {
	s.fn.Reset()
	vs := s.version[k]
	for i := range vs {
		if err := s.fn.Add(&vs[i]); err != nil {
			return nil, err
		}
	}
	return s.fn.Result()
}

func (s *simTable) compact() error {
	for _, k := range s.keys {
		r, err := s.merged(k)
		if err != nil {
			return err
		}
		if r == nil || r.Kind.IsRetract() {
			delete(s.version, k)
			continue
		}
		s.version[k] = []mergefunc.Row{{Seq: r.Seq, Kind: data.Insert, Values: r.Values}}
	}
	return nil
}

func (s *simTable) read() ([]string, error) {
	var lines []string
	for _, k := range s.keys {
		if len(s.version[k]) == 0 {
			continue
		}
		r, err := s.merged(k)
		if err != nil {
			return nil, err
		}
		if r == nil || r.Kind.IsRetract() {
			continue
		}
		line, err := canon.EncodeRow(s.ts.Fields, r.Values)
		if err != nil {
			return nil, err
		}
		c, err := canon.Canonicalize(line)
		if err != nil {
			return nil, err
		}
		lines = append(lines, c)
	}
	return lines, nil
}

func readExpected(t *testing.T, file string) []string {
	t.Helper()
	f, err := os.Open(file)
	require.NoError(t, err)
	defer f.Close()
	lines, err := canon.ReadLines(f)
	require.NoError(t, err)
	return lines
}

// TestGoldenMergeEngines replays the primary-key scenarios Java 1.4.2 wrote
// and compares the merged rows with Java's reads: the final table and,
// where every write and compaction made one snapshot, each snapshot.
func TestGoldenMergeEngines(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join(goldenRoot, "pk-*"))
	require.NoError(t, err)
	for _, must := range []string{"pk-aggregation", "pk-partial-update", "pk-first-row"} {
		require.Contains(t, dirs, filepath.Join(goldenRoot, must))
	}
	for _, dir := range dirs {
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("../../interop/plans", name+".json"))
			require.NoError(t, err)
			var p plan
			require.NoError(t, json.Unmarshal(raw, &p))
			schemaFile := filepath.Join(dir, "warehouse", p.DB+".db", p.Table, "schema", "schema-0")
			b, err := os.ReadFile(schemaFile)
			require.NoError(t, err)
			ts, err := schema.Decode(b)
			require.NoError(t, err)
			f, err := mergefunc.NewFactory(ts)
			require.NoError(t, err)
			s := &simTable{ts: ts, fn: f.New(), version: map[string][]mergefunc.Row{}}
			for _, k := range ts.PrimaryKeys {
				s.pk = append(s.pk, ts.FieldIndex(k))
			}

			var snapshots [][]string
			seq := int64(0)
			for _, op := range p.Ops {
				switch op.Op {
				case "create":
					continue
				case "write":
					for i, rj := range op.Rows {
						vals, err := canon.DecodeRow(ts.Fields, rj)
						require.NoError(t, err)
						kind := data.Insert
						if i < len(op.Kinds) {
							kind, err = data.ParseRowKind(op.Kinds[i])
							require.NoError(t, err)
						}
						k := s.key(vals)
						if _, ok := s.version[k]; !ok {
							s.keys = append(s.keys, k)
						}
						s.version[k] = append(s.version[k], mergefunc.Row{Seq: seq, Kind: kind, Values: vals})
						seq++
					}
				case "compact":
					require.NoError(t, s.compact())
				default:
					t.Skipf("op %s is not simulated", op.Op)
				}
				lines, err := s.read()
				require.NoError(t, err)
				snapshots = append(snapshots, lines)
			}

			final := snapshots[len(snapshots)-1]
			got := append([]string(nil), final...)
			sortStrings(got)
			if d := canon.Compare(readExpected(t, filepath.Join(dir, "expected.jsonl")), got); d != "" {
				t.Fatalf("final rows differ from Java:\n%s", d)
			}
			files, _ := filepath.Glob(filepath.Join(dir, "expected-snapshot-*.jsonl"))
			if len(files) != len(snapshots) {
				return // Java made extra (compaction) snapshots: only the final read lines up
			}
			for i, lines := range snapshots {
				got := append([]string(nil), lines...)
				sortStrings(got)
				want := readExpected(t, filepath.Join(dir, fmt.Sprintf("expected-snapshot-%d.jsonl", i+1)))
				if d := canon.Compare(want, got); d != "" {
					t.Errorf("snapshot %d differs from Java:\n%s", i+1, d)
				}
			}
		})
	}
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
