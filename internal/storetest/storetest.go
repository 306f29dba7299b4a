package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/paimon-go/paimon-go/fs"
)

// Run runs the table-level suite. newFS must return a fresh, empty file
// system for each subtest (it is called with the subtest's t, so t.TempDir,
// t.Cleanup and per-test prefixes scope to the subtest); the suite closes
// it when the subtest ends. Subtests run one after the other: the suite
// measures correctness, and the store may be a single local server.
func Run(t *testing.T, newFS func(t *testing.T) fs.FS) {
	tests := []struct {
		name string
		fn   func(t *testing.T, fsys fs.FS)
	}{
		{"WriteRead", testWriteRead},
		{"FilterProjection", testFilterProjection},
		{"OverwritePartition", testOverwritePartition},
		{"ConcurrentCommits", testConcurrentCommits},
		{"ConcurrentCommitsCompacting", testConcurrentCommitsCompacting},
		{"OverwriteVsAppend", testOverwriteVsAppend},
		{"ExpiringCommits", testExpiringCommits},
		{"ExpireSnapshots", testExpireSnapshots},
		{"TagsAndRollback", testTagsAndRollback},
		{"RemoveOrphanFiles", testRemoveOrphanFiles},
		{"JavaGolden", testJavaGolden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			fsys := newFS(t)
			t.Cleanup(func() { fsys.Close() })
			tt.fn(t, fsys)
			t.Logf("%s on %v took %v", tt.name, fsys, time.Since(start).Round(time.Millisecond))
		})
	}
}

// ctx is the context of every suite operation. Tests bound their run time
// with go test -timeout; a per-operation deadline would turn a slow machine
// into a failure.
var ctx = context.Background()
