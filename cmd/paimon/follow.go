package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/paimon-go/paimon-go/paimon"
)

const followDetails = `
--follow keeps reading as the table changes (Java's streaming read): it
prints the rows of each new snapshot, every row with its rowkind (+I, -U,
+U, -D), waiting with a growing pause (up to 10 s) while nothing comes.
--from says where it starts: latest-full (default: the latest snapshot's
rows, then each later change), latest (only later changes), earliest,
snapshot:N (changes from snapshot N on), snapshot-full:N (snapshot N's
rows, then later changes) or timestamp:TIME (changes committed at or after
TIME, in the --as-of forms). The table's scan.mode, scan.snapshot-id and
scan.timestamp-millis options are the default, as in Java. --consumer ID
resumes from the position consumer ID recorded (Java consumer-id; it wins
over --from) and records the position after each snapshot printed, so Java's
expiration keeps what it has not read. --until N stops once snapshot N is
read; otherwise it runs until interrupted. Output: jsonl or canon.`

// followArgs are the --follow flags of scan.
type followArgs struct {
	on       bool
	from     string
	consumer string
	until    int64
	opts     paimon.FollowOptions
}

// parseFollow checks the --follow flags once scan's flags are parsed.
func (a *scanArgs) parseFollow(c *command, untilFlag string) error {
	set := a.set
	f := &a.follow
	if !f.on {
		for _, n := range []string{"from", "consumer", "until"} {
			if set[n] {
				return usagef(c.name, "--%s needs --follow", n)
			}
		}
		return nil
	}
	for _, n := range []string{"snapshot", "tag", "as-of", "incremental", "limit", "explain", "audit"} {
		if set[n] {
			return usagef(c.name, "--follow cannot be combined with --%s", n)
		}
	}
	if a.rowTracking {
		return usagef(c.name, "--follow cannot read $row_tracking")
	}
	if a.outputSet && a.output != formatJSONL && a.output != formatCanon {
		return usagef(c.name, "--follow prints jsonl or canon, not %q", a.output)
	}
	if set["until"] {
		n, err := positiveInt(c, "until", untilFlag)
		if err != nil {
			return err
		}
		f.until = n
	}
	f.opts.ConsumerID = strings.TrimSpace(f.consumer)
	if set["consumer"] && f.opts.ConsumerID == "" {
		return usagef(c.name, "--consumer: empty id")
	}
	from := strings.TrimSpace(f.from)
	kind, arg, _ := strings.Cut(from, ":")
	switch kind {
	case "":
	case "latest-full":
		f.opts.Start = paimon.FollowLatestFull
	case "latest":
		f.opts.Start = paimon.FollowLatest
	case "earliest":
		f.opts.Start = paimon.FollowEarliest
	case "snapshot", "snapshot-full":
		id, err := strconv.ParseInt(arg, 10, 64)
		if err != nil || id <= 0 {
			return usagef(c.name, "--from %s: want a positive snapshot id", from)
		}
		f.opts.Start, f.opts.SnapshotID = paimon.FollowFromSnapshot, id
		if kind == "snapshot-full" {
			f.opts.Start = paimon.FollowFromSnapshotFull
		}
	case "timestamp":
		ts, err := parseTime(arg, time.Local)
		if err != nil {
			return usagef(c.name, "--from %s: %v", from, err)
		}
		f.opts.Start, f.opts.Timestamp = paimon.FollowFromTimestamp, ts
	default:
		return usagef(c.name, "--from %q: want latest-full, latest, earliest, snapshot:N, snapshot-full:N or timestamp:TIME", from)
	}
	return nil
}

// runFollow prints each new snapshot's rows until --until or an interrupt.
func runFollow(ctx context.Context, e *env, a *scanArgs, tbl *paimon.Table) error {
	f, err := tbl.Follow(ctx, &a.follow.opts, a.scanOptions()...)
	if err != nil {
		return a.explainError(tbl, err)
	}
	format := a.output
	if !a.outputSet {
		format = formatJSONL
	}
	for {
		if a.follow.until > 0 && f.NextSnapshot() > a.follow.until {
			return nil
		}
		p, err := f.Next(ctx)
		if err != nil {
			if errors.Is(err, context.Canceled) && ctx.Err() != nil {
				return nil // interrupted: what was printed is recorded
			}
			return err
		}
		if a.follow.until > 0 && p.SnapshotID > a.follow.until {
			return nil
		}
		rr := array.ReaderFromIter(p.ArrowSchema(), f.Records(ctx, p))
		err = printRecords(e.stdout, format, tbl.Schema(), rr, 0, nil, tableView{})
		rr.Release()
		if err != nil {
			return a.explainError(tbl, err)
		}
		if err := f.Commit(ctx); err != nil {
			return fmt.Errorf("consumer %s: %w", f.Consumer(), err)
		}
	}
}
