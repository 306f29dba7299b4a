package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/paimon-go/paimon-go/paimon"
	"github.com/paimon-go/paimon-go/paimon/health"
)

// orphansDetails is the help text of orphans.
const orphansDetails = `
orphans lists the files of a table that no snapshot, tag, changelog or
branch references (Java Paimon's remove_orphan_files procedure): the data,
manifest and index files of failed or crashed writes and commits, and
stray temporary files in the snapshot and changelog directories. It only
lists them unless --delete is given.

Only files last modified more than --older-than ago are considered (1 d by
default, as Java), so the files of a write or commit in flight are never
touched; --older-than 0 is refused for the same reason: use a short
duration such as "1 min" only when no writer is running.

Snapshot, schema, tag, consumer and branch metadata, files under external
paths and files in directories Paimon does not write are never touched.
If any reference cannot be read, nothing is listed or removed.

DURATION is a number and a unit as in table options ("30 min", "2 h",
"7 d") or a Go duration ("1h30m").

Exit status: 0 ok (also when there is nothing to remove), 1 runtime error,
2 usage error.`

type orphansArgs struct {
	*tableArgs
	opts paimon.OrphanOptions
}

func parseOrphansArgs(e *env, c *command, args []string) (*orphansArgs, error) {
	var a orphansArgs
	var olderThan string
	var del bool
	fs := newFlagSet(c)
	fs.BoolVar(&del, "delete", false, "remove the files (default: only list them)")
	fs.StringVar(&olderThan, "older-than", "", "consider only files last modified more than `DURATION` ago (default 1 d)")
	var err error
	if a.tableArgs, err = parseTable(e, c, fs, args, tableSpec{formats: healthFormats}); err != nil {
		return nil, err
	}
	a.opts.DryRun = !del
	if a.set["older-than"] {
		d, err := parseUserDuration(olderThan)
		if err != nil || d <= 0 {
			return nil, usagef(c.name, "--older-than %q: want a positive duration such as 2h, \"30 min\" or 7d", olderThan)
		}
		a.opts.OlderThan = d
	}
	return &a, nil
}

func runOrphans(ctx context.Context, e *env, c *command, args []string) error {
	a, err := parseOrphansArgs(e, c, args)
	if err != nil {
		return err
	}
	tbl, closeCatalog, err := a.load(ctx)
	if err != nil {
		return err
	}
	defer closeCatalog()
	res, err := tbl.RemoveOrphanFiles(ctx, &a.opts)
	if err != nil {
		return err
	}
	displayPaths(ctx, a.tableArgs, tbl, res.Deleted)
	olderThan := a.opts.OlderThan
	if olderThan == 0 {
		olderThan = paimon.DefaultOrphanOlderThan
	}
	if a.output == formatJSON {
		return writeJSON(e.stdout, orphansJSON{
			Deleted: !a.opts.DryRun, Files: nonNilStrings(res.Deleted), Bytes: res.DeletedBytes,
			DeletedDirectories: res.DeletedDirectories, OlderThanSeconds: int64(olderThan / time.Second),
		})
	}
	return writeOrphansText(e.stdout, a.table, res, a.opts.DryRun, olderThan)
}

func writeOrphansText(w io.Writer, table paimon.Identifier, res *paimon.OrphanResult, dryRun bool, olderThan time.Duration) error {
	n := len(res.Deleted)
	if n == 0 {
		_, err := fmt.Fprintf(w, "No unreferenced files older than %s in %s.\n", durationText(olderThan), table)
		return err
	}
	for _, p := range res.Deleted {
		fmt.Fprintln(w, p)
	}
	if dryRun {
		_, err := fmt.Fprintf(w, "%d unreferenced file%s (%s) older than %s in %s; run with --delete to remove them.\n",
			n, plural(n), health.FormatBytes(res.DeletedBytes), durationText(olderThan), table)
		return err
	}
	fmt.Fprintf(w, "Removed %d unreferenced file%s (%s) from %s", n, plural(n), health.FormatBytes(res.DeletedBytes), table)
	if res.DeletedDirectories > 0 {
		fmt.Fprintf(w, " and %d empty director%s", res.DeletedDirectories, map[bool]string{true: "y", false: "ies"}[res.DeletedDirectories == 1])
	}
	_, err := fmt.Fprintln(w, ".")
	return err
}

// displayPaths rewrites file paths of tbl (names inside its file system)
// in place to paths under the table's location as the user gave the
// warehouse (absolute for a local one).
func displayPaths(ctx context.Context, a *tableArgs, tbl *paimon.Table, paths []string) {
	loc := tableLocation(ctx, &a.catalog, a.warehouse, a.table)
	if !strings.Contains(loc, ":") {
		if abs, err := filepath.Abs(loc); err == nil {
			loc = abs
		}
	}
	root := strings.TrimSuffix(tbl.Meta().Root(), "/") + "/"
	for i, p := range paths {
		if rel, ok := strings.CutPrefix(p, root); ok {
			paths[i] = loc + "/" + rel
		}
	}
}

// durationText renders a duration in the largest unit that divides it:
// "1 d", "30 min", "90 s"; "1h30m0s" when none does.
func durationText(d time.Duration) string {
	for _, u := range []struct {
		d    time.Duration
		name string
	}{{24 * time.Hour, "d"}, {time.Hour, "h"}, {time.Minute, "min"}, {time.Second, "s"}} {
		if d >= u.d && d%u.d == 0 {
			return fmt.Sprintf("%d %s", d/u.d, u.name)
		}
	}
	return d.String()
}

// orphansJSON is the --output json form of orphans.
type orphansJSON struct {
	// Deleted tells whether the files were removed (--delete) or only
	// listed.
	Deleted            bool     `json:"deleted"`
	Files              []string `json:"files"`
	Bytes              int64    `json:"bytes"`
	DeletedDirectories int      `json:"deleted_directories"`
	OlderThanSeconds   int64    `json:"older_than_seconds"`
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
