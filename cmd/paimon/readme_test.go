package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The README's shell blocks must run as written from a fresh clone.
// TestReadmeCommands extracts every command of every ```sh block of the
// repository's README.md and runs them in order from the repository root:
//
//   - "go run ./cmd/paimon ARGS" (or "paimon ARGS") in-process through run,
//     which is what the built binary does, without a minute of linking;
//   - "go run ./examples/NAME ARGS" through the go command, as written.
//
// The one liberty taken: "/tmp/wh" (and paths under it) is replaced by a
// fresh temporary warehouse, so the commands that create a database or a
// table run on an empty one, as on a fresh clone. Files the commands read
// are checked in (examples/data). A block whose commands cannot run here is
// marked in the README by the line
//
//	<!-- readme-test skip: REASON -->
//
// right before its fence; each of its commands is reported as a skipped
// subtest with the reason (never dropped silently). A command in an
// unmarked block that is neither form above fails the test.

// readmeSkipMarker starts the comment that marks a block as not run.
const readmeSkipMarker = "<!-- readme-test skip:"

// readmeWarehouse is the warehouse the README's commands use.
const readmeWarehouse = "/tmp/wh"

// readmeCommand is one command of a shell block.
type readmeCommand struct {
	line int    // README line the command starts on
	text string // the command as written, continuations joined, comment dropped
	skip string // the block's skip reason, "" to run it
}

// readmeCommands returns the commands of the shell blocks of the markdown
// file at path, in order.
func readmeCommands(t *testing.T, path string) []readmeCommand {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var (
		cmds     []readmeCommand
		inBlock  bool
		shell    bool   // the block is a shell block
		skip     string // skip reason of the current block
		lastText string // the last non-blank line outside blocks
		pending  strings.Builder
		start    int
	)
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") {
			if inBlock {
				require.Zero(t, pending.Len(), "%s:%d: block ends in a line continuation", path, n)
				inBlock = false
				continue
			}
			inBlock = true
			switch lang := strings.TrimPrefix(trimmed, "```"); lang {
			case "sh", "bash", "shell", "console":
				shell = true
			case "":
				t.Fatalf("%s:%d: a code block without a language: say sh for commands the test runs, or the language it is", path, n)
			default:
				shell = false
			}
			skip = ""
			if strings.HasPrefix(lastText, readmeSkipMarker) {
				skip = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(lastText, readmeSkipMarker), "-->"))
				require.NotEmpty(t, skip, "%s:%d: a skip marker must say why", path, n-1)
				require.True(t, shell, "%s:%d: a skip marker before a block that is not shell", path, n-1)
			}
			continue
		}
		if !inBlock {
			if trimmed != "" {
				lastText = trimmed
			}
			continue
		}
		if !shell {
			continue
		}
		if pending.Len() == 0 {
			if trimmed == "" || strings.HasPrefix(trimmed, "#") {
				continue
			}
			start = n
		}
		if strings.HasSuffix(line, `\`) {
			pending.WriteString(strings.TrimSuffix(line, `\`))
			continue
		}
		pending.WriteString(line)
		cmds = append(cmds, readmeCommand{line: start, text: strings.TrimSpace(pending.String()), skip: skip})
		pending.Reset()
	}
	require.NoError(t, sc.Err())
	require.False(t, inBlock, "%s: a code block is not closed", path)
	return cmds
}

// errShellSyntax reports a command that needs more of a shell than words.
var errShellSyntax = errors.New("needs a shell feature the README test does not interpret")

// shellWords splits a command as sh would, for the subset the README uses:
// words separated by blanks, '...' and "..." quoting, backslash escapes and
// a trailing # comment. Pipes, redirections, expansions and globs are
// refused rather than misread.
func shellWords(s string) ([]string, error) {
	var (
		words  []string
		cur    strings.Builder
		inWord bool
	)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '#' && !inWord:
			return words, nil
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("%w: unclosed '", errShellSyntax)
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				switch {
				case s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\\\"$`", s[i+1]) >= 0:
					i++
				case s[i] == '$' || s[i] == '`':
					return nil, fmt.Errorf("%w: %q inside double quotes", errShellSyntax, s[i])
				}
				cur.WriteByte(s[i])
			}
			if i == len(s) {
				return nil, fmt.Errorf("%w: unclosed \"", errShellSyntax)
			}
			inWord = true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			inWord = true
		case strings.IndexByte("|&;<>()$`*?[~", c) >= 0:
			return nil, fmt.Errorf("%w: %q", errShellSyntax, c)
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// readmeExpect are substrings the output of a README command must hold,
// keyed by a substring naming exactly one command: the commands' results,
// not only their exit status, are checked.
var readmeExpect = map[string][]string{
	"./examples/quickstart":                        {"paimon-go quickstart", "merged by key"},
	"cmd/paimon help":                              {"Usage:", "orphans"},
	`--where "hr = 23"`:                            {"2024-03-01  23  m1", "(1 row)"},
	"load --warehouse /tmp/wh shop.orders":         {"Loaded 6 rows from 1 file into shop.orders: snapshot 1."},
	"shop.orders --where":                          {"4  alice      42.00  2024-06-02", "6  bob        64.10  2024-06-02", "(2 rows)"},
	"--row-kind-column op shop.users":              {"Loaded 6 rows from 1 file into shop.users: snapshot 1."},
	"scan --warehouse /tmp/wh shop.users":          {`{"id":1,"name":"alice","city":"Lyon"}` + "\n" + `{"id":2,"name":"bob","city":"Riga"}` + "\n"},
	"health --warehouse /tmp/wh shop.orders":       {"Unreferenced files  none", "No findings."},
	"orphans --warehouse /tmp/wh shop.orders":      {"No unreferenced files"},
	"table create --warehouse /tmp/wh shop.orders": {"Created table shop.orders."},
	"table create --warehouse /tmp/wh shop.users":  {"Created table shop.users."},
	"db create --warehouse /tmp/wh shop":           {"Created database shop."},
}

