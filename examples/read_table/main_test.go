package main

import (
	"bytes"
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// golden returns the warehouse of a golden table, relative to this
// package's directory (the working directory of its tests).
func golden(name string) string {
	return filepath.Join("..", "..", "testdata", "golden", "java-1.4.2", name, "warehouse")
}

// rowLines returns the output with runs of spaces collapsed, one entry per
// line.
func rowLines(out string) []string {
	space := regexp.MustCompile(` +`)
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		lines = append(lines, space.ReplaceAllString(strings.TrimSpace(l), " "))
	}
	return lines
}

func TestReadTable(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		args []string
		// want are lines the output must contain; rows are the data
		// lines after the header, in any order.
		want []string
		rows []string
	}{
		{
			name: "default golden table",
			want: []string{"table interop.append_partitioned_avro (schema 0) in " + findDefault(), "partitioned by dt, hr", "select *",
				"snapshot 4: 3 data files, 0 skipped by partition, 0 by bucket, 0 by statistics, 0 by limit; splits to read: 3",
				"dt hr msg ts raw", "(4 rows)"},
			rows: []string{
				"2024-03-01 23 m1 2024-03-01T23:59:59.999 x''",
				"2024-03-02 5 ñ 1969-12-31T23:59:59.999 NULL",
				"2024-03-01 0 NULL NULL x'deadbeef'",
				"2024-03-01 0 m0 2024-03-01T00:00:00.001 x'00ff'",
			},
		},
		{
			name: "projection and partition filter",
			args: []string{"-select", "msg,hr", "-where", "hr = 23"},
			want: []string{"select msg, hr where hr = 23", "1 skipped by partition", "msg hr", "(1 row)"},
			rows: []string{"m1 23"},
		},
		{
			name: "filter on a data column",
			args: []string{"-select", "hr,msg", "-where", "msg IS NULL OR msg LIKE 'm%'"},
			want: []string{"select hr, msg where msg IS NULL OR msg STARTS WITH 'm'", "(3 rows)"},
			rows: []string{"23 m1", "0 NULL", "0 m0"},
		},
		{
			name: "primary-key table given as arguments",
			args: []string{"-where", "id < 5", golden("pk-dedup"), "interop.pk_dedup"},
			want: []string{"table interop.pk_dedup (schema 0)", "primary key dt, id", "dt id name amount ts", "(3 rows)"},
			rows: []string{"d1 1 a-new 10.000 NULL", "d1 2 b2 2.750 NULL", "d1 4 e NULL NULL"},
		},
		{
			name: "limit",
			args: []string{"-limit", "1", "-select", "id", golden("append-unpartitioned"), "interop.append_unpartitioned"},
			want: []string{"select id", "id"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			if err := run(ctx, tc.args, &out); err != nil {
				t.Fatalf("run: %v\noutput:\n%s", err, out.String())
			}
			lines := rowLines(out.String())
			has := map[string]int{}
			for _, l := range lines {
				has[l]++
			}
			for _, w := range tc.want {
				found := false
				for _, l := range lines {
					if strings.Contains(l, w) {
						found = true
						break
					}
				}
				if !found {
					t.Errorf("no line containing %q in output:\n%s", w, out.String())
				}
			}
			for _, r := range tc.rows {
				if has[r] != 1 {
					t.Errorf("row %q printed %d times, want once; output:\n%s", r, has[r], out.String())
				}
			}
		})
	}
}

func TestReadTableErrors(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown filter column", []string{"-where", "nope = 1"}, `unknown field: "nope"`},
		{"unknown projected column", []string{"-select", "nope"}, "nope"},
		{"bad filter syntax", []string{"-where", "hr ="}, "syntax error"},
		{"one argument", []string{"somewhere"}, "got 1 arguments"},
		{"missing table", []string{golden("pk-dedup"), "interop.nope"}, "table not found"},
		{"bad identifier", []string{golden("pk-dedup"), "nodot"}, "nodot"},
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
