// Package interop runs the reference implementations of Paimon — Java Paimon
// (through interop/java/PaimonInterop.java) and pypaimon (through
// interop/python/paimon_interop.py) — from Go tests.
//
// The tools are installed by interop/setup.sh into a cache directory
// (PAIMON_INTEROP_HOME, default $XDG_CACHE_HOME/paimon-go-interop or
// ~/.cache/paimon-go-interop). Tests that need them call Require:
//
//   - PAIMON_INTEROP unset: the test is skipped with a message saying how to
//     enable it, so `go test ./...` passes on a machine without Java or Python;
//   - PAIMON_INTEROP=1: a missing tool FAILS the test. An opted-in CI run must
//     never go green by skipping.
//
// Both programs implement the same command-line contract (interop/README.md):
// apply a JSON plan to a warehouse, dump a table's rows as canon-v1 JSON lines,
// and dump Java's system tables.
package interop

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// ErrUnsupported is returned when a reference implementation reports that it
// cannot perform an operation (exit status 3), e.g. pypaimon asked to write a
// -D row.
var ErrUnsupported = errors.New("interop: operation not supported by this implementation")

// exitUnsupported is the exit status both programs use for "not supported".
const exitUnsupported = 3

// JavaVersions are the Java Paimon versions the harness installs, and
// PythonVersions the pypaimon versions.
var (
	JavaVersions   = []string{"1.4.2", "2.0.0"}
	PythonVersions = []string{"2.1.0"}
)

// Enabled reports whether PAIMON_INTEROP=1 is set.
func Enabled() bool { return os.Getenv("PAIMON_INTEROP") == "1" }

// Home returns the cache directory that interop/setup.sh installs into.
func Home() string {
	if h := os.Getenv("PAIMON_INTEROP_HOME"); h != "" {
		return h
	}
	if x := os.Getenv("XDG_CACHE_HOME"); x != "" {
		return filepath.Join(x, "paimon-go-interop")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return filepath.Join(os.TempDir(), "paimon-go-interop")
	}
	return filepath.Join(home, ".cache", "paimon-go-interop")
}

// Runner runs one reference implementation at one version.
type Runner struct {
	// Producer is "java" or "pypaimon"; Version its version. Together they
	// name golden directories: testdata/golden/<Producer>-<Version>/.
	Producer string
	Version  string
	argv     []string
	// Timeout bounds every command; zero means two minutes.
	Timeout time.Duration
}

// Name is "<producer>-<version>", the golden corpus directory name.
func (r *Runner) Name() string { return r.Producer + "-" + r.Version }

// RepoRoot finds the module root (the directory holding go.mod) from the
// current working directory, which `go test` sets to the package directory.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("interop: go.mod not found above the working directory")
		}
		dir = parent
	}
}

// Java returns a runner for Java Paimon at version v, or an error naming what
// is missing.
func Java(v string) (*Runner, error) {
	java := "java"
	if jh := os.Getenv("JAVA_HOME"); jh != "" {
		java = filepath.Join(jh, "bin", "java")
	}
	if _, err := exec.LookPath(java); err != nil {
		return nil, fmt.Errorf("interop: no java executable (%s): %w", java, err)
	}
	dir := filepath.Join(Home(), "java", v)
	classes := filepath.Join(dir, "classes")
	if _, err := os.Stat(filepath.Join(classes, "PaimonInterop.class")); err != nil {
		return nil, fmt.Errorf("interop: Java Paimon %s is not installed in %s (run interop/setup.sh): %w", v, dir, err)
	}
	cp := classes + string(os.PathListSeparator) + filepath.Join(dir, "lib", "*")
	// JVM warnings go to stderr: stdout carries only the command's output.
	argv := []string{java, "-Xss4m", "-XX:+IgnoreUnrecognizedVMOptions", "-Xlog:disable", "-Xlog:all=warning:stderr"}
	if jar, jsa, ok := classDataSharing(dir, classes); ok {
		cp = jar + string(os.PathListSeparator) + filepath.Join(dir, "lib", "*")
		argv = append(argv, "-XX:SharedArchiveFile="+jsa)
	}
	for _, p := range []string{"java.lang", "java.lang.invoke", "java.lang.reflect", "java.io", "java.net", "java.nio",
		"java.util", "java.util.concurrent", "java.util.concurrent.atomic", "jdk.internal.ref", "sun.nio.ch", "sun.nio.cs",
		"sun.security.action", "sun.util.calendar"} {
		argv = append(argv, "--add-opens=java.base/"+p+"=ALL-UNNAMED")
	}
	argv = append(argv, "-Duser.timezone=UTC", "-cp", cp, "PaimonInterop")
	return &Runner{Producer: "java", Version: v, argv: argv}, nil
}

// classDataSharing returns the jar of the harness classes and the
// class-data-sharing archive interop/setup.sh built for them (install_cds),
// when both exist and the jar is not older than the compiled classes: an
// archive maps Paimon's classes ready-made and saves more than half of a
// command's start-up CPU. The JVM itself ignores an archive that does not
// match its build or the jars; the time check keeps a jar of outdated
// classes (the classes recompiled by a setup.sh without this step) out.
func classDataSharing(dir, classes string) (jar, jsa string, ok bool) {
	jar = filepath.Join(dir, "cds", "interop.jar")
	jsa = filepath.Join(dir, "cds", "paimon.jsa")
	j, err := os.Stat(jar)
	if err != nil {
		return "", "", false
	}
	if _, err := os.Stat(jsa); err != nil {
		return "", "", false
	}
	c, err := os.Stat(filepath.Join(classes, "PaimonInterop.class"))
	if err != nil || c.ModTime().After(j.ModTime()) {
		return "", "", false
	}
	return jar, jsa, true
}

