package fstest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"math/rand/v2"
	"slices"
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

func testOverwrite(t *testing.T, fsys fs.FS, _ Options) {
	ctx := context.Background()
	writeFile(t, fsys, "LATEST", []byte("old content"))

	w, err := fsys.Create(ctx, "LATEST", nil)
	require.NoError(t, err)
	_, err = w.Write([]byte("new"))
	require.NoError(t, err)
	// Until Close, readers still see the previous file.
	require.Equal(t, "old content", string(readFile(t, fsys, "LATEST")))
	require.NoError(t, w.Close())

	require.Equal(t, "new", string(readFile(t, fsys, "LATEST")))
	fi, err := fsys.Stat(ctx, "LATEST")
	require.NoError(t, err)
	require.EqualValues(t, 3, fi.Size)
	require.Equal(t, []string{"LATEST"}, listNames(t, fsys, "."), "no temporary files left")
}

func testInvisibleUntilClose(t *testing.T, fsys fs.FS, o Options) {
	ctx := context.Background()
	variants := []struct {
		name string
		opts *fs.CreateOptions
	}{
		{"plain", nil},
		{"IfNotExist", &fs.CreateOptions{IfNotExist: true}},
	}
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			if v.opts != nil && o.IfNotExistUnsupported {
				t.Skip("IfNotExist unsupported")
			}
			name := "dir/pending-" + v.name
			w, err := fsys.Create(ctx, name, v.opts)
			require.NoError(t, err)
			_, err = w.Write(pattern(100_000, 4))
			require.NoError(t, err)

			_, err = fsys.Stat(ctx, name)
			requirePathErr(t, err, name, iofs.ErrNotExist)
			_, err = fsys.Open(ctx, name)
			requirePathErr(t, err, name, iofs.ErrNotExist)
			require.NotContains(t, listNames(t, fsys, "dir"), "pending-"+v.name)

			require.NoError(t, w.Close())
			fi, err := fsys.Stat(ctx, name)
			require.NoError(t, err)
			require.EqualValues(t, 100_000, fi.Size)
		})
	}
}

func testAbort(t *testing.T, fsys fs.FS, o Options) {
	ctx := context.Background()
	writeFile(t, fsys, "d/keep", []byte("keep"))
	variants := []struct {
		name string
		opts *fs.CreateOptions
	}{
		{"plain", nil},
		{"IfNotExist", &fs.CreateOptions{IfNotExist: true}},
	}
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			if v.opts != nil && o.IfNotExistUnsupported {
				t.Skip("IfNotExist unsupported")
			}
			// A new file: nothing remains.
			w, err := fsys.Create(ctx, "d/new", v.opts)
			require.NoError(t, err)
			_, err = w.Write(pattern(70_000, 5))
			require.NoError(t, err)
			require.NoError(t, w.Abort())
			_, err = fsys.Stat(ctx, "d/new")
			requirePathErr(t, err, "d/new", iofs.ErrNotExist)
			require.Equal(t, []string{"keep"}, listNames(t, fsys, "d"), "Abort must leave no trace")

			// Aborting a replacement keeps the old file.
			if v.opts == nil {
				w, err := fsys.Create(ctx, "d/keep", nil)
				require.NoError(t, err)
				_, err = w.Write([]byte("replacement"))
				require.NoError(t, err)
				require.NoError(t, w.Abort())
				require.Equal(t, "keep", string(readFile(t, fsys, "d/keep")))
				require.Equal(t, []string{"keep"}, listNames(t, fsys, "d"))
			}
		})
	}
}

func testWriterStates(t *testing.T, fsys fs.FS, _ Options) {
	ctx := context.Background()
	t.Run("after Close", func(t *testing.T) {
		w, err := fsys.Create(ctx, "closed", nil)
		require.NoError(t, err)
		_, err = w.Write([]byte("x"))
		require.NoError(t, err)
		require.NoError(t, w.Close())
		_, err = w.Write([]byte("y"))
		require.ErrorIs(t, err, iofs.ErrClosed)
		require.ErrorIs(t, w.Close(), iofs.ErrClosed)
		require.NoError(t, w.Abort(), "Abort after Close is a no-op")
		require.Equal(t, "x", string(readFile(t, fsys, "closed")))
	})
	t.Run("after Abort", func(t *testing.T) {
		w, err := fsys.Create(ctx, "aborted", nil)
		require.NoError(t, err)
		require.NoError(t, w.Abort())
		_, err = w.Write([]byte("y"))
		require.ErrorIs(t, err, iofs.ErrClosed)
		require.ErrorIs(t, w.Close(), iofs.ErrClosed)
		require.NoError(t, w.Abort())
		ok, err := fs.Exists(ctx, fsys, "aborted")
		require.NoError(t, err)
		require.False(t, ok)
	})
}

