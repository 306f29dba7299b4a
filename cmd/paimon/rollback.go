package main

import (
	"context"
	"fmt"
	"io"
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

--dry-run prints what the rollback would delete and changes nothing.

Data and manifest files are left in place, as Java leaves them: those only
the removed snapshots referenced become unreferenced files that no reader
reaches. Stop writers while rolling back.

Exit status: 0 ok, 1 runtime error, 2 usage error.`

func runRollback(ctx context.Context, e *env, c *command, args []string) error {
	fs := newFlagSet(c)
	var dryRun bool
	fs.BoolVar(&dryRun, "dry-run", false, "print what the rollback would delete; change nothing")
	a, err := parseTable(e, c, fs, args, tableSpec{travel: true,
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
	if dryRun {
		if res, err = tbl.PreviewRollback(ctx, snap, tag); err != nil {
			return err
		}
		return writeRollbackText(e.stdout, id, res, true)
	}
	if tag != "" {
		res, err = tbl.RollbackToTag(ctx, tag)
	} else {
		res, err = tbl.RollbackTo(ctx, snap)
	}
	if err != nil {
		return err
	}
	return writeRollbackText(e.stdout, id, res, false)
}

// writeRollbackText prints what a rollback did, or in a dry run would do.
func writeRollbackText(w io.Writer, id paimon.Identifier, res *paimon.RollbackResult, dryRun bool) error {
	if dryRun {
		fmt.Fprintf(w, "Dry run: would roll back %s to snapshot %d", id, res.SnapshotID)
		if res.Restored {
			fmt.Fprint(w, " (restored from its tag)")
		}
	} else {
		fmt.Fprintf(w, "Rolled back %s to snapshot %d", id, res.SnapshotID)
		if res.Restored {
			fmt.Fprint(w, " (restored from its tag)")
		}
	}
	verb := "deleted"
	if dryRun {
		verb = "would delete"
	}
	var parts []string
	if n := len(res.DeletedSnapshots); n > 0 {
		parts = append(parts, fmt.Sprintf("%s snapshot%s %s", verb, plural(n), idRange(res.DeletedSnapshots)))
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
	fmt.Fprintf(w, ": %s.\n", strings.Join(parts, ", "))
	if dryRun {
		fmt.Fprintln(w, "Nothing was changed.")
	}
	return nil
}
