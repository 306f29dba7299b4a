package variant

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

var emptyMeta = []byte{0x01, 0, 0}

func prim(id int, payload ...byte) []byte { return append([]byte{byte(id << 2)}, payload...) }

func le(n int, v uint64) []byte {
	b := make([]byte, 8)
	binary.LittleEndian.PutUint64(b, v)
	return b[:n]
}

// TestJSONPrimitives: the scalar renderings of Java's GenericVariant.toJson
// (the golden tables cover objects, arrays, integers, strings, decimals and
// doubles as Java writes them).
func TestJSONPrimitives(t *testing.T) {
	for _, c := range []struct {
		value []byte
		want  string
	}{
		{prim(primNull), "null"},
		{prim(primTrue), "true"},
		{prim(primInt16, le(2, uint64(0xff85))...), "-123"},
		{prim(primDouble, le(8, math.Float64bits(100))...), "100.0"},
		{prim(primDouble, le(8, math.Float64bits(1e7))...), "1.0E7"},
		{prim(primDouble, le(8, math.Float64bits(0.0001))...), "1.0E-4"},
		{prim(primDouble, le(8, math.Float64bits(math.NaN()))...), `"NaN"`},
		{prim(primFloat, le(4, uint64(math.Float32bits(0.1)))...), "0.1"},
		{prim(primDecimal4, append([]byte{2}, le(4, uint64(0xffffff9c))...)...), "-1"}, // -100, scale 2
		{prim(primDecimal8, append([]byte{3}, le(8, 5)...)...), "0.005"},
		{prim(primDate, le(4, 19782)...), `"2024-02-29"`},
		{prim(primTimestamp, le(8, 1709210096001000)...), `"2024-02-29 12:34:56.001+00:00"`},
		{prim(primTimestampNTZ, le(8, 1709210096000000)...), `"2024-02-29 12:34:56"`},
		{prim(primBinary, append(le(4, 2), 0xff, 0x00)...), `"/wA="`},
		{prim(primString, append(le(4, 3), 'a', '\t', '"')...), `"a\t\""`},
		{prim(primUUID, 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0, 1, 2, 3, 4, 5, 6, 7, 8), `"12345678-9abc-def0-0102-030405060708"`},
	} {
		got, err := JSON(c.value, emptyMeta)
		require.NoError(t, err, c.want)
		require.Equal(t, c.want, got)
	}
}

// TestJSONCorrupt: malformed values and metadata are errors, never panics.
func TestJSONCorrupt(t *testing.T) {
	_, err := JSON([]byte{0x02, 1, 0, 0, 1}, emptyMeta) // key id 0 of an empty dictionary
	require.ErrorIs(t, err, ErrCorrupt)
	_, err = JSON(prim(primString, 9, 0, 0, 0), emptyMeta)
	require.ErrorIs(t, err, ErrCorrupt)
	_, err = JSON(prim(primNull), []byte{0x02})
	require.ErrorIs(t, err, ErrCorrupt)
	r := rand.New(rand.NewPCG(7, 9))
	for range 20000 {
		v := make([]byte, r.IntN(24))
		m := make([]byte, r.IntN(12))
		for i := range v {
			v[i] = byte(r.Uint32())
		}
		for i := range m {
			m[i] = byte(r.Uint32())
		}
		if len(m) > 0 {
			m[0] = m[0]&0xf0 | 1
		}
		_, _ = JSON(v, m)
	}
}
