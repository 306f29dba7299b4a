package interop_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/internal/interop"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/internal/testtable"
	"github.com/paimon-go/paimon-go/paimon"
)

// TestLiveRowTrackingWrites checks row-tracking and data-evolution writes
// both ways with Java 1.4.2 and 2.0.0 (issue 21): on a row-tracking table
// and on a data-evolution table we append (row ids assigned at commit) and,
// on the data-evolution table, update columns by row id (ColumnUpdate);
// Java reads the table and its $row_tracking table as we do; Java appends
// and updates columns (writeColumns, Java's withWriteType) after us, we
// read its result, append and update over Java's files, and Java reads
// that too. pypaimon reads the final row-tracking and data-evolution
// tables (its dumper in the harness renders no BLOB).
func TestLiveRowTrackingWrites(t *testing.T) {
	runners := interop.Require(t)
	ctx := context.Background()
	var python []*interop.Runner
	for _, rn := range runners {
		if rn.Producer != "java" {
			python = append(python, rn)
		}
	}
	for _, rn := range runners {
		if rn.Producer != "java" {
			continue
		}
		rn.Timeout = 5 * time.Minute
		t.Run(rn.Name(), func(t *testing.T) {
			// The versions write their own warehouses.
			t.Parallel()
			wh := t.TempDir()
			out := t.TempDir()
			fsys, err := localfs.New(wh, nil)
			require.NoError(t, err)
			defer fsys.Close()
			// The three tables go through the same steps side by side, so
			// that each Java step of all three is one JVM (a batch).
			var tables []*rtTable
			for _, kind := range []string{"rt", "de", "blob"} {
				tables = append(tables, newRTTable(ctx, t, fsys, kind))
			}
			// Ours: two appends (row ids 0..9, 10..14), updates.
			for _, tt := range tables {
				liveAppend(ctx, t, tt.open(), tt.rows(0, 10))
				liveAppend(ctx, t, tt.open(), tt.rows(10, 15))
				if tt.de {
					liveUpdate(ctx, t, tt.open(), []string{"name"}, [][]any{{int64(2), "u2"}, {int64(11), nil}, {int64(14), "u14"}})
				}
				if tt.de && !tt.blob {
					liveUpdate(ctx, t, tt.open(), []string{"score", "name"}, [][]any{{int64(3), 99.25, "u3"}})
				}
			}
			compareRowTracking(ctx, t, rn, wh, out, tables, "ours", nil)

			// Java appends after us (row ids 15..17) and, on the
			// data-evolution tables, rewrites a column of our second
			// append's rows (row ids 10..14).
			var applies []interop.BatchItem
			for _, tt := range tables {
				ops := []map[string]any{{"op": "write", "rows": []map[string]any{
					{"id": 100, "name": "j100", "score": 1.5}, {"id": 101}, {"id": 102, "name": "j102", "score": 2.5}}}}
				if tt.blob {
					ops = []map[string]any{{"op": "write", "rows": []map[string]any{
						{"id": 100, "name": "j100", "pic": strings.Repeat("0f", 250)}, {"id": 101}, {"id": 102, "name": "j102", "pic": "00ff"}}}}
					ops = append(ops, map[string]any{"op": "writeColumns", "cols": []string{"name"}, "firstRowId": 10,
						"rows": []map[string]any{{"name": "j10"}, {"name": "j11"}, {}, {"name": "j13"}, {"name": "j14"}}})
				} else if tt.de {
					ops = append(ops, map[string]any{"op": "writeColumns", "cols": []string{"score"}, "firstRowId": 10,
						"rows": []map[string]any{{"score": 10.5}, {"score": 11.5}, {}, {"score": 13.5}, {"score": 14.5}}})
				}
				applies = append(applies, planItem(t, wh, out, tt.name, map[string]any{"db": "rtdb", "table": tt.name, "ops": ops}))
			}
			compareRowTracking(ctx, t, rn, wh, out, tables, "java", applies)

			// Ours again: an append (row ids 18..20) and an update
			// over Java's files.
			for _, tt := range tables {
				liveAppend(ctx, t, tt.open(), tt.rows(20, 23))
				if tt.de {
					liveUpdate(ctx, t, tt.open(), []string{"name"}, [][]any{{int64(16), "u16"}, {int64(12), "u12"}})
				}
				tbl := tt.open()
				s, err := tbl.Meta().ReadSnapshot(ctx, mustLatest(ctx, t, tbl))
				require.NoError(t, err)
				require.EqualValues(t, 21, *s.NextRowID, tt.name)
			}
			compareRowTracking(ctx, t, rn, wh, out, tables, "ours-again", nil)
			for _, py := range python {
				var items []interop.BatchItem
				var read []*rtTable
				for _, tt := range tables {
					if tt.blob {
						// The harness's pypaimon dumper renders no BLOB
						// ("unsupported type BLOB"); Java read it above.
						continue
					}
					read = append(read, tt)
					items = append(items, interop.BatchItem{Out: filepath.Join(out, tt.name+"-"+py.Name()+".jsonl"),
						Args: interop.DumpArgs(wh, "rtdb."+tt.name, interop.DumpOptions{})})
				}
				require.NoError(t, py.Batch(ctx, items), "%s reads our tables", py.Name())
				for i, tt := range read {
					ours, err := scanCanon(t, tt.open())
					require.NoError(t, err)
					require.Empty(t, canon.Compare(ours, readCanon(t, items[i].Out)), "%s's read of %s", py.Name(), tt.name)
				}
			}
		})
	}
}

