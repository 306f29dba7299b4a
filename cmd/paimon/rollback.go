package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/paimon-go/paimon-go/paimon"
)

// rollbackDetails is the help text of rollback.
const rollbackDetails = `
Rollback makes a snapshot the latest again, as Java Paimon's rollback_to
procedure does: the snapshot files newer than it are deleted, and so are
the tags of those snapshots. When the snapshot of --tag has expired, its
snapshot file is written again from the tag. --snapshot N of an expired
snapshot works too while a tag still holds it.

Data and manifest files are left in place, as Java leaves them: those only
the removed snapshots referenced become unreferenced files that no reader
reaches. Stop writers while rolling back.

Exit status: 0 ok, 1 runtime error, 2 usage error.`

func runRollback(ctx context.Context, e *env, c *command, args []string) error {
	a, err := parseTable(e, c, newFlagSet(c), args, tableSpec{travel: true,
		snapshotUsage: "roll back to snapshot `N`", tagUsage: "roll back to the snapshot of tag `T`"})
	if err != nil {
		return err
	}
	if a.snapshot == 0 && a.tag == "" {
		return usagef(c.name, "missing target: pass --snapshot N or --tag T")
	}
	id, tag, snap := a.table, a.tag, a.snapshot
	tbl, closeCatalog, err := a.load(ctx)
	if err != nil {
		return err
	}
	defer closeCatalog()
	var res *paimon.RollbackResult
	if tag != "" {
		res, err = tbl.RollbackToTag(ctx, tag)
	} else {
		res, err = tbl.RollbackTo(ctx, snap)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "Rolled back %s to snapshot %d", id, res.SnapshotID)
	if res.Restored {
		fmt.Fprint(e.stdout, " (restored from its tag)")
	}
	var parts []string
	if n := len(res.DeletedSnapshots); n > 0 {
		parts = append(parts, fmt.Sprintf("deleted snapshot%s %s", plural(n), idRange(res.DeletedSnapshots)))
	}
	if n := len(res.DeletedChangelogs); n > 0 {
		parts = append(parts, fmt.Sprintf("changelog%s %s", plural(n), idRange(res.DeletedChangelogs)))
	}
	if n := len(res.DeletedTags); n > 0 {
		parts = append(parts, fmt.Sprintf("tag%s %s", plural(n), strings.Join(res.DeletedTags, ", ")))
	}
	if len(parts) == 0 {
		parts = append(parts, "nothing to delete")
	}
	fmt.Fprintf(e.stdout, ": %s.\n", strings.Join(parts, ", "))
	return nil
}