func testIfNotExist(t *testing.T, fsys fs.FS, o Options) {
	ctx := context.Background()
	opts := &fs.CreateOptions{IfNotExist: true}
	if o.IfNotExistUnsupported {
		w, err := fsys.Create(ctx, "snapshot/snapshot-1", opts)
		if err == nil {
			err = w.Close()
		}
		require.ErrorIs(t, err, fs.ErrUnsupported)
		require.ErrorIs(t, err, errors.ErrUnsupported)
		ok, xerr := fs.Exists(ctx, fsys, "snapshot/snapshot-1")
		require.NoError(t, xerr)
		require.False(t, ok, "a refused create must not write")
		return
	}
	require.NoError(t, fs.WriteFile(ctx, fsys, "snapshot/snapshot-1", []byte("first"), opts))

	// The loser learns from Create or Close; the winner's file is intact.
	err := fs.WriteFile(ctx, fsys, "snapshot/snapshot-1", []byte("second"), opts)
	requirePathErr(t, err, "snapshot/snapshot-1", iofs.ErrExist)
	require.Equal(t, "first", string(readFile(t, fsys, "snapshot/snapshot-1")))
	require.Equal(t, []string{"snapshot-1"}, listNames(t, fsys, "snapshot"), "no temporary files left")

	// A different name still succeeds.
	require.NoError(t, fs.WriteFile(ctx, fsys, "snapshot/snapshot-2", []byte("x"), opts))
}

func testIfNotExistRace(t *testing.T, fsys fs.FS, o Options) {
	if o.IfNotExistUnsupported {
		t.Skip("IfNotExist unsupported")
	}
	ctx := context.Background()
	type result struct {
		writer, name int
		won          bool
		err          error
	}
	results := make(chan result, o.RaceGoroutines*o.RaceNames)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for g := range o.RaceGoroutines {
		wg.Go(func() {
			<-start
			for n := range o.RaceNames {
				name := fmt.Sprintf("snapshot/snapshot-%d", n)
				err := fs.WriteFile(ctx, fsys, name, fmt.Appendf(nil, "writer-%d", g), &fs.CreateOptions{IfNotExist: true})
				switch {
				case err == nil:
					results <- result{g, n, true, nil}
				case errors.Is(err, iofs.ErrExist):
					results <- result{g, n, false, nil}
				default:
					results <- result{g, n, false, err}
				}
			}
		})
	}
	close(start)
	wg.Wait()
	close(results)

	winners := make([][]int, o.RaceNames)
	for r := range results {
		require.NoError(t, r.err, "writer %d, name %d", r.writer, r.name)
		if r.won {
			winners[r.name] = append(winners[r.name], r.writer)
		}
	}
	for n, ws := range winners {
		name := fmt.Sprintf("snapshot/snapshot-%d", n)
		require.Len(t, ws, 1, "%s must have exactly one winner, got %v", name, ws)
		require.Equal(t, fmt.Sprintf("writer-%d", ws[0]), string(readFile(t, fsys, name)),
			"%s must hold the winner's content", name)
	}
	require.Len(t, listNames(t, fsys, "snapshot"), o.RaceNames, "no temporary files left")
}

func testNotExist(t *testing.T, fsys fs.FS, _ Options) {
	ctx := context.Background()
	writeFile(t, fsys, "file", []byte("x"))
	for _, name := range []string{"missing", "dir/missing", "file/child"} {
		t.Run(name, func(t *testing.T) {
			_, err := fsys.Open(ctx, name)
			requirePathErr(t, err, name, iofs.ErrNotExist)
			_, err = fsys.Stat(ctx, name)
			requirePathErr(t, err, name, iofs.ErrNotExist)
			_, err = fs.ReadFile(ctx, fsys, name)
			requirePathErr(t, err, name, iofs.ErrNotExist)
			ok, err := fs.Exists(ctx, fsys, name)
			require.NoError(t, err)
			require.False(t, ok)
		})
	}
	err := fsys.Remove(ctx, "missing")
	requirePathErr(t, err, "missing", iofs.ErrNotExist)
}

