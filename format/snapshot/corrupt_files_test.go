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

// TestDamagedKeys flips every bit of every member name of Java-written
// snapshot and tag files (issue 24: "deltaManifestList" damaged into
// "deltaManifestLisu" used to decode, and scans dropped that list's rows):
// every such file is refused with ErrCorrupt, since a damaged key either
// breaks the JSON, duplicates a member, leaves a required one missing, or
// is an unknown name one edit away from a known one.
func TestDamagedKeys(t *testing.T) {
	files := []string{
		"../../testdata/golden/java-1.4.2/pk-deletion-vectors/warehouse/interop.db/pk_deletion_vectors/snapshot/snapshot-8",
		"testdata/java/tagtest-snapshot.json",
	}
	tags, _ := filepath.Glob("../../testdata/golden/java-*/*/warehouse/*/*/tag/tag-*")
	files = append(files, tags...)
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := snapshot.DecodeTag(data); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		flips := 0
		for _, span := range keySpans(data) {
			for i := span[0]; i < span[1]; i++ {
				for bit := range 8 {
					b := append([]byte(nil), data...)
					b[i] ^= 1 << bit
					flips++
					_, err := snapshot.DecodeTag(b)
					if !errors.Is(err, snapshot.ErrCorrupt) {
						t.Errorf("%s: bit %d of byte %d (key %q) damaged to %q: %v", path, bit, i,
							data[span[0]:span[1]], b[span[0]:span[1]], err)
					}
				}
			}
		}
		t.Logf("FIGURES: %s: %d single-bit key damages checked", path, flips)
	}
}

// keySpans returns the byte ranges of the member names (inside the
// quotes) of a pretty-printed top-level JSON object: a quoted string that
// follows '{' or ',' and white space, at nesting depth 1.
func keySpans(data []byte) [][2]int {
	var spans [][2]int
	depth, inString, expectKey := 0, false, false
	start := 0
	for i := 0; i < len(data); i++ {
		c := data[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
				if start >= 0 {
					spans = append(spans, [2]int{start, i})
				}
			}
			continue
		}
		switch c {
		case '{', '[':
			depth++
			expectKey = c == '{' && depth == 1
		case '}', ']':
			depth--
		case ',':
			expectKey = depth == 1
		case '"':
			inString = true
			start = -1
			if expectKey {
				start = i + 1
			}
			expectKey = false
		}
	}
	return spans
}
