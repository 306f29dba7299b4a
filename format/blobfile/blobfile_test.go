package blobfile

import (
	"bytes"
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/memcheck"
)

var blobField = []schema.DataField{{ID: 2, Name: "pic", Type: schema.BlobType()}}

// readAll reads every value of a BLOB file (nil for NULL).
func readAll(t *testing.T, b []byte, batch int) ([][]byte, error) {
	t.Helper()
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	r, err := Open(context.Background(), bytes.NewReader(b), int64(len(b)), &ReadOptions{Name: "f.blob"})
	if err != nil {
		return nil, err
	}
	var out [][]byte
	for rec, err := range r.Read(context.Background(), blobField, &ReadRequest{BatchSize: batch, Allocator: mem}) {
		if err != nil {
			return nil, err
		}
		col := rec.Column(0).(*array.LargeBinary)
		for i := 0; i < col.Len(); i++ {
			if col.IsNull(i) {
				out = append(out, nil)
			} else {
				out = append(out, append([]byte{}, col.Value(i)...))
			}
		}
		rec.Release()
	}
	require.Equal(t, int64(len(out)), r.NumRows())
	return out, nil
}

func write(t *testing.T, values [][]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := NewWriter(&buf)
	for _, v := range values {
		require.NoError(t, w.Add(v, v == nil))
	}
	require.NoError(t, w.Close())
	return buf.Bytes()
}

func TestRoundTrip(t *testing.T) {
	values := [][]byte{[]byte("hello"), nil, {}, bytes.Repeat([]byte{7}, 5000), nil, nil, []byte("x")}
	b := write(t, values)
	for _, batch := range []int{1, 2, 100} {
		got, err := readAll(t, b, batch)
		require.NoError(t, err)
		require.Equal(t, len(values), len(got))
		for i := range values {
			if values[i] == nil {
				require.Nil(t, got[i], "row %d", i)
			} else {
				require.Equal(t, values[i], got[i], "row %d", i)
			}
		}
	}
	got, err := readAll(t, write(t, nil), 10)
	require.NoError(t, err)
	require.Empty(t, got)
}

// TestJavaFilesRewriteIdentically reads the .blob files Java 1.4.2 and 2.0.0
// wrote in the golden corpus and writes their values again: the bytes must
// be Java's.
func TestJavaFilesRewriteIdentically(t *testing.T) {
	files, err := filepath.Glob("../../testdata/golden/java-*/blob/warehouse/*/*/bucket-0/*.blob")
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(files), 6)
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		values, err := readAll(t, b, 2)
		require.NoError(t, err, f)
		require.Equal(t, b, write(t, values), f)
	}
}

func TestCorrupt(t *testing.T) {
	good := write(t, [][]byte{[]byte("abc"), nil, []byte("defgh")})
	flip := func(i int) []byte {
		b := bytes.Clone(good)
		b[i] ^= 0x40
		return b
	}
	for name, b := range map[string][]byte{
		"empty":     {},
		"truncated": good[:len(good)-1],
		"version":   flip(len(good) - 1),
		"magic":     flip(0),
		"value":     flip(5),
		"crc":       flip(3 + 4 + 12),
		"index":     flip(len(good) - 6),
		"index len": flip(len(good) - 5),
	} {
		_, err := readAll(t, b, 10)
		require.ErrorIs(t, err, ErrCorrupt, name)
	}
}

func TestPlaceholderAndSchema(t *testing.T) {
	// An index of one placeholder row (Java 2.0.0 PLACE_HOLDER_LENGTH).
	b := binary.AppendVarint(nil, placeholderLength)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(b)))
	b = append(b, Version)
	_, err := readAll(t, b, 10)
	require.ErrorIs(t, err, ErrPlaceholder)

	good := write(t, [][]byte{[]byte("abc")})
	r, err := Open(context.Background(), bytes.NewReader(good), int64(len(good)), nil)
	require.NoError(t, err)
	for rec, err := range r.Read(context.Background(), []schema.DataField{{ID: 1, Name: "s", Type: schema.StringType()}}, nil) {
		require.Nil(t, rec)
		require.ErrorIs(t, err, ErrSchema)
		break
	}
	var rows int64
	for rec, err := range r.Read(context.Background(), nil, nil) {
		require.NoError(t, err)
		rows += rec.NumRows()
		rec.Release()
	}
	require.Equal(t, int64(1), rows)
}

