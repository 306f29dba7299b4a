package storetest

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/internal/interop"
	"github.com/paimon-go/paimon-go/paimon"
)

// goldenProducer and goldenScenarios name the Java-written tables the
// suite copies onto the store: a fixed-bucket Parquet table and a
// partitioned Avro table, each with several snapshots (testdata/golden).
const goldenProducer = "java-1.4.2"

var goldenScenarios = []string{"append-fixed-bucket", "append-partitioned-avro"}

// goldenScenario is the part of a golden case's scenario.json the suite
// needs.
type goldenScenario struct {
	Table     string  `json:"table"` // "db.table"
	Snapshots []int64 `json:"snapshots"`
}

// readCanonFile reads a canon-v1 dump as sorted canonical lines.
func readCanonFile(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	lines, err := canon.ReadLines(f)
	require.NoError(t, err)
	return lines
}

// testJavaGolden copies tables written by Java Paimon onto the file system,
// reads them (latest and every dumped snapshot) against Java's own dumps,
// then appends Java's rows again with this library's writer and reads each
// row twice: reading and writing a foreign table works on the store.
func testJavaGolden(t *testing.T, fsys fs.FS) {
	root, err := interop.RepoRoot()
	require.NoError(t, err)
	for _, name := range goldenScenarios {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(root, "testdata", "golden", goldenProducer, name)
			raw, err := os.ReadFile(filepath.Join(dir, "scenario.json"))
			require.NoError(t, err)
			var sc goldenScenario
			require.NoError(t, json.Unmarshal(raw, &sc))
			db, table, ok := strings.Cut(sc.Table, ".")
			require.True(t, ok, "table %q", sc.Table)

			base := "golden/" + name
			require.NoError(t, CopyDir(ctx, fsys, base, filepath.Join(dir, "warehouse")))
			path := base + "/" + db + ".db/" + table
			tbl, err := paimon.OpenTable(ctx, fsys, path, nil)
			require.NoError(t, err)

			want := readCanonFile(t, filepath.Join(dir, "expected.jsonl"))
			require.NotEmpty(t, want)
			requireRows(t, want, read(t, tbl), "latest snapshot")
			checked := 0
			for _, id := range sc.Snapshots {
				file := filepath.Join(dir, fmt.Sprintf("expected-snapshot-%d.jsonl", id))
				if _, err := os.Stat(file); errors.Is(err, os.ErrNotExist) {
					continue
				}
				requireRows(t, readCanonFile(t, file), read(t, tbl, paimon.WithSnapshotID(id)), "snapshot %d", id)
				checked++
			}
			require.Positive(t, checked, "no snapshot dumps")

			latest, ok, err := tbl.Meta().LatestSnapshotID(ctx)
			require.NoError(t, err)
			require.True(t, ok)
			fields := tbl.Schema().Fields
			rows := make([][]any, len(want))
			for i, line := range want {
				rows[i], err = canon.DecodeRow(fields, []byte(line))
				require.NoError(t, err)
			}
			res := write(t, tbl, newCommit(t, tbl, "paimon-go"), 1, rows, 100)
			require.Equal(t, latest+1, res.Snapshot.ID)
			doubled := append(append([]string{}, want...), want...)
			requireRows(t, render(t, fields, rows), want, "decoded golden rows")
			tbl, err = paimon.OpenTable(ctx, fsys, path, nil)
			require.NoError(t, err)
			requireRows(t, sortedCopy(doubled), read(t, tbl), "after appending the rows again")
		})
	}
}

// sortedCopy returns lines sorted, as canon.Compare wants them.
func sortedCopy(lines []string) []string {
	out := append([]string(nil), lines...)
	slices.Sort(out)
	return out
}
