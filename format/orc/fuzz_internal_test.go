package orc

import (
	"encoding/binary"
	"errors"
	"testing"
)

// Fuzz targets for the pieces FuzzRead reaches only through a whole file:
// the tail's protobuf messages, each run-length decoder, the decompressors
// and the integer RLE v2 writer against the reader. Every failure must be a
// corrupt (or unsupported) error, never a panic, a hang or an allocation
// beyond what the input justifies.

// requireDecodeError fails unless err is nil, a corrupt-input error or
// ErrUnsupported.
func requireDecodeError(t *testing.T, err error) {
	t.Helper()
	var ce *corruptError
	if err != nil && !errors.As(err, &ce) && !errors.Is(err, ErrUnsupported) {
		t.Fatalf("error %v is neither corrupt input nor unsupported", err)
	}
}

// FuzzTail decodes arbitrary bytes as a PostScript, a Footer and a
// Metadata message.
func FuzzTail(f *testing.F) {
	ps := postScript{footerLength: 120, compression: CompressionZstd, blockSize: 256 << 10,
		version: []uint64{0, 12}, metadataLength: 40, writerVersion: 9, magic: []byte("ORC")}
	f.Add(ps.encode())
	f.Add([]byte{0x08, 0x7f, 0x10, 0x05, 0x18, 0x80, 0x80, 0x10, 0x22, 0x02, 0x00, 0x0c})
	f.Add([]byte{0x1a, 0x04, 0x08, 0x0c, 0x12, 0x00, 0x22, 0x06, 0x08, 0x01, 0x12, 0x01, 0x01})
	f.Fuzz(func(t *testing.T, b []byte) {
		_, err := decodePostScript(b)
		requireDecodeError(t, err)
		_, err = decodeFooter(b)
		requireDecodeError(t, err)
		_, err = decodeMetadata(b)
		requireDecodeError(t, err)
	})
}

// FuzzRLE runs each run-length decoder (byte RLE, bit fields, integer RLE
// v1 and v2, signed and unsigned) over arbitrary bytes, reading n values in
// two halves with a skip between them.
func FuzzRLE(f *testing.F) {
	f.Add([]byte{0x61, 0x03}, uint8(0), uint16(100))
	f.Add([]byte{0xfe, 0x01, 0x02, 0x03}, uint8(1), uint16(16))
	f.Add([]byte{0x0a, 0x27, 0x10}, uint8(2), uint16(13))
	f.Add([]byte{0x5e, 0x03, 0x5c, 0xa1, 0xab, 0x1e, 0xde, 0xad, 0xbe, 0xef}, uint8(5), uint16(10))
	f.Add([]byte{0x8e, 0x09, 0x2b, 0x21, 0x07, 0xd0, 0x1e, 0x00, 0x14, 0x70, 0x28, 0x32, 0x3c, 0x46, 0x50, 0x5a, 0x64, 0x6e,
		0x78, 0x82, 0x8c, 0x96, 0xa0, 0xaa, 0xb4, 0xbe, 0xfc, 0xe8}, uint8(4), uint16(20))
	f.Add([]byte{0xc6, 0x09, 0x02, 0x02, 0x22, 0x42, 0x42, 0x46}, uint8(5), uint16(10))
	f.Fuzz(func(t *testing.T, b []byte, mode uint8, n uint16) {
		in := newInStream("fuzz", b, nil)
		half := int(n%4096) / 2
		switch mode % 6 {
		case 0:
			d := &byteRLE{in: in}
			dst := make([]byte, half)
			if err := d.next(dst); err != nil {
				requireDecodeError(t, err)
				return
			}
			if err := d.skip(int64(half)); err != nil {
				requireDecodeError(t, err)
				return
			}
			requireDecodeError(t, d.next(dst))
		case 1:
			d := newBoolRLE(in)
			dst := make([]byte, half)
			if err := d.next(dst); err != nil {
				requireDecodeError(t, err)
				return
			}
			for _, v := range dst {
				if v > 1 {
					t.Fatalf("bit value %d", v)
				}
			}
			if err := d.skip(int64(half)); err != nil {
				requireDecodeError(t, err)
				return
			}
			requireDecodeError(t, d.next(dst))
		default:
			m := mode % 6
			d := newIntDecoder(in, m%2 == 1, m >= 4)
			dst := make([]int64, half)
			if err := d.next(dst); err != nil {
				requireDecodeError(t, err)
				return
			}
			if err := d.skip(int64(half)); err != nil {
				requireDecodeError(t, err)
				return
			}
			requireDecodeError(t, d.next(dst))
		}
	})
}

// FuzzDecompress decodes arbitrary bytes as a compressed section of each
// codec: the result is bounded by the chunk count times the block size.
func FuzzDecompress(f *testing.F) {
	for _, k := range []CompressionKind{CompressionZlib, CompressionSnappy, CompressionLZ4, CompressionZstd} {
		c, err := newCompressor(k, 1)
		if err != nil {
			f.Fatal(err)
		}
		out := newOutStream(c, 1024)
		out.write([]byte("abcabcabcabcabcabcabcabcabcabcabcabcabc hello hello hello hello"))
		f.Add(out.finish(), uint8(k))
	}
	f.Add([]byte{0x0b, 0x00, 0x00, 0x11, 0x61, 0x62, 0x63, 0x20, 0x00}, uint8(CompressionLZO))
	f.Fuzz(func(t *testing.T, b []byte, kind uint8) {
		k := CompressionKind(1 + int(kind)%5)
		c, err := newCodec(k, 1024)
		if err != nil {
			t.Fatal(err)
		}
		out, err := c.decompressAll(b)
		requireDecodeError(t, err)
		if err == nil && len(out) > (len(b)/chunkHeaderSize)*1024 {
			t.Fatalf("%s: %d input bytes decompressed to %d", k, len(b), len(out))
		}
		// The same bytes as a stream, chunk by chunk.
		s := newInStream("fuzz", b, c)
		buf := make([]byte, 100)
		for {
			if err := s.readInto(buf); err != nil {
				requireDecodeError(t, err)
				break
			}
		}
	})
}

// FuzzIntRLERoundTrip encodes the input, read as int64 values, with the
// RLE v2 writer (with and without compression) and decodes it back.
func FuzzIntRLERoundTrip(f *testing.F) {
	f.Add([]byte{1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0}, true)
	f.Add(make([]byte, 8*20), false)
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 0, 0, 0, 0, 0, 0, 0, 0x80, 5, 0, 0, 0, 0, 0, 0, 0}, true)
	f.Fuzz(func(t *testing.T, b []byte, signed bool) {
		vals := make([]int64, len(b)/8)
		for i := range vals {
			vals[i] = int64(binary.LittleEndian.Uint64(b[i*8:]))
			if !signed && vals[i] < 0 {
				vals[i] = -(vals[i] + 1)
			}
		}
		zstdComp, err := newCompressor(CompressionZstd, 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, comp := range []*compressor{nil, zstdComp} {
			out := newOutStream(comp, 1000)
			w := newIntWriter(out, signed)
			for _, v := range vals {
				w.write(v)
			}
			w.flush()
			raw := out.finish()
			var c *codec
			if comp != nil {
				c = &codec{kind: CompressionZstd, blockSize: 1000}
			}
			d := newIntDecoder(newInStream("t", raw, c), signed, true)
			got := make([]int64, len(vals))
			if err := d.next(got); err != nil {
				t.Fatalf("decoding %d values: %v", len(vals), err)
			}
			for i := range vals {
				if got[i] != vals[i] {
					t.Fatalf("value %d: got %d, want %d", i, got[i], vals[i])
				}
			}
		}
	})
}
