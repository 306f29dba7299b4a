package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/paimon-go/paimon-go/catalog"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/paimon"
)

// customersSchema is the table: one row per customer id. The default merge
// engine (deduplicate) keeps the latest row of a key; a -D row removes it.
func customersSchema() (*schema.Schema, error) {
	return schema.NewSchemaBuilder().
		Column("id", schema.BigIntType().NotNull()).
		Column("name", schema.StringType()).
		Column("email", schema.StringType()).
		Column("balance", schema.BigIntType()).
		PrimaryKey("id").
		Option(paimon.OptionBucket, "4").
		Comment("customers, kept current by change events").
		Build()
}

// consumer is one run: its table, writer, committer and state.
type consumer struct {
	cfg    *config
	out    io.Writer
	tbl    *paimon.Table
	writer *paimon.TableWriter
	commit *paimon.TableCommit
	st     *state

	rows     *array.RecordBuilder // pending rows, with the "op" column
	buffered int                  // events in rows
	written  int64                // events written since the last commit
	offset   int64                // offset of the next event read
	commits  int
}

// consume settles what the previous run left and applies the events after
// the checkpoint, committing every cfg.every events and at the end.
func consume(ctx context.Context, cfg *config, out io.Writer) error {
	cat, err := catalog.Open(ctx, cfg.warehouse, nil)
	if err != nil {
		return err
	}
	defer cat.Close()
	tbl, err := openTable(ctx, cat, cfg.table)
	if err != nil {
		return err
	}
	commit, err := tbl.NewCommit(&paimon.CommitOptions{User: cfg.user})
	if err != nil {
		return err
	}
	st, err := loadState(cfg.statePath)
	if err != nil {
		return err
	}
	c := &consumer{cfg: cfg, out: out, tbl: tbl, commit: commit, st: st}
	if err := c.settlePending(ctx); err != nil {
		return err
	}
	// A writer takes the row kinds from the batch's "op" column, which is
	// not a column of the table.
	if c.writer, err = tbl.NewWriter(&paimon.WriterOptions{RowKindColumn: "op"}); err != nil {
		return err
	}
	defer c.writer.Close(context.WithoutCancel(ctx))
	sch := arrow.NewSchema(append(c.writer.ArrowSchema().Fields(), arrow.Field{Name: "op", Type: arrow.BinaryTypes.String}), nil)
	c.rows = array.NewRecordBuilder(memory.DefaultAllocator, sch)
	defer c.rows.Release()

	f, err := os.Open(cfg.events)
	if err != nil {
		return err
	}
	defer f.Close()
	events, err := openEvents(f, st.NextOffset)
	if err != nil {
		return err
	}
	c.offset = st.NextOffset
	fmt.Fprintf(out, "applying %s from offset %d to %s as commit user %q\n", cfg.events, c.offset, cfg.table, cfg.user)
	work := context.WithoutCancel(ctx) // a commit under way finishes on Ctrl-C
	for ctx.Err() == nil {
		e, err := events.next()
		if err != nil {
			return err
		}
		if e == nil {
			break
		}
		if err := c.add(e, events.offset-1); err != nil {
			return err
		}
		c.offset = events.offset
		if c.buffered >= cfg.batch {
			if err := c.flush(work); err != nil {
				return err
			}
		}
		if c.written+int64(c.buffered) >= int64(cfg.every) {
			if err := c.commitNow(work); err != nil {
				return err
			}
		}
	}
	if err := c.commitNow(work); err != nil {
		return err
	}
	plan, err := tbl.NewScan().Plan(work)
	if err != nil {
		return err
	}
	if c.commits == 0 {
		// Say it plainly: a re-run over events already applied is a no-op.
		fmt.Fprintf(out, "done: nothing new to commit (checkpoint at offset %d); snapshot %d of %s\n",
			c.st.NextOffset, plan.SnapshotID, cfg.table)
		return nil
	}
	fmt.Fprintf(out, "done: %d commits this run, checkpoint at offset %d; snapshot %d of %s\n",
		c.commits, c.st.NextOffset, plan.SnapshotID, cfg.table)
	return nil
}

// openTable loads the table, creating it on the first run.
func openTable(ctx context.Context, cat catalog.Catalog, id paimon.Identifier) (*paimon.Table, error) {
	tbl, err := cat.LoadTable(ctx, id)
	if !errors.Is(err, catalog.ErrTableNotFound) {
		return tbl, err
	}
	ddl, ok := cat.(catalog.DDL)
	if !ok {
		return nil, fmt.Errorf("table %s does not exist and the catalog cannot create it", id)
	}
	s, err := customersSchema()
	if err != nil {
		return nil, err
	}
	if err := ddl.CreateDatabase(ctx, id.Database, true); err != nil {
		return nil, err
	}
	if err := ddl.CreateTable(ctx, id, s, true); err != nil {
		return nil, err
	}
	return cat.LoadTable(ctx, id)
}

