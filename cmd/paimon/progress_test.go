package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestProgressLine(t *testing.T) {
	for _, tc := range []struct {
		name       string
		total, cur int64
		unit       string
		elapsed    time.Duration
		want       string
	}{
		{"bytes half", 4 << 20, 2 << 20, "bytes", 3500 * time.Millisecond, "loading  [============>           ]  50%  2.0 MiB / 4.0 MiB  3s"},
		{"bytes start", 100, 0, "bytes", 0, "loading  [>                       ]   0%  0 B / 100 B  0s"},
		{"bytes done", 100, 100, "bytes", time.Minute, "loading  [========================] 100%  100 B / 100 B  1m0s"},
		{"overshoot", 100, 150, "bytes", 0, "loading  [========================] 100%  150 B / 100 B  0s"},
		{"rows unknown total", 0, 1234567, "rows", 2 * time.Second, "loading  |  1,234,567 rows  2s"},
		{"nothing yet", 0, 0, "bytes", 0, "loading  |  0s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &progress{label: "loading", unit: tc.unit, total: tc.total, cur: tc.cur}
			require.Equal(t, clearLine+tc.want, p.line(tc.elapsed))
		})
	}
	p := &progress{label: "x", unit: "rows"}
	var frames []string
	for range 5 {
		frames = append(frames, strings.Fields(strings.TrimPrefix(p.line(0), clearLine))[1])
	}
	require.Equal(t, []string{"|", "/", "-", `\`, "|"}, frames, "the spinner turns")
	require.Equal(t, "-12,345", groupDigits(-12345))
	require.Equal(t, "999", groupDigits(999))
}

// TestProgressDrawing checks that an enabled bar draws and clears its line
// and that a disabled one writes nothing.
func TestProgressDrawing(t *testing.T) {
	var buf bytes.Buffer
	p := newProgress(&buf, true, "loading", 10)
	p.add(5)
	p.done()
	out := buf.String()
	require.True(t, strings.HasPrefix(out, clearLine+"loading  ["), out)
	require.True(t, strings.HasSuffix(out, clearLine), out)

	buf.Reset()
	off := newProgress(&buf, false, "loading", 10)
	require.Nil(t, off)
	off.add(5)
	off.done()
	require.Empty(t, buf.String())
}

func TestIsTerminal(t *testing.T) {
	require.False(t, isTerminal(&bytes.Buffer{}))
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	require.NoError(t, err)
	defer f.Close()
	require.False(t, isTerminal(f), "a regular file is not a terminal")
	if dev, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0); err == nil {
		defer dev.Close()
		require.True(t, isTerminal(dev), "a character device counts as a terminal")
	}
}

// TestQuietWhenPiped runs the long commands with buffers as stderr: no
// progress output may appear.
func TestQuietWhenPiped(t *testing.T) {
	wh, _ := goldenCopy(t, "append-unpartitioned", "append_unpartitioned")
	table := "interop.append_unpartitioned"
	for _, args := range [][]string{
		{"load", "--warehouse", wh, table, writeTemp(t, "a.csv", "id\n1\n")},
		{"scan", "--warehouse", wh, table},
		{"expire", "--warehouse", wh, table},
	} {
		r := runCmd(t, args...)
		require.Equal(t, exitOK, r.code, r.stderr)
		require.Empty(t, r.stderr, args[0])
	}
}
