package main

import (
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestVersionCommand(t *testing.T) {
	out := runOK(t, "version")
	require.True(t, strings.HasPrefix(out, "paimon "), out)
	require.Contains(t, out, runtime.Version())
	require.Equal(t, 1, strings.Count(out, "\n"))
	runUsage(t, "unexpected argument", "version", "extra")
	require.Contains(t, runOK(t, "help"), "version")
}