func testStat(t *testing.T, fsys fs.FS, _ Options) {
	ctx := context.Background()
	writeFile(t, fsys, "dir/sub/file.parquet", []byte("12345"))

	fi, err := fsys.Stat(ctx, "dir/sub/file.parquet")
	require.NoError(t, err)
	require.Equal(t, "file.parquet", fi.Name)
	require.EqualValues(t, 5, fi.Size)
	require.False(t, fi.IsDir)
	require.False(t, fi.ModTime.IsZero(), "files have a modification time")

	for _, dir := range []string{"dir", "dir/sub"} {
		fi, err := fsys.Stat(ctx, dir)
		require.NoError(t, err, dir)
		require.True(t, fi.IsDir, dir)
		_, base := splitName(dir)
		require.Equal(t, base, fi.Name)
	}
	fi, err = fsys.Stat(ctx, ".")
	require.NoError(t, err)
	require.True(t, fi.IsDir)

	ok, err := fs.Exists(ctx, fsys, "dir")
	require.NoError(t, err)
	require.True(t, ok)

	// Opening a directory is an error (which one depends on the store).
	_, err = fsys.Open(ctx, "dir")
	require.Error(t, err)
}

func testList(t *testing.T, fsys fs.FS, _ Options) {
	ctx := context.Background()
	writeFile(t, fsys, "dir/a", []byte("1"))
	writeFile(t, fsys, "dir/b", []byte("22"))
	writeFile(t, fsys, "dir/sub/c", []byte("333"))
	writeFile(t, fsys, "dir2/x", []byte("x"))  // shares the prefix "dir"
	writeFile(t, fsys, "dirx", []byte("file")) // likewise

	infos, err := fs.ReadDir(ctx, fsys, "dir")
	require.NoError(t, err)
	require.Len(t, infos, 3)
	require.Equal(t, "a", infos[0].Name)
	require.EqualValues(t, 1, infos[0].Size)
	require.False(t, infos[0].IsDir)
	require.Equal(t, "b", infos[1].Name)
	require.EqualValues(t, 2, infos[1].Size)
	require.Equal(t, "sub", infos[2].Name)
	require.True(t, infos[2].IsDir)

	require.Equal(t, []string{"dir", "dir2", "dirx"}, listNames(t, fsys, "."))
	require.Equal(t, []string{"c"}, listNames(t, fsys, "dir/sub"))

	// A missing directory lists as empty.
	require.Empty(t, listNames(t, fsys, "nope"))
	require.Empty(t, listNames(t, fsys, "dir/nope/deeper"))

	// Breaking out early is fine.
	count := 0
	for _, err := range fsys.List(ctx, "dir") {
		require.NoError(t, err)
		count++
		break
	}
	require.Equal(t, 1, count)

	// The listing is usable while modifying the FS afterwards.
	for fi, err := range fsys.List(ctx, "dir") {
		require.NoError(t, err)
		if !fi.IsDir {
			require.NoError(t, fsys.Remove(ctx, "dir/"+fi.Name))
		}
	}
	require.Equal(t, []string{"sub"}, listNames(t, fsys, "dir"))
}

func testRemove(t *testing.T, fsys fs.FS, _ Options) {
	ctx := context.Background()
	writeFile(t, fsys, "d/x", []byte("x"))
	writeFile(t, fsys, "d/y", []byte("y"))
	require.NoError(t, fsys.Remove(ctx, "d/x"))
	_, err := fsys.Stat(ctx, "d/x")
	requirePathErr(t, err, "d/x", iofs.ErrNotExist)
	require.Equal(t, []string{"y"}, listNames(t, fsys, "d"))
	err = fsys.Remove(ctx, "d/x")
	requirePathErr(t, err, "d/x", iofs.ErrNotExist)
}

// specialNames need escaping in URLs or shells, or are Paimon-typical
// (partition directories "k=v", dot files, "%" from Hive escaping).
var specialNames = []string{
	"with space",
	"dt=2026-08-01/hr=00/data-0.parquet",
	"100%",
	"%2F-not-a-slash",
	"a+b&c;d",
	"q?x#y",
	"ünïcødé/名前/файл",
	"emoji-🦀",
	".hidden",
	"..dots-in-name..",
	"snapshot-1",
	"tab\there",
	"quote'\"",
}

func testNames(t *testing.T, fsys fs.FS, _ Options) {
	ctx := context.Background()
	for i, name := range specialNames {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			require.True(t, fs.ValidName(name))
			data := []byte("content of " + name)
			writeFile(t, fsys, name, data)
			require.Equal(t, data, readFile(t, fsys, name))
			fi, err := fsys.Stat(ctx, name)
			require.NoError(t, err)
			dir, base := splitName(name)
			require.Equal(t, base, fi.Name)
			require.Contains(t, listNames(t, fsys, dir), base)
			require.NoError(t, fsys.Remove(ctx, name))
			ok, err := fs.Exists(ctx, fsys, name)
			require.NoError(t, err)
			require.False(t, ok)
		})
	}
}

