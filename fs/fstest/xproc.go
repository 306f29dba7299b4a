package fstest

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	iofs "io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/fs"
)

// CrossProcessOptions tunes [RunCrossProcess]. A nil *CrossProcessOptions
// means defaults.
type CrossProcessOptions struct {
	// Processes is the number of OS processes racing. Zero means 4.
	Processes int
	// Goroutines is the number of racing goroutines per process. Zero
	// means 2.
	Goroutines int
	// Names is the number of names every writer tries to create. Zero
	// means 100.
	Names int
	// Timeout bounds the whole race. Zero means 2 minutes.
	Timeout time.Duration
}

func (o *CrossProcessOptions) withDefaults() CrossProcessOptions {
	var out CrossProcessOptions
	if o != nil {
		out = *o
	}
	if out.Processes <= 0 {
		out.Processes = 4
	}
	if out.Goroutines <= 0 {
		out.Goroutines = 2
	}
	if out.Names <= 0 {
		out.Names = 100
	}
	if out.Timeout <= 0 {
		out.Timeout = 2 * time.Minute
	}
	return out
}

// Environment variables passed to child processes.
const (
	envTest = "PAIMON_FSTEST_XPROC_TEST" // t.Name() of the test to act in
	envDir  = "PAIMON_FSTEST_XPROC_DIR"  // directory handed to open
	envOut  = "PAIMON_FSTEST_XPROC_OUT"  // directory for ready/result files
	envID   = "PAIMON_FSTEST_XPROC_ID"   // process number
	envConf = "PAIMON_FSTEST_XPROC_CONF" // "goroutines,names"
)

// RunCrossProcess checks that create-if-absent is atomic across OS
// processes: several processes (each with several goroutines) race to
// create the same names with CreateOptions{IfNotExist: true}, and every name
// must end up with exactly one winner whose content is the one stored.
// A check-then-write protected by an in-process mutex passes in-process
// tests but fails here.
//
// open is called in every process with the same directory and must return
// a file system over the storage found there (for localfs: rooted at dir).
// Only implementations whose state is shared between processes can take
// part; memfs cannot.
//
// The child processes are the running test binary re-executed with
// -test.run restricted to the calling test. In a child, RunCrossProcess
// performs its share of the race and ends the test with t.SkipNow, so code
// after the call runs only in the parent; keep the calling test otherwise
// free of side effects.
func RunCrossProcess(t *testing.T, open func(t *testing.T, dir string) fs.FS, opts *CrossProcessOptions) {
	if os.Getenv(envTest) == t.Name() {
		runChild(t, open)
		t.SkipNow()
		return
	}
	o := opts.withDefaults()
	dir, outDir := t.TempDir(), t.TempDir()
	exe, err := os.Executable()
	require.NoError(t, err)

	ctx, cancel := context.WithTimeout(context.Background(), o.Timeout)
	defer cancel()
	type child struct {
		cmd   *exec.Cmd
		stdin interface{ Close() error }
		out   *bytes.Buffer
	}
	children := make([]child, o.Processes)
	for i := range children {
		cmd := exec.CommandContext(ctx, exe, "-test.run="+runPattern(t.Name()), "-test.count=1")
		cmd.Env = append(os.Environ(),
			envTest+"="+t.Name(),
			envDir+"="+dir,
			envOut+"="+outDir,
			envID+"="+strconv.Itoa(i),
			envConf+"="+fmt.Sprintf("%d,%d", o.Goroutines, o.Names),
		)
		stdin, err := cmd.StdinPipe()
		require.NoError(t, err)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		require.NoError(t, cmd.Start())
		children[i] = child{cmd: cmd, stdin: stdin, out: &out}
	}
	// Start line: wait until every child has opened its FS, then release
	// them together by closing their stdin.
	waitReady(t, ctx, outDir, o.Processes)
	for _, c := range children {
		require.NoError(t, c.stdin.Close())
	}
	for i, c := range children {
		require.NoError(t, c.cmd.Wait(), "child %d failed:\n%s", i, c.out.String())
	}

	// Collect the verdicts.
	winners := map[string][]string{}
	winsPerProc := make([]int, o.Processes)
	for i := range o.Processes {
		data, err := os.ReadFile(filepath.Join(outDir, fmt.Sprintf("result-%d", i)))
		require.NoError(t, err, "child %d wrote no result:\n%s", i, children[i].out.String())
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			verdict, rest, _ := strings.Cut(sc.Text(), " ")
			name, writer, _ := strings.Cut(rest, " ")
			switch verdict {
			case "win":
				winners[name] = append(winners[name], writer)
				winsPerProc[i]++
			case "lose":
			default:
				t.Errorf("child %d: %s", i, sc.Text())
			}
		}
	}
	fsys := open(t, dir)
	defer fsys.Close()
	for n := range o.Names {
		name := raceName(n)
		ws := winners[name]
		require.Len(t, ws, 1, "%s must have exactly one winner across processes, got %v", name, ws)
		got, err := fs.ReadFile(context.Background(), fsys, name)
		require.NoError(t, err)
		require.Equal(t, ws[0], string(got), "%s must hold the winner's content", name)
	}
	require.Len(t, listNames(t, fsys, "race"), o.Names, "no temporary files left")
	t.Logf("wins per process: %v", winsPerProc)
}

