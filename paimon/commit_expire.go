package paimon

import "context"

// expireAfterCommit runs the table's snapshot expiration after a commit,
// as Java's committers do unless write-only is set.
func (c *TableCommit) expireAfterCommit(ctx context.Context) ([]int64, error) {
	return nil, nil // wired to ExpireSnapshots once it lands
}
