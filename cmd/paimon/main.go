package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
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
		return usagef("", "unknown command %q", name)
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
	fmt.Fprintf(e.stderr, "paimon: %s\n", errorText(err))
	return exitFailure
}

// errorText is err's message without the "paimon: " prefixes that the
// library's errors carry at every level of wrapping: the command prints one.
func errorText(err error) string {
	msg := strings.TrimPrefix(err.Error(), "paimon: ")
	return strings.ReplaceAll(msg, ": paimon: ", ": ")
}
