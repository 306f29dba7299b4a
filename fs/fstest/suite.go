package fstest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	iofs "io/fs"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/fs"
)

// Options tunes [Run]. A nil *Options means defaults.
type Options struct {
	// IfNotExistUnsupported declares that the implementation refuses
	// CreateOptions.IfNotExist with an error wrapping fs.ErrUnsupported
	// (blobfs over fileblob). The suite then checks the refusal instead of
	// the create-if-absent semantics.
	IfNotExistUnsupported bool

	// RaceGoroutines is how many goroutines race for each name in the
	// create-if-absent test. Zero means 8.
	RaceGoroutines int

	// RaceNames is how many names they race for. Zero means 32.
	RaceNames int
}

func (o *Options) withDefaults() Options {
	var out Options
	if o != nil {
		out = *o
	}
	if out.RaceGoroutines <= 0 {
		out.RaceGoroutines = 8
	}
	if out.RaceNames <= 0 {
		out.RaceNames = 32
	}
	return out
}

// Run runs the conformance suite. newFS must return a fresh, empty file
// system for each subtest (it is called with the subtest's t, so t.TempDir
// and t.Cleanup scope to the subtest); the suite closes it at the end.
func Run(t *testing.T, newFS func(t *testing.T) fs.FS, opts *Options) {
	o := opts.withDefaults()
	tests := []struct {
		name string
		fn   func(t *testing.T, fsys fs.FS, o Options)
	}{
		{"CreateRead", testCreateRead},
		{"EmptyFile", testEmptyFile},
		{"LargeFile", testLargeFile},
		{"ReadAtRanges", testReadAtRanges},
		{"ConcurrentReadAt", testConcurrentReadAt},
		{"FileClose", testFileClose},
		{"Overwrite", testOverwrite},
		{"InvisibleUntilClose", testInvisibleUntilClose},
		{"Abort", testAbort},
		{"WriterStates", testWriterStates},
		{"IfNotExist", testIfNotExist},
		{"IfNotExistRace", testIfNotExistRace},
		{"NoSync", testNoSync},
		{"NotExist", testNotExist},
		{"Stat", testStat},
		{"List", testList},
		{"Remove", testRemove},
		{"Names", testNames},
		{"InvalidNames", testInvalidNames},
		{"Context", testContext},
		{"MkdirAll", testMkdirAll},
		{"RemoveAll", testRemoveAll},
		{"Sub", testSub},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := newFS(t)
			t.Cleanup(func() { require.NoError(t, fsys.Close()) })
			tt.fn(t, fsys, o)
		})
	}
}

// writeFile creates name with data and fails the test on error.
func writeFile(t testing.TB, fsys fs.FS, name string, data []byte) {
	t.Helper()
	require.NoError(t, fs.WriteFile(context.Background(), fsys, name, data, nil), "write %s", name)
}

func readFile(t testing.TB, fsys fs.FS, name string) []byte {
	t.Helper()
	b, err := fs.ReadFile(context.Background(), fsys, name)
	require.NoError(t, err, "read %s", name)
	return b
}

// listNames returns the sorted names in dir.
func listNames(t testing.TB, fsys fs.FS, dir string) []string {
	t.Helper()
	infos, err := fs.ReadDir(context.Background(), fsys, dir)
	require.NoError(t, err, "list %s", dir)
	names := make([]string, len(infos))
	for i, fi := range infos {
		names[i] = fi.Name
	}
	return names
}

// requirePathErr checks the fs error contract: a *PathError naming name
// that satisfies target.
func requirePathErr(t testing.TB, err error, name string, target error) {
	t.Helper()
	require.Error(t, err)
	require.ErrorIs(t, err, target)
	var pe *iofs.PathError
	require.ErrorAs(t, err, &pe, "error %v is not a *fs.PathError", err)
	require.Equal(t, name, pe.Path, "PathError.Path")
}

