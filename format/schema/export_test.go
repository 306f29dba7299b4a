package schema

// PrettyTypeJSON exposes the pretty encoding of a type (Java
// JsonSerdeUtil.toJson of a DataType) to the black-box tests.
func PrettyTypeJSON(t DataType) []byte {
	w := &jsonWriter{pretty: true}
	writeTypeJSON(w, t)
	return w.buf
}
