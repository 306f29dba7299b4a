package canon

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
)

// BatchLines renders every row of rec, whose columns are fields in order,
// as a canonical canon-v1 line: the form dumps of Java and pypaimon are
// compared in. Tests that read tables through Arrow share it.
func BatchLines(fields []schema.DataField, rec arrow.RecordBatch) ([]string, error) {
	out := make([]string, 0, rec.NumRows())
	values := make([]any, len(fields))
	for i := 0; i < int(rec.NumRows()); i++ {
		for c := range fields {
			v, err := parquet.ArrowValue(rec.Column(c), i, fields[c].Type)
			if err != nil {
				return nil, err
			}
			values[c] = v
		}
		line, err := EncodeRow(fields, values)
		if err != nil {
			return nil, err
		}
		s, err := Canonicalize(line)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}
