package paimon_test

import (
	"context"
	"fmt"

	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/paimon"
	"github.com/paimon-go/paimon-go/paimon/predicate"
)

// openGoldenPK opens interop.pk_dedup, a primary-key table (dt, id) that
// Java Paimon 1.4.2 wrote in five commits of inserts, updates and deletes.
func openGoldenPK(ctx context.Context) *paimon.Table {
	fsys, err := localfs.New("../testdata/golden/java-1.4.2/pk-dedup/warehouse", nil)
	if err != nil {
		panic(err)
	}
	tbl, err := paimon.OpenTable(ctx, fsys, "interop.db/pk_dedup", nil)
	if err != nil {
		panic(err)
	}
	return tbl
}

// Read some columns of the rows a filter keeps. The scan merges the
// primary-key table's row versions, so each key appears once with its
// latest values.
func ExampleTable_NewScan() {
	ctx := context.Background()
	tbl := openGoldenPK(ctx)
	scan := tbl.NewScan(
		paimon.WithColumns("id", "name", "amount"),
		paimon.WithFilter(predicate.And(
			predicate.Equal("dt", "d1"),
			predicate.LessThan("id", 5))))
	if err := printExampleRows(ctx, scan); err != nil {
		panic(err)
	}
	// Output:
	// 1 a-new 10
	// 2 b2 2.75
	// 4 e (null)
}

// Time travel: read the table as it was after its first commit.
func ExampleWithSnapshotID() {
	ctx := context.Background()
	tbl := openGoldenPK(ctx)
	if err := printExampleRows(ctx, tbl.NewScan(paimon.WithSnapshotID(1), paimon.WithColumns("dt", "id", "name"))); err != nil {
		panic(err)
	}
	// Output:
	// d1 1 a
	// d1 2 b
	// d2 1 c
	// d2 3 d
}

// Planning reads only metadata and says what a read will touch; the
// filter on the partition column skips a partition's files.
func ExampleScan_Plan() {
	ctx := context.Background()
	tbl := openGoldenPK(ctx)
	filter, err := predicate.Parse("dt = 'd2'")
	if err != nil {
		panic(err)
	}
	plan, err := tbl.NewScan(paimon.WithFilter(filter)).Plan(ctx)
	if err != nil {
		panic(err)
	}
	st := plan.Stats
	fmt.Println("snapshot", plan.SnapshotID, "schema", plan.SchemaID)
	fmt.Println("files", st.Files, "skipped by partition", st.FilesPrunedByPartition)
	for _, s := range plan.Splits {
		fmt.Println(s.BucketPath, len(s.Files), "files", s.RowCount(), "rows before merging")
	}
	// Output:
	// snapshot 5 schema 0
	// files 4 skipped by partition 2
	// dt=d2/bucket-0 2 files 3 rows before merging
}

// Splits are values: plan in one place, ship the bytes, read them
// elsewhere with a scan of the same columns and filter.
func ExampleSplit_MarshalBinary() {
	ctx := context.Background()
	tbl := openGoldenPK(ctx)
	scan := tbl.NewScan(paimon.WithColumns("dt", "id"))
	plan, err := scan.Plan(ctx)
	if err != nil {
		panic(err)
	}
	var shipped [][]byte
	for i := range plan.Splits {
		b, err := plan.Splits[i].MarshalBinary()
		if err != nil {
			panic(err)
		}
		shipped = append(shipped, b)
	}

	// A worker, possibly in another process, with its own table and scan.
	worker := openGoldenPK(ctx).NewScan(paimon.WithColumns("dt", "id"))
	for _, b := range shipped {
		var split paimon.Split
		if err := split.UnmarshalBinary(b); err != nil {
			panic(err)
		}
		rows := int64(0)
		for rec, err := range worker.ReadSplits(ctx, split) {
			if err != nil {
				panic(err)
			}
			rows += rec.NumRows()
			rec.Release()
		}
		fmt.Println(split.BucketPath, rows, "rows")
	}
	// Output:
	// dt=d1/bucket-0 4 rows
	// dt=d2/bucket-0 1 rows
}
