package blobfile

import (
	"bytes"
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
)

var blobField = []schema.DataField{{ID: 2, Name: "pic", Type: schema.BlobType()}}

// readAll reads every value of a BLOB file (nil for NULL).
func readAll(t *testing.T, b []byte, batch int) ([][]byte, error) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
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