// rtTable is one table of TestLiveRowTrackingWrites: row tracking ("rt"),
// data evolution ("de") or data evolution with a BLOB column ("blob").
type rtTable struct {
	name     string
	de, blob bool
	open     func() *paimon.Table
}

func newRTTable(ctx context.Context, t *testing.T, fsys *localfs.FS, kind string) *rtTable {
	t.Helper()
	tt := &rtTable{name: kind, de: kind != "rt", blob: kind == "blob"}
	opts := map[string]string{"row-tracking.enabled": "true"}
	if tt.de {
		opts["data-evolution.enabled"] = "true"
	}
	fields := []schema.DataField{
		{ID: 0, Name: "id", Type: schema.IntType()},
		{ID: 1, Name: "name", Type: schema.StringType()},
		{ID: 2, Name: "score", Type: schema.DoubleType()},
	}
	if tt.blob {
		// .blob files roll every few values.
		opts["blob.target-file-size"] = "300 b"
		fields[2] = schema.DataField{ID: 2, Name: "pic", Type: schema.BlobType()}
	}
	ts := &schema.TableSchema{Version: 3, Fields: fields, HighestFieldID: 2, Options: opts}
	dir := "rtdb.db/" + tt.name
	_, err := testtable.Create(ctx, fsys, dir, ts)
	require.NoError(t, err)
	tt.open = func() *paimon.Table {
		tbl, err := paimon.OpenTable(ctx, fsys, dir, nil)
		require.NoError(t, err)
		return tbl
	}
	return tt
}

// rows are the rows from..to-1 of the table's workload.
func (tt *rtTable) rows(from, to int) [][]any {
	var out [][]any
	for i := from; i < to; i++ {
		var n any = fmt.Sprintf("n%d", i)
		if i%4 == 0 {
			n = nil
		}
		if tt.blob {
			var pic any = bytes.Repeat([]byte{byte(i), 0xab}, 20+i*3)
			if i%5 == 2 {
				pic = nil
			}
			out = append(out, []any{int32(i), n, pic})
			continue
		}
		out = append(out, []any{int32(i), n, float64(i) / 2})
	}
	return out
}

func mustLatest(ctx context.Context, t *testing.T, tbl *paimon.Table) int64 {
	t.Helper()
	id, ok, err := tbl.Meta().LatestSnapshotID(ctx)
	require.NoError(t, err)
	require.True(t, ok)
	return id
}

