package datafile

import (
	"fmt"
	"io"
	"math"
	"math/big"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/orc"
	"github.com/paimon-go/paimon-go/format/schema"
)

// orcWriter writes an ORC data file through format/orc, configured as
// Java's OrcFileFormat configures the ORC writer from the table options.
type orcWriter struct {
	w      *orc.Writer
	fields []schema.DataField
	// share, when set, is the writer's share of a Budget: the stripe is
	// written once the file holds three quarters of it (never below
	// minStripeMemory), as Java's ORC MemoryManager scales the stripe
	// size of writers open together.
	share func() int64
}

// minStripeMemory is the smallest stripe a Budget's share cuts.
const minStripeMemory = 4 << 20

// orcFileCost is what an open ORC file holds besides its stripe: the
// column writers' state and one compression chunk per stream.
const orcFileCost = 64 << 10

func newORCWriter(w io.Writer, fields []schema.DataField, cfg *config) (*orcWriter, error) {
	ow, err := orc.NewWriter(w, fields, &cfg.orc)
	if err != nil {
		return nil, err
	}
	return &orcWriter{w: ow, fields: fields}, nil
}

func (o *orcWriter) write(rec arrow.RecordBatch) error {
	if err := o.w.Write(rec); err != nil {
		return err
	}
	if o.share != nil && o.w.Buffered() >= max(o.share()/4*3, minStripeMemory) {
		return o.w.FlushStripe()
	}
	return nil
}

// memory is the stripe being built and the file's fixed cost.
func (o *orcWriter) memory() int64 { return orcFileCost + o.w.Buffered() }

// buffered is the stripe being built. Java's OrcBulkWriter counts a fifth
// of the ORC writer's memory estimate (buffer capacities, far above the
// encoded size); this writer's estimate is the encoded size itself.
func (o *orcWriter) buffered() int64 { return o.w.Buffered() }

func (o *orcWriter) close() error { return o.w.Close() }

func (o *orcWriter) discard() {}

// valueStats derives the file's statistics from the ORC footer the writer
// produced, as Java does for ORC (OrcSimpleStatsExtractor reads them back
// from the file after closing it).
func (o *orcWriter) valueStats(modes []statsMode) []colStats {
	out := make([]colStats, len(o.fields))
	rows := o.w.NumRows()
	for i, f := range o.fields {
		cs := o.w.FileStatistics(i)
		out[i] = modes[i].convert(orcColStats(f.Type, &cs, rows))
	}
	return out
}

// orcColStats mirrors OrcSimpleStatsExtractor.toFieldStats for one
// top-level column: the null count is the file's rows minus the column's
// values; min and max come from the typed statistics for the types Java
// converts, and are dropped when they cannot be (Java logs and keeps the
// null count).
func orcColStats(t schema.DataType, cs *orc.ColumnStatistics, rows int64) colStats {
	nulls := rows - int64(cs.NumberOfValues)
	out := colStats{nullCount: &nulls}
	if nulls == rows {
		return out
	}
	lo, hi, ok := orcStatValues(t, cs)
	if ok {
		out.min, out.max = lo, hi
	}
	return out
}

// orcKeepNaNBounds records NaN bounds as Java does; the tests that compare
// with Java's manifests set it.
var orcKeepNaNBounds = false

