package schema

import "github.com/paimon-go/paimon-go/internal/jackson"

// PrettyTypeJSON exposes the pretty encoding of a type (Java
// JsonSerdeUtil.toJson of a DataType) to the black-box tests.
func PrettyTypeJSON(t DataType) []byte {
	w := jackson.NewWriter(true)
	writeTypeJSON(w, t)
	return w.Bytes()
}
