package schema_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/paimon-go/paimon-go/format/schema"
)

// TestCorruptSchemaFiles truncates a Java-written schema file at every
// length and flips one bit of every byte: Decode fails with ErrCorrupt or
// succeeds, and never panics; every strict prefix is an error.
func TestCorruptSchemaFiles(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata/golden/java-1.4.2/pk-deletion-vectors/warehouse/interop.db/pk_deletion_vectors", "schema", "schema-0"))
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < len(data); n++ {
		if _, err := schema.Decode(data[:n]); !errors.Is(err, schema.ErrCorrupt) {
			t.Fatalf("truncated to %d bytes: %v", n, err)
		}
	}
	cases, failed := 0, 0
	for i := range data {
		for _, bit := range []int{i % 8} { // one bit per byte, rotating
			b := append([]byte(nil), data...)
			b[i] ^= 1 << bit
			cases++
			if _, err := schema.Decode(b); err != nil {
				failed++
				if !errors.Is(err, schema.ErrCorrupt) {
					t.Fatalf("bit %d of byte %d: untyped error %v", bit, i, err)
				}
			}
		}
	}
	t.Logf("FIGURES: %d truncations and %d bit flips, %d rejected", len(data), cases, failed)
}