// TestRowAccess: IsNull, IsPlaceholder and AppendValue over a file whose
// index mixes values, NULLs and placeholders (the Writer writes no
// placeholders, so they are added to its index here as Java 2.0.0's
// AbstractBlobElementWriter.writePlaceholderElement records them).
func TestRowAccess(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	require.NoError(t, w.Add([]byte("first"), false))
	w.lengths = append(w.lengths, placeholderLength)
	require.NoError(t, w.Add(nil, true))
	require.NoError(t, w.Add([]byte{}, false))
	w.lengths = append(w.lengths, placeholderLength)
	require.NoError(t, w.Add(bytes.Repeat([]byte{9}, 3000), false))
	require.NoError(t, w.Close())
	b := buf.Bytes()
	r, err := Open(context.Background(), bytes.NewReader(b), int64(len(b)), &ReadOptions{Name: "u.blob"})
	require.NoError(t, err)
	require.Equal(t, int64(6), r.NumRows())
	for i, want := range []string{"value", "placeholder", "null", "value", "placeholder", "value"} {
		require.Equal(t, want == "null", r.IsNull(int64(i)), i)
		require.Equal(t, want == "placeholder", r.IsPlaceholder(int64(i)), i)
	}
	dst := []byte("prefix")
	dst, err = r.AppendValue(dst, 0)
	require.NoError(t, err)
	require.Equal(t, "prefixfirst", string(dst))
	v, err := r.AppendValue(dst[:0], 3)
	require.NoError(t, err)
	require.Empty(t, v)
	v, err = r.AppendValue(v[:0], 5)
	require.NoError(t, err)
	require.Equal(t, bytes.Repeat([]byte{9}, 3000), v)
	_, err = r.AppendValue(nil, 1)
	require.ErrorIs(t, err, ErrPlaceholder)
	_, err = r.AppendValue(nil, 2)
	require.Error(t, err)
	_, err = r.AppendValue(nil, 6)
	require.Error(t, err)
	// A whole-file read refuses the placeholder, as Java's BlobPlaceholder
	// fails when its bytes are asked for.
	_, err = readAll(t, b, 10)
	require.ErrorIs(t, err, ErrPlaceholder)

	// A corrupt record is found by AppendValue too.
	bad := bytes.Clone(b)
	bad[5] ^= 1
	r, err = Open(context.Background(), bytes.NewReader(bad), int64(len(bad)), nil)
	require.NoError(t, err)
	_, err = r.AppendValue(nil, 0)
	require.ErrorIs(t, err, ErrCorrupt)
}

func TestDescriptor(t *testing.T) {
	d := Descriptor{Version: DescriptorVersion, URI: "file:/tmp/x ü.bin", Offset: 17, Length: 300}
	b := AppendDescriptor(nil, d)
	got, err := ParseDescriptor(b)
	require.NoError(t, err)
	require.Equal(t, d, got)
	// Java's layout: version, magic "BLOBDESC", URI length, URI, offset, length.
	require.Equal(t, byte(2), b[0])
	require.Equal(t, "CSEDBOLB", string(b[1:9]))
	require.Equal(t, 1+8+4+len(d.URI)+16, len(b))

	// Version 1 has no magic.
	v1 := append([]byte{1}, b[9:]...)
	got, err = ParseDescriptor(v1)
	require.NoError(t, err)
	require.Equal(t, Descriptor{Version: 1, URI: d.URI, Offset: 17, Length: 300}, got)

	// Trailing bytes are ignored, as Java's ByteBuffer reads ignore them.
	_, err = ParseDescriptor(append(bytes.Clone(b), 1, 2, 3))
	require.NoError(t, err)

	huge := bytes.Clone(b)
	binary.LittleEndian.PutUint32(huge[9:], 1<<31-1)
	negative := bytes.Clone(b)
	binary.LittleEndian.PutUint32(negative[9:], 0xffffffff)
	badMagic := bytes.Clone(b)
	badMagic[3] ^= 1
	notUTF8 := AppendDescriptor(nil, Descriptor{URI: "a\xffb"})
	for name, in := range map[string][]byte{
		"empty":        nil,
		"version":      append([]byte{3}, b[1:]...),
		"magic":        badMagic,
		"short magic":  b[:5],
		"short length": b[:11],
		"huge uri":     huge,
		"negative uri": negative,
		"no offset":    b[:len(b)-9],
		"not utf-8":    notUTF8,
	} {
		_, err := ParseDescriptor(in)
		require.ErrorIs(t, err, ErrDescriptor, name)
	}
}

func FuzzParseDescriptor(f *testing.F) {
	f.Add(AppendDescriptor(nil, Descriptor{URI: "s3://b/k", Offset: 1, Length: -1}))
	f.Add([]byte{1, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := ParseDescriptor(b)
		if err != nil {
			return
		}
		again, err := ParseDescriptor(AppendDescriptor(nil, d))
		if err != nil || again.URI != d.URI || again.Offset != d.Offset || again.Length != d.Length {
			t.Fatalf("%+v does not round-trip: %+v, %v", d, again, err)
		}
	})
}