func raceName(n int) string { return fmt.Sprintf("race/snapshot-%d", n) }

// runPattern builds a -test.run pattern matching exactly the test called
// name (subtest levels are separated by '/').
func runPattern(name string) string {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return strings.Join(parts, "/")
}

func waitReady(t *testing.T, ctx context.Context, outDir string, n int) {
	t.Helper()
	for {
		ready := 0
		for i := range n {
			if _, err := os.Stat(filepath.Join(outDir, fmt.Sprintf("ready-%d", i))); err == nil {
				ready++
			}
		}
		if ready == n {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("only %d of %d child processes became ready: %v", ready, n, ctx.Err())
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// runChild is one racing process: open the FS, report ready, wait for the
// start signal (stdin closed), race, and write one verdict line per
// attempt: "win NAME WRITER", "lose NAME WRITER" or "err NAME WRITER: ...".
func runChild(t *testing.T, open func(t *testing.T, dir string) fs.FS) {
	dir, outDir, id := os.Getenv(envDir), os.Getenv(envOut), os.Getenv(envID)
	var goroutines, names int
	_, err := fmt.Sscanf(os.Getenv(envConf), "%d,%d", &goroutines, &names)
	require.NoError(t, err)

	fsys := open(t, dir)
	defer fsys.Close()
	require.NoError(t, os.WriteFile(filepath.Join(outDir, "ready-"+id), nil, 0o666))
	_, _ = bufio.NewReader(os.Stdin).ReadString(0) // returns at EOF: the start signal

	var mu sync.Mutex
	var lines []string
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			writer := fmt.Sprintf("p%s-g%d", id, g)
			// Every writer visits the names in an order of its own: in
			// one shared order the fastest writer runs ahead and wins
			// every name uncontested, while losers are slowed by their
			// failed attempts.
			order := rand.New(rand.NewPCG(uint64(len(writer)), hashString(writer))).Perm(names)
			for _, n := range order {
				name := raceName(n)
				err := fs.WriteFile(context.Background(), fsys, name, []byte(writer), &fs.CreateOptions{IfNotExist: true})
				var line string
				switch {
				case err == nil:
					line = "win " + name + " " + writer
				case errors.Is(err, iofs.ErrExist):
					line = "lose " + name + " " + writer
				default:
					line = fmt.Sprintf("err %s %s: %q", name, writer, err.Error())
				}
				mu.Lock()
				lines = append(lines, line)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	out := strings.Join(lines, "\n") + "\n"
	require.NoError(t, os.WriteFile(filepath.Join(outDir, "result-"+id), []byte(out), 0o666))
}

func hashString(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}
