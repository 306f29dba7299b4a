package schema

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/paimon-go/paimon-go/internal/jackson"
)

// MarshalJSON encodes t as Java's DataType.serializeJson does: atomic types
// as their type string ("DECIMAL(10, 2) NOT NULL"), composite types as
// objects whose "type" member carries the nullability:
//
//	{"type":"ARRAY","element":<type>}
//	{"type":"MULTISET NOT NULL","element":<type>}
//	{"type":"MAP","key":<type>,"value":<type>}
//	{"type":"ROW","fields":[<DataField>,...]}
//	{"type":"VECTOR","element":<type>,"length":N}
//
// An invalid type (see Validate) is an error.
func (t DataType) MarshalJSON() ([]byte, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	w := jackson.NewWriter(false)
	writeTypeJSON(w, t)
	return w.Bytes(), nil
}

// UnmarshalJSON decodes a type as Java's DataTypeJsonParser.parseDataType
// does. Type strings follow Java's grammar exactly (composite types must be
// objects). ROW fields may omit their ids: like Java, a field without id takes
// the next value of a counter that starts at 0 and is shared by the whole
// type (in order of appearance), and a field with an id after one without is
// an error. A JSON null leaves t unchanged. Errors wrap ErrCorrupt.
func (t *DataType) UnmarshalJSON(data []byte) error {
	if isJSONNull(data) {
		return nil // encoding/json convention: null leaves the value alone
	}
	ids := -1
	dt, err := decodeType(data, &ids, 0)
	if err == nil {
		err = dt.Validate()
	}
	if err != nil {
		return corrupt(err)
	}
	*t = dt
	return nil
}

// MarshalJSON encodes f as Java's DataField.serializeJson does:
// {"id":..,"name":..,"type":..} followed by "description" and "defaultValue"
// when they are set.
func (f DataField) MarshalJSON() ([]byte, error) {
	if err := f.Type.Validate(); err != nil {
		return nil, fmt.Errorf("field %q: %w", f.Name, err)
	}
	w := jackson.NewWriter(false)
	writeFieldJSON(w, f)
	return w.Bytes(), nil
}

// UnmarshalJSON decodes a field as Java's DataTypeJsonParser.parseDataField
// does; the id is required, here and in nested ROW fields. A JSON null leaves
// f unchanged. Errors wrap ErrCorrupt.
func (f *DataField) UnmarshalJSON(data []byte) error {
	if isJSONNull(data) {
		return nil
	}
	df, err := decodeField(data, nil, 0)
	if err == nil {
		err = validateType(df.Type, 0)
	}
	if err != nil {
		return corrupt(err)
	}
	*f = df
	return nil
}

// corrupt wraps err with ErrCorrupt unless it already carries it.
func corrupt(err error) error {
	if err == nil || isCorrupt(err) {
		return err
	}
	return fmt.Errorf("%w: %w", ErrCorrupt, err)
}

func writeTypeJSON(w *jackson.Writer, t DataType) {
	suffix := ""
	if !t.Nullable {
		suffix = " NOT NULL"
	}
	switch t.Root {
	case Array, Multiset:
		w.BeginObject()
		w.StringField("type", t.Root.String()+suffix)
		w.Name("element")
		writeTypeJSON(w, *t.Element)
		w.EndObject()
	case Vector:
		w.BeginObject()
		w.StringField("type", "VECTOR"+suffix)
		w.Name("element")
		writeTypeJSON(w, *t.Element)
		w.IntField("length", int64(t.Length))
		w.EndObject()
	case Map:
		w.BeginObject()
		w.StringField("type", "MAP"+suffix)
		w.Name("key")
		writeTypeJSON(w, *t.Key)
		w.Name("value")
		writeTypeJSON(w, *t.Value)
		w.EndObject()
	case Row:
		w.BeginObject()
		w.StringField("type", "ROW"+suffix)
		w.Name("fields")
		writeFieldsJSON(w, t.Fields)
		w.EndObject()
	default:
		w.String(t.String())
	}
}

func writeFieldsJSON(w *jackson.Writer, fields []DataField) {
	w.BeginArray()
	for _, f := range fields {
		writeFieldJSON(w, f)
	}
	w.EndArray()
}

func writeFieldJSON(w *jackson.Writer, f DataField) {
	w.BeginObject()
	w.IntField("id", int64(f.ID))
	w.StringField("name", f.Name)
	w.Name("type")
	writeTypeJSON(w, f.Type)
	if f.Description != nil {
		w.StringField("description", *f.Description)
	}
	if f.DefaultValue != nil {
		w.StringField("defaultValue", *f.DefaultValue)
	}
	w.EndObject()
}

