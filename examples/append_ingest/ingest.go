package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/paimon-go/paimon-go/catalog"
	"github.com/paimon-go/paimon-go/paimon"
)

// ingester holds one run's table, writer, committer and state.
type ingester struct {
	cfg    *config
	out    io.Writer
	tbl    *paimon.Table
	writer *paimon.TableWriter
	commit *paimon.TableCommit
	st     *state
	gen    *generator

	// rows written to the writer (or buffered) since the last commit, and
	// the source position after them
	uncommitted int64
	commits     int
	committed   int64
}

// ingest runs the ingester until cfg.duration passes, cfg.maxCommits
// commits are made or ctx ends, then
// commits what it has and returns.
func ingest(ctx context.Context, cfg *config, out io.Writer) error {
	cat, err := catalog.Open(ctx, cfg.warehouse, nil)
	if err != nil {
		return err
	}
	defer cat.Close()
	tbl, err := openTable(ctx, cat, cfg.table)
	if err != nil {
		return err
	}
	// One TableCommit for the whole run, under the stable user: the user
	// and the identifiers are what make commits idempotent.
	commit, err := tbl.NewCommit(&paimon.CommitOptions{User: cfg.user})
	if err != nil {
		return err
	}
	st, err := loadState(cfg.statePath)
	if err != nil {
		return err
	}
	in := &ingester{cfg: cfg, out: out, tbl: tbl, commit: commit, st: st}
	fmt.Fprintf(out, "ingesting into %s (warehouse %s) as commit user %q, committing every %s\n",
		cfg.table, cfg.warehouse, cfg.user, cfg.interval)
	fmt.Fprintf(out, "state %s: next commit identifier %d, next row id %d\n", cfg.statePath, st.NextIdentifier, st.NextRowID)
	if err := in.settlePending(ctx); err != nil {
		return err
	}

	if in.writer, err = tbl.NewWriter(nil); err != nil {
		return err
	}
	defer func() { in.writer.Close(context.WithoutCancel(ctx)) }()
	in.gen = newGenerator(in.writer.ArrowSchema(), st.NextRowID, time.Now)
	defer in.gen.release()

	if err := in.loop(ctx); err != nil {
		return err
	}
	plan, err := tbl.NewScan().Plan(context.WithoutCancel(ctx))
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "done: %d commits, %d rows this run; snapshot %d of %s holds %d rows\n",
		in.commits, in.committed, plan.SnapshotID, cfg.table, plan.Stats.RowCount)
	return nil
}

// openTable loads the table, creating the database and table on the first
// run.
func openTable(ctx context.Context, cat catalog.Catalog, id paimon.Identifier) (*paimon.Table, error) {
	tbl, err := cat.LoadTable(ctx, id)
	if !errors.Is(err, catalog.ErrTableNotFound) {
		return tbl, err
	}
	ddl, ok := cat.(catalog.DDL)
	if !ok {
		return nil, fmt.Errorf("table %s does not exist and the catalog cannot create it", id)
	}
	s, err := eventsSchema()
	if err != nil {
		return nil, err
	}
	if err := ddl.CreateDatabase(ctx, id.Database, true); err != nil {
		return nil, err
	}
	// ignoreIfExists: another ingester may have created it meanwhile.
	if err := ddl.CreateTable(ctx, id, s, true); err != nil {
		return nil, err
	}
	return cat.LoadTable(ctx, id)
}

// loop generates rows every tick and commits every interval. ctx only
// tells it to stop (Ctrl-C): writes and commits run under a context
// without that cancellation, so a commit under way when the signal comes
// finishes, and the rows written so far are committed before returning.
// (A production ingester would bound that with a shutdown timeout; a
// commit cut short is settled by the next run, see settlePending.)
func (in *ingester) loop(ctx context.Context) error {
	work := context.WithoutCancel(ctx)
	var deadline <-chan time.Time
	if in.cfg.duration > 0 {
		timer := time.NewTimer(in.cfg.duration)
		defer timer.Stop()
		deadline = timer.C
	}
	ticks := time.NewTicker(in.cfg.tick)
	defer ticks.Stop()
	commits := time.NewTicker(in.cfg.interval)
	defer commits.Stop()
	for {
		select {
		case <-ticks.C:
			in.gen.generate(in.cfg.rowsPerTick)
			in.uncommitted += int64(in.cfg.rowsPerTick)
			if in.gen.buffered() >= in.cfg.batchRows {
				if err := in.flush(work); err != nil {
					return err
				}
			}
		case <-commits.C:
			if err := in.commitNow(work); err != nil {
				return err
			}
			if in.cfg.maxCommits > 0 && in.commits >= in.cfg.maxCommits {
				fmt.Fprintf(in.out, "stopping after %d commits\n", in.commits)
				return nil
			}
		case <-deadline:
			fmt.Fprintf(in.out, "stopping after %s\n", in.cfg.duration)
			return in.commitNow(work)
		case <-ctx.Done():
			fmt.Fprintln(in.out, "interrupted: committing what was written")
			return in.commitNow(work)
		}
	}
}

// flush hands the buffered rows to the writer as one Arrow batch.
func (in *ingester) flush(ctx context.Context) error {
	batch := in.gen.batch()
	if batch == nil {
		return nil
	}
	defer batch.Release()
	return in.writer.Write(ctx, batch)
}

// commitNow writes the buffered rows, prepares the commit, records it in
// the state, commits it and records the outcome. An interval without rows
// commits nothing and uses no identifier.
func (in *ingester) commitNow(ctx context.Context) error {
	if err := in.flush(ctx); err != nil {
		return err
	}
	msgs, err := in.writer.PrepareCommit(ctx)
	if err != nil {
		return err
	}
	if len(msgs) == 0 {
		return nil
	}
	id := in.st.NextIdentifier
	p, err := newPending(id, in.uncommitted, in.gen.nextID, msgs)
	if err != nil {
		return err
	}
	in.st.Pending = p
	if err := in.st.save(in.cfg.statePath); err != nil {
		return err
	}
	if err := in.crashPoint("before-commit", id); err != nil {
		return err
	}
	res, err := in.commit.Commit(ctx, id, msgs)
	if err != nil {
		return fmt.Errorf("commit %d: %w", id, err)
	}
	if err := in.crashPoint("after-commit", id); err != nil {
		return err
	}
	if err := in.finish(p); err != nil {
		return err
	}
	in.commits++
	in.committed += p.Rows
	in.uncommitted = 0
	fmt.Fprintf(in.out, "commit %d: %d rows (ids %d..%d) -> snapshot %d\n",
		id, p.Rows, p.NextRowID-p.Rows, p.NextRowID-1, res.Snapshot.ID)
	return nil
}

// finish records that the pending commit is in the table.
func (in *ingester) finish(p *pending) error {
	in.st.Pending = nil
	in.st.NextIdentifier = p.Identifier + 1
	in.st.NextRowID = p.NextRowID
	return in.st.save(in.cfg.statePath)
}

func (in *ingester) crashPoint(stage string, id int64) error {
	if in.cfg.crash == nil {
		return nil
	}
	return in.cfg.crash(stage, id)
}
