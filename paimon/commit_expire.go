package paimon

import "context"

// expireAfterCommit runs the table's snapshot expiration after a commit,
// as Java's committers do (AbstractFileStoreTable.newExpireRunnable); it
// does nothing for write-only tables.
func (c *TableCommit) expireAfterCommit(ctx context.Context) ([]int64, error) {
	res, err := c.t.ExpireSnapshotsWithTableOptions(ctx)
	if res == nil {
		return nil, err
	}
	return res.Expired, err
}