func orcStatValues(t schema.DataType, cs *orc.ColumnStatistics) (lo, hi any, ok bool) {
	switch t.Root {
	case schema.Char, schema.VarChar:
		s := cs.String
		if s == nil {
			return nil, nil, false
		}
		// getMinimum/getMaximum are null when only a bound was kept.
		if s.HasMinimum && !s.HasLowerBound {
			lo = s.Minimum
		}
		if s.HasMaximum && !s.HasUpperBound {
			hi = s.Maximum
		}
		return lo, hi, true
	case schema.Boolean:
		b := cs.Bucket
		if b == nil || len(b.Count) == 0 {
			return nil, nil, false
		}
		return cs.NumberOfValues-b.Count[0] == 0, b.Count[0] != 0, true
	case schema.Decimal:
		d := cs.Decimal
		if d == nil || !d.HasMinimum || !d.HasMaximum {
			return nil, nil, false
		}
		mn, ok1 := decimalStat(d.Minimum, t)
		mx, ok2 := decimalStat(d.Maximum, t)
		if !ok1 || !ok2 {
			return nil, nil, false
		}
		return mn, mx, true
	case schema.TinyInt, schema.SmallInt, schema.Int, schema.Time, schema.BigInt:
		s := cs.Int
		if s == nil {
			return nil, nil, false
		}
		// Java reads the fields whether set or not (Long.MAX_VALUE and
		// MIN_VALUE when absent) and casts.
		mn, mx := int64(math.MaxInt64), int64(math.MinInt64)
		if s.HasMinimum {
			mn = s.Minimum
		}
		if s.HasMaximum {
			mx = s.Maximum
		}
		switch t.Root {
		case schema.TinyInt:
			return int8(mn), int8(mx), true
		case schema.SmallInt:
			return int16(mn), int16(mx), true
		case schema.Int, schema.Time:
			return int32(mn), int32(mx), true
		}
		return mn, mx, true
	case schema.Float, schema.Double:
		s := cs.Double
		if s == nil {
			return nil, nil, false
		}
		mn, mx := math.MaxFloat64, math.SmallestNonzeroFloat64
		if s.HasMinimum {
			mn = s.Minimum
		}
		if s.HasMaximum {
			mx = s.Maximum
		}
		// Java's ORC writer (DoubleStatisticsImpl.updateDouble) keeps NaN
		// as both bounds when a NaN comes first, and Paimon's predicates
		// then prune files that hold matching rows (Java loses them on its
		// own files). When a NaN comes later it is left out of both bounds
		// (only the sum shows it), so a filter "> +Inf", which NaN matches
		// in Java's order (Float.compare), would prune the file too. Bounds
		// of a column that holds a NaN anywhere are not recorded: such a
		// file is never pruned by this column. (Java's ORC reader makes the
		// same call for its row groups: RecordReaderImpl skips predicate
		// pushdown when the sum is NaN.)
		anyNaN := math.IsNaN(mn) || math.IsNaN(mx) || (s.HasSum && math.IsNaN(s.Sum))
		if anyNaN && !orcKeepNaNBounds {
			return nil, nil, false
		}
		if t.Root == schema.Float {
			return float32(mn), float32(mx), true
		}
		return mn, mx, true
	case schema.Date:
		s := cs.Date
		if s == nil || !s.HasMinimum || !s.HasMaximum {
			return nil, nil, false
		}
		return s.Minimum, s.Maximum, true
	case schema.Timestamp, schema.TimestampLTZ:
		s := cs.Timestamp
		if s == nil {
			return nil, nil, false
		}
		mn, mx, ok := orcTimestampBounds(s)
		return mn, mx, ok
	}
	return nil, nil, false
}

// orcTimestampBounds is TimestampStatisticsImpl.getMinimum/getMaximum as
// Paimon reads them (Timestamp.fromSQLTimestamp, in a UTC JVM): the UTC
// milliseconds plus the sub-millisecond nanos (0 and 999,999 when the file
// does not record them).
func orcTimestampBounds(s *orc.TimestampStatistics) (data.Timestamp, data.Timestamp, bool) {
	var mn, mx int64
	switch {
	case s.HasMinimumUTC:
		mn = s.MinimumUTC
	case s.HasMinimum:
		mn = s.Minimum
	default:
		return data.Timestamp{}, data.Timestamp{}, false
	}
	switch {
	case s.HasMaximumUTC:
		mx = s.MaximumUTC
	case s.HasMaximum:
		mx = s.Maximum
	default:
		return data.Timestamp{}, data.Timestamp{}, false
	}
	minNanos, maxNanos := int32(0), int32(999_999)
	if s.HasMinimumNanos {
		minNanos = s.MinimumNanos - 1
	}
	if s.HasMaximumNanos {
		maxNanos = s.MaximumNanos - 1
	}
	if minNanos < 0 || minNanos > 999_999 || maxNanos < 0 || maxNanos > 999_999 {
		return data.Timestamp{}, data.Timestamp{}, false
	}
	return data.Timestamp{Millis: mn, NanoOfMilli: minNanos}, data.Timestamp{Millis: mx, NanoOfMilli: maxNanos}, true
}

