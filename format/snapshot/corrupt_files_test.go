package snapshot_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/paimon-go/paimon-go/format/snapshot"
)

// TestCorruptSnapshotFiles truncates a Java-written snapshot at every
// length and flips one bit of every byte: Decode fails with ErrCorrupt (or
// ErrUnsupportedVersion) or succeeds, and never panics. Every strict prefix
// is an error: a truncated snapshot is never mistaken for a complete one.
func TestCorruptSnapshotFiles(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata/golden/java-1.4.2/pk-deletion-vectors/warehouse/interop.db/pk_deletion_vectors", "snapshot", "snapshot-8"))
	if err != nil {
		t.Fatal(err)
	}
	typed := func(err error) bool {
		return errors.Is(err, snapshot.ErrCorrupt) || errors.Is(err, snapshot.ErrUnsupportedVersion)
	}
	for n := 0; n < len(data); n++ {
		if _, err := snapshot.Decode(data[:n]); !typed(err) {
			t.Fatalf("truncated to %d bytes: %v", n, err)
		}
	}
	cases, failed := 0, 0
	for i := range data {
		for _, bit := range []int{i % 8} { // one bit per byte, rotating
			b := append([]byte(nil), data...)
			b[i] ^= 1 << bit
			cases++
			if _, err := snapshot.Decode(b); err != nil {
				failed++
				if !typed(err) {
					t.Fatalf("bit %d of byte %d: untyped error %v", bit, i, err)
				}
			}
		}
	}
	t.Logf("FIGURES: %d truncations and %d bit flips, %d rejected", len(data), cases, failed)
}
