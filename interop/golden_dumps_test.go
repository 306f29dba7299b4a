package interop_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/paimon"
	"github.com/paimon-go/paimon-go/paimon/predicate"
)

// TestGoldenDumps replays the extra reads golden plans ask for (Scenario.Dumps:
// branches, $row_tracking, projections with system columns, time travel,
// incremental ranges and filters) through the library and compares each
// with the producer's dump. For the same scenarios every limit up to the row
// count must return that many rows, each one of the full read's.
func TestGoldenDumps(t *testing.T) {
	n := 0
	for _, c := range goldenCases(t) {
		if len(c.sc.Dumps) == 0 {
			continue
		}
		t.Run(c.name(), func(t *testing.T) {
			for _, d := range c.sc.Dumps {
				n++
				want := readCanon(t, filepath.Join(c.dir, "dump-"+d.Name+".jsonl"))
				got, err := scanDump(t, c, d)
				require.NoError(t, err, "dump %s", d.Name)
				require.Empty(t, canon.Compare(want, got), "dump %s", d.Name)
			}
			checkLimits(t, openGoldenTable(t, c), readCanon(t, filepath.Join(c.dir, "expected.jsonl")))
		})
	}
	t.Logf("%d dumps compared", n)
}

// scanDump reads what a DumpSpec describes through the library.
func scanDump(t *testing.T, c goldenCase, d DumpSpec) ([]string, error) {
	t.Helper()
	tbl, err := paimon.OpenTable(context.Background(), c.fsys, c.meta.Root(), &paimon.TableOptions{Branch: d.Branch, BlobOpener: fs.OpenFileURI})
	require.NoError(t, err)
	var opts []paimon.ScanOption
	switch d.System {
	case "":
	case "audit_log":
		opts = append(opts, paimon.WithAuditLog())
	case "row_tracking":
		opts = append(opts, paimon.WithRowTracking())
	default:
		t.Fatalf("dump %s: unknown system table %q", d.Name, d.System)
	}
	if len(d.Cols) > 0 {
		opts = append(opts, paimon.WithColumns(d.Cols...))
	}
	if d.Snapshot > 0 {
		opts = append(opts, paimon.WithSnapshotID(d.Snapshot))
	}
	if d.Tag != "" {
		opts = append(opts, paimon.WithTag(d.Tag))
	}
	if d.Incremental != "" {
		s, e, ok := strings.Cut(d.Incremental, ",")
		require.True(t, ok, d.Incremental)
		start, err := strconv.ParseInt(s, 10, 64)
		require.NoError(t, err)
		end, err := strconv.ParseInt(e, 10, 64)
		require.NoError(t, err)
		opts = append(opts, paimon.WithIncremental(start, end, d.IncrementalMode))
	}
	if d.Filter != "" {
		p, err := harnessFilter(d.Filter, tbl.Schema().Fields)
		require.NoError(t, err, "dump %s", d.Name)
		opts = append(opts, paimon.WithFilter(p))
	}
	return scanCanon(t, tbl, opts...)
}

// checkLimits reads the table with every limit from 1 to the row count:
// each read returns exactly that many rows, all of them rows of the full
// read (Java's limit push-down keeps whichever rows it reaches first).
func checkLimits(t *testing.T, tbl *paimon.Table, all []string) {
	t.Helper()
	for limit := 1; limit <= len(all)+1; limit++ {
		got, err := scanCanon(t, tbl, paimon.WithLimit(int64(limit)))
		require.NoError(t, err, "limit %d", limit)
		require.Len(t, got, min(limit, len(all)), "limit %d", limit)
		require.Empty(t, canonMissing(all, got), "limit %d: rows not in the full read", limit)
	}
}

// canonMissing returns the lines of sub that are not in all (as multisets).
func canonMissing(all, sub []string) []string {
	count := map[string]int{}
	for _, l := range all {
		count[l]++
	}
	var out []string
	for _, l := range sub {
		if count[l] == 0 {
			out = append(out, l)
			continue
		}
		count[l]--
	}
	return out
}

// harnessFilter parses the harness's --filter syntax, "<col> <op>
// <canon-v1 JSON literal>" (op one of = != < <= > >=), "<col> is null" or
// "<col> is not null", into a predicate.
func harnessFilter(text string, fields []schema.DataField) (*predicate.Predicate, error) {
	col, rest, ok := strings.Cut(strings.TrimSpace(text), " ")
	if !ok {
		return nil, fmt.Errorf("filter %q: want '<col> <op> <literal>'", text)
	}
	rest = strings.TrimSpace(rest)
	switch rest {
	case "is null":
		return predicate.IsNull(col), nil
	case "is not null":
		return predicate.IsNotNull(col), nil
	}
	op, lit, ok := strings.Cut(rest, " ")
	if !ok {
		return nil, fmt.Errorf("filter %q: want '<col> <op> <literal>'", text)
	}
	var field *schema.DataField
	for i := range fields {
		if fields[i].Name == col {
			field = &fields[i]
		}
	}
	if field == nil {
		return nil, fmt.Errorf("filter %q: no column %s", text, col)
	}
	row, err := canon.DecodeRow([]schema.DataField{*field}, []byte(fmt.Sprintf("{%q:%s}", col, strings.TrimSpace(lit))))
	if err != nil {
		return nil, fmt.Errorf("filter %q: %w", text, err)
	}
	v := row[0]
	switch op {
	case "=":
		return predicate.Equal(col, v), nil
	case "!=":
		return predicate.NotEqual(col, v), nil
	case "<":
		return predicate.LessThan(col, v), nil
	case "<=":
		return predicate.LessOrEqual(col, v), nil
	case ">":
		return predicate.GreaterThan(col, v), nil
	case ">=":
		return predicate.GreaterOrEqual(col, v), nil
	}
	return nil, fmt.Errorf("filter %q: unknown operator %q", text, op)
}
