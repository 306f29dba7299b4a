package storetest

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/internal/coreoptions"
	"github.com/paimon-go/paimon-go/internal/testtable"
	"github.com/paimon-go/paimon-go/paimon"
)

// tablePath is where the suite's tables live in the file system under test:
// a warehouse, a database directory and the table, as catalogs lay them out.
const tablePath = "wh/db.db/t"

// tableKind is a table layout the suite writes.
type tableKind struct {
	name string
	opts map[string]string
}

var (
	// parquetFixed is a Parquet table with two fixed buckets hashed on id.
	parquetFixed = tableKind{"parquet-fixed-bucket", map[string]string{
		coreoptions.FileFormat: "parquet", coreoptions.Bucket: "2", coreoptions.BucketKey: "id"}}
	// avroUnaware is an Avro table without buckets (bucket -1).
	avroUnaware = tableKind{"avro-unaware", map[string]string{coreoptions.FileFormat: "avro"}}
)

// days are the partition values rows spread over (plus NULL, the default
// partition).
var days = []string{"2024-01-01", "2024-01-02", "2024-01-03"}

// createTable creates the suite's table schema, partitioned by dt, with the
// kind's options, through the public API.
func createTable(t *testing.T, fsys fs.FS, kind tableKind, extra map[string]string) *paimon.Table {
	t.Helper()
	b := schema.NewSchemaBuilder().
		Column("dt", schema.StringType()).
		Column("id", schema.BigIntType().NotNull()).
		Column("name", schema.StringType()).
		Column("score", schema.DoubleType()).
		PartitionKeys("dt").
		Options(kind.opts)
	if extra != nil {
		b = b.Options(extra)
	}
	s, err := b.Build()
	require.NoError(t, err)
	tbl, err := paimon.CreateTable(ctx, fsys, tablePath, s)
	require.NoError(t, err)
	return tbl
}

// reopen reads the table's latest schema and options again, as a new
// process would.
func reopen(t *testing.T, fsys fs.FS) *paimon.Table {
	t.Helper()
	tbl, err := paimon.OpenTable(ctx, fsys, tablePath, nil)
	require.NoError(t, err)
	return tbl
}

// rowsOf builds rows [dt, id, name, score] for ids in [from, to): dt cycles
// through days with every 11th row in the default partition, every 5th name
// is NULL.
func rowsOf(from, to int) [][]any {
	var rows [][]any
	for i := from; i < to; i++ {
		var dt any = days[i%len(days)]
		if i%11 == 10 {
			dt = nil
		}
		rows = append(rows, row(dt, i))
	}
	return rows
}

// rowsIn builds rows for ids in [from, to), all in partition dt.
func rowsIn(dt string, from, to int) [][]any {
	var rows [][]any
	for i := from; i < to; i++ {
		rows = append(rows, row(dt, i))
	}
	return rows
}

func row(dt any, i int) []any {
	var name any = fmt.Sprintf("n%d", i)
	if i%5 == 0 {
		name = nil
	}
	return []any{dt, int64(i), name, float64(i) / 4}
}

// where keeps the rows for which keep returns true.
func where(rows [][]any, keep func(r []any) bool) [][]any {
	var out [][]any
	for _, r := range rows {
		if keep(r) {
			out = append(out, r)
		}
	}
	return out
}

// inDay and notInDay select rows by partition value (nil for the default
// partition).
func inDay(dt any) func([]any) bool    { return func(r []any) bool { return r[0] == dt } }
func notInDay(dt any) func([]any) bool { return func(r []any) bool { return r[0] != dt } }

// concat joins row sets.
func concat(sets ...[][]any) [][]any {
	var out [][]any
	for _, s := range sets {
		out = append(out, s...)
	}
	return out
}

