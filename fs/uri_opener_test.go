package fs_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/fs"
	_ "github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/fs/memfs"
)

// countingScheme registers a scheme whose file systems are in-memory ones
// per host (shared contents, as a bucket's), counting the file systems
// opened and closed. Host "fail" fails to open, while failOpens is set.
type countingScheme struct {
	name            string
	opened, closed  atomic.Int64
	failOpens       atomic.Bool
	mu              sync.Mutex
	buckets         map[string]*memfs.FS
	subdirNamesFrom bool // the opener roots its FS at the path's directory (names are base names)
	prefixedNames   bool // the opener names "x" of a path "/x" "data/x"
}

type countedFS struct {
	fs.FS
	s *countingScheme
}

func (c *countedFS) Close() error {
	c.s.closed.Add(1)
	return nil
}

func newCountingScheme(t *testing.T, subdir bool) *countingScheme {
	s := &countingScheme{name: fmt.Sprintf("count%d", len(t.Name())+int(counter.Add(1))), buckets: map[string]*memfs.FS{}, subdirNamesFrom: subdir}
	fs.Register(s.name, func(ctx context.Context, u *url.URL) (fs.FS, string, error) {
		if u.Host == "fail" && s.failOpens.Load() {
			return nil, "", errors.New("bucket unreachable")
		}
		s.mu.Lock()
		b := s.buckets[u.Host]
		if b == nil {
			b = memfs.New(nil)
			s.buckets[u.Host] = b
		}
		s.mu.Unlock()
		s.opened.Add(1)
		name := strings.Trim(u.Path, "/")
		if s.prefixedNames {
			return &countedFS{FS: b, s: s}, "data/" + name, nil
		}
		if s.subdirNamesFrom {
			sub, err := fs.Sub(b, path.Dir(name))
			if err != nil {
				return nil, "", err
			}
			return &countedFS{FS: sub, s: s}, path.Base(name), nil
		}
		return &countedFS{FS: b, s: s}, name, nil
	})
	return s
}

var counter atomic.Int64

func (s *countingScheme) put(t *testing.T, host, name, data string) string {
	t.Helper()
	s.mu.Lock()
	b := s.buckets[host]
	if b == nil {
		b = memfs.New(nil)
		s.buckets[host] = b
	}
	s.mu.Unlock()
	require.NoError(t, fs.WriteFile(context.Background(), b, name, []byte(data), nil))
	return s.name + "://" + host + "/" + name
}

func readAll(t *testing.T, f fs.File) string {
	t.Helper()
	buf := make([]byte, f.Size())
	_, err := f.ReadAt(buf, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		require.NoError(t, err)
	}
	require.NoError(t, f.Close())
	return string(buf)
}

// TestURIOpenerSharesFileSystems: the files of one location open through
// one file system, those of another through a second; Close closes both,
// and later opens fail with ErrClosed.
func TestURIOpenerSharesFileSystems(t *testing.T) {
	ctx := context.Background()
	s := newCountingScheme(t, false)
	o := fs.NewURIOpener()
	for i := range 50 {
		uri := s.put(t, "b1", fmt.Sprintf("blobs/%02d/x.bin", i), fmt.Sprint("value ", i))
		f, err := o.OpenFile(ctx, uri)
		require.NoError(t, err)
		require.Equal(t, fmt.Sprint("value ", i), readAll(t, f))
	}
	require.EqualValues(t, 1, s.opened.Load())
	f, err := o.OpenFile(ctx, s.put(t, "b2", "top.bin", "other bucket"))
	require.NoError(t, err)
	require.Equal(t, "other bucket", readAll(t, f))
	require.EqualValues(t, 2, s.opened.Load())
	_, err = o.OpenFile(ctx, s.name+"://b1/blobs/missing")
	require.ErrorIs(t, err, iofs.ErrNotExist)
	require.EqualValues(t, 0, s.closed.Load())

	require.NoError(t, o.Close())
	require.EqualValues(t, 2, s.closed.Load())
	_, err = o.OpenFile(ctx, s.name+"://b1/blobs/00/x.bin")
	require.ErrorIs(t, err, fs.ErrClosed)
	require.NoError(t, o.Close())
	require.EqualValues(t, 2, s.closed.Load())
}

