package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// command is one subcommand. Adding a subcommand means writing one file
// with its run function and adding one entry to commands.
type command struct {
	name    string
	summary string // one line for "paimon help"
	// synopsis is the argument part of the usage line, after the name.
	synopsis string
	// details is printed after the flag list by "paimon help <name>"; may be
	// empty.
	details string
	// run parses args (the words after the command name) and does the work;
	// c is the command itself, for its help. It returns a *usageError for
	// bad arguments and errHelpShown after printing help on request.
	// Commands with actions use runGroup.
	run func(ctx context.Context, e *env, c *command, args []string) error
	// actions are the subcommands of a group ("db create"): their name is
	// the full path, so that messages and help name them as typed.
	actions []*command
}

// commands is the command table, in the order "paimon help" lists them.
// It is filled in init because help reads the table (a package-level
// initializer referring to itself would be an initialization cycle).
var commands []*command

func init() {
	commands = []*command{
		{
			name:     "scan",
			summary:  "print the rows of a table, or its scan plan",
			synopsis: "--warehouse URI [flags] db.table",
			details:  scanDetails,
			run:      runScan,
		},
		systemTableCommand("snapshots", "list the snapshots of a table (Java's $snapshots)", false),
		systemTableCommand("schemas", "list the schema versions of a table (Java's $schemas)", false),
		systemTableCommand("options", "list the options of a table's latest schema (Java's $options)", false),
		systemTableCommand("tags", "list the tags of a table (Java's $tags)", false),
		systemTableCommand("manifests", "list the manifest files of a snapshot (Java's $manifests)", true),
		systemTableCommand("files", "list the data files of a snapshot with their statistics (Java's $files)", true),
		systemTableCommand("partitions", "list the partitions of a table with their sizes (Java's $partitions)", true),
		systemTableCommand("buckets", "list the buckets of a table with their sizes (Java's $buckets)", false),
		{
			name:     "health",
			summary:  "inspect a table's layout, compaction backlog, snapshots and consumers",
			synopsis: "--warehouse URI [--output text|json] [--small-file-threshold SIZE] [--skip-unreferenced] db.table",
			details:  healthDetails,
			run:      runHealth,
		},
		dbCommand(),
		tableCommand(),
		{
			name:     "load",
			summary:  "write CSV, JSON lines or Parquet files to a table (upserts, deletes or change rows for primary-key tables)",
			synopsis: "--warehouse URI [--format csv|jsonl|parquet] [--batch-rows N] [--commit-user U] [--row-kind-column NAME | --delete] db.table FILE...",
			details:  loadDetails,
			run:      runLoad,
		},
		{
			name:     "expire",
			summary:  "expire old snapshots of a table and delete the files only they reference",
			synopsis: "--warehouse URI [--retain-min N] [--retain-max N] [--older-than DURATION] [--max-deletes N] [--dry-run] db.table",
			details:  expireDetails,
			run:      runExpire,
		},
		{
			name:     "compact",
			summary:  "rewrite the small data files of an append table into larger ones",
			synopsis: "--warehouse URI [--full] [--where EXPR] [--workers N] [--output text|json] db.table",
			details:  compactDetails,
			run:      runCompact,
		},
		tagCommand(),
		branchCommand(),
		{
			name:     "rollback",
			summary:  "roll a table back to a snapshot or a tag",
			synopsis: "--warehouse URI (--snapshot N | --tag T) [--dry-run] db.table",
			details:  rollbackDetails,
			run:      runRollback,
		},
		{
			name:     "orphans",
			summary:  "list (or with --delete remove) the files of a table that nothing references",
			synopsis: "--warehouse URI [--delete] [--older-than DURATION] [--output text|json] db.table",
			details:  orphansDetails,
			run:      runOrphans,
		},
		{
			name:     "version",
			summary:  "print the version and commit the binary was built from",
			synopsis: "",
			run:      runVersion,
		},
		{
			name:     "help",
			summary:  "show help for paimon or for one command",
			synopsis: "[command]",
			run:      runHelp,
		},
	}
}

func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// printUsage writes the top-level help.
func printUsage(w io.Writer) {
	fmt.Fprint(w, "paimon reads, writes and maintains Apache Paimon tables.\n\nUsage:\n\n\tpaimon <command> [flags] [arguments]\n\nCommands:\n\n")
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	for _, c := range commands {
		fmt.Fprintf(tw, "\t%s\t%s\n", c.name, c.summary)
	}
	tw.Flush()
	fmt.Fprint(w, "\nRun 'paimon help <command>' or 'paimon <command> -h' for a command's flags.\n")
}

func runHelp(ctx context.Context, e *env, _ *command, args []string) error {
	if len(args) == 0 {
		printUsage(e.stdout)
		return errHelpShown
	}
	c := lookup(args[0])
	if c == nil {
		return usagef("help", "unknown command %q", args[0])
	}
	switch {
	case c.name == "help" && len(args) == 1:
		printUsage(e.stdout)
		return errHelpShown
	case len(args) == 1:
		// Every command prints its own help for -h; reuse that so the flag
		// list is never written twice.
		return c.run(ctx, e, c, []string{"-h"})
	case len(args) == 2 && c.actions != nil:
		a := c.action(args[1])
		if a == nil {
			return usagef("help", "%s has no action %q (actions: %s)", c.name, args[1], c.actionNames())
		}
		return a.run(ctx, e, a, []string{"-h"})
	}
	return usagef("help", "too many arguments")
}

// newFlagSet returns a FlagSet for c that reports errors instead of exiting
// and prints nothing by itself: parseArgs decides where help goes.
func newFlagSet(c *command) *flag.FlagSet {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// printCommandHelp writes c's usage line, flags and details.
func printCommandHelp(w io.Writer, c *command, fs *flag.FlagSet) {
	fmt.Fprintf(w, "Usage: paimon %s %s\n\n%s.\n", c.name, c.synopsis, upperFirst(c.summary))
	printFlags(w, fs)
	if c.details != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(c.details))
	}
}

// printFlags lists the flags the way users type them ("--name VALUE"); the
// flag package's PrintDefaults shows a single dash.
func printFlags(w io.Writer, fs *flag.FlagSet) {
	first := true
	fs.VisitAll(func(f *flag.Flag) {
		if first {
			fmt.Fprint(w, "\nFlags:\n")
			first = false
		}
		name, usage := flag.UnquoteUsage(f)
		line := "  --" + f.Name
		if name != "" {
			line += " " + name
		}
		fmt.Fprintf(w, "%s\n    \t%s", line, strings.ReplaceAll(usage, "\n", "\n    \t"))
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" {
			fmt.Fprintf(w, " (default %q)", f.DefValue)
		}
		fmt.Fprintln(w)
	})
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// parseArgs parses flags and positional arguments in any order ("scan
// db.t --limit 3" as well as "scan --limit 3 db.t"), which the flag
// package alone does not: it stops at the first non-flag. Everything after
// a "--" is positional. -h and -help print c's help to e.stdout and return
// errHelpShown.
func parseArgs(e *env, c *command, fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				printCommandHelp(e.stdout, c, fs)
				return nil, errHelpShown
			}
			return nil, usagef(c.name, "%v", err)
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, nil
		}
		// The flag package consumes a "--" terminator; if it stopped there,
		// the rest is positional as a whole.
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(positional, rest...), nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}
