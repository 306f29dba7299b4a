package interop_test

import (
	"context"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/internal/interop"
	"github.com/paimon-go/paimon-go/paimon"
)

// TestLiveWritesReadByJava is the acceptance test of our writer: tables
// written and committed with package paimon (NewWriter, NewCommit, also
// Overwrite and DropPartitions) must be tables Java Paimon 1.4.2 and 2.0.0
// and pypaimon read, query and maintain.
//
// Thirteen tables are written into a fresh warehouse (see wtSpecs): every
// type of the all-types plans in Parquet, ORC and Avro, string partitions whose
// values need escaping in paths and NULL partitions (the default
// partition), INT and DATE partitions, unaware (-1) and fixed buckets with a
// bucket key, our own partition overwrites and partition drops, batch and
// streaming commit identifiers, several Write calls per commit, rolled
// files, and two tables whose values move with the commit so that their
// files cover narrow ranges. Rows are random from a logged seed
// (PAIMON_SEED=<n> replays a run). Then, for every Java version, on its own
// copy of the warehouse:
//
//  1. Java's dump of each table equals the rows we committed (and so does
//     our own scan);
//  2. Java dumps with --filter (pushed down with ReadBuilder.withFilter, so
//     Java prunes partitions, files and Parquet row groups by our
//     statistics, then tested row by row) return exactly the rows the
//     reference evaluator matches, at literals near each column's extremes
//     or at the edges of a commit's window; on the windowed tables Java must
//     have pruned files (its planned files are recorded) for most filters.
//     Our own scan with each filter must return the same rows;
//  3. Java's $files lists exactly the data files of our manifests (path,
//     bucket, format, schema, level, row count, size, sequence numbers,
//     creation time, file source, null counts rendered from our statistics,
//     whose sums must equal the NULLs we wrote) and $snapshots exactly our
//     snapshots (ids, commit kinds, users, identifiers, record counts,
//     manifest lists, times);
//  4. Java maintains the tables: a plan without a create op writes rows,
//     compacts, overwrites a partition and expires all but two snapshots;
//     Java's dump and our scan equal the expected rows, and the data files
//     left on disk are exactly those the two snapshots reference. Our
//     writer then appends on top of Java's snapshots, Java's dump and our
//     scan read the union, "=" filters on bucket keys find the rows of both
//     writers, and after another Java compaction both read the union again.
//
// pypaimon dumps every table it can read (not those with a MULTISET
// column: wtNoMultiset) from the original warehouse.
func TestLiveWritesReadByJava(t *testing.T) {
	runners := interop.Require(t)
	seed := liveSeed(t)
	// Short-lived JVMs: C2 compilation costs more than it saves.
	t.Setenv("JAVA_TOOL_OPTIONS", strings.TrimSpace(os.Getenv("JAVA_TOOL_OPTIONS")+" -XX:TieredStopAtLevel=1"))
	ctx := context.Background()
	start := time.Now()
	t.Run("timestamp9-refused", func(t *testing.T) { wtCheckTimestamp9Refused(ctx, t) })
	wh := t.TempDir()
	fsys, err := localfs.New(wh, nil)
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(uint64(seed), 0x3717e5))
	specs := wtSpecs(t)
	tables := make([]*wtTable, len(specs))
	for i := range specs {
		tables[i] = wtSetup(ctx, t, fsys, r, &specs[i])
	}
	for _, wt := range tables {
		t.Run("go/"+wt.spec.name, func(t *testing.T) { wt.baseline(ctx, t, fsys) })
	}
	rows := 0
	for _, wt := range tables {
		rows += len(wt.model.rows)
	}
	t.Logf("wrote %d tables, %d rows, %d filters in %v", len(tables), rows, wtCount(tables),
		time.Since(start).Round(time.Millisecond))
	if t.Failed() {
		return
	}
	t.Run("readers", func(t *testing.T) {
		t.Run("paimon-go", func(t *testing.T) {
			t.Parallel()
			for _, wt := range tables {
				t.Run(wt.spec.name, func(t *testing.T) { wt.goFilters(ctx, t, fsys) })
			}
		})
		for _, rn := range runners {
			t.Run(rn.Name(), func(t *testing.T) {
				t.Parallel()
				rn.Timeout = 5 * time.Minute
				if rn.Producer == "java" {
					wtJava(ctx, t, rn, wh, tables)
				} else {
					wtPython(ctx, t, rn, wh, tables)
				}
			})
		}
	})
	t.Logf("total %v", time.Since(start).Round(time.Millisecond))
}

func wtCount(tables []*wtTable) int {
	n := 0
	for _, wt := range tables {
		n += len(wt.filters)
	}
	return n
}

