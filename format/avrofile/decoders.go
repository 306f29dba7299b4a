package avrofile

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/paimon-go/paimon-go/internal/avro"
)

// decoder reads one Avro value from the cursor and appends it to the Arrow
// builder it was compiled for (or, for skippers, just consumes it). The set
// of decoders mirrors Java's FieldReaderFactory readers, except that they
// write into columnar builders instead of building InternalRow objects.
type decoder interface {
	decode(c *avro.Cursor) error
}

// nullableDecoder reads the ["null", T] and [T, "null"] unions Paimon writes
// for nullable types (Java's NullableReader, which only knows the first
// order; we accept both).
type nullableDecoder struct {
	nullIdx int
	inner   decoder
	b       array.Builder
}

func (d *nullableDecoder) decode(c *avro.Cursor) error {
	i, err := c.Index(2)
	if err != nil {
		return err
	}
	if i == d.nullIdx {
		d.b.AppendNull()
		return nil
	}
	return d.inner.decode(c)
}

// nullFolder is implemented by the primitive decoders, which read the
// branch index of a ["null", T] union themselves: one dynamic call per
// value instead of two on the hot path.
type nullFolder interface {
	// withNull returns the decoder for a union whose null branch is i.
	withNull(i int) decoder
}

// nullBranch places a primitive decoder in a two-branch union: 0 outside
// one, else 1 + the index of the null branch.
type nullBranch int8

// appendNull appends NULL unless err is set, and returns err.
func appendNull(b array.Builder, err error) error {
	if err == nil {
		b.AppendNull()
	}
	return err
}

// unionDecoder reads any other union; nil branches are "null".
type unionDecoder struct {
	branches []decoder
	b        array.Builder
}

func (d *unionDecoder) decode(c *avro.Cursor) error {
	i, err := c.Index(len(d.branches))
	if err != nil {
		return err
	}
	if d.branches[i] == nil {
		d.b.AppendNull()
		return nil
	}
	return d.branches[i].decode(c)
}

// nullDecoder reads the Avro "null" type: nothing, appended as NULL.
type nullDecoder struct{ b array.Builder }

func (d nullDecoder) decode(*avro.Cursor) error {
	d.b.AppendNull()
	return nil
}

type boolDecoder struct {
	b    *array.BooleanBuilder
	null nullBranch
}

func (d boolDecoder) withNull(i int) decoder { d.null = nullBranch(i + 1); return d }

func (d boolDecoder) decode(c *avro.Cursor) error {
	if null, err := isNull(c, d.null); null || err != nil {
		return appendNull(d.b, err)
	}
	v, err := c.Boolean()
	if err != nil {
		return err
	}
	d.b.Append(v)
	return nil
}

// int8Decoder and int16Decoder read TINYINT and SMALLINT, which Paimon
// stores as Avro int (Java TinyIntReader/SmallIntReader cast silently; like
// format/parquet we report a value out of range as corruption instead).
type int8Decoder struct {
	b    *array.Int8Builder
	null nullBranch
}

func (d int8Decoder) withNull(i int) decoder { d.null = nullBranch(i + 1); return d }

func (d int8Decoder) decode(c *avro.Cursor) error {
	if null, err := isNull(c, d.null); null || err != nil {
		return appendNull(d.b, err)
	}
	v, err := c.Int()
	if err != nil {
		return err
	}
	if v < math.MinInt8 || v > math.MaxInt8 {
		return fmt.Errorf("value %d out of range for TINYINT", v)
	}
	d.b.Append(int8(v))
	return nil
}

type int16Decoder struct {
	b    *array.Int16Builder
	null nullBranch
}

func (d int16Decoder) withNull(i int) decoder { d.null = nullBranch(i + 1); return d }

func (d int16Decoder) decode(c *avro.Cursor) error {
	if null, err := isNull(c, d.null); null || err != nil {
		return appendNull(d.b, err)
	}
	v, err := c.Int()
	if err != nil {
		return err
	}
	if v < math.MinInt16 || v > math.MaxInt16 {
		return fmt.Errorf("value %d out of range for SMALLINT", v)
	}
	d.b.Append(int16(v))
	return nil
}

type int32Decoder struct {
	b    *array.Int32Builder
	null nullBranch
}

func (d int32Decoder) withNull(i int) decoder { d.null = nullBranch(i + 1); return d }

