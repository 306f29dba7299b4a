package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/paimon-go/paimon-go/fs"
)

// Exit statuses.
const (
	exitOK      = 0
	exitFailure = 1 // runtime error
	exitUsage   = 2 // bad command line
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// env is what a subcommand writes to. Subcommands never touch os.Stdout,
// os.Stderr or os.Exit, so tests run them in-process.
type env struct {
	stdout io.Writer
	stderr io.Writer
}

// usageError is a bad command line: exit status 2, and the command's usage
// hint after the message.
type usageError struct {
	cmd string // "" for the top level
	msg string
}

func (e *usageError) Error() string { return e.msg }

func usagef(cmd, format string, args ...any) error {
	return &usageError{cmd: cmd, msg: fmt.Sprintf(format, args...)}
}

// errHelpShown reports that -h or help printed the usage on request: exit 0.
var errHelpShown = errors.New("help shown")

// run is the whole program: it parses args (without the program name),
// runs the chosen command and returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	e := &env{stdout: stdout, stderr: stderr}
	return e.exitCode(dispatch(ctx, e, args))
}

func dispatch(ctx context.Context, e *env, args []string) error {
	if len(args) == 0 {
		printUsage(e.stderr)
		return usagef("", "no command given")
	}
	name, rest := args[0], args[1:]
	switch name {
	case "-h", "-help", "--help":
		printUsage(e.stdout)
		return errHelpShown
	}
	if strings.HasPrefix(name, "-") {
		return usagef("", "flag %s before the command; flags belong after it", name)
	}
	c := lookup(name)
	if c == nil {
		return usagef("", "unknown command %q%s", name, didYouMean(name, commandNames()))
	}
	return c.run(ctx, e, c, rest)
}

// exitCode prints err the way its kind asks for and maps it to a status.
func (e *env) exitCode(err error) int {
	if err == nil {
		return exitOK
	}
	if errors.Is(err, errHelpShown) {
		return exitOK
	}
	var ue *usageError
	if errors.As(err, &ue) {
		prefix := "paimon"
		hint := "paimon help"
		if ue.cmd != "" {
			prefix += " " + ue.cmd
			hint += " " + ue.cmd
		}
		fmt.Fprintf(e.stderr, "%s: %s\nRun '%s' for usage.\n", prefix, ue.msg, hint)
		return exitUsage
	}
	if errors.Is(err, context.Canceled) {
		fmt.Fprintln(e.stderr, "paimon: interrupted")
		return exitFailure
	}
	if errors.Is(err, fs.ErrNoScheme) {
		// The library's text tells a Go programmer what to import; a
		// user of the command needs to know which build has the driver.
		fmt.Fprintf(e.stderr, "paimon: %s\n", noSchemeText(err))
		return exitFailure
	}
	fmt.Fprintf(e.stderr, "paimon: %s\n", errorText(err))
	return exitFailure
}

// noSchemeText explains a warehouse URI whose scheme this binary has no
// driver for (see "Cloud drivers and binary size" in doc.go).
func noSchemeText(err error) string {
	msg := err.Error()
	scheme := ""
	if _, after, ok := strings.Cut(msg, "scheme \""); ok {
		scheme, _, _ = strings.Cut(after, "\"")
	}
	tag := map[string]string{"s3": "nos3", "s3a": "nos3", "gs": "nogcs", "azblob": "noazure"}[scheme]
	if tag != "" {
		return fmt.Sprintf("this paimon binary was built without the %s:// driver (-tags %s); rebuild without that tag", scheme, tag)
	}
	return fmt.Sprintf("unknown warehouse scheme %q: use a local path, file://, mem://, s3://, gs://, azblob:// or an http(s):// REST catalog", scheme)
}

// errorText is err's message without the "paimon: " and "schema: "
// prefixes that the library's errors (packages paimon and format/schema)
// carry at every level of wrapping: the command prints one.
func errorText(err error) string {
	msg := err.Error()
	for _, p := range []string{"paimon: ", "schema: "} {
		msg = strings.ReplaceAll(strings.TrimPrefix(msg, p), ": "+p, ": ")
	}
	return msg
}
