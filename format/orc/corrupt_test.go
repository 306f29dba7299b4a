package orc_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/orc"
	"github.com/paimon-go/paimon-go/internal/memcheck"
)

// TestGoldenFilesRead reads every ORC file of the golden corpus whole, with
// several batch sizes and a checked allocator.
func TestGoldenFilesRead(t *testing.T) {
	ctx := context.Background()
	for _, g := range goldenORCFiles(t) {
		if g.fields == nil {
			continue
		}
		data, err := os.ReadFile(g.path)
		require.NoError(t, err)
		for _, batch := range []int{1, 3, 0} {
			mem := memcheck.New()
			rows, err := readAll(ctx, data, g.path, g.fields, batch, mem)
			require.NoError(t, err, g.path)
			require.Positive(t, rows)
			mem.AssertSize(t, 0)
		}
	}
}

// TestCorruptFiles truncates and damages golden files: every failure must
// be ErrCorrupt (or ErrUnsupported for a damaged kind field) naming the
// file, never a panic, a hang or a leak; every truncation must fail.
func TestCorruptFiles(t *testing.T) {
	ctx := context.Background()
	files := goldenORCFiles(t)
	r := rand.New(rand.NewPCG(1, 2))
	checked := 0
	for _, g := range files {
		if g.fields == nil {
			continue
		}
		data, err := os.ReadFile(g.path)
		require.NoError(t, err)
		name := filepath.Base(g.path)
		check := func(what string, b []byte, mustFail bool) {
			mem := memcheck.New()
			_, err := readSome(ctx, b, name, g.fields, 7, 500, mem)
			mem.AssertSize(t, 0)
			if err == nil {
				require.False(t, mustFail, "%s of %s read without error", what, name)
				return
			}
			if !errors.Is(err, orc.ErrCorrupt) && !errors.Is(err, orc.ErrUnsupported) && !errors.Is(err, orc.ErrSchema) {
				t.Fatalf("%s of %s: error %v wraps no sentinel", what, name, err)
			}
			require.Contains(t, err.Error(), name, what)
			checked++
		}
		for _, n := range []int{0, 1, 3, len(data) / 2, len(data) - 30, len(data) - 1} {
			if n >= 0 && n < len(data) {
				check("truncation", data[:n], true)
			}
		}
		for range 60 {
			b := append([]byte(nil), data...)
			for range 1 + r.IntN(3) {
				b[r.IntN(len(b))] ^= byte(1 + r.IntN(255))
			}
			check("damage", b, false)
		}
	}
	require.Positive(t, checked)
}

// FuzzRead feeds mutated ORC files to Open and Read with the golden tables'
// schemas: decoding must fail with an error, never panic, and must release
// every buffer it allocated.
func FuzzRead(f *testing.F) {
	files := goldenORCFiles(f)
	seen := map[string]bool{}
	var fieldSets []goldenFile
	for _, g := range files {
		if g.fields == nil {
			continue
		}
		data, err := os.ReadFile(g.path)
		if err != nil || len(data) > 64<<10 {
			continue
		}
		f.Add(data)
		key := filepath.Dir(filepath.Dir(g.path))
		if !seen[key] {
			seen[key] = true
			fieldSets = append(fieldSets, g)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ctx := context.Background()
		for _, g := range fieldSets {
			mem := memcheck.New()
			_, err := readSome(ctx, data, "fuzz.orc", g.fields, 5, 200, mem)
			if err != nil && !errors.Is(err, orc.ErrCorrupt) && !errors.Is(err, orc.ErrUnsupported) && !errors.Is(err, orc.ErrSchema) {
				t.Fatalf("error %v wraps no sentinel", err)
			}
			mem.AssertSize(t, 0)
		}
	})
}
