package mergetree_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/mergetree"
)

type fieldSig struct {
	ID       int
	Name     string
	Type     string
	Nullable bool
}

func sigs(fields []schema.DataField) []fieldSig {
	var out []fieldSig
	for _, f := range fields {
		out = append(out, fieldSig{f.ID, f.Name, f.Type.String(), f.Type.Nullable})
	}
	return out
}

// TestKeyValueFields pins the data file layout of Java
// KeyValue.createKeyValueFields with PrimaryKeyFieldsExtractor: trimmed keys
// prefixed and offset, then _SEQUENCE_NUMBER, _VALUE_KIND, then all fields.
func TestKeyValueFields(t *testing.T) {
	ts := buildSchema(t, schema.NewSchemaBuilder().
		Column("dt", schema.StringType()).
		Column("a", schema.IntType()).
		Column("b", schema.StringType()).
		Column("c", schema.DoubleType()).
		PartitionKeys("dt").PrimaryKey("dt", "b", "a"))
	kv, err := mergetree.KeyValueFields(ts)
	require.NoError(t, err)
	require.Equal(t, []fieldSig{
		{1073741823 + 2, "_KEY_b", "STRING NOT NULL", false},
		{1073741823 + 1, "_KEY_a", "INT NOT NULL", false},
		{2147483646, "_SEQUENCE_NUMBER", "BIGINT NOT NULL", false},
		{2147483645, "_VALUE_KIND", "TINYINT NOT NULL", false},
		{0, "dt", "STRING NOT NULL", false},
		{1, "a", "INT NOT NULL", false},
		{2, "b", "STRING NOT NULL", false},
		{3, "c", "DOUBLE", true},
	}, sigs(kv))
	require.Equal(t, sigs(kv[2:]), sigs(mergetree.ReadFields(ts)), "ReadFields is the thin-mode layout")
	require.Equal(t, []fieldSig{
		{2147483643, "rowkind", "STRING", true},
		{0, "dt", "STRING NOT NULL", false},
		{1, "a", "INT NOT NULL", false},
		{2, "b", "STRING NOT NULL", false},
		{3, "c", "DOUBLE", true},
	}, sigs(mergetree.OutputFields(ts, true)))
	require.Equal(t, sigs(ts.Fields), sigs(mergetree.OutputFields(ts, false)))

	// The returned fields are copies.
	kv[0].Name = "changed"
	kv2, err := mergetree.KeyValueFields(ts)
	require.NoError(t, err)
	require.Equal(t, "_KEY_b", kv2[0].Name)
	require.Equal(t, "b", ts.Fields[2].Name)
}

func TestKeyValueFieldsErrors(t *testing.T) {
	appendTable := buildSchema(t, schema.NewSchemaBuilder().Column("a", schema.IntType()))
	_, err := mergetree.KeyValueFields(appendTable)
	require.ErrorIs(t, err, mergetree.ErrInvalid)
	_, err = mergetree.KeyValueFields(nil)
	require.ErrorIs(t, err, mergetree.ErrInvalid)
}
