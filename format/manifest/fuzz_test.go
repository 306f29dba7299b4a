package manifest_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/paimon-go/paimon-go/format/manifest"
)

// addSeeds seeds a fuzz target with the files of testdata whose names match
// pattern and with files written by this package with every codec.
func addSeeds(f *testing.F, pattern string, write func(codec string) []byte) {
	files, err := filepath.Glob(filepath.Join("testdata", pattern))
	if err != nil {
		f.Fatal(err)
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, c := range []string{"null", "deflate", "snappy", "zstandard"} {
		f.Add(write(c))
	}
	f.Add([]byte{})
	f.Add([]byte("Obj\x01"))
}

// checkFuzzErr fails unless err is nil or wraps one of the package's read
// sentinels.
func checkFuzzErr(t *testing.T, err error) {
	if err == nil || errors.Is(err, manifest.ErrCorrupt) || errors.Is(err, manifest.ErrUnsupportedVersion) {
		return
	}
	t.Fatalf("error wraps neither ErrCorrupt nor ErrUnsupportedVersion: %v", err)
}

func FuzzReadManifest(f *testing.F) {
	addSeeds(f, "*/manifest-*", func(c string) []byte { return writeManifest(f, sampleEntries(), c) })
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, err := manifest.ReadManifest(bytes.NewReader(data))
		checkFuzzErr(t, err)
		if err == nil {
			// Whatever decodes must be usable by the merge helper.
			_, _ = manifest.MergeEntries(entries)
		}
	})
}

func FuzzReadManifestList(f *testing.F) {
	addSeeds(f, "*/manifest-list-*", func(c string) []byte { return writeManifestList(f, sampleMetas(), c) })
	addSeeds(f, "java-1.4.2/list-*", func(c string) []byte { return writeManifestList(f, sampleMetas()[:1], c) })
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := manifest.ReadManifestList(bytes.NewReader(data))
		checkFuzzErr(t, err)
	})
}

func FuzzReadIndexManifest(f *testing.F) {
	addSeeds(f, "java-1.4.2/index-*", func(c string) []byte { return writeIndexManifest(f, sampleIndexEntries(), c) })
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := manifest.ReadIndexManifest(bytes.NewReader(data))
		checkFuzzErr(t, err)
	})
}
