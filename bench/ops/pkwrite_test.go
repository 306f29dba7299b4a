package ops

import (
	"context"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/paimon"
)

// TestPKWriteKeys checks the shape pk-write promises: 70% of the rows insert
// a new key (0, 1, 2, ... in order), 30% update a key inserted before.
func TestPKWriteKeys(t *testing.T) {
	const rows = 100_000
	next, updates := int64(0), 0
	for i := int64(0); i < rows; i++ {
		k := PKWriteKey(i)
		switch {
		case k == next:
			next++
		case k >= 0 && k < next:
			updates++
		default:
			t.Fatalf("row %d: key %d, %d keys inserted so far", i, k, next)
		}
	}
	if next != rows*7/10 || updates != rows*3/10 {
		t.Fatalf("%d keys, %d updates", next, updates)
	}
}

// TestPKWriteOperation runs pk-write on a small table like PaimonBench's
// pk_write and reads every key's last version back.
func TestPKWriteOperation(t *testing.T) {
	const rows = 150_000
	wh := t.TempDir()
	fsys, err := localfs.New(wh, nil)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := schema.NewSchemaBuilder().
		Column("k", schema.BigIntType().NotNull()).Column("v", schema.BigIntType()).
		Column("s", schema.StringType()).Column("d", schema.DoubleType()).
		PrimaryKey("k").Option("bucket", "4").Option("write-only", "true").Build()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := paimon.CreateTable(ctx, fsys, DB+".db/pk_write", sc); err != nil {
		t.Fatal(err)
	}
	res, err := Run(ctx, OpPKWrite, ImplGo, Options{Warehouse: wh, Rows: rows})
	if err != nil {
		t.Fatal(err)
	}
	if res.Rows != rows {
		t.Fatalf("wrote %d rows", res.Rows)
	}
	last := map[int64]int64{}
	for i := int64(0); i < rows; i++ {
		last[PKWriteKey(i)] = i
	}
	tbl, err := OpenTable(ctx, wh, "pk_write")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for rec, err := range tbl.NewScan().Records(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		k, v, s := rec.Column(0).(*array.Int64), rec.Column(1).(*array.Int64), rec.Column(2).(*array.String)
		for r := range int(rec.NumRows()) {
			if last[k.Value(r)] != v.Value(r) || s.Value(r) != "v-"+strconv.FormatInt(v.Value(r), 10) {
				t.Fatalf("key %d reads v=%d s=%q, want v=%d", k.Value(r), v.Value(r), s.Value(r), last[k.Value(r)])
			}
			n++
		}
		rec.Release()
	}
	if n != len(last) {
		t.Fatalf("read %d keys, want %d", n, len(last))
	}
}
