package main

import (
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/paimon-go/paimon-go/format/schema"
)

// eventsSchema is the table the ingester creates: an append-only table of
// sensor readings, partitioned by sensor.
func eventsSchema() (*schema.Schema, error) {
	return schema.NewSchemaBuilder().
		Column("id", schema.BigIntType().NotNull()).
		Column("sensor", schema.StringType().NotNull()).
		Column("reading", schema.DoubleType()).
		Column("event_time", schema.TimestampType(3)).
		PartitionKeys("sensor").
		Comment("sensor readings from examples/append_ingest").
		Build()
}

// generator stands in for the ingester's source: it makes rows with
// consecutive ids starting at the position the state recorded, and buffers
// them in an Arrow record builder until they are written.
type generator struct {
	b      *array.RecordBuilder
	nextID int64
	now    func() time.Time
	n      int // rows buffered
}

func newGenerator(sch *arrow.Schema, firstID int64, now func() time.Time) *generator {
	return &generator{b: array.NewRecordBuilder(memory.DefaultAllocator, sch), nextID: firstID, now: now}
}

// generate appends n rows. Values depend only on the id (and the clock for
// event_time), so a replay from a position yields the same rows.
func (g *generator) generate(n int) {
	ts, _ := arrow.TimestampFromTime(g.now(), arrow.Millisecond)
	for i := 0; i < n; i++ {
		id := g.nextID
		g.nextID++
		g.b.Field(0).(*array.Int64Builder).Append(id)
		g.b.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("sensor-%d", id%4))
		if id%10 == 9 {
			g.b.Field(2).(*array.Float64Builder).AppendNull() // a dropped reading
		} else {
			g.b.Field(2).(*array.Float64Builder).Append(20 + float64(id%50)/10)
		}
		g.b.Field(3).(*array.TimestampBuilder).Append(ts)
	}
	g.n += n
}

// buffered returns the number of rows not yet taken by batch.
func (g *generator) buffered() int { return g.n }

// batch returns the buffered rows as one record batch (nil when there are
// none); the caller releases it.
func (g *generator) batch() arrow.RecordBatch {
	if g.n == 0 {
		return nil
	}
	g.n = 0
	return g.b.NewRecordBatch()
}

func (g *generator) release() { g.b.Release() }
