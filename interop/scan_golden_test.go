package interop_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/paimon"
	"github.com/paimon-go/paimon-go/paimon/predicate"
)

// scanCanon runs a scan and returns its rows as sorted canon-v1 lines. The
// scan's batches come from a checked allocator that must end empty.
func scanCanon(t *testing.T, tbl *paimon.Table, opts ...paimon.ScanOption) ([]string, error) {
	t.Helper()
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	ctx := context.Background()
	scan := tbl.NewScan(append(opts, paimon.WithAllocator(mem))...)
	sch, err := scan.ArrowSchema(ctx)
	if err != nil {
		return nil, err
	}
	fields, err := schema.FromArrowSchema(sch)
	require.NoError(t, err)
	var lines []string
	for rec, err := range scan.Records(ctx) {
		if err != nil {
			return nil, err
		}
		require.True(t, rec.Schema().Equal(sch), "batch schema %s differs from ArrowSchema %s", rec.Schema(), sch)
		batch, err := canon.BatchLines(fields, rec)
		require.NoError(t, err)
		lines = append(lines, batch...)
		rec.Release()
	}
	sort.Strings(lines)
	return lines, nil
}

// goldenBlobs opens the objects the golden tables' BLOB descriptors name,
// sharing the local file system between them (fs.OpenFileURI's way, one
// per value, is covered by the golden dumps).
var goldenBlobs = fs.NewURIOpener()

// openGoldenTable opens the table of a golden case.
func openGoldenTable(t *testing.T, c goldenCase) *paimon.Table {
	t.Helper()
	tbl, err := paimon.OpenTable(context.Background(), c.fsys, c.meta.Root(), &paimon.TableOptions{BlobOpener: goldenBlobs.OpenFile})
	require.NoError(t, err)
	return tbl
}

// TestGoldenScanAppendTables reads every append-only table of the golden
// corpus through the scan API and compares with the producer's dumps: the
// latest snapshot, every dumped snapshot and tag, projections and filters.
func TestGoldenScanAppendTables(t *testing.T) {
	n := 0
	for _, c := range goldenCases(t) {
		tbl := openGoldenTable(t, c)
		if len(tbl.PrimaryKeys()) > 0 {
			continue
		}
		n++
		t.Run(c.name(), func(t *testing.T) {
			want := readCanon(t, filepath.Join(c.dir, "expected.jsonl"))
			got, err := scanCanon(t, tbl)
			require.NoError(t, err)
			require.Empty(t, canon.Compare(want, got), "latest snapshot")

			for _, id := range c.sc.Snapshots {
				file := filepath.Join(c.dir, snapshotFile(id))
				if _, err := os.Stat(file); err != nil {
					continue
				}
				got, err := scanCanon(t, tbl, paimon.WithSnapshotID(id))
				require.NoError(t, err, "snapshot %d", id)
				require.Empty(t, canon.Compare(readCanon(t, file), got), "snapshot %d", id)
			}
			for _, tag := range c.sc.Tags {
				got, err := scanCanon(t, tbl, paimon.WithTag(tag))
				require.NoError(t, err, "tag %s", tag)
				require.Empty(t, canon.Compare(readCanon(t, filepath.Join(c.dir, "expected-tag-"+tag+".jsonl")), got), "tag %s", tag)
			}

			fields := tbl.Schema().Fields
			for _, cols := range goldenProjections(fields) {
				got, err := scanCanon(t, tbl, paimon.WithColumns(cols...))
				require.NoError(t, err, "columns %v", cols)
				require.Empty(t, canon.Compare(projectCanon(t, want, cols), got), "columns %v", cols)
			}
			rows := decodeCanon(t, fields, want)
			filters := goldenFilters(tbl.Schema(), rows)
			require.GreaterOrEqual(t, len(filters), 5)
			for _, f := range filters {
				bound, err := predicate.Bind(f, fields)
				require.NoError(t, err, "filter %s", f)
				var expect []string
				for i, r := range rows {
					if bound.Test(r) {
						expect = append(expect, want[i])
					}
				}
				got, err := scanCanon(t, tbl, paimon.WithFilter(f))
				require.NoError(t, err, "filter %s", f)
				require.Empty(t, canon.Compare(expect, got), "filter %s", f)
			}
		})
	}
	require.Greater(t, n, 10, "append-only golden tables found")
}

// TestGoldenScanPrimaryKeyTables reads the primary-key tables of the golden
// corpus through the LSM merge reader and every merge engine: the latest
// snapshot, every dumped snapshot and the audit log must match the
// producer's dumps.
func TestGoldenScanPrimaryKeyTables(t *testing.T) {
	for _, c := range goldenCases(t) {
		tbl := openGoldenTable(t, c)
		if len(tbl.PrimaryKeys()) == 0 {
			continue
		}
		t.Run(c.name(), func(t *testing.T) {
			check := func(what, file string, opts ...paimon.ScanOption) {
				got, err := scanCanon(t, tbl, opts...)
				require.NoError(t, err, what)
				require.Empty(t, canon.Compare(readCanon(t, file), got), what)
			}
			check("latest", filepath.Join(c.dir, "expected.jsonl"))
			if c.sc.Audit {
				check("audit log", filepath.Join(c.dir, "audit.jsonl"), paimon.WithAuditLog())
			}
			for _, id := range c.sc.Snapshots {
				file := filepath.Join(c.dir, snapshotFile(id))
				if _, err := os.Stat(file); err == nil {
					check(fmt.Sprintf("snapshot %d", id), file, paimon.WithSnapshotID(id))
				}
			}
		})
	}
}

