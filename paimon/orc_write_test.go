package paimon_test

import (
	"context"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/paimon"
	"github.com/paimon-go/paimon-go/paimon/predicate"
)

// TestORCFilterPushdownMatchesNoPushdown writes an ORC table with small
// stripes and 1,000-row row groups, so that filters prune files, stripes
// and row groups by the statistics our writer records, and checks that
// every filtered scan returns exactly the rows of the unfiltered scan that
// the row-wise evaluator accepts.
func TestORCFilterPushdownMatchesNoPushdown(t *testing.T) {
	tbl, fsys := newWriteTable(t, true, map[string]string{
		"file.format": "orc", "orc.row.index.stride": "1000", "file.block-size": "32kb", "file.compression": "zstd",
	})
	all := rowsOf(0, 24000, 3)
	writeCommits(t, tbl, all, 4)
	tbl = reopen(t, fsys)
	fields := tbl.Schema().Fields
	full := orcScanRows(t, tbl)
	require.Len(t, full, len(all))
	for name, f := range map[string]*predicate.Predicate{
		"id-range":   predicate.And(predicate.GreaterOrEqual("id", int64(9100)), predicate.LessThan("id", int64(9350))),
		"id-point":   predicate.Equal("id", int64(17777)),
		"name-eq":    predicate.Equal("name", "n4242"),
		"name-null":  predicate.IsNull("name"),
		"score-high": predicate.GreaterThan("score", 5990.0),
		"partition":  predicate.Equal("dt", "2024-01-02"),
		"or":         predicate.Or(predicate.LessThan("id", int64(20)), predicate.GreaterOrEqual("id", int64(23990))),
		"none":       predicate.GreaterThan("id", int64(1_000_000)),
	} {
		t.Run(name, func(t *testing.T) {
			b, err := predicate.Bind(f, fields)
			require.NoError(t, err)
			var want []string
			for _, r := range full {
				if b.Test(r.vals) {
					want = append(want, r.key)
				}
			}
			var got []string
			for _, r := range orcScanRows(t, tbl, paimon.WithFilter(f)) {
				got = append(got, r.key)
			}
			sort.Strings(want)
			sort.Strings(got)
			require.Equal(t, want, got)
		})
	}
}

type scannedRow struct {
	vals []any
	key  string
}

// orcScanRows reads the table's rows with a checked allocator.
func orcScanRows(t *testing.T, tbl *paimon.Table, opts ...paimon.ScanOption) []scannedRow {
	t.Helper()
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	fields := tbl.Schema().Fields
	var out []scannedRow
	for rec, err := range tbl.NewScan(append(opts, paimon.WithAllocator(mem))...).Records(context.Background()) {
		require.NoError(t, err)
		for r := 0; r < int(rec.NumRows()); r++ {
			vals := make([]any, len(fields))
			for c := range fields {
				v, err := parquet.ArrowValue(rec.Column(c), r, fields[c].Type)
				require.NoError(t, err)
				vals[c] = v
			}
			b, err := canon.EncodeRow(fields, vals)
			require.NoError(t, err)
			out = append(out, scannedRow{vals: vals, key: string(b)})
		}
		rec.Release()
	}
	return out
}