// compareRowTracking has Java run applies (plans applied first, one JVM
// for all) and then read each table and its $row_tracking table, and
// compares both with our reads.
func compareRowTracking(ctx context.Context, t *testing.T, rn *interop.Runner, wh, out string, tables []*rtTable, step string, applies []interop.BatchItem) {
	t.Helper()
	items := applies
	for _, tt := range tables {
		items = append(items,
			interop.BatchItem{Out: filepath.Join(out, tt.name+"-"+step+".jsonl"), Args: interop.DumpArgs(wh, "rtdb."+tt.name, interop.DumpOptions{})},
			interop.BatchItem{Out: filepath.Join(out, tt.name+"-"+step+"-rt.jsonl"), Args: interop.DumpArgs(wh, "rtdb."+tt.name+"$row_tracking", interop.DumpOptions{})})
	}
	require.NoError(t, rn.Batch(ctx, items))
	for _, tt := range tables {
		tbl := tt.open()
		ours, err := scanCanon(t, tbl)
		require.NoError(t, err)
		require.Empty(t, canon.Compare(readCanon(t, filepath.Join(out, tt.name+"-"+step+".jsonl")), ours), "%s: %s (%s)", rn.Name(), tt.name, step)
		oursRT, err := scanCanon(t, tbl, paimon.WithRowTracking())
		require.NoError(t, err)
		require.Empty(t, canon.Compare(readCanon(t, filepath.Join(out, tt.name+"-"+step+"-rt.jsonl")), oursRT), "%s: %s$row_tracking (%s)", rn.Name(), tt.name, step)
	}
}

// planItem writes a plan and returns the batch line that has Java apply it.
func planItem(t *testing.T, wh, out, name string, plan map[string]any) interop.BatchItem {
	t.Helper()
	b, err := json.Marshal(plan)
	require.NoError(t, err)
	f := filepath.Join(out, name+"-plan.json")
	require.NoError(t, os.WriteFile(f, b, 0o644))
	return interop.BatchItem{Out: filepath.Join(out, name+"-plan.out"), Args: []string{"apply", wh, f}}
}

// liveAppend writes rows in one commit.
func liveAppend(ctx context.Context, t *testing.T, tbl *paimon.Table, rows [][]any) {
	t.Helper()
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	w, err := tbl.NewWriter(&paimon.WriterOptions{Allocator: mem})
	require.NoError(t, err)
	rec, err := testtable.BuildRecord(mem, tbl.Schema().Fields, rows)
	require.NoError(t, err)
	err = w.Write(ctx, rec)
	rec.Release()
	require.NoError(t, err)
	msgs, err := w.PrepareCommit(ctx)
	require.NoError(t, err)
	require.NoError(t, w.Close(ctx))
	c, err := tbl.NewCommit(nil)
	require.NoError(t, err)
	_, err = c.Commit(ctx, paimon.BatchCommitIdentifier, msgs)
	require.NoError(t, err)
}

// liveUpdate updates columns of rows [row id, values...] in one commit.
func liveUpdate(ctx context.Context, t *testing.T, tbl *paimon.Table, cols []string, rows [][]any) {
	t.Helper()
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	u, err := tbl.NewColumnUpdate(ctx, cols, &paimon.ColumnUpdateOptions{Allocator: mem})
	require.NoError(t, err)
	defer u.Close(ctx)
	fields := []schema.DataField{{ID: 1 << 20, Name: "_ROW_ID", Type: schema.BigIntType().NotNull()}}
	for _, c := range cols {
		f, ok := tbl.Schema().FieldByName(c)
		require.True(t, ok)
		fields = append(fields, f)
	}
	rec, err := testtable.BuildRecord(mem, fields, rows)
	require.NoError(t, err)
	err = u.Update(ctx, rec)
	rec.Release()
	require.NoError(t, err)
	msgs, err := u.PrepareCommit(ctx)
	require.NoError(t, err)
	c, err := tbl.NewCommit(nil)
	require.NoError(t, err)
	_, err = c.Commit(ctx, paimon.BatchCommitIdentifier, msgs)
	require.NoError(t, err)
}
