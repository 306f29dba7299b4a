package main

import (
	"bytes"
	"context"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func golden(name string) string {
	return filepath.Join("..", "..", "testdata", "golden", "java-1.4.2", name, "warehouse")
}

// workerLine matches a worker's report.
var workerLine = regexp.MustCompile(`(?m)^  worker (\d+): (\d+) splits?, (\d+) rows?$`)

func TestDistributedPlan(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name    string
		args    []string
		workers int
		splits  int
		want    []string // lines, spaces collapsed
	}{
		{
			name: "demo table", workers: 4, splits: 16,
			want: []string{
				"wrote 20000 rows to demo.page_views in a temporary warehouse, in 2 commits",
				"planned demo.page_views at snapshot 2: 16 splits over 32 data files holding 20000 rows (0 files skipped by the filter)",
				"rows per day, merged from the workers:",
				"2024-06-01 5000", "2024-06-04 5000",
				"total: 20000 rows, the same as a single scan in one process",
			},
		},
		{
			name: "filter and group column", args: []string{"-workers", "3", "-by", "page", "-where", "day >= '2024-06-03' AND user_id < 100"},
			workers: 3, splits: 8,
			want: []string{
				"16 files skipped by the filter",
				"rows per page, merged from the workers:",
				// rows n of days 3 and 4 (n in [5000,10000) and
				// [15000,20000)) with user_id = n % 997 < 100, page
				// demoPages[n % 5]
				"cart 206", "checkout 206", "home 206", "product 206", "search 206",
				"total: 1030 rows",
				"(the files hold 10000 rows: the others were filtered out, or merged away by primary key)",
			},
		},
		{
			name: "golden primary-key table", args: []string{golden("pk-dedup"), "interop.pk_dedup"}, workers: 4, splits: 2,
			want: []string{"rows per dt, merged from the workers:", "d1 4", "d2 1", "total: 5 rows",
				"(the files hold 7 rows: the others were filtered out, or merged away by primary key)"},
		},
		{
			name: "golden bucketed table, unpartitioned", args: []string{"-workers", "1", golden("append-fixed-bucket"), "interop.append_fixed_bucket"},
			workers: 1, splits: 3,
			want: []string{"worker 0: 3 splits, 10 rows", "total: 10 rows, the same as a single scan in one process"},
		},
	}
	space := regexp.MustCompile(` +`)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			if err := run(ctx, tc.args, &out); err != nil {
				t.Fatalf("run: %v\n%s", err, out.String())
			}
			lines := map[string]bool{}
			for _, l := range strings.Split(out.String(), "\n") {
				lines[space.ReplaceAllString(strings.TrimSpace(l), " ")] = true
			}
			for _, w := range tc.want {
				if !lines[w] && !strings.Contains(out.String(), w) {
					t.Errorf("no line %q in output:\n%s", w, out.String())
				}
			}
			reports := workerLine.FindAllStringSubmatch(out.String(), -1)
			if len(reports) != tc.workers {
				t.Fatalf("%d worker reports, want %d:\n%s", len(reports), tc.workers, out.String())
			}
			splits := 0
			for _, r := range reports {
				n, _ := strconv.Atoi(r[2])
				splits += n
			}
			if splits != tc.splits {
				t.Errorf("workers read %d splits, want each of the %d once:\n%s", splits, tc.splits, out.String())
			}
		})
	}
}

func TestDistributedPlanErrors(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no workers", []string{"-workers", "0"}, "-workers must be at least 1"},
		{"bad filter", []string{"-where", "day >"}, "syntax error"},
		{"unknown group column", []string{"-by", "nope", golden("pk-dedup"), "interop.pk_dedup"}, "nope"},
		{"missing table", []string{golden("pk-dedup"), "interop.nope"}, "table not found"},
		{"one argument", []string{"x"}, "got 1 arguments"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := run(ctx, tc.args, &bytes.Buffer{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("run(%q) = %v, want an error containing %q", tc.args, err, tc.want)
			}
		})
	}
}