func (d int32Decoder) decode(c *avro.Cursor) error {
	if null, err := isNull(c, d.null); null || err != nil {
		return appendNull(d.b, err)
	}
	v, err := c.Int()
	if err != nil {
		return err
	}
	d.b.Append(v)
	return nil
}

type date32Decoder struct {
	b    *array.Date32Builder
	null nullBranch
}

func (d date32Decoder) withNull(i int) decoder { d.null = nullBranch(i + 1); return d }

func (d date32Decoder) decode(c *avro.Cursor) error {
	if null, err := isNull(c, d.null); null || err != nil {
		return appendNull(d.b, err)
	}
	v, err := c.Int()
	if err != nil {
		return err
	}
	d.b.Append(arrow.Date32(v))
	return nil
}

// time32Decoder reads TIME as milliseconds of the day: time-millis ints, or
// time-micros longs (div 1000, floored) from writers other than Java.
type time32Decoder struct {
	null   nullBranch
	b      *array.Time32Builder
	micros bool
}

func (d time32Decoder) withNull(i int) decoder { d.null = nullBranch(i + 1); return d }

func (d time32Decoder) decode(c *avro.Cursor) error {
	if null, err := isNull(c, d.null); null || err != nil {
		return appendNull(d.b, err)
	}
	if d.micros {
		v, err := c.Long()
		if err != nil {
			return err
		}
		ms := floorDiv(v, 1000)
		if ms < math.MinInt32 || ms > math.MaxInt32 {
			return fmt.Errorf("time-micros %d out of range", v)
		}
		d.b.Append(arrow.Time32(ms))
		return nil
	}
	v, err := c.Int()
	if err != nil {
		return err
	}
	d.b.Append(arrow.Time32(v))
	return nil
}

// int64Decoder reads BIGINT from an Avro long, or from an int (the Avro
// int-to-long promotion).
type int64Decoder struct {
	null    nullBranch
	b       *array.Int64Builder
	fromInt bool
}

func (d int64Decoder) withNull(i int) decoder { d.null = nullBranch(i + 1); return d }

func (d int64Decoder) decode(c *avro.Cursor) error {
	if null, err := isNull(c, d.null); null || err != nil {
		return appendNull(d.b, err)
	}
	v, err := c.Long()
	if err != nil {
		return err
	}
	if d.fromInt && (v < math.MinInt32 || v > math.MaxInt32) {
		return errIntRange
	}
	d.b.Append(v)
	return nil
}

// float32Decoder reads FLOAT from a float, or from an int or long (Avro
// promotions).
type float32Decoder struct {
	null nullBranch
	b    *array.Float32Builder
	from string
}

func (d float32Decoder) withNull(i int) decoder { d.null = nullBranch(i + 1); return d }

func (d float32Decoder) decode(c *avro.Cursor) error {
	if null, err := isNull(c, d.null); null || err != nil {
		return appendNull(d.b, err)
	}
	switch d.from {
	case "float":
		v, err := c.Float()
		if err != nil {
			return err
		}
		d.b.Append(v)
	case "int":
		v, err := c.Int()
		if err != nil {
			return err
		}
		d.b.Append(float32(v))
	default:
		v, err := c.Long()
		if err != nil {
			return err
		}
		d.b.Append(float32(v))
	}
	return nil
}

// float64Decoder reads DOUBLE from a double, or from a float, int or long
// (Avro promotions).
type float64Decoder struct {
	null nullBranch
	b    *array.Float64Builder
	from string
}

func (d float64Decoder) withNull(i int) decoder { d.null = nullBranch(i + 1); return d }

func (d float64Decoder) decode(c *avro.Cursor) error {
	if null, err := isNull(c, d.null); null || err != nil {
		return appendNull(d.b, err)
	}
	switch d.from {
	case "double":
		v, err := c.Double()
		if err != nil {
			return err
		}
		d.b.Append(v)
	case "float":
		v, err := c.Float()
		if err != nil {
			return err
		}
		d.b.Append(float64(v))
	case "int":
		v, err := c.Int()
		if err != nil {
			return err
		}
		d.b.Append(float64(v))
	default:
		v, err := c.Long()
		if err != nil {
			return err
		}
		d.b.Append(float64(v))
	}
	return nil
}

