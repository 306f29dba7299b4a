package variant

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/paimon-go/paimon-go/internal/jackson"
)

// JSON renders the variant (value, metadata) as JSON text the way Java
// Paimon's GenericVariant.toJson(UTC) does: object fields in stored order
// (sorted by key, as the encoding requires), strings and keys escaped as
// Jackson escapes them, integers of any width as integers, decimals in
// plain notation, FLOAT/DOUBLE as Java's Float/Double.toString (non-finite
// ones quoted), DATE as "yyyy-MM-dd", TIMESTAMP as
// "yyyy-MM-dd HH:mm:ss[.fraction]+00:00" and TIMESTAMP_NTZ without the
// offset, BINARY as quoted base64, UUID in its canonical form.
func JSON(value, meta []byte) (string, error) {
	m, err := parseMetadata(meta)
	if err != nil {
		return "", err
	}
	out, err := appendJSON(nil, value, 0, m, 0)
	if err != nil {
		return "", err
	}
	return string(out), nil
}

func appendJSON(dst, b []byte, pos int, m *metadata, depth int) ([]byte, error) {
	if depth > maxDepth {
		return nil, corrupt("nesting deeper than %d", maxDepth)
	}
	if err := need(b, pos, 1); err != nil {
		return nil, err
	}
	h := b[pos]
	info := int(h >> 2)
	switch h & 3 {
	case basicShortStr:
		if err := need(b, pos+1, info); err != nil {
			return nil, err
		}
		return jackson.AppendString(dst, string(b[pos+1:pos+1+info])), nil
	case basicObject:
		idSize, offSize := (info>>2)&3+1, info&3+1
		n, p, err := count(b, pos+1, info&0x10 != 0)
		if err != nil {
			return nil, err
		}
		ids, offs := p, p+n*idSize
		data := offs + (n+1)*offSize
		if err := need(b, 0, data); err != nil {
			return nil, err
		}
		dst = append(dst, '{')
		for i := range n {
			id, err := readUint(b, ids+i*idSize, idSize)
			if err != nil {
				return nil, err
			}
			off, err := readUint(b, offs+i*offSize, offSize)
			if err != nil {
				return nil, err
			}
			key, err := m.key(id)
			if err != nil {
				return nil, err
			}
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = jackson.AppendString(dst, key)
			dst = append(dst, ':')
			if dst, err = appendJSON(dst, b, data+off, m, depth+1); err != nil {
				return nil, err
			}
		}
		return append(dst, '}'), nil
	case basicArray:
		offSize := info&3 + 1
		n, p, err := count(b, pos+1, info&0x4 != 0)
		if err != nil {
			return nil, err
		}
		data := p + (n+1)*offSize
		if err := need(b, 0, data); err != nil {
			return nil, err
		}
		dst = append(dst, '[')
		for i := range n {
			off, err := readUint(b, p+i*offSize, offSize)
			if err != nil {
				return nil, err
			}
			if i > 0 {
				dst = append(dst, ',')
			}
			if dst, err = appendJSON(dst, b, data+off, m, depth+1); err != nil {
				return nil, err
			}
		}
		return append(dst, ']'), nil
	}
	return appendPrimitive(dst, b, pos+1, info)
}

// count reads an object's or array's element count (4 bytes when large).
func count(b []byte, pos int, large bool) (n, next int, err error) {
	size := 1
	if large {
		size = 4
	}
	n, err = readUint(b, pos, size)
	if err != nil {
		return 0, 0, err
	}
	if n < 0 || n > len(b) {
		return 0, 0, corrupt("%d elements in %d bytes", n, len(b))
	}
	return n, pos + size, nil
}