func TestReadmeCommands(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	cmds := readmeCommands(t, filepath.Join(root, "README.md"))
	require.NotEmpty(t, cmds)
	wh := filepath.Join(t.TempDir(), "wh")
	// The commands run from the repository root, as after a clone, and
	// name their warehouse themselves.
	t.Chdir(root)
	t.Setenv("PAIMON_WAREHOUSE", "")
	t.Setenv("PAIMON_CATALOG_CONFIG", "")

	matched := map[string]int{}
	failed := false
	for i, c := range cmds {
		name := fmt.Sprintf("%02d_line%d", i+1, c.line)
		t.Run(name, func(t *testing.T) {
			if c.skip != "" {
				t.Skipf("README.md:%d %q: not run, as the README marks its block: %s", c.line, c.text, c.skip)
			}
			if failed {
				t.Skipf("README.md:%d %q: not run, an earlier command failed", c.line, c.text)
			}
			ok := false
			defer func() { failed = failed || !ok }()
			words, err := shellWords(c.text)
			require.NoError(t, err, "README.md:%d %q", c.line, c.text)
			for i, w := range words {
				if w == readmeWarehouse || strings.HasPrefix(w, readmeWarehouse+"/") {
					words[i] = wh + strings.TrimPrefix(w, readmeWarehouse)
				}
			}
			var stdout, stderr bytes.Buffer
			switch {
			case len(words) >= 3 && words[0] == "go" && words[1] == "run" && words[2] == "./cmd/paimon":
				code := run(context.Background(), words[3:], &stdout, &stderr)
				require.Equal(t, exitOK, code, "README.md:%d %q\nstdout:\n%s\nstderr:\n%s", c.line, c.text, stdout.String(), stderr.String())
			case len(words) >= 1 && words[0] == "paimon":
				code := run(context.Background(), words[1:], &stdout, &stderr)
				require.Equal(t, exitOK, code, "README.md:%d %q\nstdout:\n%s\nstderr:\n%s", c.line, c.text, stdout.String(), stderr.String())
			case len(words) >= 3 && words[0] == "go" && words[1] == "run" && strings.HasPrefix(words[2], "./examples/"):
				// The go command on PATH: go test puts its own first.
				cmd := exec.CommandContext(t.Context(), "go", words[1:]...)
				cmd.Dir = root
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				require.NoError(t, cmd.Run(), "README.md:%d %q\nstdout:\n%s\nstderr:\n%s", c.line, c.text, stdout.String(), stderr.String())
			default:
				t.Fatalf("README.md:%d %q: the README test cannot run this command; run it here through run or the go command, or mark its block with %s REASON -->", c.line, c.text, readmeSkipMarker)
			}
			for key, wants := range readmeExpect {
				if !strings.Contains(c.text, key) {
					continue
				}
				matched[key]++
				for _, want := range wants {
					require.Contains(t, stdout.String(), want, "README.md:%d %q", c.line, c.text)
				}
			}
			ok = true
		})
	}
	if failed {
		return
	}
	for key := range readmeExpect {
		require.Equal(t, 1, matched[key], "readmeExpect key %q must name exactly one README command", key)
	}
}

// TestShellWords pins the README test's reading of a command line.
func TestShellWords(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{`go run ./cmd/paimon help`, []string{"go", "run", "./cmd/paimon", "help"}},
		{`paimon scan --where "hr = 23" x   # comment`, []string{"paimon", "scan", "--where", "hr = 23", "x"}},
		{`a 'b "c" d' "e \"f\" \$g" h\ i`, []string{"a", `b "c" d`, `e "f" $g`, "h i"}},
		{`a--b#c d`, []string{"a--b#c", "d"}},
	} {
		got, err := shellWords(tc.in)
		require.NoError(t, err, tc.in)
		require.Equal(t, tc.want, got, tc.in)
	}
	for _, in := range []string{`a | jq`, `a > out`, `a $HOME`, `a "$HOME"`, `a *.csv`, `a ~/x`, `a; b`, `a 'b`, `a "b`} {
		_, err := shellWords(in)
		require.ErrorIs(t, err, errShellSyntax, in)
	}
}
