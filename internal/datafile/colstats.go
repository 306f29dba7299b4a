package datafile

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
)

// Java Paimon 1.4.2 derives the value statistics of a data file in one of
// two ways (RollingFileWriter.createStatsProducer):
//
// Parquet: from the footer parquet-java 1.16 returns after closing the file
// (ParquetBulkWriter.writerMetadata → ParquetSimpleStatsExtractor). That
// footer holds the writer's own column chunk statistics, merged over the row
// groups by ParquetUtil.extractColumnStats, so min and max are plain
// (nothing dropped or truncated on the way; the 4 KiB limit and the NaN
// rules of parquet-java apply only to serialized footers) and row-group
// boundaries do not matter. Java looks the statistics up by column name, so
// nested columns (ARRAY, MAP, MULTISET, ROW, VARIANT) have none at all, not
// even a null count. ParquetSimpleStatsExtractor keeps min/max only for the
// types it converts (strings, BOOLEAN, DECIMAL, integers, DATE, TIME, FLOAT,
// DOUBLE, TIMESTAMP/LTZ up to precision 6), decoding strings into Java
// Strings on the way; the column's collector (statsmode.go convert) applies
// last.
//
// Avro: Java's AvroSimpleStatsExtractor reports nothing, so Paimon feeds
// every row to a SimpleStatsCollector instead, one SimpleColStatsCollector
// per column: none, counts, full or truncate(N) (strMinMax). It counts the
// nulls of every column, nested ones included, and keeps min/max of the
// values that are Comparable in Java (not byte[] nor nested values).
//
// ORC: what Java's OrcSimpleStatsExtractor derives from the ORC footer's
// column statistics, which format/orc's writer computes as Java's ORC
// writer does (orc.go).
//
// If every column's mode is none, Java disables statistics altogether; every
// way then gives "nothing known" for every column, as here.

// columnStats gathers the statistics of one column of one file.
type columnStats struct {
	typ     schema.DataType
	mode    statsMode
	footer  bool // Parquet: apply mode.convert to footer-like statistics
	counted bool // the column reports a null count
	nulls   int64
	mm      minMax // nil when min/max are not kept
}

func newColumnStats(format string, t schema.DataType, mode statsMode) *columnStats {
	c := &columnStats{typ: t, mode: mode, footer: format == FormatParquet}
	// ORC statistics come from the file's footer (orc.go), not the rows.
	if mode.kind == modeNone || format == FormatORC || c.footer && (t.IsNested() || t.Root == schema.Variant) {
		return c
	}
	c.counted = true
	switch {
	case mode.kind == modeCounts:
	case c.footer || mode.kind == modeFull:
		c.mm = newMinMax(t, 0)
	default:
		c.mm = newMinMax(t, mode.length)
	}
	return c
}

// add folds one chunk of the column in.
func (c *columnStats) add(arr arrow.Array) {
	if !c.counted {
		return
	}
	nulls := arr.NullN()
	c.nulls += int64(nulls)
	if c.mm != nil && nulls < arr.Len() {
		c.mm.add(arr)
	}
}

// result is the column's SimpleColStats.
func (c *columnStats) result() colStats {
	if !c.counted {
		return colStats{}
	}
	nulls := c.nulls
	out := colStats{nullCount: &nulls}
	if c.mm != nil {
		if lo, hi, ok := c.mm.bounds(); ok {
			out.min, out.max = paimonValue(c.typ, lo), paimonValue(c.typ, hi)
			if out.min == nil || out.max == nil {
				out.min, out.max = nil, nil
			}
		}
	}
	if !c.footer {
		return out
	}
	if s, ok := out.min.(string); ok {
		out.min = javaString(s)
	}
	if s, ok := out.max.(string); ok {
		out.max = javaString(s)
	}
	return c.mode.convert(out)
}

// paimonValue turns a raw min or max into the format/data value Java
// stores, or nil for types whose min/max Java does not keep.
func paimonValue(t schema.DataType, v any) any {
	switch t.Root {
	case schema.Boolean:
		return v.(bool)
	case schema.TinyInt:
		return int8(v.(int64))
	case schema.SmallInt:
		return int16(v.(int64))
	case schema.Int, schema.Date, schema.Time:
		return int32(v.(int64))
	case schema.BigInt:
		return v.(int64)
	case schema.Float:
		return v.(float32)
	case schema.Double:
		return v.(float64)
	case schema.Decimal:
		return data.Decimal{Unscaled: v.(decimal128.Num).BigInt(), Precision: t.Precision, Scale: t.Scale}
	case schema.Char, schema.VarChar:
		return v.(string)
	case schema.Timestamp, schema.TimestampLTZ:
		switch {
		case t.Precision <= 3:
			return data.Timestamp{Millis: v.(int64)}
		case t.Precision <= 6:
			return data.TimestampFromMicros(v.(int64))
		}
	}
	return nil
}

// fileStats gathers the statistics of every column of one file.
type fileStats struct {
	fields []schema.DataField
	cols   []*columnStats
}

func newFileStats(format string, fields []schema.DataField, modes []statsMode) *fileStats {
	s := &fileStats{fields: fields, cols: make([]*columnStats, len(fields))}
	for i, f := range fields {
		s.cols[i] = newColumnStats(format, f.Type, modes[i])
	}
	return s
}

// add folds a batch in; its columns are the table's, in schema order.
func (s *fileStats) add(rec arrow.RecordBatch) {
	for i, c := range s.cols {
		c.add(rec.Column(i))
	}
}

// results returns every column's SimpleColStats.
func (s *fileStats) results() []colStats {
	stats := make([]colStats, len(s.cols))
	for i, c := range s.cols {
		stats[i] = c.result()
	}
	return stats
}

// valueStats returns _VALUE_STATS and _VALUE_STATS_COLS of the file.
func (s *fileStats) valueStats(dense bool) (manifest.SimpleStats, []string, error) {
	return toBinary(s.fields, s.results(), dense)
}
