package index

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"

	"github.com/RoaringBitmap/roaring/v2"
)

// Constants of the deletion-vector index file (DeletionVectorsIndexFile,
// BitmapDeletionVector, Bitmap64DeletionVector).
const (
	// DVFileVersion is the first byte of every deletion-vector index file
	// (DeletionVectorsIndexFile.VERSION_ID_V1).
	DVFileVersion byte = 1
	// Magic32 starts the payload of a 32-bit deletion vector, stored
	// big-endian (BitmapDeletionVector.MAGIC_NUMBER, 0x5E43F2D0).
	Magic32 uint32 = 1581511376
	// Magic64 starts the payload of a 64-bit deletion vector, stored
	// little-endian (Bitmap64DeletionVector.MAGIC_NUMBER, bytes D1 D3 39 64).
	Magic64 uint32 = 1681511377
)

// blob layout, both formats: int32 BE size | size bytes (magic + bitmap) |
// int32 BE CRC32 of those size bytes.
const (
	sizeFieldLen = 4
	crcFieldLen  = 4
	magicLen     = 4
	// maxBlob is Java's limit: the whole blob must fit a byte[] indexed by int
	// (Bitmap64DeletionVector.computeBitmapDataLength, "Can't serialize index
	// > 2GB"); 32-bit vectors are bounded the same way by DataOutputStream.
	maxBlob = math.MaxInt32
)

// MarshalBinary returns dv serialized as Java's DeletionVector.serializeTo
// writes it into an index file: size, magic, bitmap, CRC.
func (dv *DeletionVector) MarshalBinary() ([]byte, error) {
	b, _, err := dv.appendBlob(nil)
	return b, err
}

// UnmarshalBinary replaces dv with the deletion vector serialized in data (one
// blob as MarshalBinary returns it; Java DeletionVector.deserializeFromBytes).
// Errors wrap ErrCorrupt.
func (dv *DeletionVector) UnmarshalBinary(data []byte) error {
	got, n, err := decodeBlob(data, true)
	if err != nil {
		return err
	}
	if n != len(data) {
		return fmt.Errorf("%w: %d bytes after the deletion vector", ErrCorrupt, len(data)-n)
	}
	*dv = *got
	return nil
}

// appendBlob appends dv's blob to dst and returns the length Java records in
// the index manifest (DeletionVectorMeta.length): the size field's value for
// a 32-bit vector (magic + bitmap), the whole blob for a 64-bit one, because
// that is what the two serializeTo methods return.
func (dv *DeletionVector) appendBlob(dst []byte) ([]byte, int64, error) {
	start := len(dst)
	dst = append(dst, 0, 0, 0, 0) // size, patched below
	var err error
	if dv.is64 {
		dst = binary.LittleEndian.AppendUint32(dst, Magic64)
		dst, err = dv.append64(dst, start)
	} else {
		dst = binary.BigEndian.AppendUint32(dst, Magic32)
		dst, err = dv.append32(dst)
	}
	if err != nil {
		return nil, 0, err
	}
	size := len(dst) - start - sizeFieldLen
	if int64(size)+sizeFieldLen+crcFieldLen > maxBlob {
		return nil, 0, fmt.Errorf("index: deletion vector of %d bytes exceeds 2 GB", size)
	}
	binary.BigEndian.PutUint32(dst[start:], uint32(size))
	dst = binary.BigEndian.AppendUint32(dst, crc32.ChecksumIEEE(dst[start+sizeFieldLen:]))
	if dv.is64 {
		return dst, int64(sizeFieldLen + size + crcFieldLen), nil
	}
	return dst, int64(size), nil
}

// append32 writes the one RoaringBitmap as Java's RoaringBitmap32.serialize
// does: containers as they are, with no run-length optimisation (Java does
// not run-optimise 32-bit vectors, and neither Go's nor Java's Add creates run
// containers).
func (dv *DeletionVector) append32(dst []byte) ([]byte, error) {
	if len(dv.bitmaps) == 0 {
		return appendContainers(dst, nil), nil
	}
	buf := bytes.NewBuffer(dst)
	if _, err := dv.bitmaps[0].WriteTo(buf); err != nil {
		return nil, fmt.Errorf("index: serializing deletion vector: %w", err)
	}
	return buf.Bytes(), nil
}

