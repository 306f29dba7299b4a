package paimon

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/paimon-go/paimon-go/format/manifest"
)

// ErrInvalidCommitMessage reports bytes that UnmarshalBinary cannot decode
// as a CommitMessage, or a message that does not fit the table.
var ErrInvalidCommitMessage = errors.New("paimon: invalid commit message")

// CommitMessage is what a TableWriter hands to a TableCommit: the data files
// it wrote into one partition and bucket (Java CommitMessageImpl with its
// DataIncrement). Messages are serializable, so many writers in other
// goroutines, processes or machines can feed one committer.
type CommitMessage struct {
	// Partition is the partition's BinaryRow in the serialized form
	// manifests store (empty row for an unpartitioned table).
	Partition []byte
	// Bucket is the bucket the files belong to (0 for bucket-unaware
	// tables).
	Bucket int32
	// TotalBuckets is the table's bucket count when the files were
	// written (-1 for bucket-unaware tables).
	TotalBuckets int32
	// NewFiles are the data files to add, in write order.
	NewFiles []manifest.DataFileMeta
	// Compact is the compaction of the bucket, if any (Java
	// CommitMessageImpl.compactIncrement): committed in a COMPACT snapshot
	// after the APPEND snapshot of NewFiles.
	Compact *CompactIncrement `json:",omitempty"`
	// ChangelogFiles are the changelog files to add (primary-key tables
	// with changelog-producer = input), in write order.
	ChangelogFiles []manifest.DataFileMeta `json:",omitempty"`
	// NewIndexFiles are index files to add: the new HASH index of a
	// dynamic-bucket table's bucket, which replaces the bucket's previous
	// one (Java's BucketedCombiner).
	NewIndexFiles []manifest.IndexFileMeta `json:",omitempty"`
	// IndexBase lists the live HASH index files of the partition when the
	// writer loaded its bucket assignment (dynamic buckets). The commit
	// refuses the message if they changed since: another writer may have
	// put the same new key into another bucket.
	IndexBase []string `json:",omitempty"`
	// CheckFromSnapshot, when not 0, is the snapshot a column update of a
	// data-evolution table was computed from (ColumnUpdate; Java's
	// rowIdCheckConflict, pypaimon's check_from_snapshot): the commit
	// fails with ErrCommitConflict if a later snapshot other than a
	// compaction added files over the row ids of NewFiles.
	CheckFromSnapshot int64 `json:",omitempty"`
}

// commitMessageMagic starts every serialized message; the last byte is
// the format version.
var commitMessageMagic = []byte("PGCM\x01")

// MarshalBinary encodes the message as a versioned header followed by JSON.
func (m CommitMessage) MarshalBinary() ([]byte, error) {
	body, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("paimon: encode commit message: %w", err)
	}
	return append(append([]byte(nil), commitMessageMagic...), body...), nil
}

// UnmarshalBinary decodes what MarshalBinary produced. Bytes of another
// version or shape fail with ErrInvalidCommitMessage.
func (m *CommitMessage) UnmarshalBinary(b []byte) error {
	if !bytes.HasPrefix(b, commitMessageMagic) {
		return fmt.Errorf("%w: missing header", ErrInvalidCommitMessage)
	}
	var out CommitMessage
	dec := json.NewDecoder(bytes.NewReader(b[len(commitMessageMagic):]))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&out); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidCommitMessage, err)
	}
	*m = out
	return nil
}
