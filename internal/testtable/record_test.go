package testtable_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/arrowrow"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/internal/testtable"
)

// TestBuildRecordErrors checks that a value BuildRecord cannot store is
// reported as ErrInvalid, keeping arrowrow's reason in the chain.
func TestBuildRecordErrors(t *testing.T) {
	tests := []struct {
		name   string
		typ    schema.DataType
		row    []any
		reason error
	}{
		{"arity", schema.IntType(), []any{int32(1), int32(2)}, nil},
		{"go type", schema.BigIntType(), []any{int32(1)}, arrowrow.ErrMismatch},
		{"decimal precision", schema.DecimalType(4, 2), []any{data.NewDecimalFromInt64(123456, 10, 2)}, arrowrow.ErrRange},
		{"decimal scale", schema.DecimalType(4, 1), []any{data.NewDecimalFromInt64(125, 4, 2)}, arrowrow.ErrRange},
		{"row arity", schema.RowType(schema.NewField(1, "x", schema.IntType())), []any{[]any{}}, arrowrow.ErrMismatch},
		{"null map key", schema.MapType(schema.IntType().NotNull(), schema.IntType()), []any{data.Map{Keys: []any{nil}, Values: []any{nil}}}, arrowrow.ErrMismatch},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := memcheck.New()
			defer mem.AssertSize(t, 0)
			rec, err := testtable.BuildRecord(mem, []schema.DataField{schema.NewField(0, "v", tt.typ)}, [][]any{tt.row})
			require.Nil(t, rec)
			require.ErrorIs(t, err, testtable.ErrInvalid)
			if tt.reason != nil {
				require.ErrorIs(t, err, tt.reason)
			}
		})
	}
}

// TestBuildRecordRescalesDecimal checks that a decimal of another scale is
// stored when no digit is lost.
func TestBuildRecordRescalesDecimal(t *testing.T) {
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	rec, err := testtable.BuildRecord(mem, []schema.DataField{schema.NewField(0, "d", schema.DecimalType(6, 3))},
		[][]any{{data.NewDecimalFromInt64(15, 3, 1)}})
	require.NoError(t, err)
	defer rec.Release()
	v, err := parquet.ArrowValue(rec.Column(0), 0, schema.DecimalType(6, 3))
	require.NoError(t, err)
	require.Equal(t, "1.500", v.(data.Decimal).String())
}