// wtDB is the database of the tables.
const wtDB = "w"

// wtRetainMax is the number of snapshots Java's expire keeps.
const wtRetainMax = 2

// wtTable is one table written by our writer, with everything the readers
// are checked against. It is read-only once baseline has run (the reader
// subtests run in parallel).
type wtTable struct {
	spec   *wtSpec
	dir    string // relative to the warehouse
	fields []schema.DataField
	model  *wtModel // after our commits
	snaps  []wtSnap
	files  map[string]wtFile // live data files by path relative to the table
	// filters are checked on model.
	filters []wtFilter
	// The maintenance round: Java's plan (no create op), the rows it
	// leaves, the rows our writer appends afterwards and the result.
	javaCommit, goAfterCommit int // commit indexes of those rows
	javaPlan                  []byte
	maintModel                *wtModel
	goAfter                   []wtRow
	finalModel                *wtModel
	eq                        []wtFilter
}

func (wt *wtTable) id() string { return wtDB + "." + wt.spec.name }

// wtSetup creates a table and commits spec's commits with our writer, and
// prepares the rows and plans of the maintenance round.
func wtSetup(ctx context.Context, t *testing.T, fsys *localfs.FS, r *rand.Rand, spec *wtSpec) *wtTable {
	t.Helper()
	wt := &wtTable{spec: spec, dir: wtDB + ".db/" + spec.name}
	tbl := wtCreate(ctx, t, fsys, wt.dir, spec)
	wt.fields = tbl.Schema().Fields
	gen := &wtRowGen{r: r, spec: spec, fields: wt.fields}
	m := &wtModel{fields: wt.fields}
	for c, cm := range spec.commits {
		var rows []wtRow
		if cm.kind != "drop" {
			rows = gen.rows(t, cm.rows, c, cm.partition)
		}
		before := len(m.rows)
		kind := snapshot.CommitAppend
		switch cm.kind {
		case "overwrite":
			m.removePartitions(t, cm.partition)
			kind = snapshot.CommitOverwrite
		case "drop":
			require.Positive(t, m.removePartitions(t, cm.drops...), "%s: the drop must drop rows", spec.name)
			kind = snapshot.CommitOverwrite
		}
		m.rows = append(m.rows, rows...)
		id := wtGoCommit(ctx, t, tbl, wtUser(spec), cm, rows)
		ident := cm.identifier
		if ident == 0 {
			ident = paimon.BatchCommitIdentifier
		}
		wt.snaps = append(wt.snaps, wtSnap{id: id, kind: kind, identifier: ident,
			total: int64(len(m.rows)), delta: int64(len(m.rows) - before)})
	}
	wt.model = m
	if spec.light {
		return wt
	}
	wt.filters = wt.genFilters(t, r)

	// Java's maintenance plan: write, compact, overwrite a partition,
	// expire. No create op: the table is ours.
	wt.javaCommit = len(spec.commits)
	javaRows := gen.rows(t, spec.javaRows, wt.javaCommit, nil)
	mm := m.clone()
	mm.rows = append(mm.rows, javaRows...)
	ops := []map[string]any{{"op": "write", "rows": wtObjects(javaRows)}, {"op": "compact"}}
	if spec.javaOverwrite != nil {
		ow := gen.rows(t, 25, wt.javaCommit+1, spec.javaOverwrite)
		ops = append(ops, map[string]any{"op": "overwrite", "partition": spec.javaOverwrite, "rows": wtObjects(ow)})
		require.Positive(t, mm.removePartitions(t, spec.javaOverwrite), "%s: Java's overwrite must replace rows", spec.name)
		mm.rows = append(mm.rows, ow...)
	}
	ops = append(ops, map[string]any{"op": "expire", "retainMax": wtRetainMax, "retainMin": 1})
	wt.javaPlan = []byte(wtJSON(map[string]any{"db": wtDB, "table": spec.name, "ops": ops}))
	wt.maintModel = mm
	wt.goAfterCommit = wt.javaCommit + 2
	wt.goAfter = gen.rows(t, spec.goRowsAfter, wt.goAfterCommit, nil)
	fm := mm.clone()
	fm.rows = append(fm.rows, wt.goAfter...)
	wt.finalModel = fm
	wt.eq = wt.eqFilters(t, r, fm)
	return wt
}

func wtUser(spec *wtSpec) string { return "paimon-go-" + spec.name }

func wtObjects(rows []wtRow) []map[string]any {
	out := make([]map[string]any, len(rows))
	for i, r := range rows {
		out[i] = r.obj
	}
	return out
}
