package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// A group is a command whose first argument names an action, as in
// "paimon db create NAME" or "paimon tag delete db.t NAME". Each action is
// a command of its own, named by its full path ("db create"), so usage
// errors and help name it the way it is typed.

// runGroup dispatches to the action named by args[0].
func runGroup(ctx context.Context, e *env, c *command, args []string) error {
	if len(args) == 0 {
		return usagef(c.name, "missing action: want one of %s", c.actionNames())
	}
	switch args[0] {
	case "-h", "-help", "--help":
		printGroupHelp(e.stdout, c)
		return errHelpShown
	}
	a := c.action(args[0])
	if a == nil && strings.HasPrefix(args[0], "-") {
		return usagef(c.name, "flag %s before the action; flags belong after it (paimon %s <action> [flags])", args[0], c.name)
	}
	if a == nil {
		names := make([]string, len(c.actions))
		for i, a := range c.actions {
			names[i] = strings.TrimPrefix(a.name, c.name+" ")
		}
		return usagef(c.name, "unknown action %q%s: want one of %s", args[0], didYouMean(args[0], names), c.actionNames())
	}
	return a.run(ctx, e, a, args[1:])
}

// action returns the action of c typed as word, or nil.
func (c *command) action(word string) *command {
	for _, a := range c.actions {
		if a.name == c.name+" "+word {
			return a
		}
	}
	return nil
}

// actionNames lists the action words of c, comma-separated.
func (c *command) actionNames() string {
	names := make([]string, len(c.actions))
	for i, a := range c.actions {
		names[i] = strings.TrimPrefix(a.name, c.name+" ")
	}
	return strings.Join(names, ", ")
}

// printGroupHelp lists the actions of a group with their usage lines.
func printGroupHelp(w io.Writer, c *command) {
	fmt.Fprintf(w, "Usage: paimon %s <action> [flags] [arguments]\n\n%s.\n\nActions:\n\n", c.name, upperFirst(c.summary))
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	for _, a := range c.actions {
		fmt.Fprintf(tw, "\t%s %s\t%s\n", a.name, a.synopsis, a.summary)
	}
	tw.Flush()
	fmt.Fprintf(w, "\nRun 'paimon help %s <action>' or 'paimon %s <action> -h' for an action's flags.\n", c.name, c.name)
	if c.details != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(c.details))
	}
}