func decodeCanon(t *testing.T, fields []schema.DataField, lines []string) [][]any {
	t.Helper()
	// canon-v1 has no decoding back to a VARIANT's bytes: its JSON text is
	// kept as a string (VARIANT columns are not filtered on).
	fields = slices.Clone(fields)
	for i := range fields {
		if fields[i].Type.Root == schema.Variant {
			fields[i].Type = schema.StringType()
		}
	}
	out := make([][]any, len(lines))
	for i, l := range lines {
		r, err := canon.DecodeRow(fields, []byte(l))
		require.NoError(t, err)
		out[i] = r
	}
	return out
}

// projectCanon keeps the given keys of canonical lines.
func projectCanon(t *testing.T, lines []string, cols []string) []string {
	t.Helper()
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		var obj map[string]json.RawMessage
		require.NoError(t, json.Unmarshal([]byte(l), &obj))
		p := map[string]json.RawMessage{}
		for _, c := range cols {
			v, ok := obj[c]
			if !ok {
				v = json.RawMessage("null")
			}
			p[c] = v
		}
		b, err := json.Marshal(p)
		require.NoError(t, err)
		s, err := canon.Canonicalize(b)
		require.NoError(t, err)
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// goldenProjections returns three projections: the last column alone, the
// first and a middle column, and every column in reverse order.
func goldenProjections(fields []schema.DataField) [][]string {
	n := len(fields)
	rev := make([]string, n)
	for i, f := range fields {
		rev[n-1-i] = f.Name
	}
	return [][]string{
		{fields[n-1].Name},
		{fields[n/2].Name, fields[0].Name},
		rev,
	}
}

// comparable reports whether filters on the type can be checked here.
func filterableForTest(t schema.DataType) bool {
	switch t.Root {
	case schema.Boolean, schema.TinyInt, schema.SmallInt, schema.Int, schema.BigInt,
		schema.Char, schema.VarChar, schema.Decimal, schema.Date,
		schema.Timestamp, schema.Float, schema.Double:
		return true
	}
	return false
}

// goldenFilters derives filters from a table's rows: partition equality, a
// range, IN, IS NULL / IS NOT NULL, STARTS WITH and an OR/NOT combination,
// on columns whose values occur in the data.
func goldenFilters(ts *schema.TableSchema, rows [][]any) []*predicate.Predicate {
	fields := ts.Fields
	var out []*predicate.Predicate
	value := func(col int, k int) any {
		var vals []any
		for _, r := range rows {
			if r[col] != nil {
				vals = append(vals, r[col])
			}
		}
		if len(vals) == 0 {
			return nil
		}
		return vals[k%len(vals)]
	}
	for _, pk := range ts.PartitionKeys {
		i := ts.FieldIndex(pk)
		if v := value(i, 0); v != nil {
			out = append(out, predicate.Equal(pk, v))
		}
	}
	var cols []int
	for i, f := range fields {
		if filterableForTest(f.Type) {
			cols = append(cols, i)
		}
	}
	// Two rounds over the columns so that narrow tables get enough filters,
	// each round with other values and filter shapes.
	var rounds []int
	for r := 0; r < 2; r++ {
		rounds = append(rounds, cols...)
	}
	for k, i := range rounds {
		name := fields[i].Name
		v := value(i, len(rows)/2+k)
		if v == nil {
			out = append(out, predicate.IsNull(name))
			continue
		}
		switch k % 5 {
		case 0:
			out = append(out, predicate.GreaterOrEqual(name, v))
		case 1:
			out = append(out, predicate.Or(predicate.LessThan(name, v), predicate.IsNull(name)))
		case 2:
			out = append(out, predicate.In(name, v, value(i, k+1)))
		case 3:
			out = append(out, predicate.Not(predicate.Equal(name, v)))
		case 4:
			out = append(out, predicate.And(predicate.IsNotNull(name), predicate.NotEqual(name, v)))
		}
		if fields[i].Type.Root == schema.VarChar || fields[i].Type.Root == schema.Char {
			if s, ok := v.(string); ok && len(s) > 0 {
				out = append(out, predicate.StartsWith(name, s[:1]))
			}
		}
	}
	if len(cols) >= 2 {
		a, b := fields[cols[0]].Name, fields[cols[1]].Name
		va, vb := value(cols[0], 1), value(cols[1], 2)
		if va != nil && vb != nil {
			out = append(out, predicate.Or(predicate.Equal(a, va), predicate.Not(predicate.GreaterThan(b, vb))))
		}
	}
	return out
}

var _ = data.Decimal{}
var _ = errors.Is
var _ = fmt.Sprint
