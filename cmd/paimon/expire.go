package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/paimon-go/paimon-go/paimon"
)

// expireDetails is the help text of expire.
const expireDetails = `
Expiration deletes the oldest snapshots and every data, manifest and index
file only they reference, as Java Paimon's expire_snapshots procedure does.
It keeps at least --retain-min snapshots, keeps every snapshot younger than
--older-than unless more than --retain-max are left, never passes a
consumer's next snapshot, and keeps whatever a tag or another branch still
references. Unset flags take the table options snapshot.num-retained.min
(10), snapshot.num-retained.max (unlimited), snapshot.time-retained (1 h)
and snapshot.expire.limit (50).

Beyond Java's rules, a snapshot that was the latest less than
--commit-grace ago (1 min by default) is kept: a commit in flight may be
computed from it. --commit-grace 0 turns this off; do that only when no
writer is committing.

--dry-run prints what would expire and which files would be deleted, and
changes nothing (with --output json, the files are listed under
"would_delete").

DURATION is a number and a unit as in table options ("30 min", "2 h",
"7 d") or a Go duration ("1h30m"); --older-than 0 expires snapshots
whatever their age.

Exit status: 0 ok (also when nothing expired), 1 runtime error, 2 usage
error.`

type expireArgs struct {
	*tableArgs
	opts paimon.ExpireOptions
}

func parseExpireArgs(e *env, c *command, args []string) (*expireArgs, error) {
	var a expireArgs
	var retainMin, retainMax, olderThan, maxDeletes, grace string
	fs := newFlagSet(c)
	fs.StringVar(&retainMin, "retain-min", "", "keep at least the `N` newest snapshots")
	fs.StringVar(&retainMax, "retain-max", "", "keep at most the `N` newest snapshots, whatever their age")
	fs.StringVar(&olderThan, "older-than", "", "expire only snapshots committed more than `DURATION` ago")
	fs.StringVar(&maxDeletes, "max-deletes", "", "expire at most `N` snapshots in this run")
	fs.StringVar(&grace, "commit-grace", "", "keep snapshots that were the latest less than `DURATION` ago (default 1 min)")
	fs.BoolVar(&a.opts.DryRun, "dry-run", false, "print what would expire and be deleted; change nothing")
	var err error
	if a.tableArgs, err = parseTable(e, c, fs, args, tableSpec{formats: healthFormats}); err != nil {
		return nil, err
	}
	set := a.set
	for _, f := range []struct {
		name string
		val  string
		dst  *int
	}{{"retain-min", retainMin, &a.opts.RetainMin}, {"retain-max", retainMax, &a.opts.RetainMax}, {"max-deletes", maxDeletes, &a.opts.MaxDeletes}} {
		if !set[f.name] {
			continue
		}
		n, err := positiveInt(c, f.name, f.val)
		if err != nil {
			return nil, err
		}
		*f.dst = int(min(n, 1<<31-1))
	}
	if set["retain-min"] && set["retain-max"] && a.opts.RetainMax < a.opts.RetainMin {
		return nil, usagef(c.name, "--retain-max %d is less than --retain-min %d", a.opts.RetainMax, a.opts.RetainMin)
	}
	if set["older-than"] {
		d, err := parseUserDuration(olderThan)
		if err != nil || d < 0 {
			return nil, usagef(c.name, "--older-than %q: want a duration such as 2h, \"30 min\" or 7d", olderThan)
		}
		a.opts.OlderThan = d
		if d == 0 {
			a.opts.OlderThan = -1 // no time protection
		}
	}
	if set["commit-grace"] {
		d, err := parseUserDuration(grace)
		if err != nil || d < 0 {
			return nil, usagef(c.name, "--commit-grace %q: want a duration such as 30s, \"2 min\" or 0", grace)
		}
		a.opts.CommitGrace = d
		if d == 0 {
			a.opts.CommitGrace = -1 // no grace
		}
	}
	return &a, nil
}

// parseUserDuration accepts both Java's duration syntax ("30 min", "7 d",
// paimon.ParseDuration) and Go's ("1h30m").
func parseUserDuration(s string) (time.Duration, error) {
	if d, err := paimon.ParseDuration(s); err == nil {
		return d, nil
	}
	return time.ParseDuration(strings.TrimSpace(s))
}

func runExpire(ctx context.Context, e *env, c *command, args []string) error {
	a, err := parseExpireArgs(e, c, args)
	if err != nil {
		return err
	}
	tbl, closeCatalog, err := a.load(ctx)
	if err != nil {
		return err
	}
	defer closeCatalog()
	bar := newProgress(e.stderr, isTerminal(e.stderr), "expiring snapshots", 0)
	res, err := tbl.ExpireSnapshots(ctx, &a.opts)
	bar.done()
	if err != nil {
		return err
	}
	ids, err := tbl.Meta().SnapshotIDs(ctx)
	if err != nil {
		return err
	}
	if a.opts.DryRun {
		displayPaths(ctx, a.tableArgs, tbl, res.DryRunFiles)
		if a.output == formatJSON {
			return writeExpireJSON(e.stdout, res, ids)
		}
		return writeExpireDryText(e.stdout, a.table, res, ids)
	}
	if a.output == formatJSON {
		return writeExpireJSON(e.stdout, res, ids)
	}
	return writeExpireText(e.stdout, a.table, res, ids)
}

