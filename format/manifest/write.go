package manifest

import (
	"errors"
	"fmt"
	"io"

	"github.com/paimon-go/paimon-go/internal/avro"
)

// DefaultCompression is the default of Paimon's manifest.compression option
// (since 0.9; older tables used snappy).
const DefaultCompression = "zstd"

// WriteOptions configures the writers. A nil *WriteOptions means defaults.
type WriteOptions struct {
	// Compression is the manifest.compression table option: "zstd"
	// (written as the Avro codec "zstandard", like Java), "snappy",
	// "deflate", "null", or an Avro codec name. Empty means
	// DefaultCompression.
	Compression string
	// ZstdLevel is the file.compression.zstd-level table option; 0 means
	// Paimon's default level 1.
	ZstdLevel int
}

// Writer writes the records of one manifest list, manifest or index manifest.
// It is not safe for concurrent use. Close must be called to complete the
// file.
type Writer[T any] struct {
	w      *avro.Writer
	encode func(*avro.Writer, *T) error
	n      int
	err    error
}

// Write appends one record. A record failing validation (wrapping
// ErrInvalid) is not written and the Writer stays usable; after an I/O
// error every later call fails.
func (w *Writer[T]) Write(v T) error {
	if w.err != nil {
		return w.err
	}
	if err := w.encode(w.w, &v); err != nil {
		err = fmt.Errorf("record %d: %w", w.n, err)
		if !errors.Is(err, ErrInvalid) {
			w.err = err
		}
		return err
	}
	w.n++
	return nil
}

// Close flushes the last block. It does not close the underlying io.Writer.
func (w *Writer[T]) Close() error {
	if err := w.w.Close(); err != nil {
		return fmt.Errorf("manifest: %w", err)
	}
	return w.err
}

// NewManifestWriter writes a manifest header to w and returns a Writer for
// its entries.
func NewManifestWriter(w io.Writer, opts *WriteOptions) (*Writer[ManifestEntry], error) {
	return newWriter(w, manifestEntrySchema, opts, encodeManifestEntry)
}

// NewManifestListWriter writes a manifest list header to w and returns a
// Writer for its manifest file metas.
func NewManifestListWriter(w io.Writer, opts *WriteOptions) (*Writer[ManifestFileMeta], error) {
	return newWriter(w, manifestFileMetaSchema, opts, encodeManifestFileMeta)
}

// NewIndexManifestWriter writes an index manifest header to w and returns a
// Writer for its entries.
func NewIndexManifestWriter(w io.Writer, opts *WriteOptions) (*Writer[IndexManifestEntry], error) {
	return newWriter(w, indexManifestEntrySchema, opts, encodeIndexManifestEntry)
}

// WriteManifest writes a complete manifest file holding entries.
func WriteManifest(w io.Writer, entries []ManifestEntry, opts *WriteOptions) error {
	wr, err := NewManifestWriter(w, opts)
	return writeAll(wr, err, entries)
}

// WriteManifestList writes a complete manifest list holding metas.
func WriteManifestList(w io.Writer, metas []ManifestFileMeta, opts *WriteOptions) error {
	wr, err := NewManifestListWriter(w, opts)
	return writeAll(wr, err, metas)
}

// WriteIndexManifest writes a complete index manifest holding entries.
func WriteIndexManifest(w io.Writer, entries []IndexManifestEntry, opts *WriteOptions) error {
	wr, err := NewIndexManifestWriter(w, opts)
	return writeAll(wr, err, entries)
}

func writeAll[T any](wr *Writer[T], err error, vs []T) error {
	if err != nil {
		return err
	}
	for i := range vs {
		if err := wr.Write(vs[i]); err != nil {
			_ = wr.w.Close() // the file is abandoned; only release the codec
			return err
		}
	}
	return wr.Close()
}

func newWriter[T any](w io.Writer, s *avro.Schema, opts *WriteOptions, encode func(*avro.Writer, *T) error) (*Writer[T], error) {
	o := WriteOptions{Compression: DefaultCompression}
	if opts != nil {
		o = *opts
		if o.Compression == "" {
			o.Compression = DefaultCompression
		}
	}
	aw, err := avro.NewWriter(w, s, &avro.WriterOptions{Codec: o.Compression, ZstdLevel: o.ZstdLevel})
	if err != nil {
		return nil, fmt.Errorf("manifest: %w", err)
	}
	return &Writer[T]{w: aw, encode: encode}, nil
}

func encodeManifestEntry(w *avro.Writer, e *ManifestEntry) error {
	if err := checkWritableManifestEntry(e); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	rec := manifestEntryRecord{Version: manifestEntryVersion, ManifestEntry: *e}
	return encodeRecord(w, &rec)
}

func encodeManifestFileMeta(w *avro.Writer, m *ManifestFileMeta) error {
	if err := checkWritableManifestFileMeta(m); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	rec := manifestFileMetaRecord{Version: manifestFileMetaVersion, ManifestFileMeta: *m}
	return encodeRecord(w, &rec)
}

func encodeIndexManifestEntry(w *avro.Writer, e *IndexManifestEntry) error {
	if err := checkWritableIndexManifestEntry(e); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	rec := indexManifestEntryRecord{Version: indexManifestEntryVersion, IndexManifestEntry: *e}
	return encodeRecord(w, &rec)
}

// encodeRecord encodes one record. The Avro library rejects a record before
// writing any of it (our structs always fit the schema, so in practice only
// I/O and compression fail), and reports other failures as they come.
func encodeRecord(w *avro.Writer, rec any) error {
	if err := w.Encode(rec); err != nil {
		return fmt.Errorf("manifest: %w", err)
	}
	return nil
}
