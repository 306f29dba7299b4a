package storetest

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/internal/coreoptions"
	"github.com/paimon-go/paimon-go/paimon"
	"github.com/paimon-go/paimon-go/paimon/predicate"
)

// testWriteRead writes several commits of several batches across
// partitions (and buckets) into a Parquet and an Avro table, and reads every
// row back: the latest snapshot, an older one, and split by split after a
// serialisation round trip. The data files must be exactly those the plan
// names, in the directories the splits name.
func testWriteRead(t *testing.T, fsys fs.FS) {
	for _, kind := range []tableKind{parquetFixed, avroUnaware} {
		t.Run(kind.name, func(t *testing.T) {
			sub, err := fs.Sub(fsys, kind.name)
			require.NoError(t, err)
			tbl := createTable(t, sub, kind, nil)
			c := newCommit(t, tbl, "writer")
			var all [][]any
			for i, span := range [][2]int{{0, 40}, {40, 100}, {100, 130}} {
				rows := rowsOf(span[0], span[1])
				all = append(all, rows...)
				res := write(t, tbl, c, int64(i+1), rows, 25)
				require.EqualValues(t, i+1, res.Snapshot.ID)
				require.EqualValues(t, len(all), res.Snapshot.TotalRecordCount)
				require.Equal(t, "APPEND", string(res.Snapshot.CommitKind))
			}

			tbl = reopen(t, sub)
			fields := tbl.Schema().Fields
			want := render(t, fields, all)
			requireRows(t, want, read(t, tbl), "latest snapshot")
			requireRows(t, render(t, fields, rowsOf(0, 40)), read(t, tbl, paimon.WithSnapshotID(1)), "snapshot 1")

			plan, err := tbl.NewScan().Plan(ctx)
			require.NoError(t, err)
			require.EqualValues(t, 3, plan.SnapshotID)
			partitions := map[string]bool{}
			var viaSplits, planned []string
			for _, sp := range plan.Splits {
				partDir, bucketDir := path.Split(sp.BucketPath)
				partDir = strings.TrimSuffix(partDir, "/")
				partitions[partDir] = true
				require.Equal(t, fmt.Sprintf("bucket-%d", sp.Bucket), bucketDir)
				if kind.opts[coreoptions.Bucket] == "2" {
					require.Contains(t, []int32{0, 1}, sp.Bucket, sp.BucketPath)
				} else {
					require.Zero(t, sp.Bucket, sp.BucketPath)
				}
				for _, f := range sp.Files {
					require.True(t, strings.HasSuffix(f.FileName, "."+kind.opts[coreoptions.FileFormat]), f.FileName)
					planned = append(planned, tablePath+"/"+sp.BucketPath+"/"+f.FileName)
				}

				b, err := sp.MarshalBinary()
				require.NoError(t, err)
				var back paimon.Split
				require.NoError(t, back.UnmarshalBinary(b))
				var lines []string
				for rec, err := range tbl.NewScan().ReadSplits(ctx, back) {
					require.NoError(t, err)
					lines = append(lines, recordLines(t, fields, rec)...)
					rec.Release()
				}
				require.EqualValues(t, sp.RowCount(), len(lines), sp.BucketPath)
				// Canonical lines start with the partition column (keys sorted).
				dt := `{"dt":"` + strings.TrimPrefix(partDir, "dt=") + `",`
				if partDir == "dt=__DEFAULT_PARTITION__" {
					dt = `{"dt":null,`
				}
				for _, l := range lines {
					require.True(t, strings.HasPrefix(l, dt), "row %s in %s", l, sp.BucketPath)
				}
				viaSplits = append(viaSplits, lines...)
			}
			require.Equal(t, map[string]bool{"dt=2024-01-01": true, "dt=2024-01-02": true, "dt=2024-01-03": true,
				"dt=__DEFAULT_PARTITION__": true}, partitions)
			slices.Sort(viaSplits)
			requireRows(t, want, viaSplits, "read split by split")

			// Every data file on the store is one the plan reads, and the
			// other way round.
			slices.Sort(planned)
			require.Equal(t, planned, dataFiles(listFiles(t, sub, tablePath)))
		})
	}
}

