package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/paimon-go/paimon-go/catalog"
	"github.com/paimon-go/paimon-go/paimon"
)

// fast are flags that make a run take a fraction of a second.
var fast = []string{"-interval", "60ms", "-tick", "10ms", "-rows", "7", "-batch", "20"}

func flags(wh string, extra ...string) []string {
	return append(append([]string{"-warehouse", wh}, fast...), extra...)
}

// tableIDs returns the sorted ids in ingest.events.
func tableIDs(t *testing.T, wh string) []int64 {
	t.Helper()
	ctx := context.Background()
	cat, err := catalog.Open(ctx, wh, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Close()
	tbl, err := cat.LoadTable(ctx, paimon.Identifier{Database: "ingest", Table: "events"})
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for rec, err := range tbl.NewScan(paimon.WithColumns("id")).Records(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, rec.Column(0).(*array.Int64).Int64Values()...)
		rec.Release()
	}
	slices.Sort(ids)
	return ids
}

// checkExactlyOnce fails unless the table holds the ids 0..n-1 once each
// and the state's source position is n: nothing lost, nothing twice.
func checkExactlyOnce(t *testing.T, wh, statePath string) []int64 {
	t.Helper()
	ids := tableIDs(t, wh)
	if len(ids) == 0 {
		t.Fatal("no rows were committed")
	}
	for i, id := range ids {
		if id != int64(i) {
			t.Fatalf("ids are not 0..%d once each: position %d holds %d (ids %v)", len(ids)-1, i, id, ids)
		}
	}
	st, err := loadState(statePath)
	if err != nil {
		t.Fatal(err)
	}
	if st.Pending != nil || st.NextRowID != int64(len(ids)) {
		t.Fatalf("state %+v after %d rows in the table", st, len(ids))
	}
	return ids
}

func statePath(wh string) string { return wh + "/.append_ingest-ingest.events-append-ingest.json" }

// commitLine matches the report of one commit.
var commitLine = regexp.MustCompile(`(?m)^commit (\d+): (\d+) rows \(ids (\d+)\.\.(\d+)\) -> snapshot (\d+)$`)

func TestIngestAndRestart(t *testing.T) {
	ctx := context.Background()
	wh := t.TempDir()
	var firstIDs []int64
	wantNextCommit := int64(1)
	for round := 1; round <= 2; round++ {
		var out bytes.Buffer
		// Stopping after a number of commits, not a duration, keeps the
		// test independent of how fast a shared machine runs it.
		if err := run(ctx, flags(wh, "-commits", "2"), &out); err != nil {
			t.Fatalf("round %d: %v\n%s", round, err, out.String())
		}
		commits := commitLine.FindAllStringSubmatch(out.String(), -1)
		if len(commits) != 2 {
			t.Fatalf("round %d: want 2 commits:\n%s", round, out.String())
		}
		for _, c := range commits {
			if c[1] != fmt.Sprint(wantNextCommit) {
				t.Fatalf("round %d: commit identifier %s, want %d (increasing across restarts):\n%s", round, c[1], wantNextCommit, out.String())
			}
			wantNextCommit++
		}
		for _, want := range []string{"stopping after 2 commits", "done: "} {
			if !strings.Contains(out.String(), want) {
				t.Fatalf("round %d: no %q in output:\n%s", round, want, out.String())
			}
		}
		ids := checkExactlyOnce(t, wh, statePath(wh))
		if round == 2 && len(ids) <= len(firstIDs) {
			t.Fatalf("the second run added no rows (%d, then %d)", len(firstIDs), len(ids))
		}
		firstIDs = ids
	}
}

var errCrash = errors.New("simulated crash")

// TestIngestRecovery kills the ingester at either side of its second
// commit; the next run must settle that commit through FilterCommitted.
func TestIngestRecovery(t *testing.T) {
	tests := []struct {
		stage string
		want  string
	}{
		{"before-commit", `recovery: commit 2 \(\d+ rows\) had not landed; committed it now -> snapshot 2`},
		{"after-commit", `recovery: commit 2 \(\d+ rows\) had landed before the previous run stopped; skipping it`},
	}
	for _, tc := range tests {
		t.Run(tc.stage, func(t *testing.T) {
			ctx := context.Background()
			wh := t.TempDir()
			cfg, cleanup, err := parseFlags(flags(wh), &bytes.Buffer{})
			if err != nil {
				t.Fatal(err)
			}
			defer cleanup()
			cfg.crash = func(stage string, id int64) error {
				if stage == tc.stage && id == 2 {
					return errCrash
				}
				return nil
			}
			var out bytes.Buffer
			if err := ingest(ctx, cfg, &out); !errors.Is(err, errCrash) {
				t.Fatalf("crashing run: %v, want the simulated crash\n%s", err, out.String())
			}
			st, err := loadState(statePath(wh))
			if err != nil {
				t.Fatal(err)
			}
			if st.Pending == nil || st.Pending.Identifier != 2 {
				t.Fatalf("state after the crash: %+v, want commit 2 pending", st)
			}

			out.Reset()
			if err := run(ctx, flags(wh, "-commits", "1"), &out); err != nil {
				t.Fatalf("restart: %v\n%s", err, out.String())
			}
			if !regexp.MustCompile(tc.want).MatchString(out.String()) {
				t.Fatalf("restart output lacks %q:\n%s", tc.want, out.String())
			}
			if c := commitLine.FindStringSubmatch(out.String()); c == nil || c[1] != "3" {
				t.Fatalf("the restart's first commit is %v, want identifier 3:\n%s", c, out.String())
			}
			checkExactlyOnce(t, wh, statePath(wh))
		})
	}
}

// TestIngestStateBehind gives the ingester a state older than the table:
// it must refuse rather than reuse identifiers the table has seen.
func TestIngestStateBehind(t *testing.T) {
	ctx := context.Background()
	wh := t.TempDir()
	var out bytes.Buffer
	if err := run(ctx, flags(wh, "-commits", "1"), &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if err := os.Remove(statePath(wh)); err != nil {
		t.Fatal(err)
	}
	err := run(ctx, flags(wh, "-duration", "100ms"), &out)
	if err == nil || !strings.Contains(err.Error(), `is behind the table: commit user "append-ingest" already committed identifier 1`) {
		t.Fatalf("run with a lost state: %v", err)
	}
	// Another commit user has its own identifiers.
	if err := run(ctx, flags(wh, "-commits", "1", "-user", "other"), &out); err != nil {
		t.Fatalf("run as another user: %v\n%s", err, out.String())
	}
}

// TestIngestInterrupt stops the ingester by cancelling its context, as
// Ctrl-C does: what was written is still committed.
func TestIngestInterrupt(t *testing.T) {
	wh := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	var out bytes.Buffer
	if err := run(ctx, flags(wh), &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "interrupted: committing what was written") {
		t.Fatalf("no interruption in output:\n%s", out.String())
	}
	checkExactlyOnce(t, wh, statePath(wh))
}

func TestIngestFlags(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"zero interval", []string{"-interval", "0s"}, "must be positive"},
		{"negative duration", []string{"-duration", "-1s"}, "not negative"},
		{"bad table", []string{"-table", "nodot"}, "nodot"},
		{"remote warehouse without state", []string{"-warehouse", "mem://wh"}, "give -state FILE"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := parseFlags(tc.args, &bytes.Buffer{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("parseFlags(%q) = %v, want an error containing %q", tc.args, err, tc.want)
			}
		})
	}
}
