package paimon_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/paimon"
)

// appendTable creates an append-only table (id BIGINT, name STRING) in dir.
func appendTable(ctx context.Context, dir string) (*paimon.Table, fs.FS, error) {
	fsys, err := localfs.New(dir, nil)
	if err != nil {
		return nil, nil, err
	}
	s, err := schema.NewSchemaBuilder().
		Column("id", schema.BigIntType().NotNull()).
		Column("name", schema.StringType()).
		Build()
	if err != nil {
		return nil, nil, err
	}
	tbl, err := paimon.CreateTable(ctx, fsys, "shop.db/customers", s)
	return tbl, fsys, err
}

// A script appends the batches of an array.RecordReader in one call.
func ExampleTable_Append() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "paimon-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	tbl, _, err := appendTable(ctx, dir)
	if err != nil {
		panic(err)
	}

	sch := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memcheck.New(), sch)
	defer b.Release()
	b.Field(0).(*array.Int64Builder).AppendValues([]int64{1, 2}, nil)
	b.Field(1).(*array.StringBuilder).AppendValues([]string{"ada", "grace"}, nil)
	batch := b.NewRecordBatch()
	defer batch.Release()
	rdr, err := array.NewRecordReader(sch, []arrow.RecordBatch{batch})
	if err != nil {
		panic(err)
	}
	defer rdr.Release()

	res, err := tbl.Append(ctx, rdr)
	if err != nil {
		panic(err)
	}
	fmt.Println("snapshot", res.Snapshot.ID, "adds", res.Snapshot.DeltaRecordCount, "rows")
	if err := printExampleRows(ctx, tbl.NewScan()); err != nil {
		panic(err)
	}
	// Output:
	// snapshot 1 adds 2 rows
	// 1 ada
	// 2 grace
}

// TestAppendEmpty: a reader without rows commits nothing, says so
// (Empty, no snapshot) and leaves no file behind.
func TestAppendEmpty(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	tbl, fsys, err := appendTable(ctx, dir)
	require.NoError(t, err)
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)

	sch := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(mem, sch)
	defer b.Release()
	empty := b.NewRecordBatch() // zero rows
	defer empty.Release()
	for name, batches := range map[string][]arrow.RecordBatch{"no batch": nil, "empty batch": {empty}} {
		t.Run(name, func(t *testing.T) {
			rdr, err := array.NewRecordReader(sch, batches)
			require.NoError(t, err)
			defer rdr.Release()
			res, err := tbl.Append(ctx, rdr)
			require.NoError(t, err)
			require.True(t, res.Empty)
			require.Nil(t, res.Snapshot)
			require.Empty(t, res.Published)
			require.False(t, res.AlreadyCommitted)
		})
	}
	_, err = fsys.Stat(ctx, "shop.db/customers/snapshot/LATEST")
	require.Error(t, err, "no snapshot was published")
	var files []string
	for _, dir := range []string{"shop.db/customers/bucket-0", "shop.db/customers/manifest"} {
		infos, err := fs.ReadDir(ctx, fsys, dir)
		if err == nil {
			for _, fi := range infos {
				files = append(files, dir+"/"+fi.Name)
			}
		}
	}
	require.Empty(t, files, "an empty append leaves no file")

	// A second Append with rows commits snapshot 1; each call is a new
	// commit (fresh user), so the same rows appended twice are there twice.
	for want := int64(1); want <= 2; want++ {
		b.Field(0).(*array.Int64Builder).Append(7)
		b.Field(1).(*array.StringBuilder).AppendNull()
		rec := b.NewRecordBatch()
		rdr, err := array.NewRecordReader(sch, []arrow.RecordBatch{rec})
		require.NoError(t, err)
		res, err := tbl.Append(ctx, rdr)
		rdr.Release()
		rec.Release()
		require.NoError(t, err)
		require.False(t, res.Empty)
		require.Equal(t, want, res.Snapshot.ID)
	}
}