// decimalStat parses a decimal statistic and rescales it to the column's
// scale as Decimal.fromBigDecimal does (HALF_UP, nothing when it overflows
// the precision).
func decimalStat(s string, t schema.DataType) (data.Decimal, bool) {
	r, ok := new(big.Rat).SetString(strings.TrimSpace(s))
	if !ok {
		return data.Decimal{}, false
	}
	r.Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(t.Scale)), nil)))
	num, den := r.Num(), r.Denom()
	q, m := new(big.Int).QuoRem(num, den, new(big.Int))
	// HALF_UP: away from zero when the remainder is at least half.
	if m.Sign() != 0 {
		twice := new(big.Int).Mul(new(big.Int).Abs(m), big.NewInt(2))
		if twice.Cmp(den) >= 0 {
			if num.Sign() < 0 {
				q.Sub(q, big.NewInt(1))
			} else {
				q.Add(q, big.NewInt(1))
			}
		}
	}
	limit := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(t.Precision)), nil)
	if new(big.Int).Abs(q).Cmp(limit) >= 0 {
		return data.Decimal{}, false
	}
	return data.Decimal{Unscaled: q, Precision: t.Precision, Scale: t.Scale}, true
}

// orcOptions mirrors OrcFileFormat.getOrcProperties and OrcWriterFactory:
// every orc.* option goes to the ORC writer; orc.compress, when set, wins
// over file.compression (CompressionKind.valueOf of its upper case);
// orc.compression.zstd.level defaults to file.compression.zstd-level;
// file.block-size, when set, is the stripe size.
func (c *config) orcOptions(opts map[string]string, compression string, zstdLevel int) error {
	name := compression
	if v, ok := opts["orc.compress"]; ok {
		name = v
	}
	switch strings.ToUpper(strings.TrimSpace(name)) {
	case "NONE":
		c.orc.Compression = orc.CompressionNone
	case "ZLIB":
		c.orc.Compression = orc.CompressionZlib
	case "SNAPPY":
		c.orc.Compression = orc.CompressionSnappy
	case "LZ4":
		c.orc.Compression = orc.CompressionLZ4
	case "ZSTD":
		c.orc.Compression = orc.CompressionZstd
	case "LZO":
		return fmt.Errorf("%w: ORC compression %q (read, not written)", ErrUnsupported, name)
	default:
		return fmt.Errorf("%w: ORC compression %q", ErrInvalid, name)
	}
	level, err := intOption(opts, "orc.compression.zstd.level", zstdLevel)
	if err != nil {
		return err
	}
	c.orc.ZstdLevel = level
	if v, ok := opts["orc.stripe.size"]; ok {
		n, err := ParseMemorySize(v)
		if err != nil || n <= 0 {
			return fmt.Errorf("%w: option orc.stripe.size=%q", ErrInvalid, v)
		}
		c.orc.StripeSize = n
	}
	if v, ok := opts[optFileBlockSize]; ok {
		n, err := ParseMemorySize(v)
		if err != nil || n <= 0 {
			return fmt.Errorf("%w: option %s=%q", ErrInvalid, optFileBlockSize, v)
		}
		c.orc.StripeSize = n
	}
	if v, ok := opts["orc.compress.size"]; ok {
		n, err := ParseMemorySize(v)
		if err != nil || n <= 0 || n >= 1<<23 {
			return fmt.Errorf("%w: option orc.compress.size=%q", ErrInvalid, v)
		}
		c.orc.BlockSize = int(n)
	}
	// 0 asks Java for no row index; an index does no harm, so the default
	// stride is used then. Java refuses strides below 1000.
	if c.orc.RowIndexStride, err = intOption(opts, "orc.row.index.stride", 0); err != nil {
		return err
	}
	if c.orc.RowIndexStride < 0 || c.orc.RowIndexStride > 0 && c.orc.RowIndexStride < 1000 {
		return fmt.Errorf("%w: option orc.row.index.stride=%d (at least 1000)", ErrInvalid, c.orc.RowIndexStride)
	}
	if v, ok := opts["orc.dictionary.key.threshold"]; ok {
		var f float64
		if _, err := fmt.Sscan(strings.TrimSpace(v), &f); err != nil || f < 0 || f > 1 {
			return fmt.Errorf("%w: option orc.dictionary.key.threshold=%q", ErrInvalid, v)
		}
		c.orc.DictionaryKeyThreshold = &f
	}
	if v, ok := opts["orc.column.encoding.direct"]; ok {
		for _, n := range strings.Split(v, ",") {
			if n = strings.TrimSpace(n); n != "" {
				c.orc.DirectColumns = append(c.orc.DirectColumns, n)
			}
		}
	}
	if v, ok := opts["orc.write.format"]; ok && strings.TrimSpace(v) != "0.12" {
		return fmt.Errorf("%w: option orc.write.format=%q (0.12 is written)", ErrUnsupported, v)
	}
	return nil
}
