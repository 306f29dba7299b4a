package paimon

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/avrofile"
	"github.com/paimon-go/paimon-go/format/orc"
	"github.com/paimon-go/paimon-go/format/parquet"
)

// TestFormatErrUnsupportedNotCorrupt checks that a decoder's "unsupported"
// (a well-formed file using a feature the decoder lacks) surfaces as
// ErrUnsupported and is never labelled corrupt, for ORC as for Parquet,
// while real decoding failures stay CorruptErrors naming the file.
func TestFormatErrUnsupportedNotCorrupt(t *testing.T) {
	const p = "/t/bucket-0/data-1.orc"
	for name, in := range map[string]error{
		"orc":     fmt.Errorf("%w: compression kind LZO", orc.ErrUnsupported),
		"parquet": fmt.Errorf("%w: codec LZO", parquet.ErrUnsupported),
	} {
		err := formatErr(p, in)
		require.ErrorIs(t, err, ErrUnsupported, name)
		require.ErrorIs(t, err, in, name)
		var ce *CorruptError
		require.False(t, errors.As(err, &ce), "%s: labelled corrupt: %v", name, err)
		require.NotContains(t, err.Error(), "corrupt", name)
	}
	for name, in := range map[string]error{
		"orc":     fmt.Errorf("%w: bad stream", orc.ErrCorrupt),
		"parquet": fmt.Errorf("%w: bad page", parquet.ErrCorrupt),
		"avro":    fmt.Errorf("%w: bad block", avrofile.ErrCorrupt),
	} {
		err := formatErr(p, in)
		var ce *CorruptError
		require.True(t, errors.As(err, &ce), name)
		require.Equal(t, p, ce.Path, name)
		require.False(t, errors.Is(err, ErrUnsupported), name)
	}
}
