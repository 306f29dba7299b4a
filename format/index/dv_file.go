package index

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

// IndexTypeDeletionVectors is the index type of deletion-vector index files in
// the index manifest (DeletionVectorsIndexFile.DELETION_VECTORS_INDEX).
const IndexTypeDeletionVectors = "DELETION_VECTORS"

// DefaultDVTargetFileSize is deletion-vector.index-file.target-size (2 MB),
// the rolling threshold Java uses for unaware-bucket append tables.
const DefaultDVTargetFileSize int64 = 2 << 20

// DVMeta locates the deletion vector of one data file inside an index file;
// it mirrors Java DeletionVectorMeta, an entry of IndexFileMeta's
// _DELETIONS_VECTORS_RANGES (f0 = DataFile, f1 = Offset, f2 = Length,
// _CARDINALITY).
//
// Offset is the position of the vector's size field (the first vector of a
// file starts at 1, after the version byte). Length differs by format, as in
// Java: for a 32-bit vector it is the size field's value (magic + bitmap,
// excluding the size and CRC fields); for a 64-bit vector it is the whole blob
// (4 + size + 4).
type DVMeta struct {
	DataFile string
	Offset   int32
	Length   int32
	// Cardinality is the number of deleted rows; nil in metadata written by
	// Paimon versions before it was recorded.
	Cardinality *int64
}

// ReadOptions tunes deletion-vector reads. The zero value (or nil) verifies
// everything.
type ReadOptions struct {
	// IgnoreChecksum skips the CRC32 check. Java never checks it (it skips the
	// four bytes); set this to accept files whose checksum is wrong but whose
	// bitmap is still well-formed, as Java would.
	IgnoreChecksum bool
}

// ReadDeletionVector reads the deletion vector stored at offset in an index
// file, given the offset and length recorded for it (Java
// DeletionVector.read(FileIO, DeletionFile)). Like Java's read path it does
// not look at the file's version byte; ReadAll does.
//
// Errors wrap ErrCorrupt when the bytes are malformed (bad magic, a size that
// disagrees with length, a CRC mismatch, a truncated or invalid bitmap) and
// are the reader's own errors otherwise. The message names neither file: the
// caller adds the index file's path.
func ReadDeletionVector(ctx context.Context, r io.ReaderAt, offset, length int64, opts *ReadOptions) (*DeletionVector, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if offset < 0 || length < 0 || length > math.MaxInt32 {
		return nil, fmt.Errorf("%w: deletion vector range (offset %d, length %d) is invalid", ErrCorrupt, offset, length)
	}
	var head [sizeFieldLen + magicLen]byte
	if err := readAt(r, head[:], offset); err != nil {
		return nil, err
	}
	size := int64(int32(binary.BigEndian.Uint32(head[:])))
	// The recorded length must agree with the size field (DeletionVector.read).
	switch {
	case binary.BigEndian.Uint32(head[4:]) == Magic32:
		if size != length {
			return nil, fmt.Errorf("%w: 32-bit deletion vector size %d does not match recorded length %d", ErrCorrupt, size, length)
		}
	case binary.LittleEndian.Uint32(head[4:]) == Magic64:
		if size != length-sizeFieldLen-crcFieldLen {
			return nil, fmt.Errorf("%w: 64-bit deletion vector size %d does not match recorded length %d (want length-8)", ErrCorrupt, size, length)
		}
	default:
		return nil, fmt.Errorf("%w: bad deletion vector magic %08x (want %08x big-endian or %08x little-endian)",
			ErrCorrupt, binary.BigEndian.Uint32(head[4:]), Magic32, Magic64)
	}
	if size < magicLen {
		return nil, fmt.Errorf("%w: deletion vector size %d is below the 4-byte magic", ErrCorrupt, size)
	}
	blob, err := readChunked(ctx, r, offset, sizeFieldLen+size+crcFieldLen)
	if err != nil {
		return nil, err
	}
	ignore := opts != nil && opts.IgnoreChecksum
	dv, _, err := decodeBlob(blob, !ignore)
	return dv, err
}

// ReadAll reads every deletion vector of an index file whose ranges are metas
// (Java DeletionVectorsIndexFile.readAllDeletionVectors), keyed by data file
// name. It checks the version byte, each range, and the recorded cardinality
// when there is one. Errors name the data file whose vector failed.
func ReadAll(ctx context.Context, r io.ReaderAt, metas []DVMeta, opts *ReadOptions) (map[string]*DeletionVector, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var version [1]byte
	if err := readAt(r, version[:], 0); err != nil {
		return nil, fmt.Errorf("index: reading deletion vector file version: %w", err)
	}
	if version[0] != DVFileVersion {
		return nil, fmt.Errorf("%w: deletion vector file version %d, want %d", ErrCorrupt, version[0], DVFileVersion)
	}
	out := make(map[string]*DeletionVector, len(metas))
	for _, m := range metas {
		dv, err := ReadDeletionVector(ctx, r, int64(m.Offset), int64(m.Length), opts)
		if err != nil {
			return nil, fmt.Errorf("deletion vector of %s: %w", m.DataFile, err)
		}
		if m.Cardinality != nil && *m.Cardinality != dv.Cardinality() {
			return nil, fmt.Errorf("%w: deletion vector of %s holds %d positions, metadata says %d",
				ErrCorrupt, m.DataFile, dv.Cardinality(), *m.Cardinality)
		}
		out[m.DataFile] = dv
	}
	return out, nil
}

