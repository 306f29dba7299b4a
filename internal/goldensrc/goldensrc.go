// Package goldensrc puts back the files the BLOB descriptors of the golden
// corpus point to. A table with blob-descriptor-field stores, in its data
// files, descriptors naming bytes of other files by absolute path; the
// golden generator (interop/java, PaimonInterop's BLOB decoding) writes those
// files to Dir, which the descriptors name, and a copy of each to the
// warehouse's blob-source directory, which the corpus keeps. Tests that read
// the golden tables call Restore first so that the descriptors resolve on
// any machine.
package goldensrc

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// Dir is where the golden descriptors point (PaimonInterop.BLOB_SOURCE_DIR).
const Dir = "/tmp/paimon-go-golden-blob-source"

var (
	once sync.Once
	err  error
)

// Restore copies every testdata/golden/*/*/warehouse/blob-source file of the
// repository at root to Dir, once per process; files already there with
// the same content are left alone, others are replaced atomically.
func Restore(root string) error {
	once.Do(func() { err = restore(root) })
	return err
}

func restore(root string) error {
	files, err := filepath.Glob(filepath.Join(root, "testdata", "golden", "*", "*", "warehouse", "blob-source", "*"))
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return nil
	}
	if err := os.MkdirAll(Dir, 0o755); err != nil {
		return fmt.Errorf("goldensrc: %w", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return fmt.Errorf("goldensrc: %w", err)
		}
		dst := filepath.Join(Dir, filepath.Base(f))
		if have, err := os.ReadFile(dst); err == nil && bytes.Equal(have, b) {
			continue
		}
		tmp, err := os.CreateTemp(Dir, ".restore-*")
		if err != nil {
			return fmt.Errorf("goldensrc: %w", err)
		}
		_, werr := tmp.Write(b)
		cerr := tmp.Close()
		if werr == nil {
			werr = cerr
		}
		if werr == nil {
			werr = os.Rename(tmp.Name(), dst)
		}
		if werr != nil {
			os.Remove(tmp.Name())
			return fmt.Errorf("goldensrc: %w", werr)
		}
	}
	return nil
}
