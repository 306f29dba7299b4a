package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"
)

// dropKinds removes the rowkind of follow output lines (checking it is
// +I) and returns the rest as canonical lines.
func dropKinds(t *testing.T, out string) []string {
	t.Helper()
	var lines []string
	for _, l := range canonLines(t, out) {
		var m map[string]json.RawMessage
		require.NoError(t, json.Unmarshal([]byte(l), &m))
		require.JSONEq(t, `"+I"`, string(m["rowkind"]), l)
		delete(m, "rowkind")
		b, err := json.Marshal(m)
		require.NoError(t, err)
		lines = append(lines, canonLines(t, string(b))...)
	}
	sort.Strings(lines)
	return lines
}

// TestScanFollow reads a golden append table with scan --follow: from a
// snapshot whole, then with a consumer that resumes where it stopped.
func TestScanFollow(t *testing.T) {
	wh, dir := goldenCopy(t, "append-unpartitioned", "append_unpartitioned")
	table := "interop.append_unpartitioned"
	w := "--warehouse=" + wh
	want3 := expectedRows(t, "append-unpartitioned", "expected-snapshot-3.jsonl")
	require.Equal(t, want3, dropKinds(t, runOK(t, "scan", w, table, "--follow", "--from", "snapshot-full:2", "--until", "3", "--output", "canon")))

	// A consumer reads 1..2, stops, and resumes at 3 whatever --from says.
	want2 := expectedRows(t, "append-unpartitioned", "expected-snapshot-2.jsonl")
	require.Equal(t, want2, dropKinds(t, runOK(t, "scan", w, table, "--follow", "--from", "earliest", "--until", "2", "--consumer", "c1", "--output", "canon")))
	b, err := os.ReadFile(filepath.Join(dir, "consumer", "consumer-c1"))
	require.NoError(t, err)
	require.Equal(t, "{\n  \"nextSnapshot\" : 3\n}", string(b))
	rest := dropKinds(t, runOK(t, "scan", w, table, "--follow", "--from", "earliest", "--until", "3", "--consumer", "c1", "--output", "canon"))
	require.Len(t, rest, len(want3)-len(want2))
	require.Subset(t, want3, rest)

	runUsage(t, "--follow cannot be combined with --snapshot", "scan", w, table, "--follow", "--snapshot", "1")
	runUsage(t, "--from needs --follow", "scan", w, table, "--from", "latest")
	runUsage(t, "--follow prints jsonl or canon", "scan", w, table, "--follow", "--output", "csv")
	runUsage(t, "want latest-full, latest", "scan", w, table, "--follow", "--from", "sideways")
}
