package manifest

import (
	"errors"
	"fmt"
	"io"

	"github.com/paimon-go/paimon-go/internal/avro"
)

// Reader schemas of manifest lists and index manifests: the 1.4.2 writer
// schemas. Resolution against each file's own writer schema fills fields
// the file lacks with null and skips fields this version does not know.
// Manifest entries are decoded by an entryProgram instead (entry_program.go),
// with the same rules.
var (
	manifestEntrySchema      = avro.MustParseSchema(manifestEntrySchemaJSON) // written; read by entryProgram
	manifestFileMetaSchema   = avro.MustParseSchema(manifestFileMetaSchemaJSON)
	indexManifestEntrySchema = avro.MustParseSchema(indexManifestEntrySchemaJSON)
)

// Reader streams the records of one manifest list, manifest or index
// manifest. It holds one Avro block in memory at a time. A Reader is not
// safe for concurrent use.
type Reader[T any] struct {
	next  func(*T) error // decodes the next record, io.EOF after the last
	close func() error
	n     int // records returned so far
	err   error
}

// Next returns the next record, or io.EOF after the last one. After any
// other error the Reader is unusable and Next keeps returning that error.
// The returned value shares nothing with later records.
func (r *Reader[T]) Next() (T, error) {
	var v T
	if r.err != nil {
		return v, r.err
	}
	if err := r.next(&v); err != nil {
		var zero T
		r.err = err
		return zero, err
	}
	r.n++
	return v, nil
}

// Close releases the Reader's resources. It does not close the underlying
// io.Reader.
func (r *Reader[T]) Close() error { return r.close() }

// NewManifestReader reads the header of a manifest file from r and returns a
// Reader of its entries.
func NewManifestReader(r io.Reader) (*Reader[ManifestEntry], error) {
	d, err := newEntryDecoder(r)
	if err != nil {
		return nil, err
	}
	return &Reader[ManifestEntry]{next: d.next, close: d.close}, nil
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

// ReadManifest decodes all entries of a manifest file. The bytes fields of
// the entries of one Avro block are views of one copy of that block (no two
// fields overlap), so an entry kept keeps its block's memory alive.
func ReadManifest(r io.Reader) ([]ManifestEntry, error) {
	return ReadManifestN(r, 0)
}

// ReadManifestN is ReadManifest for a caller that expects n entries (the
// NumAddedFiles + NumDeletedFiles its manifest list records): the result is
// allocated once. n is only a hint; 0 means unknown, and a wrong n costs a
// copy, never a wrong result. Callers bound n by what the file can hold.
func ReadManifestN(r io.Reader, n int) ([]ManifestEntry, error) {
	d, err := newEntryDecoder(r)
	if err != nil {
		return nil, err
	}
	defer d.close()
	if n > 0 {
		return d.readInto(make([]ManifestEntry, 0, n))
	}
	// Unknown size: decode each block into its own exactly sized slice and
	// join them once at the end. Entries are large, and growing one slice
	// block by block would copy them over and over.
	var blocks [][]ManifestEntry
	total := 0
	for {
		n, err := d.nextBlock()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		b := make([]ManifestEntry, n)
		for i := range b {
			if err := d.decode(&b[i]); err != nil {
				return nil, err
			}
		}
		blocks = append(blocks, b)
		total += n
	}
	switch len(blocks) {
	case 0:
		return nil, nil
	case 1:
		return blocks[0], nil
	}
	out := make([]ManifestEntry, 0, total)
	for _, b := range blocks {
		out = append(out, b...)
	}
	return out, nil
}

// ReadManifestList decodes all records of a manifest list.
func ReadManifestList(r io.Reader) ([]ManifestFileMeta, error) {
	return readAll(NewManifestListReader(r))
}

// ReadIndexManifest decodes all entries of an index manifest.
func ReadIndexManifest(r io.Reader) ([]IndexManifestEntry, error) {
	return readAll(NewIndexManifestReader(r))
}

// newReader reads records with internal/avro's reflective Reader, resolved
// against the reader schema s.
func newReader[T any](r io.Reader, s *avro.Schema, decode func(*avro.Reader) (T, error)) (*Reader[T], error) {
	ar, err := avro.NewReader(r, s)
	if err != nil {
		return nil, classify(err)
	}
	rd := &Reader[T]{close: ar.Close}
	rd.next = func(v *T) error {
		var err error
		*v, err = decode(ar)
		if err != nil && err != io.EOF {
			err = fmt.Errorf("record %d: %w", rd.n, err)
		}
		return err
	}
	return rd, nil
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
