package interop_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/internal/interop"
	"github.com/paimon-go/paimon-go/paimon"
)

// TestLiveZstdRawPagesReadByJava writes a zstd Parquet table whose DOUBLE
// column is random, so that format/parquet stores its pages as zstd frames
// of raw blocks (issue 23), checks that the file holds such frames and that
// Java
// 1.4.2 and 2.0.0 (parquet-java's zstd-jni) read every row as we do.
func TestLiveZstdRawPagesReadByJava(t *testing.T) {
	runners := interop.RequireJava(t)
	ctx := context.Background()
	wh := t.TempDir()
	fsys, err := localfs.New(wh, nil)
	require.NoError(t, err)
	defer fsys.Close()
	s, err := schema.NewSchemaBuilder().
		Column("id", schema.BigIntType().NotNull()).
		Column("price", schema.DoubleType()).
		Option("bucket", "-1").Option("file.format", "parquet").Option("file.compression", "zstd").
		Build()
	require.NoError(t, err)
	tbl, err := paimon.CreateTable(ctx, fsys, "zdb.db/raw", s)
	require.NoError(t, err)
	const rows = 300_000 // 2.4 MB of doubles: pages of 1 MiB
	r := rand.New(rand.NewPCG(23, 7))
	values := make([][]any, rows)
	for i := range values {
		values[i] = []any{int64(i), r.Float64() * 1000}
		if i%1000 == 999 {
			values[i][1] = nil
		}
	}
	liveAppend(ctx, t, tbl, values)

	// Our raw frames: the zstd magic, a single-segment header with a 4-byte
	// content size and no checksum (klauspost's own frames carry one), a
	// first block of type raw.
	raw := 0
	require.NoError(t, filepath.WalkDir(wh, func(p string, d os.DirEntry, err error) error {
		if err != nil || !strings.HasSuffix(p, ".parquet") {
			return err
		}
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		sig := []byte{0x28, 0xb5, 0x2f, 0xfd, 0xa0}
		for rest := data; ; {
			i := bytes.Index(rest, sig)
			if i < 0 || len(rest) < i+12 {
				break
			}
			if size := binary.LittleEndian.Uint32(rest[i+5:]); size >= 128<<10 && rest[i+9]&6 == 0 {
				raw++
			}
			rest = rest[i+len(sig):]
		}
		return nil
	}))
	require.Positive(t, raw, "no page stored as raw zstd blocks")

	want, _ := goScan(ctx, t, tbl)
	require.Len(t, want, rows)
	for _, rn := range runners {
		rn.Timeout = 5 * time.Minute
		t.Run(rn.Name(), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "raw.jsonl")
			require.NoError(t, rn.Batch(ctx, []interop.BatchItem{{Out: out, Args: interop.DumpArgs(wh, "zdb.raw", interop.DumpOptions{})}}))
			require.Empty(t, canon.Compare(want, readCanon(t, out)), "Java's read of our raw zstd pages")
		})
	}
}
