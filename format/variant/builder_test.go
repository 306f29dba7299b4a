package variant

import (
	"math/big"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBuilderMatchesJava checks the builder's bytes against encodings
// worked out from Java's GenericVariantBuilder: smallest integer widths,
// the decimal width by digit count, objects sorted by key with ids in
// insertion order, metadata unsorted in insertion order.
func TestBuilderMatchesJava(t *testing.T) {
	b := NewBuilder()
	start := b.WritePos()
	var fields []FieldEntry
	fields = append(fields, FieldEntry{Key: "b", ID: b.AddKey("b"), Offset: b.WritePos() - start})
	b.AppendLong(300)
	fields = append(fields, FieldEntry{Key: "a", ID: b.AddKey("a"), Offset: b.WritePos() - start})
	require.NoError(t, b.AppendDecimal(big.NewInt(1250), 2))
	require.NoError(t, b.FinishObject(start, fields))
	v, m, err := b.Result()
	require.NoError(t, err)
	// object: header 0x02 (1-byte ids and offsets), 2 fields, ids [a=1, b=0],
	// offsets [a=3, b=0, end=9]; then INT16 300 and DECIMAL4 scale 2 1250.
	require.Equal(t, []byte{0x02, 2, 1, 0, 3, 0, 9, 4 << 2, 0x2c, 0x01, 8 << 2, 2, 0xe2, 0x04, 0, 0}, v)
	require.Equal(t, []byte{0x01, 2, 0, 1, 2, 'b', 'a'}, m)
	js, err := JSON(v, m)
	require.NoError(t, err)
	require.Equal(t, `{"a":12.5,"b":300}`, js)

	// Re-appending a value re-keys it into the new dictionary.
	b2 := NewBuilder()
	b2.AddKey("zzz")
	require.NoError(t, b2.AppendVariant(v, m))
	v2, m2, err := b2.Result()
	require.NoError(t, err)
	js2, err := JSON(v2, m2)
	require.NoError(t, err)
	require.Equal(t, js, js2)
	require.Equal(t, []byte{0x01, 3, 0, 3, 4, 5, 'z', 'z', 'z', 'a', 'b'}, m2) // stored (sorted) order

	// Decimal widths follow the unscaled value's digits, not the column's.
	for _, c := range []struct {
		unscaled string
		scale    int
		prim     byte
	}{{"0", 2, primDecimal4}, {"-999999999", 0, primDecimal4}, {"1000000000", 0, primDecimal8}, {"1", 10, primDecimal8}, {"-1", 19, primDecimal16}} {
		n, _ := new(big.Int).SetString(c.unscaled, 10)
		b := NewBuilder()
		require.NoError(t, b.AppendDecimal(n, c.scale))
		v, m, err := b.Result()
		require.NoError(t, err)
		require.Equal(t, c.prim<<2, v[0], c.unscaled)
		_, err = JSON(v, m)
		require.NoError(t, err)
	}

	// Duplicate keys are malformed; keys sort by UTF-16 code units.
	b3 := NewBuilder()
	st := b3.WritePos()
	f := []FieldEntry{{Key: "x", ID: b3.AddKey("x")}}
	b3.AppendNull()
	f = append(f, FieldEntry{Key: "x", ID: b3.AddKey("x"), Offset: 1})
	b3.AppendNull()
	require.ErrorIs(t, b3.FinishObject(st, f), ErrCorrupt)
	require.Negative(t, compareUTF16("\U0001F600", "\uFFFD"))
	require.Positive(t, compareUTF16("b", "a"))
	require.Negative(t, compareUTF16("a", "ab"))
}
