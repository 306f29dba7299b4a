package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/paimon-go/paimon-go/catalog"
	"github.com/paimon-go/paimon-go/paimon"
)

// wantInOrder are lines (as regular expressions, matched against the
// output with runs of spaces collapsed) the quickstart must print, in this
// order.
var wantInOrder = []string{
	`^1\. Create a database and two tables$`,
	`^tables in database "shop": shop\.customers, shop\.orders$`,
	`^shop\.orders append-only, partitioned by day: order_id BIGINT NOT NULL, customer STRING, amount DOUBLE, day STRING NOT NULL$`,
	`^shop\.customers primary key \(id\): id BIGINT NOT NULL, name STRING, city STRING$`,
	`^commit 1: 4 rows in 2 data files -> snapshot 1$`,
	`^commit 2: 2 rows in 1 data file -> snapshot 2$`,
	`^order_id customer amount day$`,
	`^3 carol 30 2024-06-01$`,
	`^6 bob 64\.1 2024-06-02$`,
	`^customer, amount where day = '2024-06-02' AND amount > 20$`,
	`^\(planning kept 2 of 3 data files: 1 skipped by partition, 0 by column statistics\)$`,
	`^customer amount$`,
	`^alice 42$`,
	`^bob 64\.1$`,
	`^upsert ids 1, 2, 3 -> snapshot 1$`,
	`^upsert id 2 again \(bob moved\) -> snapshot 2$`,
	`^delete id 3 -> snapshot 3$`,
	`^id name city$`,
	`^1 alice Lyon$`,
	`^2 bob Riga$`,
	`^d1 1 a 1\.000 2024-05-01T10:00:00\.123456$`,
	`^d2 3 d NULL NULL$`,
	`the files hold 7 row versions; merged by key \(dt, id\)`,
	`^d1 1 a-new 10\.000 NULL$`,
	`^d2 5 f NULL NULL$`,
}

// normalize trims each line and collapses the tabwriter's padding.
func normalize(out string) []string {
	space := regexp.MustCompile(` +`)
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		lines = append(lines, space.ReplaceAllString(strings.TrimSpace(l), " "))
	}
	return lines
}

// checkInOrder fails unless every pattern matches a line after the line
// the previous pattern matched.
func checkInOrder(t *testing.T, out string, patterns []string) {
	t.Helper()
	lines := normalize(out)
	at := 0
	for _, p := range patterns {
		re := regexp.MustCompile(p)
		found := false
		for at < len(lines) {
			at++
			if re.MatchString(lines[at-1]) {
				found = true
				break
			}
		}
		if !found {
			t.Fatalf("no line matching %q (in order) in output:\n%s", p, out)
		}
	}
}

func TestQuickstart(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"temporary warehouse", nil, append([]string{`^warehouse: .*\(temporary; pass -warehouse DIR to keep it\)$`}, wantInOrder...)},
		{"warehouse flag", []string{"-warehouse", filepath.Join(dir, "flag")}, append([]string{`^warehouse: .*flag$`}, wantInOrder...)},
		{"warehouse argument", []string{filepath.Join(dir, "arg")}, append([]string{`^warehouse: .*arg$`}, wantInOrder...)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			if err := run(ctx, tc.args, &out); err != nil {
				t.Fatalf("run: %v\noutput:\n%s", err, out.String())
			}
			checkInOrder(t, out.String(), tc.want)
		})
	}
}

// TestQuickstartRerun runs twice on one warehouse: the tables are kept, and
// the second run finds every commit made (same commit user, same
// identifiers), says it committed nothing new, publishes no snapshot and
// leaves no unreferenced file (the library's own orphan scan finds none).
func TestQuickstartRerun(t *testing.T) {
	ctx := context.Background()
	wh := t.TempDir()
	var out bytes.Buffer
	snapshots := func() []int64 {
		cat, err := catalog.Open(ctx, wh, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer cat.Close()
		var ids []int64
		for _, id := range []paimon.Identifier{ordersID, customersID} {
			tbl, err := cat.LoadTable(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			latest, _, err := tbl.Meta().LatestSnapshotID(ctx)
			if err != nil {
				t.Fatal(err)
			}
			res, err := tbl.RemoveOrphanFiles(ctx, &paimon.OrphanOptions{DryRun: true, OlderThan: time.Nanosecond})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Deleted) > 0 {
				t.Fatalf("%s: unreferenced files after the run: %v", id, res.Deleted)
			}
			ids = append(ids, latest)
		}
		return ids
	}
	var first []int64
	for i := 0; i < 2; i++ {
		out.Reset()
		if err := run(ctx, []string{"-warehouse", wh}, &out); err != nil {
			t.Fatalf("run %d: %v\noutput:\n%s", i+1, err, out.String())
		}
		if i == 0 {
			first = snapshots()
			if !slices.Equal(first, []int64{2, 3}) {
				t.Fatalf("after the first run the tables are at snapshots %v, want [2 3]", first)
			}
			if strings.Contains(out.String(), "nothing new") {
				t.Fatalf("the first run says nothing new:\n%s", out.String())
			}
		}
	}
	checkInOrder(t, out.String(), []string{
		`^commit 1: identifier 1 of commit user "quickstart" was committed before: nothing new$`,
		`^commit 2: identifier 2 of commit user "quickstart" was committed before: nothing new$`,
		`^3 carol 30 2024-06-01$`,
		`^6 bob 64\.1 2024-06-02$`,
		`^upsert ids 1, 2, 3: identifier 1 of commit user "quickstart" was committed before: nothing new$`,
		`^upsert id 2 again \(bob moved\): identifier 2 of commit user "quickstart" was committed before: nothing new$`,
		`^delete id 3: identifier 3 of commit user "quickstart" was committed before: nothing new$`,
		`^1 alice Lyon$`,
		`^2 bob Riga$`,
		`^This run committed nothing new: every commit of commit user "quickstart" was made by an earlier run on .*$`,
	})
	if n := slices.Index(normalize(out.String()), "6 bob 64.1 2024-06-02"); n < 0 || slices.Contains(normalize(out.String())[n+1:], "6 bob 64.1 2024-06-02") {
		t.Fatalf("order 6 not printed exactly once in the second run (no row added twice):\n%s", out.String())
	}
	if strings.Contains(out.String(), "-> snapshot") {
		t.Fatalf("the second run published a snapshot:\n%s", out.String())
	}
	if got := snapshots(); !slices.Equal(got, first) {
		t.Fatalf("the second run moved the tables from snapshots %v to %v", first, got)
	}
}

func TestQuickstartErrors(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"help", []string{"-h"}, flag.ErrHelp.Error()},
		{"missing golden warehouse", []string{"-warehouse", t.TempDir(), "-golden", filepath.Join(t.TempDir(), "none")}, "table not found"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := run(ctx, tc.args, &bytes.Buffer{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("run(%q) = %v, want an error containing %q", tc.args, err, tc.want)
			}
			if tc.name == "help" && !errors.Is(err, flag.ErrHelp) {
				t.Fatalf("help: %v is not flag.ErrHelp", err)
			}
		})
	}
}
