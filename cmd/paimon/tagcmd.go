package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/paimon-go/paimon-go/paimon"
	"github.com/paimon-go/paimon-go/paimon/health"
)

// tagDetails is the help text of the tag group.
const tagDetails = `
A tag names a snapshot and keeps its files from expiring (Java Paimon's
create_tag and delete_tag procedures). "tag create" tags the latest snapshot
unless --snapshot is given; with --time-retained (or the table option
tag.default-time-retained) the tag records its creation time and retention.

"tag delete" removes the tag file when the tagged snapshot still exists or
another tag holds the same snapshot. A tag whose snapshot has expired and
which alone references its files is refused: deleting the files only it
references, as Java does, is not implemented, and deleting the tag alone
would leave them behind.

"tag list" is "paimon tags".

Exit status: 0 ok, 1 runtime error, 2 usage error.`

func tagCommand() *command {
	return &command{
		name:     "tag",
		summary:  "create, delete and list tags",
		synopsis: "create|delete|list ...",
		details:  tagDetails,
		run:      runGroup,
		actions: []*command{
			{name: "tag create", summary: "tag a snapshot", synopsis: "--warehouse URI [--snapshot N] [--time-retained DURATION] db.table NAME", details: tagDetails, run: runTagCreate},
			{name: "tag delete", summary: "delete a tag", synopsis: "--warehouse URI [--if-exists] db.table NAME", details: tagDetails, run: runTagDelete},
			{name: "tag list", summary: "list the tags of a table (as paimon tags)", synopsis: "--warehouse URI [--output FORMAT] db.table", details: metaDetails,
				run: func(ctx context.Context, e *env, c *command, args []string) error {
					return runSystemTable(ctx, e, c, args, paimon.SystemTags, false)
				}},
		},
	}
}

// tagSpec is the command line of tag create and tag delete: "db.table
// NAME".
var tagSpec = tableSpec{minRest: 1, maxRest: 1, args: "table name (database.table) and tag name"}

func runTagCreate(ctx context.Context, e *env, c *command, args []string) error {
	var snapshotFlag, retainedFlag string
	fs := newFlagSet(c)
	fs.StringVar(&snapshotFlag, "snapshot", "", "tag snapshot `N` instead of the latest")
	fs.StringVar(&retainedFlag, "time-retained", "", "keep the tag for `DURATION` after its creation (e.g. 7d)")
	a, err := parseTable(e, c, fs, args, tagSpec)
	if err != nil {
		return err
	}
	id, name := a.table, a.rest[0]
	var opts paimon.CreateTagOptions
	set := a.set
	if set["snapshot"] {
		if opts.SnapshotID, err = positiveInt(c, "snapshot", snapshotFlag); err != nil {
			return err
		}
	}
	if set["time-retained"] {
		d, err := parseUserDuration(retainedFlag)
		if err != nil || d <= 0 {
			return usagef(c.name, "--time-retained %q: want a positive duration such as 7d or 12h", retainedFlag)
		}
		opts.TimeRetained = d
	}
	tbl, closeCatalog, err := a.load(ctx)
	if err != nil {
		return err
	}
	defer closeCatalog()
	tag, err := tbl.CreateTag(ctx, name, &opts)
	if err != nil {
		return err
	}
	msg := fmt.Sprintf("Created tag %s on snapshot %d of %s", name, tag.ID, id)
	if tag.TimeRetained != nil {
		msg += ", retained for " + health.FormatDuration(*tag.TimeRetained)
	}
	fmt.Fprintln(e.stdout, msg+".")
	return nil
}

func runTagDelete(ctx context.Context, e *env, c *command, args []string) error {
	var ifExists bool
	fs := newFlagSet(c)
	fs.BoolVar(&ifExists, "if-exists", false, "succeed without doing anything when the tag does not exist")
	a, err := parseTable(e, c, fs, args, tagSpec)
	if err != nil {
		return err
	}
	id, name := a.table, a.rest[0]
	tbl, closeCatalog, err := a.load(ctx)
	if err != nil {
		return err
	}
	defer closeCatalog()
	err = tbl.DeleteTag(ctx, name)
	if ifExists && errors.Is(err, paimon.ErrTagNotFound) {
		fmt.Fprintf(e.stdout, "Tag %s of %s does not exist.\n", name, id)
		return nil
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "Deleted tag %s of %s.\n", name, id)
	return nil
}
