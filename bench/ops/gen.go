package ops

import (
	"fmt"
	"math/rand/v2"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// The shape of the append rows every implementation writes: the columns
// (id, qty, price, name, amount, ts, day) of bench.scan, with the value
// distributions of PaimonBench.AppendRows (not the same random stream).
const (
	firstDay     = 19_901                // 2024-06-27, the first day partition
	tsBase       = 1_735_689_600_000_000 // 2025-01-01T00:00:00 in microseconds
	days         = 5                     // day partitions
	genBatchRows = 65_536                // rows per generated batch
	dayColumn    = 6                     // index of the day column
	genSeed      = uint64(20_250_101)    // seed of every generated batch
	namePrefix   = "user-"               // names are the prefix and 11 letters
	nameLen      = 16                    // bytes of a name
	maxAmount    = int64(100_000_000)    // unscaled DECIMAL(18,2) bound
	nullQtyOneIn = 20                    // one qty in 20 is null
	appendCols   = 7                     // columns of an append row
)

// AppendBatch builds rows [from, from+n) of a table of totalRows rows with
// the append schema sc (the arrow schema of bench.scan, bench.write and
// bench.commit). Row i falls in day partition i / (totalRows/5) (the last
// day takes the remainder).
func AppendBatch(sc *arrow.Schema, from, n, totalRows int64) (arrow.RecordBatch, error) {
	if sc.NumFields() != appendCols {
		return nil, fmt.Errorf("%w: append schema has %d columns, want %d", ErrBadOptions, sc.NumFields(), appendCols)
	}
	r := rand.New(rand.NewPCG(genSeed, uint64(from)))
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	ids, ok0 := b.Field(0).(*array.Int64Builder)
	qty, ok1 := b.Field(1).(*array.Int32Builder)
	price, ok2 := b.Field(2).(*array.Float64Builder)
	names, ok3 := b.Field(3).(*array.StringBuilder)
	amount, ok4 := b.Field(4).(*array.Decimal128Builder)
	tss, ok5 := b.Field(5).(*array.TimestampBuilder)
	dayB, ok6 := b.Field(6).(*array.Date32Builder)
	if !(ok0 && ok1 && ok2 && ok3 && ok4 && ok5 && ok6) {
		return nil, fmt.Errorf("%w: unexpected append schema %s", ErrBadOptions, sc)
	}
	perDay := max(1, totalRows/days)
	var name [nameLen]byte
	copy(name[:], namePrefix)
	for i := from; i < from+n; i++ {
		ids.Append(i)
		if r.IntN(nullQtyOneIn) == 0 {
			qty.AppendNull()
		} else {
			qty.Append(int32(r.IntN(1000)))
		}
		price.Append(r.Float64() * 1000)
		for j := len(namePrefix); j < nameLen; j++ {
			name[j] = byte('a' + r.IntN(26))
		}
		names.Append(string(name[:]))
		amount.Append(decimal128.FromI64(r.Int64N(maxAmount)))
		tss.Append(arrow.Timestamp(tsBase + i*1_000 + r.Int64N(1_000)))
		dayB.Append(arrow.Date32(firstDay + min(days-1, i/perDay)))
	}
	return b.NewRecordBatch(), nil
}

// dayEnd is the first row after the day partition of row `from` in a table
// of totalRows rows (totalRows for the last day).
func dayEnd(from, totalRows int64) int64 {
	perDay := max(1, totalRows/days)
	if d := from / perDay; d < days-1 {
		return (d + 1) * perDay
	}
	return totalRows
}

// GenerateAppend builds totalRows append rows as batches of at most
// genBatchRows rows that never straddle a day partition.
func GenerateAppend(sc *arrow.Schema, totalRows int64) ([]arrow.RecordBatch, error) {
	var recs []arrow.RecordBatch
	for from := int64(0); from < totalRows; {
		end := min(totalRows, from+genBatchRows, dayEnd(from, totalRows))
		rec, err := AppendBatch(sc, from, end-from, totalRows)
		if err != nil {
			for _, r := range recs {
				r.Release()
			}
			return nil, err
		}
		recs = append(recs, rec)
		from = end
	}
	return recs, nil
}
