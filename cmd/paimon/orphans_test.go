package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestOrphansCommand plants unreferenced files in a copy of a golden table:
// orphans lists the old ones without touching anything, --delete removes
// exactly them, and the table reads the same rows before and after.
func TestOrphansCommand(t *testing.T) {
	wh, dir := goldenCopy(t, "append-unpartitioned", "append_unpartitioned")
	table := "interop.append_unpartitioned"
	w := "--warehouse=" + wh
	before := scanLines(t, wh, table)

	old := time.Now().Add(-48 * time.Hour)
	plant := func(rel, content string, mtime time.Time) string {
		p := filepath.Join(dir, rel)
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
		require.NoError(t, os.Chtimes(p, mtime, mtime))
		return p
	}
	orphanData := plant("bucket-0/data-orphan-0.parquet", "not really parquet", old)
	orphanManifest := plant("manifest/manifest-orphan-0", "12345", old)
	fresh := plant("bucket-0/data-fresh-0.parquet", "in flight", time.Now())

	out := runOK(t, "orphans", w, table)
	require.Contains(t, out, orphanData+"\n", "absolute paths")
	require.Contains(t, out, orphanManifest+"\n")
	require.NotContains(t, out, "data-fresh")
	require.Contains(t, out, "2 unreferenced files (23 B) older than 1 d in interop.append_unpartitioned; run with --delete to remove them.\n")
	for _, p := range []string{orphanData, orphanManifest, fresh} {
		require.FileExists(t, p, "a dry run removes nothing")
	}

	var js orphansJSON
	require.NoError(t, json.Unmarshal([]byte(runOK(t, "orphans", w, table, "--output", "json", "--older-than", "1h")), &js))
	require.False(t, js.Deleted)
	require.Len(t, js.Files, 2)
	require.Equal(t, int64(23), js.Bytes)
	require.Equal(t, int64(3600), js.OlderThanSeconds)

	out = runOK(t, "orphans", w, table, "--delete")
	require.True(t, strings.HasSuffix(out, "Removed 2 unreferenced files (23 B) from interop.append_unpartitioned.\n"), out)
	require.NoFileExists(t, orphanData)
	require.NoFileExists(t, orphanManifest)
	require.FileExists(t, fresh, "younger than --older-than")
	require.Equal(t, before, scanLines(t, wh, table))

	require.Equal(t, "No unreferenced files older than 1 d in interop.append_unpartitioned.\n", runOK(t, "orphans", w, table))

	runUsage(t, "--older-than", "orphans", w, table, "--older-than", "0")
	runUsage(t, "--older-than", "orphans", w, table, "--older-than", "soon")
	runFail(t, "table not found", "orphans", w, "interop.nope")
}

// TestUnknownScheme: a warehouse scheme without a driver names what to use
// or how the binary was built, not Go imports.
func TestUnknownScheme(t *testing.T) {
	runFail(t, `unknown warehouse scheme "foo": use a local path`, "scan", "--warehouse", "foo://b/w", "db.t")
	require.Contains(t, noSchemeText(errors.New(`fs: no opener registered for scheme "gs" (blank-import ...)`)), "built without the gs:// driver (-tags nogcs)")
}
