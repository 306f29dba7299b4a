package parquet

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pq "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	pqschema "github.com/apache/arrow-go/v18/parquet/schema"
)

// INT96 timestamps need their own decoding. Java Paimon (ParquetRowDataWriter)
// splits epoch millis into a Julian day and nanos of the day with truncating
// division, so instants just before 1970 are written with the epoch's Julian
// day and a NEGATIVE nanos-of-day. pqarrow rejects such values as invalid
// (parquet.Int96.ToTimestamp), although Java reads them back by plain
// arithmetic. We therefore make pqarrow hand us the raw 12-byte values: an
// INT96 leaf is relabelled in the schema manifest with int96RawType, a
// timestamp type pqarrow transfers zero-copy, so the array's value buffer is
// the record reader's buffer of packed 12-byte INT96 values. conform decodes
// it (decodeInt96) before anyone sees the array.

// int96Marker is the time zone of int96RawType; no real zone has this name.
const int96Marker = "paimon-go:raw-int96"

var int96RawType = &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: int96Marker}

func isInt96Raw(t arrow.DataType) bool {
	ts, ok := t.(*arrow.TimestampType)
	return ok && ts.TimeZone == int96Marker
}

// patchInt96 relabels the INT96 leaves below f and rebuilds the types of
// their ancestors; it reports whether anything changed.
func patchInt96(f *pqarrow.SchemaField, descr *pqschema.Schema) bool {
	if f.IsLeaf() {
		if f.ColIndex >= descr.NumColumns() || descr.Column(f.ColIndex).PhysicalType() != pq.Types.Int96 {
			return false
		}
		nf := *f.Field
		nf.Type = int96RawType
		f.Field = &nf
		return true
	}
	changed := false
	for i := range f.Children {
		if patchInt96(&f.Children[i], descr) {
			changed = true
		}
	}
	if !changed {
		return false
	}
	nf := *f.Field
	switch t := f.Field.Type.(type) {
	case *arrow.StructType:
		fields := make([]arrow.Field, len(f.Children))
		for i := range f.Children {
			fields[i] = *f.Children[i].Field
		}
		nf.Type = arrow.StructOf(fields...)
	case *arrow.MapType:
		kv := f.Children[0]
		if len(kv.Children) != 2 {
			return false
		}
		nf.Type = arrow.MapOfFields(*kv.Children[0].Field, *kv.Children[1].Field)
	case *arrow.ListType:
		nf.Type = arrow.ListOfField(*f.Children[0].Field)
	case *arrow.LargeListType:
		nf.Type = arrow.LargeListOfField(*f.Children[0].Field)
	case *arrow.FixedSizeListType:
		nf.Type = arrow.FixedSizeListOfField(t.Len(), *f.Children[0].Field)
	default:
		return false
	}
	f.Field = &nf
	return true
}

const (
	julianEpochDay = 2440588 // Julian day of 1970-01-01
	nanosPerDay    = 86_400_000_000_000
)

// int96Nanos decodes one INT96 value (int64 nanos of day, then uint32 Julian
// day, little endian) as epoch nanoseconds, accepting nanos-of-day outside
// [0, 1 day) as Java does.
func int96Nanos(b []byte) (int64, bool) {
	nanos := int64(binary.LittleEndian.Uint64(b[:8]))
	days := int64(binary.LittleEndian.Uint32(b[8:12])) - julianEpochDay
	hi, lo := bits.Mul64(uint64(absInt(days)), nanosPerDay)
	if hi != 0 || lo > math.MaxInt64 {
		return 0, false
	}
	dn := int64(lo)
	if days < 0 {
		dn = -dn
	}
	sum := dn + nanos
	if (nanos > 0 && sum < dn) || (nanos < 0 && sum > dn) {
		return 0, false
	}
	return sum, true
}

func absInt(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// decodeInt96 turns a raw INT96 array (see int96RawType) into timestamps of
// the target unit.
func decodeInt96(src arrow.ArrayData, tt *arrow.TimestampType, mem memory.Allocator) (arrow.ArrayData, error) {
	n, off := src.Len(), src.Offset()
	bufs := src.Buffers()
	var raw []byte
	if len(bufs) > 1 && bufs[1] != nil {
		raw = bufs[1].Bytes()
	}
	var validity []byte
	if len(bufs) > 0 && bufs[0] != nil {
		validity = bufs[0].Bytes()
	}
	div := int64(1_000_000_000 / unitFactor(tt.Unit))
	b := array.NewTimestampBuilder(mem, tt)
	defer b.Release()
	b.Reserve(n)
	for i := 0; i < n; i++ {
		k := off + i
		if src.NullN() > 0 && validity != nil && validity[k/8]&(1<<(k%8)) == 0 {
			b.AppendNull()
			continue
		}
		if (k+1)*12 > len(raw) {
			return nil, fmt.Errorf("%w: INT96 buffer too short", ErrCorrupt)
		}
		ns, ok := int96Nanos(raw[k*12 : k*12+12])
		if !ok {
			return nil, fmt.Errorf("%w: INT96 timestamp outside the int64 nanosecond range", ErrCorrupt)
		}
		b.Append(arrow.Timestamp(floorDiv(ns, div)))
	}
	arr := b.NewArray()
	defer arr.Release()
	d := arr.Data()
	d.Retain()
	return d, nil
}
