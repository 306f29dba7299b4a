package paimon

import (
	"bytes"
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/blobfile"
	"github.com/paimon-go/paimon-go/fs"
)

// sizedFile is a File of a given size whose bytes are all 7; ReadAt fails
// past maxRead, so a test notices a read it did not expect.
type sizedFile struct {
	size    int64
	maxRead int
}

func (f sizedFile) ReadAt(p []byte, off int64) (int, error) {
	if len(p) > f.maxRead {
		return 0, errors.New("unexpected large read")
	}
	for i := range p {
		p[i] = 7
	}
	return len(p), nil
}
func (f sizedFile) Close() error { return nil }
func (f sizedFile) Size() int64  { return f.size }

// TestReadDescribedBounds checks every value of a descriptor against the
// object it names before anything is allocated for it, and names the
// object in every error (a hostile descriptor never panics or allocates
// what the object does not hold).
func TestReadDescribedBounds(t *testing.T) {
	open := func(size int64) func(string) (fs.File, error) {
		return func(uri string) (fs.File, error) {
			if uri == "missing" {
				return nil, errors.New("no such object")
			}
			return sizedFile{size: size, maxRead: 1 << 20}, nil
		}
	}
	desc := func(uri string, off, n int64) []byte {
		return blobfile.AppendDescriptor(nil, blobfile.Descriptor{URI: uri, Offset: off, Length: n})
	}
	got, err := readDescribed(desc("obj", 3, 4), open(10), []byte("x"))
	require.NoError(t, err)
	require.Equal(t, []byte{'x', 7, 7, 7, 7}, got)
	got, err = readDescribed(desc("obj", 3, -1), open(10), nil)
	require.NoError(t, err)
	require.Equal(t, bytes.Repeat([]byte{7}, 7), got)
	got, err = readDescribed(desc("obj", 10, 0), open(10), nil)
	require.NoError(t, err)
	require.Empty(t, got)

	for name, c := range map[string]struct {
		desc []byte
		size int64
		is   error
		msg  string
	}{
		"garbage":        {[]byte("not a descriptor"), 10, ErrCorrupt, "descriptor"},
		"missing":        {desc("missing", 0, 1), 10, nil, "missing: no such object"},
		"past the end":   {desc("obj", 5, 6), 10, ErrCorrupt, "bytes 5+6 of obj, which has 10"},
		"offset past":    {desc("obj", 11, -1), 10, ErrCorrupt, "of obj"},
		"negative":       {desc("obj", -1, 2), 10, ErrCorrupt, "of obj"},
		"negative len":   {desc("obj", 0, -5), 0, nil, ""}, // any negative length reads to the end, as Java
		"overflow":       {desc("obj", 2, math.MaxInt64), 10, ErrCorrupt, "of obj"},
		"larger than 2G": {desc("obj", 0, -1), 1 << 40, ErrUnsupported, "more than a BLOB value holds"},
	} {
		_, err := readDescribed(c.desc, open(c.size), nil)
		if c.msg == "" {
			require.NoError(t, err, name)
			continue
		}
		require.Error(t, err, name)
		if c.is != nil {
			require.ErrorIs(t, err, c.is, name)
		}
		require.ErrorContains(t, err, c.msg, name)
	}
}
