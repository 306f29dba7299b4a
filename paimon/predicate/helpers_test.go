package predicate_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/paimon/predicate"
)

// testFields is the schema most tests bind against.
var testFields = []schema.DataField{
	schema.NewField(0, "dt", schema.StringType()),
	schema.NewField(1, "amount", schema.BigIntType()),
	schema.NewField(2, "i", schema.IntType()),
	schema.NewField(3, "d", schema.DecimalType(10, 2)),
	schema.NewField(4, "f", schema.DoubleType()),
	schema.NewField(5, "b", schema.BytesType()),
	schema.NewField(6, "ts", schema.TimestampType(6)),
	schema.NewField(7, "day", schema.DateType()),
	schema.NewField(8, "ok", schema.BooleanType()),
	schema.NewField(9, "tags", schema.ArrayType(schema.StringType())),
	schema.NewField(10, "tiny", schema.TinyIntType()),
	schema.NewField(11, "r", schema.FloatType()),
	schema.NewField(12, "ltz", schema.TimestampLTZType(3)),
	schema.NewField(13, "tm", schema.TimeType(3)),
	schema.NewField(14, "c", schema.CharType(3)),
}

func mustBind(t *testing.T, p *predicate.Predicate) *predicate.Bound {
	t.Helper()
	b, err := predicate.Bind(p, testFields)
	require.NoError(t, err)
	return b
}

func i64(v int64) *int64 { return &v }