// add appends an event's rows to the pending batch.
func (c *consumer) add(e *event, offset int64) error {
	changes, err := e.changes(offset)
	if err != nil {
		return err
	}
	for _, ch := range changes {
		c.rows.Field(0).(*array.Int64Builder).Append(ch.row.ID)
		appendString(c.rows.Field(1).(*array.StringBuilder), ch.row.Name)
		appendString(c.rows.Field(2).(*array.StringBuilder), ch.row.Email)
		if b := ch.row.Balance; b != nil {
			c.rows.Field(3).(*array.Int64Builder).Append(*b)
		} else {
			c.rows.Field(3).(*array.Int64Builder).AppendNull()
		}
		c.rows.Field(4).(*array.StringBuilder).Append(ch.kind)
	}
	c.buffered++
	return nil
}

func appendString(b *array.StringBuilder, s *string) {
	if s == nil {
		b.AppendNull()
	} else {
		b.Append(*s)
	}
}

// flush hands the pending rows to the writer.
func (c *consumer) flush(ctx context.Context) error {
	if c.buffered == 0 {
		return nil
	}
	batch := c.rows.NewRecordBatch()
	defer batch.Release()
	c.written += int64(c.buffered)
	c.buffered = 0
	return c.writer.Write(ctx, batch)
}

// commitNow writes the pending rows, prepares the commit, records it and
// the offset after it in the state, commits it and records the outcome.
func (c *consumer) commitNow(ctx context.Context) error {
	if err := c.flush(ctx); err != nil {
		return err
	}
	if c.written == 0 {
		return nil
	}
	msgs, err := c.writer.PrepareCommit(ctx)
	if err != nil {
		return err
	}
	id := c.st.NextIdentifier
	p, err := newPending(id, c.written, c.offset, msgs)
	if err != nil {
		return err
	}
	c.st.Pending = p
	if err := c.st.save(c.cfg.statePath); err != nil {
		return err
	}
	if err := c.crashPoint("before-commit", id); err != nil {
		return err
	}
	res, err := c.commit.Commit(ctx, id, msgs)
	if err != nil {
		return fmt.Errorf("commit %d: %w", id, err)
	}
	if err := c.crashPoint("after-commit", id); err != nil {
		return err
	}
	if err := c.finish(p); err != nil {
		return err
	}
	c.commits++
	c.written = 0
	snap := "nothing new"
	if res.Snapshot != nil {
		snap = fmt.Sprintf("snapshot %d", res.Snapshot.ID)
	}
	fmt.Fprintf(c.out, "commit %d: events %d..%d -> %s\n", id, p.NextOffset-p.Events, p.NextOffset-1, snap)
	return nil
}

func (c *consumer) finish(p *pending) error {
	c.st.Pending = nil
	c.st.NextIdentifier = p.Identifier + 1
	c.st.NextOffset = p.NextOffset
	return c.st.save(c.cfg.statePath)
}

func (c *consumer) crashPoint(stage string, id int64) error {
	if c.cfg.crash == nil {
		return nil
	}
	return c.cfg.crash(stage, id)
}

// settlePending settles the commit the previous run prepared but may not
// have finished: FilterCommitted says whether its identifier reached the
// table; if not, the same messages (whose files are still there) are
// committed now. Either way the checkpoint then moves past its events.
func (c *consumer) settlePending(ctx context.Context) error {
	if p := c.st.Pending; p != nil {
		left, err := c.commit.FilterCommitted(ctx, []int64{p.Identifier})
		if err != nil {
			return err
		}
		if len(left) == 0 {
			fmt.Fprintf(c.out, "recovery: commit %d had landed before the previous run stopped\n", p.Identifier)
		} else {
			msgs, err := p.messages()
			if err != nil {
				return err
			}
			if _, err := c.commit.Commit(ctx, p.Identifier, msgs); err != nil {
				return fmt.Errorf("recovery: commit %d: %w", p.Identifier, err)
			}
			fmt.Fprintf(c.out, "recovery: commit %d had not landed; committed it now\n", p.Identifier)
		}
		if err := c.finish(p); err != nil {
			return err
		}
	}
	left, err := c.commit.FilterCommitted(ctx, []int64{c.st.NextIdentifier})
	if err != nil {
		return err
	}
	if len(left) == 0 {
		return fmt.Errorf("state %s is behind the table: commit user %q already committed identifier %d",
			c.cfg.statePath, c.cfg.user, c.st.NextIdentifier)
	}
	return nil
}
