package predicate_test

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/paimon/predicate"
)

func Example() {
	fields := []schema.DataField{
		schema.NewField(0, "dt", schema.StringType()),
		schema.NewField(1, "amount", schema.BigIntType()),
	}
	p := predicate.And(
		predicate.Equal("dt", "2026-08-01"),
		predicate.Not(predicate.LessOrEqual("amount", 100)))
	b, err := predicate.Bind(p, fields)
	if err != nil {
		panic(err)
	}
	fmt.Println(b)
	fmt.Println(b.Test([]any{"2026-08-01", int64(150)}))
	fmt.Println(b.Test([]any{"2026-08-01", nil}))
	// A file whose amounts lie in [10, 90] cannot match.
	fmt.Println(b.TestStats(3, []any{"2026-08-01", int64(10)}, []any{"2026-08-01", int64(90)}, nil))
	// Output:
	// dt = '2026-08-01' AND amount > 100
	// true
	// false
	// false
}

func ExampleParse() {
	fields := []schema.DataField{
		schema.NewField(0, "dt", schema.DateType()),
		schema.NewField(1, "price", schema.DecimalType(10, 2)),
		schema.NewField(2, "name", schema.StringType()),
	}
	p, err := predicate.Parse("dt >= DATE '2026-08-01' AND (price < 9.5 OR name LIKE 'promo%')")
	if err != nil {
		panic(err)
	}
	b, err := predicate.Bind(p, fields)
	if err != nil {
		panic(err)
	}
	fmt.Println(p)
	fmt.Println(b)
	_, err = predicate.Parse("price = NULL")
	fmt.Println(err)
	// Output:
	// dt >= DATE '2026-08-01' AND (price < 9.5 OR name STARTS WITH 'promo')
	// dt >= '2026-08-01' AND (price < 9.50 OR name STARTS WITH 'promo')
	// predicate: syntax error at offset 8: NULL is not a comparable value; use IS NULL or IS NOT NULL
}

func ExampleBound_Filter() {
	fields := []schema.DataField{schema.NewField(0, "amount", schema.BigIntType())}
	sc, err := schema.ToArrowSchema(fields)
	if err != nil {
		panic(err)
	}
	bld := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer bld.Release()
	bld.Field(0).(*array.Int64Builder).AppendValues([]int64{50, 150, 0, 300}, []bool{true, true, false, true})
	rec := bld.NewRecordBatch()
	defer rec.Release()

	p, err := predicate.Parse("amount > 100")
	if err != nil {
		panic(err)
	}
	b, err := predicate.Bind(p, fields)
	if err != nil {
		panic(err)
	}
	out, err := b.Filter(rec, memory.DefaultAllocator)
	if err != nil {
		panic(err)
	}
	defer out.Release()
	fmt.Println(out.Column(0))
	// Output:
	// [150 300]
}