// TestURIOpenerConcurrent: goroutines asking for the same location at
// once open it once (run with -race).
func TestURIOpenerConcurrent(t *testing.T) {
	ctx := context.Background()
	s := newCountingScheme(t, false)
	uri := s.put(t, "b", "k/v", "shared")
	o := fs.NewURIOpener()
	defer o.Close()
	var wg sync.WaitGroup
	errs := make([]error, 16)
	for g := range 16 {
		wg.Go(func() {
			f, err := o.OpenFile(ctx, uri)
			if err == nil {
				if got := readAll(t, f); got != "shared" {
					err = fmt.Errorf("read %q", got)
				}
			}
			errs[g] = err
		})
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
	require.EqualValues(t, 1, s.opened.Load())
}

// TestURIOpenerFailedOpenNotKept: a location that failed to open is opened
// again by the next URI.
func TestURIOpenerFailedOpenNotKept(t *testing.T) {
	ctx := context.Background()
	s := newCountingScheme(t, false)
	uri := s.put(t, "fail", "a", "after recovery")
	o := fs.NewURIOpener()
	defer o.Close()
	s.failOpens.Store(true)
	_, err := o.OpenFile(ctx, uri)
	require.ErrorContains(t, err, "bucket unreachable")
	s.failOpens.Store(false)
	f, err := o.OpenFile(ctx, uri)
	require.NoError(t, err)
	require.Equal(t, "after recovery", readAll(t, f))
}

// TestURIOpenerDirectoryRooted: an opener that roots its file system at
// the URI's directory. The files under the first directory share its file
// system; a file elsewhere (whose path does not start with that directory)
// gets a file system of its own, closed with the file, as with
// OpenFileURI. Every file reads right.
func TestURIOpenerDirectoryRooted(t *testing.T) {
	ctx := context.Background()
	s := newCountingScheme(t, true)
	o := fs.NewURIOpener()
	for _, c := range []struct{ name, opened, closed int64 }{
		{0, 1, 0}, // d0/f: opened and kept
		{1, 2, 1}, // d1/f: its own, closed with the file
		{2, 2, 1}, // d0/g: d0's
	} {
		name := []string{"d0/f", "d1/f", "d0/g"}[c.name]
		f, err := o.OpenFile(ctx, s.put(t, "b", name, "v "+name))
		require.NoError(t, err)
		require.Equal(t, "v "+name, readAll(t, f))
		require.Equal(t, c.opened, s.opened.Load(), name)
		require.Equal(t, c.closed, s.closed.Load(), name)
	}
	require.NoError(t, o.Close())
	require.EqualValues(t, 2, s.closed.Load())
}

// TestURIOpenerUnsharedNames: an opener whose names are not the tail of
// the URI's path gets every URI in full and each file a file system of its
// own, closed with the file, as with OpenFileURI.
func TestURIOpenerUnsharedNames(t *testing.T) {
	ctx := context.Background()
	s := newCountingScheme(t, false)
	s.prefixedNames = true
	o := fs.NewURIOpener()
	for i := range 3 {
		name := fmt.Sprint("k", i)
		s.put(t, "b", "data/"+name, "v"+name)
		f, err := o.OpenFile(ctx, s.name+"://b/"+name)
		require.NoError(t, err)
		require.Equal(t, "v"+name, readAll(t, f))
	}
	require.EqualValues(t, 3, s.opened.Load())
	require.EqualValues(t, 3, s.closed.Load())
	require.NoError(t, o.Close())
	require.EqualValues(t, 3, s.closed.Load())
}

// TestURIOpenerLocalFiles: file URIs and plain paths share the local file
// system; a path the local opener cleans ("a/./b") still opens.
func TestURIOpenerLocalFiles(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "a"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a", "b"), []byte("local"), 0o644))
	o := fs.NewURIOpener()
	defer o.Close()
	for _, uri := range []string{
		filepath.Join(dir, "a", "b"),
		"file://" + filepath.ToSlash(filepath.Join(dir, "a", "b")),
		"file:" + filepath.ToSlash(filepath.Join(dir, "a", "b")),
		"file://" + filepath.ToSlash(dir) + "/a/./b",
	} {
		f, err := o.OpenFile(ctx, uri)
		require.NoError(t, err, uri)
		require.Equal(t, "local", readAll(t, f), uri)
	}
}