func splitName(name string) (dir, base string) {
	for i := len(name) - 1; i >= 0; i-- {
		if name[i] == '/' {
			return name[:i], name[i+1:]
		}
	}
	return ".", name
}

// escapingNames must be rejected by every operation.
var escapingNames = []string{"", "/abs", "/", "..", "../x", "a/../../b", "a/..", "./a", "a/./b", "a//b", "a/", "//server/share"}

func testInvalidNames(t *testing.T, fsys fs.FS, _ Options) {
	ctx := context.Background()
	writeFile(t, fsys, "a/inside", []byte("x"))
	ops := []struct {
		name string
		fn   func(name string) error
	}{
		{"Open", func(n string) error { _, err := fsys.Open(ctx, n); return err }},
		{"Create", func(n string) error {
			w, err := fsys.Create(ctx, n, nil)
			if err == nil {
				_ = w.Abort()
			}
			return err
		}},
		{"CreateIfNotExist", func(n string) error {
			w, err := fsys.Create(ctx, n, &fs.CreateOptions{IfNotExist: true})
			if err == nil {
				_ = w.Abort()
			}
			return err
		}},
		{"Remove", func(n string) error { return fsys.Remove(ctx, n) }},
		{"Stat", func(n string) error { _, err := fsys.Stat(ctx, n); return err }},
		{"List", func(n string) error {
			for _, err := range fsys.List(ctx, n) {
				if err != nil {
					return err
				}
			}
			return nil
		}},
		{"ReadFile", func(n string) error { _, err := fs.ReadFile(ctx, fsys, n); return err }},
		{"MkdirAll", func(n string) error { return fs.MkdirAll(ctx, fsys, n) }},
		{"RemoveAll", func(n string) error { return fs.RemoveAll(ctx, fsys, n) }},
	}
	for _, op := range ops {
		t.Run(op.name, func(t *testing.T) {
			for _, name := range escapingNames {
				err := op.fn(name)
				require.Error(t, err, "%s(%q) must be rejected", op.name, name)
				require.ErrorIs(t, err, fs.ErrInvalidName, "%s(%q)", op.name, name)
				require.ErrorIs(t, err, iofs.ErrInvalid, "%s(%q)", op.name, name)
				var pe *iofs.PathError
				require.ErrorAs(t, err, &pe, "%s(%q)", op.name, name)
			}
		})
	}
	// "." is the root: fine for directories, not for files.
	for _, op := range ops {
		if op.name == "Stat" || op.name == "List" || op.name == "MkdirAll" {
			require.NoError(t, op.fn("."), op.name)
		} else {
			require.ErrorIs(t, op.fn("."), fs.ErrInvalidName, op.name)
		}
	}
	require.Equal(t, "x", string(readFile(t, fsys, "a/inside")), "nothing was touched")
}

func testContext(t *testing.T, fsys fs.FS, o Options) {
	writeFile(t, fsys, "f", []byte("data"))
	canceled, cancel := context.WithCancel(context.Background())
	cancel()

	t.Run("operations", func(t *testing.T) {
		_, err := fsys.Open(canceled, "f")
		require.ErrorIs(t, err, context.Canceled, "Open")
		_, err = fsys.Create(canceled, "g", nil)
		require.ErrorIs(t, err, context.Canceled, "Create")
		_, err = fsys.Stat(canceled, "f")
		require.ErrorIs(t, err, context.Canceled, "Stat")
		require.ErrorIs(t, fsys.Remove(canceled, "f"), context.Canceled, "Remove")
		var listErr error
		for _, err := range fsys.List(canceled, ".") {
			listErr = err
			break
		}
		require.ErrorIs(t, listErr, context.Canceled, "List")
		require.Equal(t, "data", string(readFile(t, fsys, "f")), "nothing was removed")
	})

	t.Run("File bound to Open's context", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		f, err := fsys.Open(ctx, "f")
		require.NoError(t, err)
		defer f.Close()
		_, err = f.ReadAt(make([]byte, 2), 0)
		require.NoError(t, err)
		cancel()
		_, err = f.ReadAt(make([]byte, 2), 0)
		require.ErrorIs(t, err, context.Canceled)
	})

	for _, ifNotExist := range []bool{false, true} {
		t.Run(fmt.Sprintf("Writer bound to Create's context/IfNotExist=%v", ifNotExist), func(t *testing.T) {
			if ifNotExist && o.IfNotExistUnsupported {
				t.Skip("IfNotExist unsupported")
			}
			ctx, cancel := context.WithCancel(context.Background())
			w, err := fsys.Create(ctx, "w", &fs.CreateOptions{IfNotExist: ifNotExist})
			require.NoError(t, err)
			_, _ = w.Write([]byte("partial")) // may or may not fail yet
			cancel()
			require.ErrorIs(t, w.Close(), context.Canceled)
			require.NoError(t, w.Abort())
			ok, err := fs.Exists(context.Background(), fsys, "w")
			require.NoError(t, err)
			require.False(t, ok, "a canceled write publishes nothing")
		})
	}
}

