package fileindex_test

import (
	"fmt"
	"testing"

	"github.com/paimon-go/paimon-go/format/fileindex"
	"github.com/paimon-go/paimon-go/format/schema"
)

// BenchmarkFileIndexLookup measures what a scan pays per data file and
// predicate leaf: Parse, Index and one Test over an index of 100,000 rows
// holding 100,000 distinct values (scattered, as a user id is). The
// table-level figures are BenchmarkFileIndexEqualityFilter and
// BenchmarkFileIndexRangeFilter in paimon/.
func BenchmarkFileIndexLookup(b *testing.B) {
	const rows = 100_000
	scatter := func(i int) int64 { return int64(i) * 7919 % rows }
	for _, c := range []struct {
		name, typ string
		t         schema.DataType
		val       func(i int) any
		op        fileindex.Op
		lit       any
	}{
		{"bitmap-string-eq", "bitmap", schema.StringType(), func(i int) any { return fmt.Sprintf("k%010d", scatter(i)) }, fileindex.OpEqual, "k0000051234"},
		{"bitmap-bigint-eq", "bitmap", schema.BigIntType(), func(i int) any { return scatter(i) }, fileindex.OpEqual, int64(51234)},
		{"range-bitmap-bigint-eq", "range-bitmap", schema.BigIntType(), func(i int) any { return scatter(i) }, fileindex.OpEqual, int64(51234)},
		{"range-bitmap-bigint-ge", "range-bitmap", schema.BigIntType(), func(i int) any { return scatter(i) }, fileindex.OpGreaterOrEqual, int64(51234)},
		{"range-bitmap-string-ge", "range-bitmap", schema.StringType(), func(i int) any { return fmt.Sprintf("%010d", scatter(i)) }, fileindex.OpGreaterOrEqual, "0000051234"},
		{"range-bitmap-bigint-isnotnull", "range-bitmap", schema.BigIntType(), func(i int) any { return scatter(i) }, fileindex.OpIsNotNull, nil},
	} {
		w, err := fileindex.NewColumnWriter(c.typ, c.t, nil)
		if err != nil || w == nil {
			b.Fatalf("%s: %v", c.name, err)
		}
		for i := range rows {
			w.Add(c.val(i))
		}
		file := fileindex.Encode([]fileindex.ColumnIndex{{Column: "c", Type: c.typ, Bytes: w.Bytes()}})
		var lits []any
		if c.lit != nil {
			lits = []any{c.lit}
		}
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				f, err := fileindex.Parse(file)
				if err != nil {
					b.Fatal(err)
				}
				if r := f.Index("c", c.typ, c.t).Test(c.op, lits); r.Bitmap() == nil {
					b.Fatal("the index did not answer")
				}
			}
		})
	}
}
