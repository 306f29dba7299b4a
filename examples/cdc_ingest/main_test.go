package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/paimon-go/paimon-go/catalog"
	"github.com/paimon-go/paimon-go/paimon"
)

// model applies the events of a file to a map, as the table should hold
// them.
func model(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rows := map[int64]customer{}
	for _, l := range splitLines(b) {
		var e event
		if err := json.Unmarshal(l, &e); err != nil {
			t.Fatal(err)
		}
		if e.After != nil {
			rows[e.After.ID] = *e.After
		} else {
			delete(rows, e.Before.ID)
		}
	}
	var out []string
	for _, r := range rows {
		out = append(out, render(r.ID, r.Name, r.Email, r.Balance))
	}
	slices.Sort(out)
	return out
}

func render(id int64, name, email *string, bal *int64) string {
	s := func(p *string) string {
		if p == nil {
			return "NULL"
		}
		return *p
	}
	b := "NULL"
	if bal != nil {
		b = fmt.Sprint(*bal)
	}
	return fmt.Sprintf("%d|%s|%s|%s", id, s(name), s(email), b)
}

// tableRows reads cdc.customers.
func tableRows(t *testing.T, wh string) []string {
	t.Helper()
	ctx := context.Background()
	cat, err := catalog.Open(ctx, wh, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Close()
	tbl, err := cat.LoadTable(ctx, paimon.Identifier{Database: "cdc", Table: "customers"})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for rec, err := range tbl.NewScan().Records(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		str := func(c int, i int) *string {
			a := rec.Column(c).(*array.String)
			if a.IsNull(i) {
				return nil
			}
			v := a.Value(i)
			return &v
		}
		for i := 0; i < int(rec.NumRows()); i++ {
			var bal *int64
			if b := rec.Column(3).(*array.Int64); !b.IsNull(i) {
				v := b.Value(i)
				bal = &v
			}
			out = append(out, render(rec.Column(0).(*array.Int64).Value(i), str(1, i), str(2, i), bal))
		}
		rec.Release()
	}
	slices.Sort(out)
	return out
}

var errCrash = errors.New("simulated crash")

// TestCDCExactlyOnce crashes the consumer before a commit lands and after
// another landed but before the checkpoint recorded it; each restart
// settles the pending commit and continues. More events arrive and a last
// run applies them. The table always ends equal to the events applied in
// order: nothing lost, nothing applied twice.
func TestCDCExactlyOnce(t *testing.T) {
	ctx := context.Background()
	wh := t.TempDir()
	events := filepath.Join(wh, "changes.jsonl")
	base := []string{"-warehouse", wh, "-every", "40", "-batch", "15"}
	var out bytes.Buffer
	crashAt := func(stage string, id int64) func(string, int64) error {
		return func(s string, i int64) error {
			if s == stage && i == id {
				return errCrash
			}
			return nil
		}
	}
	// Run 1 stops before commit 3 lands; run 2 after commit 5 landed.
	for i, crash := range []func(string, int64) error{crashAt("before-commit", 3), crashAt("after-commit", 5)} {
		args := base
		if i == 0 {
			args = append(args, "-generate", "400", "-seed", "7")
		}
		err := runWithCrash(ctx, args, &out, crash)
		if !errors.Is(err, errCrash) {
			t.Fatalf("run %d: %v\n%s", i+1, err, out.String())
		}
	}
	if err := run(ctx, base, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	for _, want := range []string{"recovery: commit 3 had not landed; committed it now", "recovery: commit 5 had landed"} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("output lacks %q:\n%s", want, out.String())
		}
	}
	if got, want := tableRows(t, wh), model(t, events); !slices.Equal(got, want) {
		t.Fatalf("table differs from the events:\n got %v\nwant %v", got, want)
	}
	// More events, and a run without anything new.
	out.Reset()
	if err := run(ctx, append(base, "-generate", "150", "-seed", "8"), &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if err := run(ctx, base, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if got, want := tableRows(t, wh), model(t, events); !slices.Equal(got, want) {
		t.Fatalf("table differs from the events after more of them:\n got %v\nwant %v", got, want)
	}
	st, err := loadState(filepath.Join(wh, ".cdc_ingest-cdc.customers-cdc-ingest.json"))
	if err != nil || st.NextOffset != 550 || st.Pending != nil {
		t.Fatalf("state %+v, %v; want offset 550", st, err)
	}
}

// runWithCrash is run with a crash hook.
func runWithCrash(ctx context.Context, args []string, out *bytes.Buffer, crash func(string, int64) error) error {
	crashHook = crash
	defer func() { crashHook = nil }()
	return run(ctx, args, out)
}

// TestCDCRerunLeavesNoOrphans runs the ingester twice over the same
// events file: the second run must say it committed nothing new, add no
// snapshot and leave no unreferenced file (checked with the library's own
// orphan scan). Run again with its state file lost, it re-reads the events
// from the start; it must refuse (the state is behind the table's commits
// of its user) instead of silently committing nothing, again leaving no
// unreferenced file.
func TestCDCRerunLeavesNoOrphans(t *testing.T) {
	ctx := context.Background()
	wh := t.TempDir()
	base := []string{"-warehouse", wh, "-every", "40", "-batch", "15"}
	var out bytes.Buffer
	if err := run(ctx, append(base, "-generate", "200", "-seed", "3"), &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	want := tableRows(t, wh)
	check := func() int64 {
		cat, err := catalog.Open(ctx, wh, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer cat.Close()
		tbl, err := cat.LoadTable(ctx, paimon.Identifier{Database: "cdc", Table: "customers"})
		if err != nil {
			t.Fatal(err)
		}
		id, _, err := tbl.Meta().LatestSnapshotID(ctx)
		if err != nil {
			t.Fatal(err)
		}
		res, err := tbl.RemoveOrphanFiles(ctx, &paimon.OrphanOptions{DryRun: true, OlderThan: time.Nanosecond})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Deleted) > 0 {
			t.Fatalf("unreferenced files after the run: %v", res.Deleted)
		}
		if got := tableRows(t, wh); !slices.Equal(got, want) {
			t.Fatalf("the rows changed:\n got %v\nwant %v", got, want)
		}
		return id
	}
	first := check()
	out.Reset()
	if err := run(ctx, base, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	t.Logf("second run:\n%s", out.String())
	if !strings.Contains(out.String(), "nothing new") || strings.Contains(out.String(), "-> snapshot") {
		t.Fatalf("the second run should say it committed nothing new:\n%s", out.String())
	}
	if got := check(); got != first {
		t.Fatalf("the second run moved the table from snapshot %d to %d", first, got)
	}

	if err := os.Remove(filepath.Join(wh, ".cdc_ingest-cdc.customers-cdc-ingest.json")); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	err := run(ctx, base, &out)
	if err == nil || !strings.Contains(err.Error(), "already committed identifier 1") {
		t.Fatalf("a run with its state lost: %v\n%s", err, out.String())
	}
	if got := check(); got != first {
		t.Fatalf("the refused run moved the table from snapshot %d to %d", first, got)
	}
}
