package orc

import (
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// fixedData builds the ArrayData of a fixed-width column from its value
// buffer, releasing the local references.
func fixedData(dt arrow.DataType, mem memory.Allocator, valid []byte, n int, values *memory.Buffer) arrow.ArrayData {
	vb, nulls := validityBuffer(mem, valid, n)
	d := array.NewData(dt, n, []*memory.Buffer{vb, values}, nil, nulls, 0)
	releaseAll(vb, values)
	return d
}

// intColumn reads tinyint, smallint, int, bigint, date and (Paimon) TIME
// columns: byte RLE for tinyint, signed integer RLE otherwise.
type intColumn struct {
	presence
	kind  typeKind
	dt    arrow.DataType
	width int // bytes per output value
	mem   memory.Allocator
	bytes *byteRLE
	ints  intDecoder
	vals  []int64
	raw   []byte
}

func (c *intColumn) startStripe(s *stripeState) error {
	c.presence.startStripe(s)
	c.mem = s.mem
	data, err := s.required(c.col, streamData)
	if err != nil {
		return err
	}
	if c.kind == kindByte {
		c.bytes = &byteRLE{in: data}
		return nil
	}
	enc, err := s.encoding(c.col)
	if err != nil {
		return err
	}
	c.ints = newIntDecoder(data, true, enc.kind.v2())
	return nil
}

func (c *intColumn) seek(pos [][]uint64) error {
	p, err := c.presence.seek(pos[c.col])
	if err != nil {
		return err
	}
	if c.kind == kindByte {
		_, err = c.bytes.seek(p)
	} else {
		_, err = c.ints.seek(p)
	}
	return err
}

func (c *intColumn) read(n int, parent []byte) (arrow.ArrayData, error) {
	valid, k, err := c.presence.read(n, parent)
	if err != nil {
		return nil, err
	}
	buf := newBuffer(c.mem, n*c.width)
	out := buf.Bytes()
	if c.kind == kindByte {
		if valid == nil {
			err = c.bytes.next(out)
		} else {
			if cap(c.raw) < k {
				c.raw = make([]byte, k)
			}
			raw := c.raw[:k]
			err = c.bytes.next(raw)
			j := 0
			for i := range out {
				if valid[i] != 0 {
					out[i] = raw[j]
					j++
				} else {
					out[i] = 0
				}
			}
		}
		if err != nil {
			buf.Release()
			return nil, err
		}
		return fixedData(c.dt, c.mem, valid, n, buf), nil
	}
	if cap(c.vals) < k {
		c.vals = make([]int64, k)
	}
	vals := c.vals[:k]
	if err := c.ints.next(vals); err != nil {
		buf.Release()
		return nil, err
	}
	switch c.width {
	case 2:
		scatter(arrow.Int16Traits.CastFromBytes(out), vals, valid, func(v int64) int16 { return int16(v) })
	case 4:
		scatter(arrow.Int32Traits.CastFromBytes(out), vals, valid, func(v int64) int32 { return int32(v) })
	default:
		dst := arrow.Int64Traits.CastFromBytes(out)
		if valid == nil {
			copy(dst, vals)
		} else {
			scatter(dst, vals, valid, func(v int64) int64 { return v })
		}
	}
	return fixedData(c.dt, c.mem, valid, n, buf), nil
}

// scatter writes the decoded values of the valid slots into dst (zero in
// the others).
func scatter[T any](dst []T, vals []int64, valid []byte, conv func(int64) T) {
	if valid == nil {
		for i, v := range vals {
			dst[i] = conv(v)
		}
		return
	}
	var zero T
	j := 0
	for i := range dst {
		if valid[i] != 0 {
			dst[i] = conv(vals[j])
			j++
		} else {
			dst[i] = zero
		}
	}
}

// boolColumn reads boolean columns: a bit stream.
type boolColumn struct {
	presence
	mem  memory.Allocator
	data *boolRLE
	raw  []byte
}

func (c *boolColumn) startStripe(s *stripeState) error {
	c.presence.startStripe(s)
	c.mem = s.mem
	data, err := s.required(c.col, streamData)
	if err != nil {
		return err
	}
	c.data = newBoolRLE(data)
	return nil
}

func (c *boolColumn) seek(pos [][]uint64) error {
	p, err := c.presence.seek(pos[c.col])
	if err == nil {
		_, err = c.data.seek(p)
	}
	return err
}

func (c *boolColumn) read(n int, parent []byte) (arrow.ArrayData, error) {
	valid, k, err := c.presence.read(n, parent)
	if err != nil {
		return nil, err
	}
	if cap(c.raw) < k {
		c.raw = make([]byte, k)
	}
	raw := c.raw[:k]
	if err := c.data.next(raw); err != nil {
		return nil, err
	}
	buf := newBuffer(c.mem, int((n+7)/8))
	out := buf.Bytes()
	clear(out)
	j := 0
	for i := 0; i < n; i++ {
		if valid == nil || valid[i] != 0 {
			if raw[j] != 0 {
				out[i>>3] |= 1 << (i & 7)
			}
			j++
		}
	}
	return fixedData(arrow.FixedWidthTypes.Boolean, c.mem, valid, n, buf), nil
}

// floatColumn reads float and double columns: IEEE 754 little-endian.
type floatColumn struct {
	presence
	dt     arrow.DataType
	width  int
	mem    memory.Allocator
	data   *inStream
	packed []byte
}

func (c *floatColumn) startStripe(s *stripeState) error {
	c.presence.startStripe(s)
	c.mem = s.mem
	var err error
	c.data, err = s.required(c.col, streamData)
	return err
}

func (c *floatColumn) seek(pos [][]uint64) error {
	p, err := c.presence.seek(pos[c.col])
	if err == nil {
		_, err = c.data.seek(p)
	}
	return err
}

func (c *floatColumn) read(n int, parent []byte) (arrow.ArrayData, error) {
	valid, k, err := c.presence.read(n, parent)
	if err != nil {
		return nil, err
	}
	buf := newBuffer(c.mem, n*c.width)
	out := buf.Bytes()
	if valid == nil {
		if err := c.data.readInto(out); err != nil {
			buf.Release()
			return nil, err
		}
		return fixedData(c.dt, c.mem, valid, n, buf), nil
	}
	if cap(c.packed) < k*c.width {
		c.packed = make([]byte, k*c.width)
	}
	packed := c.packed[:k*c.width]
	if err := c.data.readInto(packed); err != nil {
		buf.Release()
		return nil, err
	}
	j := 0
	w := c.width
	for i := 0; i < n; i++ {
		if valid[i] != 0 {
			copy(out[i*w:i*w+w], packed[j:j+w])
			j += w
		} else {
			clear(out[i*w : i*w+w])
		}
	}
	return fixedData(c.dt, c.mem, valid, n, buf), nil
}

// decimalColumn reads decimal columns: zigzag varints of up to 128 bits
// with a scale per value in the SECONDARY stream (DIRECT encodings), or,
// in files of the pre-2.0 development version, scaled longs (decimal64).
// Values are rescaled to the requested scale with HALF_UP rounding and are
// NULL when they do not fit the precision, as Java's
// Decimal.fromBigDecimal does on the value ORC returns.
type decimalColumn struct {
	presence
	dt        *arrow.Decimal128Type
	mem       memory.Allocator
	decimal64 bool // the file stores decimal64 (version UNSTABLE-PRE-2.0)
	fileScale int  // decimal64: the file column's scale
	data      *inStream
	scales    intDecoder
	longs     intDecoder
	vals      []int64
	nulls     []byte
}

func (c *decimalColumn) startStripe(s *stripeState) error {
	c.presence.startStripe(s)
	c.mem = s.mem
	data, err := s.required(c.col, streamData)
	if err != nil {
		return err
	}
	enc, err := s.encoding(c.col)
	if err != nil {
		return err
	}
	if c.decimal64 {
		c.longs = newIntDecoder(data, true, enc.kind.v2())
		return nil
	}
	c.data = data
	sec, err := s.required(c.col, streamSecondary)
	if err != nil {
		return err
	}
	c.scales = newIntDecoder(sec, true, enc.kind.v2())
	return nil
}

func (c *decimalColumn) seek(pos [][]uint64) error {
	p, err := c.presence.seek(pos[c.col])
	if err != nil {
		return err
	}
	if c.decimal64 {
		_, err = c.longs.seek(p)
		return err
	}
	if p, err = c.data.seek(p); err != nil {
		return err
	}
	_, err = c.scales.seek(p)
	return err
}

// readBig reads one zigzag varint of up to 128 bits.
func (c *decimalColumn) readBig() (decimal128.Num, error) {
	var lo, hi uint64
	for shift := uint(0); ; shift += 7 {
		b, err := c.data.readByte()
		if err != nil {
			return decimal128.Num{}, err
		}
		v := uint64(b & 0x7f)
		switch {
		case shift < 64:
			lo |= v << shift
			if shift > 57 {
				hi |= v >> (64 - shift)
			}
		case shift < 128:
			hi |= v << (shift - 64)
			if shift > 121 && v>>(128-shift) != 0 {
				return decimal128.Num{}, corruptf("%s: decimal wider than 128 bits", c.data.name)
			}
		default:
			return decimal128.Num{}, corruptf("%s: decimal wider than 128 bits", c.data.name)
		}
		if b < 0x80 {
			break
		}
	}
	// zigzag: value = (u >> 1) ^ -(u & 1)
	neg := lo&1 == 1
	lo = lo>>1 | hi<<63
	hi >>= 1
	if neg {
		lo, hi = ^lo, ^hi
	}
	return decimal128.New(int64(hi), lo), nil
}

func (c *decimalColumn) read(n int, parent []byte) (arrow.ArrayData, error) {
	valid, k, err := c.presence.read(n, parent)
	if err != nil {
		return nil, err
	}
	buf := newBuffer(c.mem, n*16)
	out := arrow.Decimal128Traits.CastFromBytes(buf.Bytes())
	if cap(c.vals) < k {
		c.vals = make([]int64, k)
	}
	vals := c.vals[:k]
	if c.decimal64 {
		err = c.longs.next(vals)
	} else {
		err = c.scales.next(vals)
	}
	if err != nil {
		buf.Release()
		return nil, err
	}
	if cap(c.nulls) < n {
		c.nulls = make([]byte, n)
	}
	ok := c.nulls[:n] // validity after rescaling
	target := int(c.dt.Scale)
	prec := c.dt.Precision
	limit := decimal128.GetScaleMultiplier(int(prec))
	j := 0
	lost := false
	for i := 0; i < n; i++ {
		if valid != nil && valid[i] == 0 {
			out[i] = decimal128.Num{}
			ok[i] = 0
			continue
		}
		var v decimal128.Num
		var scale int
		if c.decimal64 {
			v, scale = decimal128.FromI64(vals[j]), c.fileScale
		} else {
			v, err = c.readBig()
			if err != nil {
				buf.Release()
				return nil, err
			}
			if vals[j] < 0 || vals[j] > 38 {
				buf.Release()
				return nil, corruptf("%s: decimal scale %d", c.data.name, vals[j])
			}
			scale = int(vals[j])
		}
		j++
		v, fits := rescale(v, scale, target)
		if fits && v.Abs().Less(limit) {
			out[i], ok[i] = v, 1
		} else {
			out[i], ok[i] = decimal128.Num{}, 0
			lost = true
		}
	}
	if !lost {
		return fixedData(c.dt, c.mem, valid, n, buf), nil
	}
	return fixedData(c.dt, c.mem, ok, n, buf), nil
}

// rescale changes the scale of an unscaled value, rounding HALF_UP (away
// from zero at .5) when digits are dropped; fits is false on overflow.
func rescale(v decimal128.Num, from, to int) (decimal128.Num, bool) {
	switch {
	case from == to:
		return v, true
	case from < to:
		d := to - from
		if hi := v.HighBits(); (hi == 0 && v.LowBits() < 1<<63) || (hi == -1 && v.LowBits() >= 1<<63) {
			// Fast path: an int64 times a power of ten up to 10^18.
			if d <= 18 {
				x := int64(v.LowBits())
				m := pow10[d]
				neg := x < 0
				ux := uint64(x)
				if neg {
					ux = uint64(-x)
				}
				h, l := bits.Mul64(ux, uint64(m))
				r := decimal128.New(int64(h), l)
				if h>>63 != 0 {
					return decimal128.Num{}, false
				}
				if neg {
					r = r.Negate()
				}
				return r, true
			}
		}
		if d > 38 {
			return decimal128.Num{}, v.Sign() == 0
		}
		m := decimal128.GetScaleMultiplier(d)
		r := v.Mul(m)
		// Detect overflow: dividing back must give v.
		if q, _ := r.Div(m); q != v {
			return decimal128.Num{}, false
		}
		return r, true
	default:
		d := from - to
		if d > 38 {
			return decimal128.Num{}, true
		}
		return v.ReduceScaleBy(int32(d), true), true
	}
}

var pow10 = func() [19]int64 {
	var p [19]int64
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// dateColumn and timeColumn are int columns; see intColumn.

// timestampColumn reads timestamp columns: seconds since 2015-01-01
// 00:00:00 in the writer's time zone (DATA) and encoded nanoseconds
// (SECONDARY), converted as Java's TimestampTreeReader and Paimon's
// OrcTimestampColumnVector do (see timestamps.go).
type timestampColumn struct {
	presence
	dt      *arrow.TimestampType
	mem     memory.Allocator
	instant bool // the file column is TIMESTAMP_INSTANT
	conv    tsConv
	opts    *readConfig
	secs    intDecoder
	nanos   intDecoder
	sv, nv  []int64
}

func (c *timestampColumn) startStripe(s *stripeState) error {
	c.presence.startStripe(s)
	c.mem = s.mem
	enc, err := s.encoding(c.col)
	if err != nil {
		return err
	}
	data, err := s.required(c.col, streamData)
	if err != nil {
		return err
	}
	sec, err := s.required(c.col, streamSecondary)
	if err != nil {
		return err
	}
	c.secs = newIntDecoder(data, true, enc.kind.v2())
	c.nanos = newIntDecoder(sec, false, enc.kind.v2())
	c.conv, err = newTSConv(s.timezone, c.instant, c.dt.TimeZone != "", c.opts)
	return err
}

func (c *timestampColumn) seek(pos [][]uint64) error {
	p, err := c.presence.seek(pos[c.col])
	if err != nil {
		return err
	}
	if p, err = c.secs.seek(p); err != nil {
		return err
	}
	_, err = c.nanos.seek(p)
	return err
}

func (c *timestampColumn) read(n int, parent []byte) (arrow.ArrayData, error) {
	valid, k, err := c.presence.read(n, parent)
	if err != nil {
		return nil, err
	}
	if cap(c.sv) < k {
		c.sv, c.nv = make([]int64, k), make([]int64, k)
	}
	sv, nv := c.sv[:k], c.nv[:k]
	if err := c.secs.next(sv); err != nil {
		return nil, err
	}
	if err := c.nanos.next(nv); err != nil {
		return nil, err
	}
	buf := newBuffer(c.mem, n*8)
	out := arrow.Int64Traits.CastFromBytes(buf.Bytes())
	j := 0
	for i := 0; i < n; i++ {
		if valid != nil && valid[i] == 0 {
			out[i] = 0
			continue
		}
		millis, nanos := c.conv.decode(sv[j], uint64(nv[j]))
		j++
		switch c.dt.Unit {
		case arrow.Millisecond:
			out[i] = millis
		case arrow.Microsecond:
			out[i] = millis*1000 + int64(nanos%1_000_000)/1000
		default:
			out[i] = millis*1_000_000 + int64(nanos%1_000_000)
		}
	}
	return fixedData(c.dt, c.mem, valid, n, buf), nil
}
