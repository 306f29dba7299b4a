package parquet

import (
	"bytes"
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestFooterSchemaCheckAcceptsGoldenFiles walks the footer of every Parquet
// file in the golden corpus (Java 1.4.2, 2.0.0, pypaimon and ours): the
// walker must accept each of them.
func TestFooterSchemaCheckAcceptsGoldenFiles(t *testing.T) {
	var files []string
	err := filepath.WalkDir("../../testdata/golden", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(p) == ".parquet" {
			files = append(files, p)
		}
		return err
	})
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, p := range files {
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		_, err = readTail(bytes.NewReader(b), int64(len(b)))
		require.NoError(t, err, p)
	}
}

// hostileFile is a Parquet file whose footer's root claims children
// schema elements while none follows (Thrift compact encoding of
// FileMetaData{version: 1, schema: [{num_children: children}]}).
func hostileFile(children uint64) []byte {
	footer := []byte{0x15, 0x02, 0x19, 0x1c, 0x55}
	footer = binary.AppendUvarint(footer, children<<1) // zigzag of a non-negative i32
	footer = append(footer, 0x00, 0x00)
	b := append([]byte("PAR1"), footer...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(footer)))
	return append(b, "PAR1"...)
}

// TestFooterHostileChildCount: a flipped bit in a schema element's
// num_children made arrow-go allocate 16 bytes per claimed child before
// looking for them (a 34 GB allocation killed TestCorruptFiles). Open
// refuses such a footer as corrupt before arrow-go sees it.
func TestFooterHostileChildCount(t *testing.T) {
	for _, children := range []uint64{1 << 30, 2, 1} {
		b := hostileFile(children)
		_, err := Open(context.Background(), bytes.NewReader(b), int64(len(b)), &ReadOptions{Name: "hostile.parquet"})
		require.ErrorIs(t, err, ErrCorrupt, "children %d", children)
		require.ErrorContains(t, err, "children among 1 schema elements")
	}
	require.NoError(t, checkFooterSchema([]byte{0x15, 0x02, 0x19, 0x1c, 0x55, 0x00, 0x00, 0x00}))
	// Truncated or nested too deep: malformed, never a loop or a panic.
	require.ErrorIs(t, checkFooterSchema([]byte{0x15}), errThrift)
	require.ErrorIs(t, checkFooterSchema(bytes.Repeat([]byte{0x1c}, 200)), errThrift)
	require.ErrorIs(t, checkFooterSchema([]byte{0x19, 0xfc, 0xff, 0xff, 0xff, 0xff, 0x0f}), errThrift)
}