func testMkdirAll(t *testing.T, fsys fs.FS, _ Options) {
	ctx := context.Background()
	require.NoError(t, fs.MkdirAll(ctx, fsys, "db.db/table"))
	require.NoError(t, fs.MkdirAll(ctx, fsys, "db.db/table"), "idempotent")
	// Stores with real directories show it now; object stores only once a
	// file exists below it. Wrappers expose MkdirAll either way, so this
	// is checked by behaviour, not by type.
	if fi, err := fsys.Stat(ctx, "db.db/table"); err == nil {
		require.True(t, fi.IsDir)
		require.Equal(t, []string{"table"}, listNames(t, fsys, "db.db"))
	} else {
		requirePathErr(t, err, "db.db/table", iofs.ErrNotExist)
	}
	writeFile(t, fsys, "db.db/table/schema/schema-0", []byte("{}"))
	require.Equal(t, []string{"schema-0"}, listNames(t, fsys, "db.db/table/schema"))
}

func testRemoveAll(t *testing.T, fsys fs.FS, _ Options) {
	ctx := context.Background()
	for _, name := range []string{"t/a", "t/b/c", "t/b/d/e", "t2/keep", "tx", "t.bak/keep"} {
		writeFile(t, fsys, name, []byte(name))
	}
	require.NoError(t, fs.RemoveAll(ctx, fsys, "t"))
	ok, err := fs.Exists(ctx, fsys, "t")
	require.NoError(t, err)
	require.False(t, ok)
	require.Equal(t, []string{"t.bak", "t2", "tx"}, listNames(t, fsys, "."), "siblings sharing the prefix survive")
	require.Equal(t, "t2/keep", string(readFile(t, fsys, "t2/keep")))

	require.NoError(t, fs.RemoveAll(ctx, fsys, "t"), "missing is fine")
	require.NoError(t, fs.RemoveAll(ctx, fsys, "tx"), "a single file")
	require.Equal(t, []string{"t.bak", "t2"}, listNames(t, fsys, "."))
	require.ErrorIs(t, fs.RemoveAll(ctx, fsys, "."), fs.ErrInvalidName, "the root is refused")
}

func testSub(t *testing.T, fsys fs.FS, o Options) {
	ctx := context.Background()
	writeFile(t, fsys, "outside", []byte("o"))
	sub, err := fs.Sub(fsys, "wh/db.db")
	require.NoError(t, err)

	writeFile(t, sub, "t/snapshot/LATEST", []byte("1"))
	require.Equal(t, "1", string(readFile(t, fsys, "wh/db.db/t/snapshot/LATEST")))
	require.Equal(t, []string{"t"}, listNames(t, sub, "."))

	fi, err := sub.Stat(ctx, ".")
	require.NoError(t, err)
	require.True(t, fi.IsDir)

	// Errors name the file relative to the sub root.
	_, err = sub.Open(ctx, "t/missing")
	requirePathErr(t, err, "t/missing", iofs.ErrNotExist)
	_, err = sub.Open(ctx, "../outside")
	require.ErrorIs(t, err, fs.ErrInvalidName)

	if !o.IfNotExistUnsupported {
		opts := &fs.CreateOptions{IfNotExist: true}
		require.NoError(t, fs.WriteFile(ctx, sub, "t/snapshot/snapshot-1", []byte("a"), opts))
		err = fs.WriteFile(ctx, sub, "t/snapshot/snapshot-1", []byte("b"), opts)
		requirePathErr(t, err, "t/snapshot/snapshot-1", iofs.ErrExist)
	}

	require.NoError(t, fs.RemoveAll(ctx, sub, "t"))
	require.Empty(t, listNames(t, sub, "."))
	require.Equal(t, "o", string(readFile(t, fsys, "outside")))
	require.True(t, slices.Contains(listNames(t, fsys, "."), "outside"))
}