// bytesDecoder reads Avro string, bytes or fixed (size >= 0) into a utf8,
// binary or large_binary builder. Strings are not validated as UTF-8, as
// Java's StringReader does not validate them either.
type bytesDecoder struct {
	null nullBranch
	b    *array.BinaryBuilder
	size int // -1 for length-prefixed
}

func (d bytesDecoder) withNull(i int) decoder { d.null = nullBranch(i + 1); return d }

func (d bytesDecoder) decode(c *avro.Cursor) error {
	if null, err := isNull(c, d.null); null || err != nil {
		return appendNull(d.b, err)
	}
	var v []byte
	var err error
	if d.size < 0 {
		v, err = c.Bytes()
	} else {
		v, err = c.Fixed(d.size)
	}
	if err != nil {
		return err
	}
	d.b.Append(v)
	return nil
}

// decimalDecoder reads the decimal logical type (a big-endian two's
// complement unscaled value in bytes or fixed) into decimal128, like Java's
// DecimalReader. The scales of file and column must agree (checked when
// compiling).
type decimalDecoder struct {
	null nullBranch
	b    *array.Decimal128Builder
	size int // -1 for bytes
}

func (d decimalDecoder) withNull(i int) decoder { d.null = nullBranch(i + 1); return d }

func (d decimalDecoder) decode(c *avro.Cursor) error {
	if null, err := isNull(c, d.null); null || err != nil {
		return appendNull(d.b, err)
	}
	var v []byte
	var err error
	if d.size < 0 {
		v, err = c.Bytes()
	} else {
		v, err = c.Fixed(d.size)
	}
	if err != nil {
		return err
	}
	n, err := unscaled(v)
	if err != nil {
		return err
	}
	d.b.Append(n)
	return nil
}

// unscaled converts a big-endian two's complement integer to decimal128.
// Longer encodings are accepted when the extra leading bytes only extend
// the sign.
func unscaled(v []byte) (decimal128.Num, error) {
	if len(v) == 0 {
		// Java's new BigInteger(byte[0]) fails too.
		return decimal128.Num{}, fmt.Errorf("empty decimal")
	}
	var ext byte
	if v[0]&0x80 != 0 {
		ext = 0xff
	}
	if len(v) > 16 {
		for _, b := range v[:len(v)-16] {
			if b != ext {
				return decimal128.Num{}, fmt.Errorf("decimal of %d bytes overflows 128 bits", len(v))
			}
		}
		v = v[len(v)-16:]
		if (v[0]&0x80 != 0) != (ext == 0xff) {
			return decimal128.Num{}, fmt.Errorf("decimal overflows 128 bits")
		}
	}
	var buf [16]byte
	for i := range 16 - len(v) {
		buf[i] = ext
	}
	copy(buf[16-len(v):], v)
	hi := uint64(buf[0])<<56 | uint64(buf[1])<<48 | uint64(buf[2])<<40 | uint64(buf[3])<<32 |
		uint64(buf[4])<<24 | uint64(buf[5])<<16 | uint64(buf[6])<<8 | uint64(buf[7])
	lo := uint64(buf[8])<<56 | uint64(buf[9])<<48 | uint64(buf[10])<<40 | uint64(buf[11])<<32 |
		uint64(buf[12])<<24 | uint64(buf[13])<<16 | uint64(buf[14])<<8 | uint64(buf[15])
	return decimal128.New(int64(hi), lo), nil
}

// timestampDecoder reads TIMESTAMP and TIMESTAMP_LTZ from a long counting
// the unit of the writer's logical type, rescaled to the column's unit:
// exactly when refining (overflow is an error), floored when coarsening,
// like format/parquet.
type timestampDecoder struct {
	null     nullBranch
	b        *array.TimestampBuilder
	mul, div int64 // one of them is 1
}

func (d timestampDecoder) withNull(i int) decoder { d.null = nullBranch(i + 1); return d }

func (d timestampDecoder) decode(c *avro.Cursor) error {
	if null, err := isNull(c, d.null); null || err != nil {
		return appendNull(d.b, err)
	}
	v, err := c.Long()
	if err != nil {
		return err
	}
	switch {
	case d.mul > 1:
		if v > math.MaxInt64/d.mul || v < math.MinInt64/d.mul {
			return &schemaError{fmt.Sprintf("timestamp %d overflows %s", v, d.b.Type())}
		}
		v *= d.mul
	case d.div > 1:
		v = floorDiv(v, d.div)
	}
	d.b.Append(arrow.Timestamp(v))
	return nil
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}