// writeExpireDryText prints what an expiration would do: the snapshots,
// the counts and every file that would be deleted, one per line.
func writeExpireDryText(w io.Writer, table paimon.Identifier, res *paimon.ExpireResult, ids []int64) error {
	if len(res.Expired) == 0 {
		_, err := fmt.Fprintf(w, "Dry run: nothing would expire in %s: %s.\n", table, snapshotRange(ids))
		return err
	}
	left := slices.DeleteFunc(slices.Clone(ids), func(id int64) bool { return slices.Contains(res.Expired, id) })
	fmt.Fprintf(w, "Dry run: would expire %d snapshot%s of %s (%s); %s would be left.\n", len(res.Expired), plural(len(res.Expired)), table,
		idRange(res.Expired), snapshotRange(left))
	fmt.Fprintf(w, "Would delete %d data files, %d changelog files, %d manifests, %d manifest lists, %d index manifests, %d index files, %d statistics files and %d snapshot files:\n",
		res.DeletedDataFiles, res.DeletedChangelogFiles, res.DeletedManifests, res.DeletedManifestLists,
		res.DeletedIndexManifests, res.DeletedIndexFiles, res.DeletedStatistics, len(res.Expired))
	for _, f := range res.DryRunFiles {
		fmt.Fprintf(w, "  %s\n", f)
	}
	_, err := fmt.Fprintln(w, "Nothing was changed.")
	return err
}

func writeExpireText(w io.Writer, table paimon.Identifier, res *paimon.ExpireResult, left []int64) error {
	if len(res.Expired) == 0 {
		_, err := fmt.Fprintf(w, "Nothing to expire in %s: %s.\n", table, snapshotRange(left))
		return err
	}
	fmt.Fprintf(w, "Expired %d snapshot%s of %s (%s); %s left.\n", len(res.Expired), plural(len(res.Expired)), table,
		idRange(res.Expired), snapshotRange(left))
	fmt.Fprintf(w, "Deleted %d data files, %d changelog files, %d manifests, %d manifest lists, %d index manifests, %d index files, %d statistics files",
		res.DeletedDataFiles, res.DeletedChangelogFiles, res.DeletedManifests, res.DeletedManifestLists,
		res.DeletedIndexManifests, res.DeletedIndexFiles, res.DeletedStatistics)
	if res.DeletedDirectories > 0 {
		fmt.Fprintf(w, " and %d empty directories", res.DeletedDirectories)
	}
	fmt.Fprintln(w, ".")
	if res.SkippedExternalFiles > 0 {
		fmt.Fprintf(w, "Left %d unreferenced files under external paths in place.\n", res.SkippedExternalFiles)
	}
	return nil
}

// snapshotRange describes the snapshots present: "5 snapshots (3..7)".
func snapshotRange(ids []int64) string {
	if len(ids) == 0 {
		return "no snapshots"
	}
	return fmt.Sprintf("%d snapshot%s (%s)", len(ids), plural(len(ids)), idRange(ids))
}

// idRange renders ascending ids: "4" or "1..4" (gaps are not shown).
func idRange(ids []int64) string {
	if len(ids) == 1 {
		return fmt.Sprint(ids[0])
	}
	return fmt.Sprintf("%d..%d", ids[0], ids[len(ids)-1])
}

// expireJSON is the --output json form of an expiration.
type expireJSON struct {
	Expired               []int64 `json:"expired"`
	Remaining             []int64 `json:"remaining"`
	EarliestHint          int64   `json:"earliest_hint"`
	DeletedDataFiles      int     `json:"deleted_data_files"`
	DeletedChangelogFiles int     `json:"deleted_changelog_files"`
	DeletedManifests      int     `json:"deleted_manifests"`
	DeletedManifestLists  int     `json:"deleted_manifest_lists"`
	DeletedIndexManifests int     `json:"deleted_index_manifests"`
	DeletedIndexFiles     int     `json:"deleted_index_files"`
	DeletedStatistics     int     `json:"deleted_statistics"`
	DeletedDirectories    int     `json:"deleted_directories"`
	SkippedExternalFiles  int     `json:"skipped_external_files"`
	// DryRun and WouldDelete are set by --dry-run: nothing was deleted,
	// the counts say what would be, and WouldDelete lists the files.
	DryRun      bool     `json:"dry_run,omitempty"`
	WouldDelete []string `json:"would_delete,omitempty"`
}

func writeExpireJSON(w io.Writer, res *paimon.ExpireResult, left []int64) error {
	out := expireJSON{
		Expired: nonNilIDs(res.Expired), Remaining: nonNilIDs(left), EarliestHint: res.EarliestHint,
		DeletedDataFiles: res.DeletedDataFiles, DeletedChangelogFiles: res.DeletedChangelogFiles,
		DeletedManifests: res.DeletedManifests, DeletedManifestLists: res.DeletedManifestLists,
		DeletedIndexManifests: res.DeletedIndexManifests, DeletedIndexFiles: res.DeletedIndexFiles,
		DeletedStatistics: res.DeletedStatistics, DeletedDirectories: res.DeletedDirectories,
		SkippedExternalFiles: res.SkippedExternalFiles,
	}
	if res.DryRunFiles != nil {
		out.DryRun, out.WouldDelete = true, res.DryRunFiles
	}
	return writeJSON(w, out)
}

func nonNilIDs(ids []int64) []int64 {
	if ids == nil {
		return []int64{}
	}
	return ids
}
