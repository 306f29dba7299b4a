package evolution_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/evolution"
)

func benchApply(b *testing.B, from, to schema.DataType, fill func(array.Builder, int)) {
	mem := memory.NewGoAllocator()
	file := []schema.DataField{schema.NewField(1, "v", from)}
	m, err := evolution.New([]schema.DataField{schema.NewField(1, "v", to)}, file)
	if err != nil {
		b.Fatal(err)
	}
	sc, err := schema.ToArrowSchema(m.FileFields())
	if err != nil {
		b.Fatal(err)
	}
	const n = 4096
	bld := array.NewBuilder(mem, sc.Field(0).Type)
	for i := 0; i < n; i++ {
		fill(bld, i)
	}
	col := bld.NewArray()
	bld.Release()
	rec := array.NewRecordBatch(sc, []arrow.Array{col}, n)
	col.Release()
	defer rec.Release()
	b.ReportAllocs()
	b.SetBytes(n)
	b.ResetTimer()
	for range b.N {
		out, err := m.Apply(rec, mem)
		if err != nil {
			b.Fatal(err)
		}
		out.Release()
	}
}

// BenchmarkApplyIntToBigint measures the common widening (fast path).
func BenchmarkApplyIntToBigint(b *testing.B) {
	benchApply(b, schema.IntType(), schema.BigIntType(), func(bb array.Builder, i int) {
		bb.(*array.Int32Builder).Append(int32(i))
	})
}

// BenchmarkApplyDecimalWiden measures a per-value rule (DECIMAL(10,2) to
// DECIMAL(20,2)).
func BenchmarkApplyDecimalWiden(b *testing.B) {
	benchApply(b, schema.DecimalType(10, 2), schema.DecimalType(20, 2), func(bb array.Builder, i int) {
		bb.(*array.Decimal128Builder).Append(decimal128FromInt(int64(i)))
	})
}

// BenchmarkApplyDoubleToString measures Java's Double.toString rendering.
func BenchmarkApplyDoubleToString(b *testing.B) {
	benchApply(b, schema.DoubleType(), schema.StringType(), func(bb array.Builder, i int) {
		bb.(*array.Float64Builder).Append(float64(i) / 7)
	})
}

func decimal128FromInt(v int64) decimal128.Num { return decimal128.FromI64(v) }