// append64 writes Java OptimizedRoaringBitmap64.serialize's layout after
// runLengthEncode: int64 LE count, then for every key from 0 to the largest an
// int32 LE key and the bitmap (empty ones included), each bitmap with Java's
// run-optimisation rules applied.
func (dv *DeletionVector) append64(dst []byte, start int) ([]byte, error) {
	count := dv.denseCount()
	// Every bitmap costs at least 12 bytes; refuse before writing gigabytes.
	if count*(4+emptyBitmapBytes) > maxBlob {
		return nil, fmt.Errorf("index: 64-bit deletion vector with %d bitmaps exceeds 2 GB", count)
	}
	dst = binary.LittleEndian.AppendUint64(dst, uint64(count))
	next := 0 // index into dv.keys
	for key := range uint32(count) {
		dst = binary.LittleEndian.AppendUint32(dst, key)
		if next >= len(dv.keys) || dv.keys[next] != key {
			dst = appendContainers(dst, nil)
			continue
		}
		raw, err := dv.bitmaps[next].ToBytes()
		if err != nil {
			return nil, fmt.Errorf("index: serializing deletion vector: %w", err)
		}
		cs, _, err := parseContainers(raw)
		if err != nil {
			return nil, fmt.Errorf("index: serializing deletion vector: %w", err)
		}
		for i := range cs {
			cs[i] = javaRunOptimize(cs[i])
		}
		dst = appendContainers(dst, cs)
		next++
		if len(dst)-start > maxBlob {
			return nil, fmt.Errorf("index: 64-bit deletion vector exceeds 2 GB")
		}
	}
	return dst, nil
}

// decodeBlob decodes the deletion vector blob at the start of b and returns
// it with the number of bytes the blob occupies (8 + size). Mirrors
// DeletionVector.read, which picks the format by magic; unlike Java it also
// verifies the CRC unless verifyCRC is false.
func decodeBlob(b []byte, verifyCRC bool) (*DeletionVector, int, error) {
	if len(b) < sizeFieldLen+magicLen {
		return nil, 0, fmt.Errorf("%w: deletion vector truncated: %d bytes, want at least 8", ErrCorrupt, len(b))
	}
	size := int64(int32(binary.BigEndian.Uint32(b)))
	if size < magicLen {
		return nil, 0, fmt.Errorf("%w: deletion vector size %d is below the 4-byte magic", ErrCorrupt, size)
	}
	total := sizeFieldLen + size + crcFieldLen
	if int64(len(b)) < total {
		return nil, 0, fmt.Errorf("%w: deletion vector truncated: size field says %d bytes, %d present",
			ErrCorrupt, total, len(b))
	}
	data := b[sizeFieldLen : sizeFieldLen+size] // magic + bitmap, what the CRC covers
	if verifyCRC {
		want := binary.BigEndian.Uint32(b[sizeFieldLen+size:])
		if got := crc32.ChecksumIEEE(data); got != want {
			return nil, 0, fmt.Errorf("%w: deletion vector CRC32 mismatch: stored %08x, computed %08x", ErrCorrupt, want, got)
		}
	}
	var dv *DeletionVector
	var err error
	switch {
	case binary.BigEndian.Uint32(data) == Magic32:
		dv, err = decode32(data[magicLen:])
	case binary.LittleEndian.Uint32(data) == Magic64:
		dv, err = decode64(data[magicLen:])
	default:
		return nil, 0, fmt.Errorf("%w: bad deletion vector magic %08x (want %08x big-endian or %08x little-endian)",
			ErrCorrupt, binary.BigEndian.Uint32(data), Magic32, Magic64)
	}
	if err != nil {
		return nil, 0, err
	}
	return dv, int(total), nil
}

