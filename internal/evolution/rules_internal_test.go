package evolution

import (
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
)

// TestCastMatrix pins which type changes Java's read path can cast
// (CastExecutors.resolve returns an executor), for one representative type
// of every root. ALTER TABLE ... MODIFY COLUMN accepts exactly these (its
// check is DataTypeCasts.supportsCast && resolve != null, and every pair
// below also passes supportsCast with explicit casting allowed, the default).
func TestCastMatrix(t *testing.T) {
	types := map[string]schema.DataType{
		"BOOLEAN":      schema.BooleanType(),
		"TINYINT":      schema.TinyIntType(),
		"SMALLINT":     schema.SmallIntType(),
		"INT":          schema.IntType(),
		"BIGINT":       schema.BigIntType(),
		"FLOAT":        schema.FloatType(),
		"DOUBLE":       schema.DoubleType(),
		"DECIMAL":      schema.DecimalType(10, 2),
		"CHAR":         schema.CharType(5),
		"VARCHAR":      schema.VarCharType(10),
		"STRING":       schema.StringType(),
		"BINARY":       schema.BinaryType(5),
		"VARBINARY":    schema.VarBinaryType(10),
		"DATE":         schema.DateType(),
		"TIME":         schema.TimeType(3),
		"TIMESTAMP":    schema.TimestampType(6),
		"TIMESTAMPLTZ": schema.TimestampLTZType(6),
		"ARRAY":        schema.ArrayType(schema.IntType()),
		"MAP":          schema.MapType(schema.IntType(), schema.IntType()),
		"ROW":          schema.RowType(schema.NewField(1, "a", schema.IntType())),
		"MULTISET":     schema.MultisetType(schema.IntType()),
		"VARIANT":      schema.VariantType(),
		"BLOB":         schema.BlobType(),
		"VECTOR":       schema.VectorType(2, schema.FloatType()),
	}
	const (
		numeric = "TINYINT SMALLINT INT BIGINT FLOAT DOUBLE DECIMAL"
		chars   = "CHAR VARCHAR STRING"
		ts      = "TIMESTAMP TIMESTAMPLTZ"
	)
	want := map[string]string{
		"BOOLEAN":      numeric + " " + chars,
		"TINYINT":      numeric + " BOOLEAN " + chars,
		"SMALLINT":     numeric + " BOOLEAN " + chars,
		"INT":          numeric + " BOOLEAN " + chars + " " + ts,
		"BIGINT":       numeric + " BOOLEAN " + chars + " " + ts,
		"FLOAT":        numeric + " " + chars,
		"DOUBLE":       numeric + " " + chars,
		"DECIMAL":      numeric + " " + chars,
		"CHAR":         numeric + " BOOLEAN " + chars + " BINARY VARBINARY DATE TIME " + ts,
		"VARCHAR":      numeric + " BOOLEAN " + chars + " BINARY VARBINARY DATE TIME " + ts,
		"STRING":       numeric + " BOOLEAN " + chars + " BINARY VARBINARY DATE TIME " + ts,
		"BINARY":       "BINARY VARBINARY " + chars,
		"VARBINARY":    "BINARY VARBINARY " + chars,
		"DATE":         "STRING " + ts,
		"TIME":         "STRING " + ts,
		"TIMESTAMP":    "INT BIGINT DATE TIME STRING " + ts,
		"TIMESTAMPLTZ": "INT BIGINT DATE TIME STRING " + ts,
		"ARRAY":        chars,
		"MAP":          chars,
		"ROW":          chars,
	}
	e := &env{loc: time.UTC}
	var names []string
	for n := range types {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, from := range names {
		var got []string
		for _, to := range names {
			if from == to {
				continue
			}
			if _, ok := resolve(types[from], types[to], e); ok {
				got = append(got, to)
			}
		}
		exp := strings.Fields(want[from])
		var expOther []string
		for _, x := range exp {
			if x != from {
				expOther = append(expOther, x)
			}
		}
		sort.Strings(expOther)
		require.Equal(t, expOther, got, "casts from %s", from)
	}
}