// testFilterProjection reads with filters (partition, value, null and
// compound predicates) and projections, comparing with the rows filtered
// in memory by the same predicate.
func testFilterProjection(t *testing.T, fsys fs.FS) {
	tbl := createTable(t, fsys, parquetFixed, nil)
	c := newCommit(t, tbl, "writer")
	write(t, tbl, c, 1, rowsOf(0, 60), 30)
	write(t, tbl, c, 2, rowsOf(60, 120), 30)
	rows := rowsOf(0, 120)
	tbl = reopen(t, fsys)
	fields := tbl.Schema().Fields

	filters := []*predicate.Predicate{
		predicate.Equal("dt", "2024-01-02"),
		predicate.IsNull("dt"),
		predicate.And(predicate.GreaterOrEqual("id", int64(30)), predicate.LessThan("id", int64(60))),
		predicate.Or(predicate.IsNull("name"), predicate.Equal("id", int64(7))),
		predicate.In("id", int64(1), int64(2), int64(3), int64(500)),
		predicate.StartsWith("name", "n1"),
		predicate.And(predicate.Equal("dt", "2024-01-01"), predicate.GreaterThan("score", 10.0)),
		predicate.Not(predicate.Equal("dt", "2024-01-03")),
		predicate.Equal("dt", "1999-12-31"),
		predicate.GreaterThan("id", int64(1000)),
	}
	for _, f := range filters {
		bound, err := predicate.Bind(f, fields)
		require.NoError(t, err, "filter %s", f)
		want := render(t, fields, where(rows, bound.Test))
		requireRows(t, want, read(t, tbl, paimon.WithFilter(f)), "filter %s", f)
	}

	// A partition filter prunes the plan to that partition's buckets.
	plan, err := tbl.NewScan(paimon.WithFilter(predicate.Equal("dt", "2024-01-02"))).Plan(ctx)
	require.NoError(t, err)
	require.NotEmpty(t, plan.Splits)
	for _, sp := range plan.Splits {
		require.True(t, strings.HasPrefix(sp.BucketPath, "dt=2024-01-02/"), sp.BucketPath)
	}

	project := func(cols []string, rows [][]any) ([]schema.DataField, [][]any) {
		var sub []schema.DataField
		var idx []int
		for _, c := range cols {
			i := slices.IndexFunc(fields, func(f schema.DataField) bool { return f.Name == c })
			require.GreaterOrEqual(t, i, 0, c)
			sub = append(sub, fields[i])
			idx = append(idx, i)
		}
		out := make([][]any, len(rows))
		for r, row := range rows {
			for _, i := range idx {
				out[r] = append(out[r], row[i])
			}
		}
		return sub, out
	}
	for _, cols := range [][]string{{"score", "id"}, {"name"}, {"dt"}, {"id", "dt", "score", "name"}} {
		sub, prows := project(cols, rows)
		requireRows(t, render(t, sub, prows), read(t, tbl, paimon.WithColumns(cols...)), "columns %v", cols)
	}
	// Filter on a column the projection leaves out.
	sub, prows := project([]string{"id"}, where(rows, inDay("2024-01-03")))
	requireRows(t, render(t, sub, prows),
		read(t, tbl, paimon.WithColumns("id"), paimon.WithFilter(predicate.Equal("dt", "2024-01-03"))), "id where dt")
}

// testOverwritePartition replaces one partition (static overwrite), the
// partitions of the new rows (dynamic overwrite), drops a partition, and
// refuses files outside the static partition, leaving no file of the
// refused commit behind. Older snapshots keep their rows.
func testOverwritePartition(t *testing.T, fsys fs.FS) {
	tbl := createTable(t, fsys, parquetFixed, nil)
	fields := tbl.Schema().Fields
	c := newCommit(t, tbl, "writer")
	base := rowsOf(0, 90)
	write(t, tbl, c, 1, base, 45)

	newRows := rowsIn("2024-01-02", 1000, 1012)
	res, err := c.Overwrite(ctx, 2, map[string]string{"dt": "2024-01-02"}, prepare(t, tbl, newRows, 100))
	require.NoError(t, err)
	require.Equal(t, "OVERWRITE", string(res.Snapshot.CommitKind))
	want2 := concat(where(base, notInDay("2024-01-02")), newRows)
	require.EqualValues(t, len(want2), res.Snapshot.TotalRecordCount)
	requireRows(t, render(t, fields, want2), read(t, reopen(t, fsys)), "after static overwrite")

	// Dynamic: the partitions of the new files are replaced, the others
	// stay.
	rows3 := rowsIn("2024-01-03", 2000, 2005)
	_, err = c.Overwrite(ctx, 3, nil, prepare(t, tbl, rows3, 100))
	require.NoError(t, err)
	want3 := concat(where(want2, notInDay("2024-01-03")), rows3)
	requireRows(t, render(t, fields, want3), read(t, reopen(t, fsys)), "after dynamic overwrite")

	res, err = c.DropPartitions(ctx, 4, []map[string]string{{"dt": "__DEFAULT_PARTITION__"}})
	require.NoError(t, err)
	want4 := where(want3, notInDay(nil))
	require.EqualValues(t, len(want4), res.Snapshot.TotalRecordCount)
	requireRows(t, render(t, fields, want4), read(t, reopen(t, fsys)), "after drop partition")

	// Files outside the static partition are refused, and removed.
	before := listFiles(t, fsys, tablePath)
	_, err = c.Overwrite(ctx, 5, map[string]string{"dt": "2024-01-01"}, prepare(t, tbl, rowsIn("2024-01-02", 3000, 3003), 100))
	require.ErrorIs(t, err, paimon.ErrInvalidPartition)
	require.Equal(t, before, listFiles(t, fsys, tablePath))

	tbl = reopen(t, fsys)
	for id, want := range map[int64][][]any{1: base, 2: want2, 3: want3, 4: want4} {
		requireRows(t, render(t, fields, want), read(t, tbl, paimon.WithSnapshotID(id)), "snapshot %d", id)
	}
}
