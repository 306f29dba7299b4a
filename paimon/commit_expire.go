package paimon

import "context"

// expireAfterCommit runs the table's snapshot expiration after a commit,
// as Java's committers do (AbstractFileStoreTable.newExpireRunnable); it
// does nothing for write-only tables.
//
// Snapshot ages are measured with the committer's clock
// (CommitOptions.Now), which stamps the snapshots.
func (c *TableCommit) expireAfterCommit(ctx context.Context) ([]int64, error) {
	wo, err := writeOnly(c.t.schema.Options)
	if err != nil || wo {
		return nil, err
	}
	res, err := c.t.ExpireSnapshots(ctx, &ExpireOptions{Now: c.cfg.now})
	if res == nil {
		return nil, err
	}
	return res.Expired, err
}
