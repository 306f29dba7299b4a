package paimon

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"strings"
	"time"

	"github.com/paimon-go/paimon-go/internal/coreoptions"
)

// expireAfterCommit runs the table's maintenance after a commit, as Java's
// TableCommitImpl.maintain does: consumers idle longer than
// consumer.expiration-time go first (so that they no longer hold
// snapshots), then snapshot expiration. It does nothing for write-only
// tables (Java passes neither to a write-only table's committer).
//
// Snapshot ages are measured with the committer's clock
// (CommitOptions.Now), which stamps the snapshots; consumer files are aged
// by their modification time against the same clock.
func (c *TableCommit) expireAfterCommit(ctx context.Context) ([]int64, error) {
	wo, err := writeOnly(c.t.schema.Options)
	if err != nil || wo {
		return nil, err
	}
	if err := c.t.expireConsumers(ctx, c.cfg.now()); err != nil {
		return nil, err
	}
	res, err := c.t.ExpireSnapshots(ctx, &ExpireOptions{Now: c.cfg.now})
	if res == nil {
		return nil, err
	}
	return res.Expired, err
}

// expireConsumers removes the branch's consumer files last written before
// now - consumer.expiration-time (Java ConsumerManager.expire: a consumer
// whose file's modification time is before that instant is deleted). Without
// the option consumers never expire. A file whose modification time the file
// system does not report is kept.
func (t *Table) expireConsumers(ctx context.Context, now time.Time) error {
	d, err := expireOptDuration(tableOptions(t.schema.Options), coreoptions.ConsumerExpirationTime, 0)
	if err != nil || d <= 0 {
		return err
	}
	cutoff := now.Add(-d)
	dir := t.meta.branchPath(consumerDir)
	for fi, err := range t.meta.fsys.List(ctx, dir) {
		if err != nil {
			return fmt.Errorf("paimon: list consumers of %s: %w", t.name(), err)
		}
		if fi.IsDir || !strings.HasPrefix(fi.Name, consumerPrefix) || fi.ModTime.IsZero() || !fi.ModTime.Before(cutoff) {
			continue
		}
		// Java deletes quietly: a consumer removed meanwhile is fine.
		if err := t.meta.fsys.Remove(ctx, dir+"/"+fi.Name); err != nil && !errors.Is(err, iofs.ErrNotExist) {
			return fmt.Errorf("paimon: expire consumer %s/%s: %w", dir, fi.Name, err)
		}
	}
	return nil
}
