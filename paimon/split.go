package paimon

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/paimon-go/paimon-go/format/manifest"
)

// ErrInvalidSplit reports bytes given to Split.UnmarshalBinary that are not a
// split this library wrote.
var ErrInvalidSplit = errors.New("paimon: invalid split encoding")

// Split is a unit of reading work: data files of one partition and bucket of
// one snapshot. It mirrors Java org.apache.paimon.table.source.DataSplit.
// Splits are plain values: a planner serialises them with MarshalBinary and
// ships them to workers, which read them with Scan.ReadSplits on a Scan built
// with the same options.
type Split struct {
	// SnapshotID is the snapshot the split was planned from.
	SnapshotID int64 `json:"snapshotId"`
	// Partition is the serialized partition BinaryRow (arity prefix, then
	// the row), as in manifest entries.
	Partition []byte `json:"partition"`
	// Bucket is the bucket number.
	Bucket int32 `json:"bucket"`
	// TotalBuckets is the bucket count the files were written with (-1 for
	// unaware and dynamic buckets).
	TotalBuckets int32 `json:"totalBuckets"`
	// BucketPath is the directory of the data files relative to the table
	// root, e.g. "dt=2024-01-01/bucket-0".
	BucketPath string `json:"bucketPath"`
	// Files are the data files to read, in reading order.
	Files []manifest.DataFileMeta `json:"files"`
	// DeletionFiles has one entry per file (nil when no deletion vector
	// applies) or is nil when no file of the split has one.
	DeletionFiles []*DeletionFile `json:"deletionFiles,omitempty"`
	// RawConvertible is true when the files can be read one after the
	// other without merging (always true for append tables).
	RawConvertible bool `json:"rawConvertible"`
	// Branch names the branch the files belong to when it is not the
	// scanned table's own: the fallback or primary branch of a table with
	// scan.fallback-branch or scan.primary-branch. SnapshotID is then that
	// branch's snapshot.
	Branch string `json:"branch,omitempty"`
}

// DeletionFile locates the deletion vector of one data file inside an index
// file (Java org.apache.paimon.table.source.DeletionFile).
type DeletionFile struct {
	// Path is the index file's path relative to the table root, or an
	// absolute URI for external index files.
	Path string `json:"path"`
	// Offset and Length delimit the serialized vector in the index file.
	Offset int64 `json:"offset"`
	Length int64 `json:"length"`
	// Cardinality is the number of deleted rows, -1 when unknown.
	Cardinality int64 `json:"cardinality"`
}

// RowCount is the number of rows the split's files hold before merging,
// deletion vectors and filters.
func (s *Split) RowCount() int64 {
	var n int64
	for i := range s.Files {
		n += s.Files[i].RowCount
	}
	return n
}

// FileSize is the total size of the split's files in bytes.
func (s *Split) FileSize() int64 {
	var n int64
	for i := range s.Files {
		n += s.Files[i].FileSize
	}
	return n
}

// splitMagic starts every encoded split; the last byte is the encoding
// version.
var splitMagic = []byte{'P', 'G', 'S', 'P', 1}

// MarshalBinary encodes the split: a 5-byte header (magic and version) then
// JSON. The encoding is stable across releases of this library that share
// the version byte.
func (s *Split) MarshalBinary() ([]byte, error) {
	body, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("paimon: encode split: %w", err)
	}
	return append(append([]byte(nil), splitMagic...), body...), nil
}

// UnmarshalBinary decodes a split written by MarshalBinary. Errors wrap
// ErrInvalidSplit.
func (s *Split) UnmarshalBinary(b []byte) error {
	if len(b) < len(splitMagic) || !bytes.Equal(b[:len(splitMagic)-1], splitMagic[:len(splitMagic)-1]) {
		return fmt.Errorf("%w: missing header", ErrInvalidSplit)
	}
	if v := b[len(splitMagic)-1]; v != splitMagic[len(splitMagic)-1] {
		return fmt.Errorf("%w: unknown version %d", ErrInvalidSplit, v)
	}
	var out Split
	dec := json.NewDecoder(bytes.NewReader(b[len(splitMagic):]))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&out); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidSplit, err)
	}
	if dec.More() {
		return fmt.Errorf("%w: trailing data", ErrInvalidSplit)
	}
	if out.DeletionFiles != nil && len(out.DeletionFiles) != len(out.Files) {
		return fmt.Errorf("%w: %d deletion files for %d data files", ErrInvalidSplit, len(out.DeletionFiles), len(out.Files))
	}
	*s = out
	return nil
}