func appendPrimitive(dst, b []byte, p, id int) ([]byte, error) {
	fixed := map[int]int{primInt8: 1, primInt16: 2, primInt32: 4, primInt64: 8, primDouble: 8, primDecimal4: 5,
		primDecimal8: 9, primDecimal16: 17, primDate: 4, primTimestamp: 8, primTimestampNTZ: 8, primFloat: 4, primUUID: 16}
	if n, ok := fixed[id]; ok {
		if err := need(b, p, n); err != nil {
			return nil, err
		}
	}
	switch id {
	case primNull:
		return append(dst, "null"...), nil
	case primTrue:
		return append(dst, "true"...), nil
	case primFalse:
		return append(dst, "false"...), nil
	case primInt8:
		return strconv.AppendInt(dst, int64(int8(b[p])), 10), nil
	case primInt16:
		return strconv.AppendInt(dst, int64(int16(binary.LittleEndian.Uint16(b[p:]))), 10), nil
	case primInt32:
		return strconv.AppendInt(dst, int64(int32(binary.LittleEndian.Uint32(b[p:]))), 10), nil
	case primInt64:
		return strconv.AppendInt(dst, le64(b, p), 10), nil
	case primDouble:
		return appendJavaFloat(dst, math.Float64frombits(binary.LittleEndian.Uint64(b[p:])), 64), nil
	case primFloat:
		return appendJavaFloat(dst, float64(math.Float32frombits(binary.LittleEndian.Uint32(b[p:]))), 32), nil
	case primDecimal4, primDecimal8, primDecimal16:
		return appendDecimal(dst, b, p, id)
	case primDate:
		d := time.Unix(int64(int32(binary.LittleEndian.Uint32(b[p:])))*86400, 0).UTC()
		return appendQuoted(dst, d.Format("2006-01-02")), nil
	case primTimestamp, primTimestampNTZ:
		s := formatMicros(le64(b, p))
		if id == primTimestamp {
			s += "+00:00"
		}
		return appendQuoted(dst, s), nil
	case primBinary, primString:
		n, err := readUint(b, p, 4)
		if err != nil {
			return nil, err
		}
		if err := need(b, p+4, n); err != nil {
			return nil, err
		}
		raw := b[p+4 : p+4+n]
		if id == primString {
			return jackson.AppendString(dst, string(raw)), nil
		}
		return appendQuoted(dst, base64.StdEncoding.EncodeToString(raw)), nil
	case primUUID:
		u := b[p : p+16]
		return appendQuoted(dst, fmt.Sprintf("%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])), nil
	}
	return nil, corrupt("primitive type %d", id)
}

func appendQuoted(dst []byte, s string) []byte {
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}

// appendDecimal writes a decimal (one scale byte, then the unscaled value
// little endian) as Java's getDecimal(...).toPlainString(): trailing
// fraction zeros dropped.
func appendDecimal(dst, b []byte, p, id int) ([]byte, error) {
	width := map[int]int{primDecimal4: 4, primDecimal8: 8, primDecimal16: 16}[id]
	scale := int(b[p])
	if scale > 38 {
		return nil, corrupt("decimal scale %d", scale)
	}
	be := make([]byte, width)
	for i := range width {
		be[width-1-i] = b[p+1+i]
	}
	u := new(big.Int).SetBytes(be)
	if be[0]&0x80 != 0 {
		u.Sub(u, new(big.Int).Lsh(big.NewInt(1), uint(8*width)))
	}
	s := u.String()
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	if scale > 0 {
		if len(s) <= scale {
			s = strings.Repeat("0", scale-len(s)+1) + s
		}
		s = s[:len(s)-scale] + "." + s[len(s)-scale:]
		// Java's getDecimal strips trailing zeros (stripTrailingZeros).
		s = strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
	}
	if neg {
		dst = append(dst, '-')
	}
	return append(dst, s...), nil
}

// formatMicros formats microseconds since the epoch (UTC) as Java's
// ISO_LOCAL_DATE ' ' ISO_LOCAL_TIME: seconds always, the fraction without
// trailing zeros and only when not zero.
func formatMicros(us int64) string {
	t := time.UnixMicro(us).UTC()
	s := t.Format("2006-01-02 15:04:05")
	if frac := t.Nanosecond(); frac != 0 {
		f := strings.TrimRight(fmt.Sprintf("%09d", frac), "0")
		s += "." + f
	}
	return s
}

// appendJavaFloat writes f as Java's Double.toString (bits 64) or
// Float.toString (bits 32): plain notation with at least one fraction digit
// for magnitudes in [1e-3, 1e7), computerized scientific notation
// ("1.0E10", "1.5E-5") otherwise; non-finite values quoted ("NaN",
// "Infinity", "-Infinity"). The digits are the shortest that round-trip,
// which is what Java prints for all but rare values.
func appendJavaFloat(dst []byte, f float64, bits int) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, `"NaN"`...)
	case math.IsInf(f, 1):
		return append(dst, `"Infinity"`...)
	case math.IsInf(f, -1):
		return append(dst, `"-Infinity"`...)
	case f == 0:
		if math.Signbit(f) {
			return append(dst, "-0.0"...)
		}
		return append(dst, "0.0"...)
	}
	abs := math.Abs(f)
	if abs >= 1e-3 && abs < 1e7 {
		s := strconv.FormatFloat(f, 'f', -1, bits)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return append(dst, s...)
	}
	s := strconv.FormatFloat(f, 'e', -1, bits) // d.ddde±xx
	mant, exp, _ := strings.Cut(s, "e")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	e, _ := strconv.Atoi(exp)
	return append(append(dst, mant...), "E"+strconv.Itoa(e)...)
}
