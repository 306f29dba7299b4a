package main

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// runVersion prints the module version and the VCS revision the binary was
// built from, as recorded in its build information (go version -m shows
// the same): "paimon v0.3.0 (go1.26.0 linux/amd64)" for a module install,
// "paimon (devel) commit 1a2b3c4d5e6f, modified ..." for a build in a
// checkout.
func runVersion(_ context.Context, e *env, c *command, args []string) error {
	fs := newFlagSet(c)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef(c.name, "unexpected argument %q", fs.Arg(0))
	}
	_, err := fmt.Fprintln(e.stdout, versionText())
	return err
}

func versionText() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return fmt.Sprintf("paimon (unknown version) (%s %s/%s)", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	}
	var sb strings.Builder
	sb.WriteString("paimon ")
	sb.WriteString(info.Main.Version) // "(devel)" outside a module install
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	if rev := settings["vcs.revision"]; rev != "" {
		fmt.Fprintf(&sb, " commit %s", rev[:min(len(rev), 12)])
		if t := settings["vcs.time"]; t != "" {
			fmt.Fprintf(&sb, " of %s", t)
		}
		if settings["vcs.modified"] == "true" {
			sb.WriteString(", modified")
		}
	}
	var tags []string
	if t := settings["-tags"]; t != "" {
		tags = append(tags, "tags "+t)
	}
	fmt.Fprintf(&sb, " (%s %s/%s", info.GoVersion, runtime.GOOS, runtime.GOARCH)
	for _, t := range tags {
		sb.WriteString(", " + t)
	}
	sb.WriteString(")")
	return sb.String()
}
