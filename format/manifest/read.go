package manifest

import (
	"errors"
	"fmt"
	"io"

	"github.com/paimon-go/paimon-go/internal/avro"
)

// Reader schemas: the 1.4.2 writer schemas. Resolution against each file's
// own writer schema fills fields the file lacks with null and skips fields
// this version does not know.
var (
	manifestEntrySchema      = avro.MustParseSchema(manifestEntrySchemaJSON)
	manifestFileMetaSchema   = avro.MustParseSchema(manifestFileMetaSchemaJSON)
	indexManifestEntrySchema = avro.MustParseSchema(indexManifestEntrySchemaJSON)
)

// Reader streams the records of one manifest list, manifest or index
// manifest. It holds one Avro block in memory at a time. A Reader is not
// safe for concurrent use.
type Reader[T any] struct {
	r      *avro.Reader
	decode func(*avro.Reader) (T, error)
	n      int // records returned so far
	err    error
}

// Next returns the next record, or io.EOF after the last one. After any
// other error the Reader is unusable and Next keeps returning that error.
// The returned value shares nothing with later records.
func (r *Reader[T]) Next() (T, error) {
	var zero T
	if r.err != nil {
		return zero, r.err
	}
	v, err := r.decode(r.r)
	if err != nil {
		if err != io.EOF {
			err = fmt.Errorf("record %d: %w", r.n, err)
		}
		r.err = err
		return zero, err
	}
	r.n++
	return v, nil
}

// Close releases the Reader's resources. It does not close the underlying
// io.Reader.
func (r *Reader[T]) Close() error { return r.r.Close() }

// NewManifestReader reads the header of a manifest file from r and returns a
// Reader of its entries.
func NewManifestReader(r io.Reader) (*Reader[ManifestEntry], error) {
	return newReader(r, manifestEntrySchema, decodeManifestEntry)
}

// NewManifestListReader reads the header of a manifest list from r and
// returns a Reader of its manifest file metas.
func NewManifestListReader(r io.Reader) (*Reader[ManifestFileMeta], error) {
	return newReader(r, manifestFileMetaSchema, decodeManifestFileMeta)
}

// NewIndexManifestReader reads the header of an index manifest from r and
// returns a Reader of its entries.
func NewIndexManifestReader(r io.Reader) (*Reader[IndexManifestEntry], error) {
	return newReader(r, indexManifestEntrySchema, decodeIndexManifestEntry)
}

// ReadManifest decodes all entries of a manifest file.
func ReadManifest(r io.Reader) ([]ManifestEntry, error) {
	return readAll(NewManifestReader(r))
}

// ReadManifestList decodes all records of a manifest list.
func ReadManifestList(r io.Reader) ([]ManifestFileMeta, error) {
	return readAll(NewManifestListReader(r))
}

// ReadIndexManifest decodes all entries of an index manifest.
func ReadIndexManifest(r io.Reader) ([]IndexManifestEntry, error) {
	return readAll(NewIndexManifestReader(r))
}

func newReader[T any](r io.Reader, s *avro.Schema, decode func(*avro.Reader) (T, error)) (*Reader[T], error) {
	ar, err := avro.NewReader(r, s)
	if err != nil {
		return nil, classify(err)
	}
	return &Reader[T]{r: ar, decode: decode}, nil
}

func readAll[T any](r *Reader[T], err error) ([]T, error) {
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var out []T
	for {
		v, err := r.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
}

// classify maps an error of internal/avro to this package's sentinels;
// errors of the underlying io.Reader pass through.
func classify(err error) error {
	if errors.Is(err, avro.ErrCorrupt) {
		return fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	return fmt.Errorf("manifest: %w", err)
}

// checkVersion mirrors the version checks of ManifestEntrySerializer and
// ManifestFileMetaSerializer (want 2; 1 is the pre-Paimon format).
func checkVersion(got, want int32) error {
	switch {
	case got == want:
		return nil
	case got == 1 && want == 2:
		return fmt.Errorf("%w: version 1 is not compatible with version 2, please recreate the table", ErrUnsupportedVersion)
	default:
		return fmt.Errorf("%w: %d (want %d)", ErrUnsupportedVersion, got, want)
	}
}

func corruptf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrCorrupt}, args...)...)
}

func decodeManifestEntry(ar *avro.Reader) (ManifestEntry, error) {
	var rec manifestEntryRecord
	if err := ar.Decode(&rec); err != nil {
		if err == io.EOF {
			return ManifestEntry{}, err
		}
		return ManifestEntry{}, classify(err)
	}
	if err := checkVersion(rec.Version, manifestEntryVersion); err != nil {
		return ManifestEntry{}, err
	}
	if err := checkManifestEntry(&rec.ManifestEntry); err != nil {
		return ManifestEntry{}, fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	return rec.ManifestEntry, nil
}

func decodeManifestFileMeta(ar *avro.Reader) (ManifestFileMeta, error) {
	var rec manifestFileMetaRecord
	if err := ar.Decode(&rec); err != nil {
		if err == io.EOF {
			return ManifestFileMeta{}, err
		}
		return ManifestFileMeta{}, classify(err)
	}
	if err := checkVersion(rec.Version, manifestFileMetaVersion); err != nil {
		return ManifestFileMeta{}, err
	}
	if err := checkManifestFileMeta(&rec.ManifestFileMeta); err != nil {
		return ManifestFileMeta{}, fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	return rec.ManifestFileMeta, nil
}

func decodeIndexManifestEntry(ar *avro.Reader) (IndexManifestEntry, error) {
	var rec indexManifestEntryRecord
	if err := ar.Decode(&rec); err != nil {
		if err == io.EOF {
			return IndexManifestEntry{}, err
		}
		return IndexManifestEntry{}, classify(err)
	}
	if err := checkVersion(rec.Version, indexManifestEntryVersion); err != nil {
		return IndexManifestEntry{}, err
	}
	if err := checkIndexManifestEntry(&rec.IndexManifestEntry); err != nil {
		return IndexManifestEntry{}, fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	return rec.IndexManifestEntry, nil
}
