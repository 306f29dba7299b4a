package predicate_test

import (
	"fmt"

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