// render returns rows as sorted canon-v1 lines, the form scans are
// compared in.
func render(t *testing.T, fields []schema.DataField, rows [][]any) []string {
	t.Helper()
	out := make([]string, 0, len(rows))
	for _, r := range rows {
		line, err := canon.EncodeRow(fields, r)
		require.NoError(t, err)
		s, err := canon.Canonicalize(line)
		require.NoError(t, err)
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// scanLines runs a scan and returns its rows as sorted canon-v1 lines.
// Batches come from a checked allocator that must end empty.
func scanLines(t *testing.T, tbl *paimon.Table, opts ...paimon.ScanOption) ([]string, error) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	scan := tbl.NewScan(append(opts, paimon.WithAllocator(mem))...)
	sch, err := scan.ArrowSchema(ctx)
	if err != nil {
		return nil, err
	}
	fields, err := schema.FromArrowSchema(sch)
	require.NoError(t, err)
	lines := []string{}
	for rec, err := range scan.Records(ctx) {
		if err != nil {
			return nil, err
		}
		lines = append(lines, recordLines(t, fields, rec)...)
		rec.Release()
	}
	sort.Strings(lines)
	return lines, nil
}

// recordLines renders every row of a batch as a canon-v1 line.
func recordLines(t *testing.T, fields []schema.DataField, rec arrow.RecordBatch) []string {
	t.Helper()
	out, err := canon.BatchLines(fields, rec)
	require.NoError(t, err)
	return out
}

// read scans and fails the test on error.
func read(t *testing.T, tbl *paimon.Table, opts ...paimon.ScanOption) []string {
	t.Helper()
	got, err := scanLines(t, tbl, opts...)
	require.NoError(t, err)
	return got
}

// requireRows compares sorted canonical lines as multisets.
func requireRows(t *testing.T, want, got []string, what string, args ...any) {
	t.Helper()
	if d := canon.Compare(want, got); d != "" {
		t.Fatalf("%s: rows differ:\n%s", fmt.Sprintf(what, args...), d)
	}
}

// prepare writes rows through a TableWriter in batches of batchSize and
// returns the commit messages, without committing them.
func prepare(t *testing.T, tbl *paimon.Table, rows [][]any, batchSize int) []paimon.CommitMessage {
	t.Helper()
	msgs, err := PrepareRows(ctx, tbl, rows, batchSize)
	require.NoError(t, err)
	return msgs
}

// PrepareRows is prepare for goroutines, which must not end the test, and
// for callers with a context of their own (the S3 fault tests' deadlines):
// it writes rows in batches of batchSize with a new TableWriter and returns
// the commit messages, without committing them.
func PrepareRows(ctx context.Context, tbl *paimon.Table, rows [][]any, batchSize int) ([]paimon.CommitMessage, error) {
	w, err := tbl.NewWriter(nil)
	if err != nil {
		return nil, err
	}
	defer w.Close(ctx)
	fields := tbl.Schema().Fields
	for i := 0; i < len(rows); i += batchSize {
		rec, err := testtable.BuildRecord(memory.DefaultAllocator, fields, rows[i:min(i+batchSize, len(rows))])
		if err != nil {
			return nil, err
		}
		err = w.Write(ctx, rec)
		rec.Release()
		if err != nil {
			return nil, err
		}
	}
	return w.PrepareCommit(ctx)
}

// newCommit opens a committer for user.
func newCommit(t *testing.T, tbl *paimon.Table, user string) *paimon.TableCommit {
	t.Helper()
	c, err := tbl.NewCommit(&paimon.CommitOptions{User: user})
	require.NoError(t, err)
	return c
}

// write writes rows and commits them with identifier.
func write(t *testing.T, tbl *paimon.Table, c *paimon.TableCommit, identifier int64, rows [][]any, batchSize int) *paimon.CommitResult {
	t.Helper()
	res, err := c.Commit(ctx, identifier, prepare(t, tbl, rows, batchSize))
	require.NoError(t, err)
	require.NotNil(t, res.Snapshot, "commit %d published nothing", identifier)
	return res
}

// listFiles returns every file below dir with its size, recursively, by
// name relative to the file system root.
func listFiles(t *testing.T, fsys fs.FS, dir string) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	var walk func(dir string)
	walk = func(dir string) {
		entries, err := fs.ReadDir(ctx, fsys, dir)
		require.NoError(t, err)
		for _, e := range entries {
			name := dir + "/" + e.Name
			if e.IsDir {
				walk(name)
			} else {
				out[name] = e.Size
			}
		}
	}
	walk(dir)
	return out
}

// dataFiles keeps the data files (data-*.parquet, data-*.avro) of a
// listing.
func dataFiles(files map[string]int64) []string {
	var out []string
	for name := range files {
		base := name[strings.LastIndexByte(name, '/')+1:]
		if strings.HasPrefix(base, "data-") {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// added returns the names in after that are not in before, sorted.
func added(before, after map[string]int64) []string {
	var out []string
	for name := range after {
		if _, ok := before[name]; !ok {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}
