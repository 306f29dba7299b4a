package rowio

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
)

// Value reads row i of an Arrow column of Paimon type t (the type the
// column was read as, e.g. from schema.FromArrowType or the table schema)
// as a value of the format/data model, nil for NULL.
func Value(col arrow.Array, i int, t schema.DataType) (any, error) {
	return parquet.ArrowValue(col, i, t)
}
