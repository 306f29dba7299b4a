package index

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// IndexTypeHash is the index type of dynamic-bucket hash index files in the
// index manifest (HashIndexFile.HASH_INDEX).
const IndexTypeHash = "HASH"

// DecodeHashIndex decodes a hash index file: the key hashes of one bucket as
// consecutive big-endian int32 values, no header (Java IntFileUtils.readInts).
// The IndexFileMeta row count is the number of values. A length that is not a
// multiple of four is ErrCorrupt; Java would silently drop the partial value.
func DecodeHashIndex(data []byte) ([]int32, error) {
	if len(data)%4 != 0 {
		return nil, fmt.Errorf("%w: hash index of %d bytes is not a whole number of int32 values", ErrCorrupt, len(data))
	}
	out := make([]int32, len(data)/4)
	for i := range out {
		out[i] = int32(binary.BigEndian.Uint32(data[4*i:]))
	}
	return out, nil
}

// ReadHashIndex is DecodeHashIndex for a stream, for callers that do not want
// the whole file in memory first. It checks ctx between reads.
func ReadHashIndex(ctx context.Context, r io.Reader) ([]int32, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var out []int32
	var v [4]byte
	for i := 0; ; i++ {
		if i%(16<<10) == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		n, err := io.ReadFull(br, v[:])
		switch {
		case err == nil:
			out = append(out, int32(binary.BigEndian.Uint32(v[:])))
		case errors.Is(err, io.EOF):
			return out, nil
		case errors.Is(err, io.ErrUnexpectedEOF):
			return nil, fmt.Errorf("%w: hash index ends with a partial value of %d bytes", ErrCorrupt, n)
		default:
			return nil, err
		}
	}
}

// EncodeHashIndex returns the hash index file content for hashes, in the
// given order (Java IntFileUtils.writeInts).
func EncodeHashIndex(hashes []int32) []byte {
	return AppendHashIndex(make([]byte, 0, 4*len(hashes)), hashes)
}

// AppendHashIndex appends the hash index encoding of hashes to dst.
func AppendHashIndex(dst []byte, hashes []int32) []byte {
	for _, h := range hashes {
		dst = binary.BigEndian.AppendUint32(dst, uint32(h))
	}
	return dst
}