func decode32(payload []byte) (*DeletionVector, error) {
	bm, _, err := readBitmap(payload)
	if err != nil {
		return nil, fmt.Errorf("%w: 32-bit deletion vector: %v", ErrCorrupt, err)
	}
	return &DeletionVector{keys: []uint32{0}, bitmaps: []*roaring.Bitmap{bm}}, nil
}

// decode64 mirrors OptimizedRoaringBitmap64.deserialize: a count in
// [0, Integer.MAX_VALUE], then keys in [0, Integer.MAX_VALUE-1], strictly
// ascending, each followed by a portable bitmap. Unlike Java it stores the
// bitmaps sparsely, so a corrupt key cannot make it allocate billions of
// empty bitmaps.
func decode64(payload []byte) (*DeletionVector, error) {
	if len(payload) < 8 {
		return nil, fmt.Errorf("%w: 64-bit deletion vector truncated before its bitmap count", ErrCorrupt)
	}
	count := int64(binary.LittleEndian.Uint64(payload))
	p := 8
	if count < 0 || count > math.MaxInt32 {
		return nil, fmt.Errorf("%w: 64-bit deletion vector: invalid bitmap count %d", ErrCorrupt, count)
	}
	if count > int64(len(payload)-p)/(4+emptyBitmapBytes) {
		return nil, fmt.Errorf("%w: 64-bit deletion vector truncated: %d bitmaps cannot fit in %d bytes",
			ErrCorrupt, count, len(payload)-p)
	}
	dv := &DeletionVector{is64: true}
	last := int64(-1)
	for i := range count {
		if len(payload)-p < 4 {
			return nil, fmt.Errorf("%w: 64-bit deletion vector truncated before a key", ErrCorrupt)
		}
		key := int64(int32(binary.LittleEndian.Uint32(payload[p:])))
		p += 4
		switch {
		case key < 0:
			return nil, fmt.Errorf("%w: 64-bit deletion vector: invalid unsigned key %d", ErrCorrupt, key)
		case key > math.MaxInt32-1:
			return nil, fmt.Errorf("%w: 64-bit deletion vector: key %d is too large", ErrCorrupt, key)
		case key <= last:
			return nil, fmt.Errorf("%w: 64-bit deletion vector: keys not in ascending order", ErrCorrupt)
		}
		last = key
		if isEmptyBitmap(payload[p:]) {
			// Java's dense layout writes an empty bitmap for every key below
			// the largest; only the last one (which fixes the count written
			// back) needs keeping. Skipping the others keeps a file full of
			// them cheap to read.
			p += emptyBitmapBytes
			if i == count-1 {
				dv.keys = append(dv.keys, uint32(key))
				dv.bitmaps = append(dv.bitmaps, roaring.New())
			}
			continue
		}
		bm, n, err := readBitmap(payload[p:])
		if err != nil {
			return nil, fmt.Errorf("%w: 64-bit deletion vector, key %d: %v", ErrCorrupt, key, err)
		}
		p += n
		dv.keys = append(dv.keys, uint32(key))
		dv.bitmaps = append(dv.bitmaps, bm)
	}
	return dv, nil
}

// isEmptyBitmap reports whether b starts with the 8-byte serialization of an
// empty RoaringBitmap.
func isEmptyBitmap(b []byte) bool {
	return len(b) >= emptyBitmapBytes &&
		binary.LittleEndian.Uint32(b) == cookieNoRuns && binary.LittleEndian.Uint32(b[4:]) == 0
}

// readBitmap validates and decodes the portable RoaringBitmap at the start of
// b, returning it and its length. Bytes after it are ignored, as Java's
// ByteBuffer-based deserializers do.
func readBitmap(b []byte) (*roaring.Bitmap, int, error) {
	_, n, err := parseContainers(b)
	if err != nil {
		return nil, 0, err
	}
	bm := roaring.New()
	// bytes.Reader makes roaring copy the containers instead of aliasing b.
	if _, err := bm.ReadFrom(bytes.NewReader(b[:n])); err != nil {
		return nil, 0, err
	}
	return bm, n, nil
}
