package main

import (
	"context"
	"fmt"
)

// settlePending settles the commit the previous run prepared but may not have
// finished, then checks that the state is not behind the table.
//
// TableCommit.FilterCommitted returns the identifiers this commit user has
// NOT committed yet. If the pending identifier is among them the previous
// run stopped before its commit landed, and the same messages (whose data
// files are still there) are committed now. Otherwise the commit landed
// and only the state has to catch up; the messages must then not be
// committed again or aborted, since their files belong to the table.
func (in *ingester) settlePending(ctx context.Context) error {
	if p := in.st.Pending; p != nil {
		left, err := in.commit.FilterCommitted(ctx, []int64{p.Identifier})
		if err != nil {
			return err
		}
		if len(left) == 0 {
			fmt.Fprintf(in.out, "recovery: commit %d (%d rows) had landed before the previous run stopped; skipping it\n", p.Identifier, p.Rows)
		} else {
			msgs, err := p.messages()
			if err != nil {
				return err
			}
			res, err := in.commit.Commit(ctx, p.Identifier, msgs)
			if err != nil {
				return fmt.Errorf("recovery: commit %d: %w", p.Identifier, err)
			}
			fmt.Fprintf(in.out, "recovery: commit %d (%d rows) had not landed; committed it now -> snapshot %d\n",
				p.Identifier, p.Rows, res.Snapshot.ID)
		}
		if err := in.finish(p); err != nil {
			return err
		}
	}
	// A state file that is older than the table (restored from a backup,
	// or shared by two ingesters) would reuse identifiers the table has
	// seen, and those commits would be dropped as duplicates.
	left, err := in.commit.FilterCommitted(ctx, []int64{in.st.NextIdentifier})
	if err != nil {
		return err
	}
	if len(left) == 0 {
		return fmt.Errorf("state %s is behind the table: commit user %q already committed identifier %d; use another -user or the matching state",
			in.cfg.statePath, in.cfg.user, in.st.NextIdentifier)
	}
	return nil
}
