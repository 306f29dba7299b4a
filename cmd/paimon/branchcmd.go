package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/paimon-go/paimon-go/paimon"
)

// branchDetails is the help text of the branch group.
const branchDetails = `
A branch is a line of snapshots of its own that shares the table's data
files (Java Paimon's create_branch, delete_branch and fast_forward
procedures). Read and write a branch by naming the table
"db.table$branch_NAME" (quote the $ in a shell).

"branch create" starts an empty branch with the table's current schema, or,
with --tag, at a tag (the tag keeps the branch's files from expiring), or,
with --snapshot, at a snapshot (only paimon-go's expiration protects such a
branch's files: Java's expiration of the main branch does not look at
branches).

"branch fast-forward" makes the main branch continue as the branch: main's
snapshots, schemas and tags from the branch's first snapshot on are replaced
by the branch's. Stop writers of the main branch while it runs.

"branch drop" deletes the branch's directory. "branch list" is Java's
$branches system table.

In a REST catalog the server manages branches: create (empty or at a tag),
drop and fast-forward are sent to it, and --snapshot is refused.

Exit status: 0 ok, 1 runtime error, 2 usage error.`

func branchCommand() *command {
	return &command{
		name:     "branch",
		summary:  "create, drop, list and fast-forward branches",
		synopsis: "create|drop|list|fast-forward ...",
		details:  branchDetails,
		run:      runGroup,
		actions: []*command{
			{name: "branch create", summary: "create a branch", synopsis: "--warehouse URI [--tag T | --snapshot N] db.table NAME", details: branchDetails, run: runBranchCreate},
			{name: "branch drop", summary: "drop a branch", synopsis: "--warehouse URI [--if-exists] db.table NAME", details: branchDetails, run: runBranchDrop},
			{name: "branch fast-forward", summary: "make the main branch continue as a branch", synopsis: "--warehouse URI db.table NAME", details: branchDetails, run: runBranchFastForward},
			{name: "branch list", summary: "list the branches of a table (Java's $branches)", synopsis: "--warehouse URI [--output FORMAT] db.table", details: metaDetails,
				run: func(ctx context.Context, e *env, c *command, args []string) error {
					return runSystemTable(ctx, e, c, args, paimon.SystemBranches, false)
				}},
		},
	}
}

// branchSpec is the command line of the branch actions: "db.table NAME".
var branchSpec = tableSpec{minRest: 1, maxRest: 1, args: "table name (database.table) and branch name"}

func runBranchCreate(ctx context.Context, e *env, c *command, args []string) error {
	var tagFlag, snapshotFlag string
	fs := newFlagSet(c)
	fs.StringVar(&tagFlag, "tag", "", "start the branch at tag `T`")
	fs.StringVar(&snapshotFlag, "snapshot", "", "start the branch at snapshot `N`")
	a, err := parseTable(e, c, fs, args, branchSpec)
	if err != nil {
		return err
	}
	id, name := a.table, a.rest[0]
	var opts paimon.CreateBranchOptions
	if a.set["tag"] && a.set["snapshot"] {
		return usagef(c.name, "--tag and --snapshot exclude each other")
	}
	if a.set["tag"] {
		if tagFlag == "" {
			return usagef(c.name, "--tag needs a tag name")
		}
		opts.Tag = tagFlag
	}
	if a.set["snapshot"] {
		if opts.SnapshotID, err = positiveInt(c, "snapshot", snapshotFlag); err != nil {
			return err
		}
	}
	tbl, closeCatalog, err := a.load(ctx)
	if err != nil {
		return err
	}
	defer closeCatalog()
	if err := tbl.CreateBranch(ctx, name, &opts); err != nil {
		return err
	}
	from := "empty"
	switch {
	case opts.Tag != "":
		from = "at tag " + opts.Tag
	case opts.SnapshotID != 0:
		from = fmt.Sprintf("at snapshot %d", opts.SnapshotID)
	}
	fmt.Fprintf(e.stdout, "Created branch %s of %s (%s).\n", name, id, from)
	return nil
}

func runBranchDrop(ctx context.Context, e *env, c *command, args []string) error {
	var ifExists bool
	fs := newFlagSet(c)
	fs.BoolVar(&ifExists, "if-exists", false, "succeed without doing anything when the branch does not exist")
	a, err := parseTable(e, c, fs, args, branchSpec)
	if err != nil {
		return err
	}
	id, name := a.table, a.rest[0]
	tbl, closeCatalog, err := a.load(ctx)
	if err != nil {
		return err
	}
	defer closeCatalog()
	err = tbl.DropBranch(ctx, name)
	if ifExists && errors.Is(err, paimon.ErrBranchNotFound) {
		fmt.Fprintf(e.stdout, "Branch %s of %s does not exist.\n", name, id)
		return nil
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "Dropped branch %s of %s.\n", name, id)
	return nil
}

func runBranchFastForward(ctx context.Context, e *env, c *command, args []string) error {
	a, err := parseTable(e, c, newFlagSet(c), args, branchSpec)
	if err != nil {
		return err
	}
	id, name := a.table, a.rest[0]
	tbl, closeCatalog, err := a.load(ctx)
	if err != nil {
		return err
	}
	defer closeCatalog()
	if err := tbl.FastForward(ctx, name); err != nil {
		return err
	}
	latest, ok, err := tbl.Meta().LatestSnapshotID(ctx)
	if err != nil {
		return err
	}
	if ok {
		fmt.Fprintf(e.stdout, "Fast-forwarded %s to branch %s (latest snapshot %d).\n", id, name, latest)
	} else {
		fmt.Fprintf(e.stdout, "Fast-forwarded %s to branch %s.\n", id, name)
	}
	return nil
}
