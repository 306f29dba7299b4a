package orc

import "errors"

// lzoDecompress decodes one LZO1X block (what Java ORC's LZO codec, the
// aircompressor LzoCompressor, writes per chunk) into dst and returns the
// number of bytes written. Every read and write is bounds-checked: corrupt
// input gives an error, never a panic, and dst's length bounds the output.
//
// The format, as the Linux kernel documents it (Documentation/staging/
// lzo.rst): a first byte above 17 copies byte-17 literals; then each
// instruction is a literal run or a back-reference whose low two bits say
// how many literals (0..3) follow it; the meaning of opcodes 0..15 depends
// on how many literals the previous instruction copied (state). The block
// ends with the marker 0x11 0x00 0x00.
func lzoDecompress(src, dst []byte) (int, error) {
	var ip, op int
	errInput := errors.New("LZO input overrun")
	errOutput := errors.New("LZO output overrun")
	errLookBehind := errors.New("LZO back-reference before the start")
	// extLength reads the zero-run extension of a length field.
	extLength := func(base int) (int, error) {
		n := 0
		for {
			if ip >= len(src) {
				return 0, errInput
			}
			b := src[ip]
			ip++
			if b != 0 {
				n += int(b)
				break
			}
			n += 255
			if n > len(dst)+len(src)*255 {
				return 0, errOutput
			}
		}
		return base + n, nil
	}
	copyLiterals := func(n int) error {
		if ip+n > len(src) {
			return errInput
		}
		if op+n > len(dst) {
			return errOutput
		}
		copy(dst[op:], src[ip:ip+n])
		ip += n
		op += n
		return nil
	}
	copyMatch := func(dist, n int) error {
		if dist <= 0 || dist > op {
			return errLookBehind
		}
		if op+n > len(dst) {
			return errOutput
		}
		from := op - dist
		for i := 0; i < n; i++ { // overlapping copies repeat the pattern
			dst[op+i] = dst[from+i]
		}
		op += n
		return nil
	}
	if len(src) == 0 {
		return 0, errInput
	}
	state := 0
	if src[0] > 17 {
		t := int(src[0]) - 17
		ip = 1
		if err := copyLiterals(t); err != nil {
			return op, err
		}
		state = min(t, 4)
	}
	for {
		if ip >= len(src) {
			return op, errInput
		}
		t := int(src[ip])
		ip++
		var dist, length, next int
		switch {
		case t < 16:
			switch state {
			case 0:
				// A literal run of 4 or more bytes.
				length = 3 + t
				if t == 0 {
					var err error
					if length, err = extLength(18); err != nil {
						return op, err
					}
				}
				if err := copyLiterals(length); err != nil {
					return op, err
				}
				state = 4
				continue
			case 4:
				if ip >= len(src) {
					return op, errInput
				}
				dist = int(src[ip])<<2 + (t >> 2 & 3) + 2049
				ip++
				length = 3
			default:
				if ip >= len(src) {
					return op, errInput
				}
				dist = int(src[ip])<<2 + (t >> 2 & 3) + 1
				ip++
				length = 2
			}
			next = t & 3
		case t < 32:
			length = 2 + t&7
			if t&7 == 0 {
				var err error
				if length, err = extLength(2 + 7); err != nil {
					return op, err
				}
			}
			if ip+2 > len(src) {
				return op, errInput
			}
			le := int(src[ip]) | int(src[ip+1])<<8
			ip += 2
			dist = 16384 + (t&8)<<11 + le>>2
			next = le & 3
			if dist == 16384 {
				return op, nil // the end-of-stream marker
			}
		case t < 64:
			length = 2 + t&31
			if t&31 == 0 {
				var err error
				if length, err = extLength(2 + 31); err != nil {
					return op, err
				}
			}
			if ip+2 > len(src) {
				return op, errInput
			}
			le := int(src[ip]) | int(src[ip+1])<<8
			ip += 2
			dist = le>>2 + 1
			next = le & 3
		case t < 128:
			if ip >= len(src) {
				return op, errInput
			}
			length = 3 + (t >> 5 & 1)
			dist = int(src[ip])<<3 + (t >> 2 & 7) + 1
			ip++
			next = t & 3
		default:
			if ip >= len(src) {
				return op, errInput
			}
			length = 5 + (t >> 5 & 3)
			dist = int(src[ip])<<3 + (t >> 2 & 7) + 1
			ip++
			next = t & 3
		}
		if err := copyMatch(dist, length); err != nil {
			return op, err
		}
		if next > 0 {
			if err := copyLiterals(next); err != nil {
				return op, err
			}
		}
		state = next
	}
}
