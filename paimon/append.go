package paimon

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/array"
)

// Append writes every batch of r to the table and commits them as one
// snapshot: NewWriter, Write per batch, PrepareCommit and Commit with a
// fresh commit user and BatchCommitIdentifier, as Java's batch
// BatchWriteBuilder does for one-off jobs. It is the call for scripts
// and backfills that run once.
//
// A job that may be re-run after a failure and must not add its rows twice
// uses NewWriter and NewCommit with a stable CommitOptions.User and
// increasing identifiers instead (exactly-once; see TableCommit.Commit):
// every Append is a new commit, so running one twice appends twice.
//
// A reader without rows commits nothing: the result's Empty is true and
// its Snapshot nil. On an error nothing is committed and the files written
// so far are removed. Append does not release r; batches it reads follow
// the RecordReader's rules.
func (t *Table) Append(ctx context.Context, r array.RecordReader) (*CommitResult, error) {
	// The committer first: a table it refuses gets no files written.
	c, err := t.NewCommit(nil)
	if err != nil {
		return nil, err
	}
	w, err := t.NewWriter(nil)
	if err != nil {
		return nil, err
	}
	defer w.Close(ctx)
	for r.Next() {
		if err := w.Write(ctx, r.RecordBatch()); err != nil {
			return nil, err
		}
	}
	if err := r.Err(); err != nil {
		return nil, fmt.Errorf("paimon: append: reading the input: %w", err)
	}
	msgs, err := w.PrepareCommit(ctx)
	if err != nil {
		return nil, err
	}
	return c.Commit(ctx, BatchCommitIdentifier, msgs)
}
