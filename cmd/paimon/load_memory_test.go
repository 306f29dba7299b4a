package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// loadMemoryChild names the environment variable that turns
// TestLoadMemoryChild into the measured process: "<partitions>,<rows>,<dir>".
const loadMemoryChild = "PAIMON_LOAD_MEMORY_CHILD"

// BenchmarkLoadPartitionsRSS loads a CSV of 100,000 rows spread over 100,
// 1,000 and 3,000 partitions with "paimon load" in a fresh process each
// time and reports its peak resident memory (the kernel's ru_maxrss, which
// covers the Go heap, its garbage and everything else) as peak-RSS-MiB.
// It measures memory, not time:
//
//	go test ./cmd/paimon -run '^$' -bench LoadPartitionsRSS -benchtime 1x
//
// With the writer's default memory budget (64 MiB) the 3,000-partition
// load must stay under 256 MiB (issue 24); without a budget it took about
// 530 MiB on the same input.
func BenchmarkLoadPartitionsRSS(b *testing.B) {
	for _, parts := range []int{100, 1000, 3000} {
		b.Run(fmt.Sprintf("partitions=%d", parts), func(b *testing.B) {
			for range b.N {
				rss, files := measureLoad(b, parts, 100_000)
				b.ReportMetric(float64(rss)/(1<<20), "peak-RSS-MiB")
				b.ReportMetric(float64(files), "data-files")
			}
		})
	}
}

// measureLoad runs the load in a child process and returns its peak RSS in
// bytes and the number of data files written.
func measureLoad(tb testing.TB, parts, rows int) (int64, int) {
	tb.Helper()
	dir := tb.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestLoadMemoryChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%d,%d,%s", loadMemoryChild, parts, rows, dir))
	out, err := cmd.CombinedOutput()
	if err != nil {
		tb.Fatalf("load child: %v\n%s", err, out)
	}
	var files int
	for line := range strings.Lines(string(out)) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "data files: "); ok {
			files, _ = strconv.Atoi(v)
		}
	}
	if files == 0 {
		tb.Fatalf("load child printed no file count:\n%s", out)
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		tb.Skip("no rusage on this platform")
	}
	return ru.Maxrss << 10, files // Linux reports KiB
}

// TestLoadMemoryChild is the process BenchmarkLoadPartitionsRSS measures;
// run alone it does nothing.
func TestLoadMemoryChild(t *testing.T) {
	spec := os.Getenv(loadMemoryChild)
	if spec == "" {
		t.Skip("run by BenchmarkLoadPartitionsRSS")
	}
	f := strings.SplitN(spec, ",", 3)
	parts, _ := strconv.Atoi(f[0])
	rows, _ := strconv.Atoi(f[1])
	dir := f[2]
	csv := filepath.Join(dir, "in.csv")
	writeLoadCSV(t, csv, parts, rows)
	schemaFile := filepath.Join(dir, "schema.json")
	if err := os.WriteFile(schemaFile, []byte(`{"fields": [{"name": "id", "type": "BIGINT"}, {"name": "name", "type": "STRING"},
		{"name": "amount", "type": "DOUBLE"}, {"name": "dt", "type": "STRING"}], "partitionKeys": ["dt"], "options": {"bucket": "-1"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	wh := filepath.Join(dir, "wh")
	for _, args := range [][]string{
		{"db", "create", "--warehouse", wh, "db"},
		{"table", "create", "--warehouse", wh, "--schema", schemaFile, "db.t"},
		{"load", "--warehouse", wh, "db.t", csv},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), args, &stdout, &stderr); code != 0 {
			t.Fatalf("paimon %s: exit %d: %s", strings.Join(args, " "), code, stderr.String())
		}
	}
	files := 0
	err := filepath.WalkDir(filepath.Join(wh, "db.db", "t"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".parquet") {
			files++
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("data files: %d\n", files)
}

// writeLoadCSV writes rows of four columns, row i in partition i % parts.
func writeLoadCSV(t *testing.T, path string, parts, rows int) {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	fmt.Fprintln(w, "id,name,amount,dt")
	x := uint64(1)
	for i := range rows {
		x = x*6364136223846793005 + 1442695040888963407
		fmt.Fprintf(w, "%d,name-%d-%d,%d.%03d,p%05d\n", i, i, x>>34, x>>54, x>>44&511, i%parts)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