// pattern returns n deterministic, non-repeating-looking bytes so that
// offset mistakes show up as mismatches.
func pattern(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

func testCreateRead(t *testing.T, fsys fs.FS, _ Options) {
	ctx := context.Background()
	writeFile(t, fsys, "a/b/hello.txt", []byte("hello, paimon"))

	f, err := fsys.Open(ctx, "a/b/hello.txt")
	require.NoError(t, err)
	defer f.Close()
	require.EqualValues(t, 13, f.Size())
	buf := make([]byte, 13)
	n, err := f.ReadAt(buf, 0)
	require.Equal(t, 13, n)
	if err != nil {
		require.ErrorIs(t, err, io.EOF)
	}
	require.Equal(t, "hello, paimon", string(buf))
	require.Equal(t, "hello, paimon", string(readFile(t, fsys, "a/b/hello.txt")))

	// The section-reader adapter used by Parquet readers works.
	all, err := io.ReadAll(io.NewSectionReader(f, 0, f.Size()))
	require.NoError(t, err)
	require.Equal(t, "hello, paimon", string(all))
}

func testEmptyFile(t *testing.T, fsys fs.FS, _ Options) {
	ctx := context.Background()
	w, err := fsys.Create(ctx, "empty", nil)
	require.NoError(t, err)
	require.NoError(t, w.Close())

	f, err := fsys.Open(ctx, "empty")
	require.NoError(t, err)
	defer f.Close()
	require.Zero(t, f.Size())
	n, err := f.ReadAt(make([]byte, 4), 0)
	require.Zero(t, n)
	require.ErrorIs(t, err, io.EOF)
	require.Empty(t, readFile(t, fsys, "empty"))
	fi, err := fsys.Stat(ctx, "empty")
	require.NoError(t, err)
	require.Zero(t, fi.Size)
	require.False(t, fi.IsDir)
}

func testLargeFile(t *testing.T, fsys fs.FS, _ Options) {
	ctx := context.Background()
	data := pattern(3<<20+17, 1)
	w, err := fsys.Create(ctx, "big.bin", nil)
	require.NoError(t, err)
	// Uneven chunk sizes exercise any internal buffering.
	for rest, i := data, 0; len(rest) > 0; i++ {
		n := min(len(rest), []int{1, 7, 4096, 65537, 300000}[i%5])
		m, err := w.Write(rest[:n])
		require.NoError(t, err)
		require.Equal(t, n, m)
		rest = rest[n:]
	}
	require.NoError(t, w.Close())

	got := readFile(t, fsys, "big.bin")
	require.True(t, bytes.Equal(data, got), "content mismatch (len %d vs %d)", len(got), len(data))
	fi, err := fsys.Stat(ctx, "big.bin")
	require.NoError(t, err)
	require.EqualValues(t, len(data), fi.Size)
}

func testReadAtRanges(t *testing.T, fsys fs.FS, _ Options) {
	ctx := context.Background()
	const size = 1000
	data := pattern(size, 2)
	writeFile(t, fsys, "r.bin", data)
	f, err := fsys.Open(ctx, "r.bin")
	require.NoError(t, err)
	defer f.Close()
	require.EqualValues(t, size, f.Size())

	tests := []struct {
		name   string
		off    int64
		len    int
		wantN  int
		eof    bool // io.EOF required
		eofOK  bool // io.EOF allowed (read ends exactly at EOF)
		errAny bool // some non-EOF error required
	}{
		{name: "prefix", off: 0, len: 10, wantN: 10},
		{name: "middle", off: 123, len: 456, wantN: 456},
		{name: "exactly to end", off: 990, len: 10, wantN: 10, eofOK: true},
		{name: "whole file", off: 0, len: size, wantN: size, eofOK: true},
		{name: "across end", off: 995, len: 10, wantN: 5, eof: true},
		{name: "larger than file", off: 0, len: 2 * size, wantN: size, eof: true},
		{name: "at end", off: size, len: 1, wantN: 0, eof: true},
		{name: "past end", off: size + 100, len: 8, wantN: 0, eof: true},
		{name: "empty buffer", off: 5, len: 0, wantN: 0},
		{name: "negative offset", off: -1, len: 4, errAny: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			buf := make([]byte, tt.len)
			n, err := f.ReadAt(buf, tt.off)
			switch {
			case tt.errAny:
				require.Error(t, err)
				require.NotErrorIs(t, err, io.EOF)
				return
			case tt.eof:
				require.ErrorIs(t, err, io.EOF)
				require.Equal(t, io.EOF, err, "io.ReaderAt callers compare with ==")
			case tt.eofOK:
				if err != nil {
					require.Equal(t, io.EOF, err)
				}
			default:
				require.NoError(t, err)
			}
			require.Equal(t, tt.wantN, n)
			if tt.wantN > 0 {
				require.Equal(t, data[tt.off:tt.off+int64(tt.wantN)], buf[:n])
			}
		})
	}
}

func testConcurrentReadAt(t *testing.T, fsys fs.FS, _ Options) {
	ctx := context.Background()
	const size = 256 << 10
	data := pattern(size, 3)
	writeFile(t, fsys, "c.bin", data)
	f, err := fsys.Open(ctx, "c.bin")
	require.NoError(t, err)
	defer f.Close()

	const workers, reads = 16, 100
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(w), 7))
			for range reads {
				off := r.Int64N(size)
				n := 1 + r.IntN(int(min(size-off, 8192)))
				buf := make([]byte, n)
				got, err := f.ReadAt(buf, off)
				if err != nil && !(err == io.EOF && got == n && off+int64(n) == size) {
					errs <- fmt.Errorf("ReadAt(%d, %d): %d, %w", n, off, got, err)
					return
				}
				if !bytes.Equal(buf, data[off:off+int64(n)]) {
					errs <- fmt.Errorf("ReadAt(%d, %d): wrong bytes", n, off)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
}

func testFileClose(t *testing.T, fsys fs.FS, _ Options) {
	ctx := context.Background()
	writeFile(t, fsys, "f", []byte("data"))
	f, err := fsys.Open(ctx, "f")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	_, err = f.ReadAt(make([]byte, 2), 0)
	require.Error(t, err, "ReadAt after Close")
	require.NotErrorIs(t, err, io.EOF)
}