// readAt fills p from offset, turning a short read at the end of the input into
// ErrCorrupt (the file is shorter than its metadata says).
func readAt(r io.ReaderAt, p []byte, offset int64) error {
	n, err := r.ReadAt(p, offset)
	if n == len(p) {
		return nil
	}
	if err == nil || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("%w: truncated: %d of %d bytes at offset %d", ErrCorrupt, n, len(p), offset)
	}
	return err
}

// readChunked reads n bytes at offset, growing its buffer a megabyte at a time
// so that a corrupt size field cannot make it allocate far more than the input
// holds.
func readChunked(ctx context.Context, r io.ReaderAt, offset, n int64) ([]byte, error) {
	const chunk = 1 << 20
	buf := make([]byte, 0, min(n, chunk))
	for int64(len(buf)) < n {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		step := min(n-int64(len(buf)), chunk)
		start := len(buf)
		buf = append(buf, make([]byte, step)...)
		if err := readAt(r, buf[start:], offset+int64(start)); err != nil {
			return nil, err
		}
	}
	return buf, nil
}

// DVWriter builds one deletion-vector index file in memory, as Java's
// DeletionFileWriter does: the version byte, then each vector in the order
// written, each in its own format (32- or 64-bit). Bytes and Metas give the
// file content and the ranges for its IndexFileMeta (file size = Size(), row
// count = len(Metas())).
type DVWriter struct {
	buf   []byte
	metas []DVMeta
	names map[string]bool
}

// NewDVWriter returns a writer holding only the version byte; written as is,
// that is the file Java writes for a bucket that no longer has deletion
// vectors.
func NewDVWriter() *DVWriter {
	return &DVWriter{buf: []byte{DVFileVersion}, names: map[string]bool{}}
}

// Write appends the deletion vector of dataFile. It fails if dataFile was
// already written or the file would exceed 2 GB (Java's int offsets).
func (w *DVWriter) Write(dataFile string, dv *DeletionVector) error {
	if dv == nil {
		return fmt.Errorf("index: nil deletion vector for %s", dataFile)
	}
	if w.names[dataFile] {
		return fmt.Errorf("index: deletion vector of %s written twice", dataFile)
	}
	start := len(w.buf)
	out, length, err := dv.appendBlob(w.buf)
	if err != nil {
		return fmt.Errorf("deletion vector of %s: %w", dataFile, err)
	}
	if len(out) > math.MaxInt32 {
		return fmt.Errorf("index: deletion vector file would exceed 2 GB with %s", dataFile)
	}
	w.buf = out
	card := dv.Cardinality()
	w.metas = append(w.metas, DVMeta{DataFile: dataFile, Offset: int32(start), Length: int32(length), Cardinality: &card})
	w.names[dataFile] = true
	return nil
}

// Size returns the number of bytes written so far (DeletionFileWriter.getPos).
func (w *DVWriter) Size() int64 { return int64(len(w.buf)) }

// Bytes returns the file content. The slice aliases the writer's buffer until
// the next Write.
func (w *DVWriter) Bytes() []byte { return w.buf }

// Metas returns the ranges of the vectors written, in order.
func (w *DVWriter) Metas() []DVMeta { return w.metas }

// NamedDV pairs a data file name with its deletion vector.
type NamedDV struct {
	DataFile string
	DV       *DeletionVector
}

// DVFile is one deletion-vector index file produced by WriteRolling.
type DVFile struct {
	Data  []byte
	Metas []DVMeta
}

// WriteRolling writes vectors into as many files as needed, in order: a file
// is closed as soon as its size exceeds targetSize, after the vector that
// crossed it (Java DeletionVectorIndexFileWriter.writeWithRolling). No input
// gives no file; use NewDVWriter for Java's writeSingleFile, which writes a
// version-only file for an empty input.
func WriteRolling(vectors []NamedDV, targetSize int64) ([]DVFile, error) {
	var files []DVFile
	var w *DVWriter
	for _, v := range vectors {
		if w == nil {
			w = NewDVWriter()
		}
		if err := w.Write(v.DataFile, v.DV); err != nil {
			return nil, err
		}
		if w.Size() > targetSize {
			files = append(files, DVFile{Data: w.Bytes(), Metas: w.Metas()})
			w = nil
		}
	}
	if w != nil {
		files = append(files, DVFile{Data: w.Bytes(), Metas: w.Metas()})
	}
	return files, nil
}
