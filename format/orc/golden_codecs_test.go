package orc

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestGoldenCodecsAndEncodings checks that the golden orc-codecs tables
// (Java 1.4.2 and 2.0.0, one data file per codec Java's ORC writer offers)
// hold what they promise: every compression kind, dictionary strings for
// the low-cardinality column, direct strings for the unique column and for
// the column named by orc.column.encoding.direct. The rows themselves are
// checked against Java's dumps by interop's golden tests.
func TestGoldenCodecsAndEncodings(t *testing.T) {
	ctx := context.Background()
	for _, producer := range []string{"java-1.4.2", "java-2.0.0"} {
		files, err := filepath.Glob(filepath.Join("../../testdata/golden", producer, "orc-codecs/warehouse/*.db/*/bucket-0/*.orc"))
		require.NoError(t, err)
		kinds := map[CompressionKind]bool{}
		for _, p := range files {
			b, err := os.ReadFile(p)
			require.NoError(t, err)
			r, err := Open(ctx, bytes.NewReader(b), int64(len(b)), &ReadOptions{Name: p})
			require.NoError(t, err)
			kinds[r.Compression()] = true
			require.Equal(t, 1, r.NumStripes(), p)
			sf, _, err := r.stripeFooter(r.ft.stripes[0])
			require.NoError(t, err)
			// Columns: 0 the struct, 1 id, 2 city, 3 uid, 4 grade.
			require.Equal(t, encDictionaryV2, sf.encodings[2].kind, "%s: city", p)
			require.Equal(t, encDirectV2, sf.encodings[3].kind, "%s: uid", p)
			require.Equal(t, encDirectV2, sf.encodings[4].kind, "%s: grade", p)
		}
		require.Equal(t, map[CompressionKind]bool{CompressionNone: true, CompressionZlib: true, CompressionSnappy: true,
			CompressionLZO: true, CompressionLZ4: true, CompressionZstd: true}, kinds, producer)
	}
}
