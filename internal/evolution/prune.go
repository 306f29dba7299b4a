package evolution

import "github.com/paimon-go/paimon-go/format/schema"

// pruneType mirrors FormatReaderMapping.Builder.pruneDataType: the type to
// read a file field as, given the table's type for the same field id. ROWs
// keep only the sub-fields (by id) the table asks for, in the table's order
// but with the file's names and types; ARRAY elements and MAP keys and values
// are pruned recursively; anything else reads as the file's type. ok = false
// when nothing of the field is left (a ROW none of whose requested fields the
// file has), in which case the field is not read and the table sees NULL.
func pruneType(table, file schema.DataType) (schema.DataType, bool) {
	switch table.Root {
	case schema.Row:
		if file.Root != schema.Row {
			return file, true // no cast will exist; New reports it
		}
		var fields []schema.DataField
		for _, tf := range table.Fields {
			i := file.FieldIndexByID(tf.ID)
			if i < 0 {
				continue
			}
			ff := file.Fields[i]
			t, ok := pruneType(tf.Type, ff.Type)
			if !ok {
				continue
			}
			f := ff.Clone()
			f.Type = t
			fields = append(fields, f)
		}
		if len(fields) == 0 {
			return schema.DataType{}, false
		}
		out := file
		out.Fields = fields
		return out, true
	case schema.Map:
		if file.Root != schema.Map || table.Key == nil || table.Value == nil || file.Key == nil || file.Value == nil {
			return file, true
		}
		k, ok := pruneType(*table.Key, *file.Key)
		if !ok {
			return schema.DataType{}, false
		}
		v, ok := pruneType(*table.Value, *file.Value)
		if !ok {
			return schema.DataType{}, false
		}
		out := file
		out.Key, out.Value = &k, &v
		return out, true
	case schema.Array:
		if file.Root != schema.Array || table.Element == nil || file.Element == nil {
			return file, true
		}
		e, ok := pruneType(*table.Element, *file.Element)
		if !ok {
			return schema.DataType{}, false
		}
		out := file
		out.Element = &e
		return out, true
	}
	return file, true
}