// decodeType reads a type. ids is nil when ROW fields must carry ids, or
// points at the counter Java uses to number fields without ids (it starts at
// -1 and is shared by the whole type).
func decodeType(raw json.RawMessage, ids *int, depth int) (DataType, error) {
	if depth > maxNesting {
		return DataType{}, fmt.Errorf("%w: types nested deeper than %d levels", ErrInvalidType, maxNesting)
	}
	switch jsonKind(raw) {
	case "a string":
		s, err := readString(raw)
		if err != nil {
			return DataType{}, err
		}
		return parseTypeString(s, false)
	case "an object":
	default:
		return DataType{}, fmt.Errorf("%w: a type must be a string or an object, found %s", ErrInvalidType, jsonKind(raw))
	}
	o, err := readObject(raw)
	if err != nil {
		return DataType{}, err
	}
	if err := checkMembers(o, "type", "element", "key", "value", "fields", "length"); err != nil {
		return DataType{}, fmt.Errorf("%w: %w", ErrInvalidType, err)
	}
	typeRaw, ok := o.get("type")
	if !ok {
		return DataType{}, fmt.Errorf("%w: type object without \"type\"", ErrInvalidType)
	}
	typeName, err := readString(typeRaw)
	if err != nil {
		return DataType{}, fmt.Errorf("%w: \"type\": %w", ErrInvalidType, err)
	}
	child := func(key string) (*DataType, error) {
		v, ok := o.get(key)
		if !ok {
			return nil, fmt.Errorf("%w: %s type without %q", ErrInvalidType, typeName, key)
		}
		c, err := decodeType(v, ids, depth+1)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", typeName, key, err)
		}
		return &c, nil
	}
	// Like Java, dispatch on the prefix and look for "NOT NULL" anywhere,
	// case-sensitively, in the order Java tests them.
	t := DataType{Nullable: !strings.Contains(typeName, "NOT NULL")}
	switch {
	case strings.HasPrefix(typeName, "ARRAY"):
		t.Root = Array
		t.Element, err = child("element")
	case strings.HasPrefix(typeName, "VECTOR"):
		t.Root = Vector
		if t.Element, err = child("element"); err != nil {
			return DataType{}, err
		}
		v, ok := o.get("length")
		if !ok {
			return DataType{}, fmt.Errorf("%w: VECTOR type without \"length\"", ErrInvalidType)
		}
		n, err := readInt(v, 32)
		if err != nil {
			return DataType{}, fmt.Errorf("%w: VECTOR length: %w", ErrInvalidType, err)
		}
		t.Length = int(n)
	case strings.HasPrefix(typeName, "MULTISET"):
		t.Root = Multiset
		t.Element, err = child("element")
	case strings.HasPrefix(typeName, "MAP"):
		t.Root = Map
		if t.Key, err = child("key"); err == nil {
			t.Value, err = child("value")
		}
	case strings.HasPrefix(typeName, "ROW"):
		t.Root = Row
		v, ok := o.get("fields")
		if !ok {
			return DataType{}, fmt.Errorf("%w: ROW type without \"fields\"", ErrInvalidType)
		}
		elems, err := readArray(v)
		if err != nil {
			return DataType{}, fmt.Errorf("%w: ROW fields: %w", ErrInvalidType, err)
		}
		t.Fields = make([]DataField, 0, len(elems))
		for i, e := range elems {
			f, err := decodeField(e, ids, depth+1)
			if err != nil {
				return DataType{}, fmt.Errorf("ROW field %d: %w", i, err)
			}
			t.Fields = append(t.Fields, f)
		}
	default:
		return DataType{}, fmt.Errorf("%w: unknown composite type %q", ErrInvalidType, typeName)
	}
	if err != nil {
		return DataType{}, err
	}
	return t, nil
}

// decodeField reads a DataField object (Java parseDataField). See decodeType
// for ids.
func decodeField(raw json.RawMessage, ids *int, depth int) (DataField, error) {
	o, err := readObject(raw)
	if err != nil {
		return DataField{}, fmt.Errorf("field: %w", err)
	}
	if err := checkMembers(o, "id", "name", "type", "description", "defaultValue"); err != nil {
		return DataField{}, fmt.Errorf("field: %w", err)
	}
	var f DataField
	nameRaw, ok := o.get("name")
	if !ok {
		return DataField{}, fmt.Errorf("field without \"name\"")
	}
	if f.Name, err = readString(nameRaw); err != nil {
		return DataField{}, fmt.Errorf("field name: %w", err)
	}
	if idRaw, ok := o.get("id"); ok {
		if ids != nil && *ids != -1 {
			return DataField{}, fmt.Errorf("field %q: partial field ids are not allowed (some fields have ids, earlier ones do not)", f.Name)
		}
		id, err := readInt(idRaw, 32)
		if err != nil {
			return DataField{}, fmt.Errorf("field %q: id: %w", f.Name, err)
		}
		f.ID = int(id)
	} else {
		if ids == nil {
			return DataField{}, fmt.Errorf("field %q without \"id\"", f.Name)
		}
		*ids++
		f.ID = *ids
	}
	typeRaw, ok := o.get("type")
	if !ok {
		return DataField{}, fmt.Errorf("field %q without \"type\"", f.Name)
	}
	if f.Type, err = decodeType(typeRaw, ids, depth); err != nil {
		return DataField{}, fmt.Errorf("field %q: %w", f.Name, err)
	}
	for _, opt := range []struct {
		key string
		dst **string
	}{{"description", &f.Description}, {"defaultValue", &f.DefaultValue}} {
		if v, ok := o.get(opt.key); ok {
			s, err := readScalarText(v)
			if err != nil {
				return DataField{}, fmt.Errorf("field %q: %s: %w", f.Name, opt.key, err)
			}
			*opt.dst = &s
		}
	}
	return f, nil
}

// stringArrayField writes a List<String> member such as partitionKeys.
func stringArrayField(w *jackson.Writer, key string, values []string) {
	w.Name(key)
	w.BeginArray()
	for _, v := range values {
		w.String(v)
	}
	w.EndArray()
}
