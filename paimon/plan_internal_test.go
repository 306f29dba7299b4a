package paimon

import (
	"errors"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/fs/memfs"
)

// TestNameManifest checks that an error about one entry names the manifest
// holding it, and that other errors pass through.
func TestNameManifest(t *testing.T) {
	meta := NewTableMeta(memfs.New(nil), "db.db/t")
	metas := []manifest.ManifestFileMeta{{FileName: "manifest-a"}, {FileName: "manifest-b"}}
	lists := [][]manifest.ManifestEntry{make([]manifest.ManifestEntry, 2), make([]manifest.ManifestEntry, 3)}
	cause := errors.New("bad partition")
	stray := manifest.ManifestEntry{}
	other := errors.New("other")
	tests := []struct {
		name string
		err  error
		path string // "" when no file is named
	}{
		{"second manifest", &entryError{&lists[1][2], cause}, meta.ManifestPath("manifest-b")},
		{"first manifest", &entryError{&lists[0][0], cause}, meta.ManifestPath("manifest-a")},
		{"entry of no manifest", &entryError{&stray, cause}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := nameManifest(tt.err, meta, metas, lists)
			require.ErrorIs(t, err, cause)
			var ce *CorruptError
			require.Equal(t, tt.path != "", errors.As(err, &ce))
			if tt.path != "" {
				require.Equal(t, tt.path, ce.Path)
				require.ErrorIs(t, err, ErrCorrupt)
			}
		})
	}
	require.Same(t, other, nameManifest(other, meta, metas, lists))
}

// TestScanWorkerCount pins the default read parallelism: GOMAXPROCS splits
// at once for an unlimited scan of several splits, the consumer's goroutine
// for one split, a limited scan or a negative count, and the caller's count
// otherwise.
func TestScanWorkerCount(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	cases := []struct {
		workers int
		limit   int64
		splits  int
		want    int
	}{
		{0, 0, 0, 0},
		{0, 0, 1, 0},
		{0, 0, 64, procs},
		{0, 0, 2, min(procs, 2)},
		{0, 10, 64, 0},
		{-1, 0, 64, 0},
		{1, 0, 64, 1},
		{3, 10, 64, 3},
		{5, 0, 0, 0},
	}
	for _, c := range cases {
		s := &Scan{spec: ScanSpec{Workers: c.workers, Limit: c.limit}}
		if got := s.workers(c.splits); got != c.want {
			t.Errorf("workers=%d limit=%d splits=%d: got %d, want %d", c.workers, c.limit, c.splits, got, c.want)
		}
	}
}