// Python returns a runner for pypaimon at version v.
func Python(v string) (*Runner, error) {
	bin := "bin/python"
	if runtime.GOOS == "windows" {
		bin = `Scripts\python.exe`
	}
	py := filepath.Join(Home(), "py", v, bin)
	if _, err := os.Stat(py); err != nil {
		return nil, fmt.Errorf("interop: pypaimon %s is not installed (run interop/setup.sh): %w", v, err)
	}
	root, err := RepoRoot()
	if err != nil {
		return nil, err
	}
	script := filepath.Join(root, "interop", "python", "paimon_interop.py")
	return &Runner{Producer: "pypaimon", Version: v, argv: []string{py, script}}, nil
}

// Require returns runners for every installed reference implementation
// version. Without PAIMON_INTEROP=1 it skips the test; with it, any missing
// tool fails the test.
func Require(t testing.TB) []*Runner {
	t.Helper()
	if !Enabled() {
		t.Skip("live interop test: set PAIMON_INTEROP=1 after running interop/setup.sh to run it against Java Paimon and pypaimon")
	}
	var out []*Runner
	for _, v := range JavaVersions {
		r, err := Java(v)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	for _, v := range PythonVersions {
		r, err := Python(v)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// RequireJava is Require restricted to the Java runners.
func RequireJava(t testing.TB) []*Runner {
	t.Helper()
	var out []*Runner
	for _, r := range Require(t) {
		if r.Producer == "java" {
			out = append(out, r)
		}
	}
	return out
}

// Run executes one command of the contract and returns its stdout.
func (r *Runner) Run(ctx context.Context, args ...string) ([]byte, error) {
	timeout := r.Timeout
	if timeout == 0 {
		timeout = 2 * time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	argv := append(append([]string{}, r.argv...), args...)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Env = append(os.Environ(), "TZ=UTC", "PYTHONIOENCODING=utf-8")
	start := time.Now()
	err := cmd.Run()
	trace(r, args, start, err)
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if len(msg) > 4000 {
			msg = msg[:4000] + "..."
		}
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() == exitUnsupported {
			return nil, fmt.Errorf("%s %s: %w: %s", r.Name(), args[0], ErrUnsupported, msg)
		}
		return nil, fmt.Errorf("%s %s: %w\n%s", r.Name(), strings.Join(args, " "), err, msg)
	}
	return stdout.Bytes(), nil
}

// Apply runs a plan file against a warehouse.
func (r *Runner) Apply(ctx context.Context, warehouse, plan string) error {
	_, err := r.Run(ctx, "apply", warehouse, plan)
	return err
}

// DumpOptions selects what Dump reads.
type DumpOptions struct {
	Mode     string // "merged" (default) or "audit"
	Snapshot int64  // time travel to a snapshot id when > 0
	Tag      string // or to a tag
	Columns  []string
}

// Dump returns the canon-v1 JSON lines of a table.
func (r *Runner) Dump(ctx context.Context, warehouse, table string, o DumpOptions) ([]byte, error) {
	return r.Run(ctx, DumpArgs(warehouse, table, o)...)
}

// Meta returns the rows of the system table <table>$<name> as canon-v1 JSON
// lines.
func (r *Runner) Meta(ctx context.Context, warehouse, table, name string) ([]byte, error) {
	return r.Run(ctx, "meta", warehouse, table, name)
}

// BatchItem is one command of a batch and the file its output goes to.
type BatchItem struct {
	Out  string
	Args []string
}

// Batch runs many dump/meta/apply commands in one process of the
// reference implementation (the batch command of both programs), which
// saves a JVM or interpreter start-up per command. The first failure fails
// the batch.
func (r *Runner) Batch(ctx context.Context, items []BatchItem) error {
	f, err := os.CreateTemp("", "paimon-interop-batch-*.tsv")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	for _, it := range items {
		fmt.Fprintf(f, "%s\t%s\n", it.Out, strings.Join(it.Args, "\t"))
	}
	if err := f.Close(); err != nil {
		return err
	}
	_, err = r.Run(ctx, "batch", f.Name())
	return err
}

// trace appends one line per command to the file PAIMON_INTEROP_TRACE names
// (when set): start time, wall seconds, runner, the command's words (a batch
// also its number of lines) and the outcome, so the cost of each process
// start of a live test can be read off a run. Concurrent tests append whole
// lines with O_APPEND.
func trace(r *Runner, args []string, start time.Time, runErr error) {
	path := os.Getenv("PAIMON_INTEROP_TRACE")
	if path == "" {
		return
	}
	words := args
	if len(words) > 3 {
		words = words[:3]
	}
	what := strings.Join(words, " ")
	if len(args) == 2 && args[0] == "batch" {
		if b, err := os.ReadFile(args[1]); err == nil {
			what += fmt.Sprintf(" (%d lines)", bytes.Count(b, []byte("\n")))
		}
	}
	outcome := "ok"
	if runErr != nil {
		outcome = "error"
	}
	line := fmt.Sprintf("%s %7.2fs %-14s %s %s\n", start.UTC().Format("15:04:05.000"), time.Since(start).Seconds(), r.Name(), outcome, what)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	_, _ = f.WriteString(line)
	_ = f.Close()
}

// DumpArgs returns the command-line arguments of a dump.
func DumpArgs(warehouse, table string, o DumpOptions) []string {
	args := []string{"dump", warehouse, table}
	if o.Mode != "" {
		args = append(args, "--mode", o.Mode)
	}
	if o.Snapshot > 0 {
		args = append(args, "--snapshot", fmt.Sprint(o.Snapshot))
	}
	if o.Tag != "" {
		args = append(args, "--tag", o.Tag)
	}
	if len(o.Columns) > 0 {
		args = append(args, "--cols", strings.Join(o.Columns, ","))
	}
	return args
}
