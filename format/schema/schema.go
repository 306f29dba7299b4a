package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/paimon-go/paimon-go/internal/jackson"
	"github.com/paimon-go/paimon-go/internal/javacompat"
)

// Schema is the definition of a table to create (Java
// org.apache.paimon.schema.Schema): columns with their field ids, partition
// and primary keys, options and comment, without the id, version and time a
// TableSchema adds. It is the one table definition of this module: build it
// with NewSchemaBuilder, parse it with DecodeSchema or write a literal, and
// give it to paimon.CreateTable or a catalog's CreateTable.
//
// A literal is fine (AssignFieldIDs numbers its fields); it is normalized
// on use as Java's Schema constructor does (see Normalized). The builder
// and DecodeSchema also remember the order the options were given in:
// Java copies them into a HashMap, whose iteration order, which depends on
// that order for colliding keys, is the order of the options in the schema
// file. A literal's options count as given in key order.
//
// Its JSON form
//
//	{"fields":[...],"partitionKeys":[...],"primaryKeys":[...],"options":{...},"comment":"..."}
//
// is what Java's JsonSerdeUtil.fromJson(json, Schema.class) and pypaimon's
// Schema read, which makes it the table definition of the interop plan files.
type Schema struct {
	Fields        []DataField
	PartitionKeys []string
	PrimaryKeys   []string
	Options       map[string]string
	Comment       *string

	// optionOrder is the iteration order of the options map Java's Schema
	// constructor copies (nil: sorted keys). When normalized is set, the
	// schema is what that constructor produced and optionOrder is the
	// order of its own HashMap.
	optionOrder []string
	normalized  bool
}

// Normalized returns a normalized copy of s, applying what Java's Schema
// constructor does:
//
//   - the options are copied into a new HashMap (which fixes the order they
//     are written in);
//   - a "partition" or "primary-key" option (comma-separated, trimmed) is
//     moved into PartitionKeys or PrimaryKeys and removed from the options;
//     giving both the option and the list is an error;
//   - column names must be non-blank and unique, types valid, and partition
//     and primary keys distinct column names;
//   - primary-key columns become NOT NULL.
//
// A schema that is already normalized keeps its option order. Errors wrap
// ErrInvalidSchema or ErrInvalidType. s is not modified.
func (s *Schema) Normalized() (*Schema, error) {
	n := s.clone()
	if n.Options == nil {
		n.Options = map[string]string{}
	}
	var err error
	if n.PartitionKeys, err = keysFromOption(n.Options, optionPartition, n.PartitionKeys); err != nil {
		return nil, err
	}
	if n.PrimaryKeys, err = keysFromOption(n.Options, optionPrimaryKey, n.PrimaryKeys); err != nil {
		return nil, err
	}
	if n.PartitionKeys == nil {
		n.PartitionKeys = []string{}
	}
	if n.PrimaryKeys == nil {
		n.PrimaryKeys = []string{}
	}
	if n.Fields == nil {
		n.Fields = []DataField{}
	}
	if err := validateFields(n.Fields, 0); err != nil {
		return nil, err
	}
	if err := checkKeys(n.Fields, n.PartitionKeys, n.PrimaryKeys); err != nil {
		return nil, err
	}
	for i, f := range n.Fields {
		if slices.Contains(n.PrimaryKeys, f.Name) {
			n.Fields[i].Type.Nullable = false
		}
	}
	order := orderOf(s.Options, s.optionOrder)
	n.normalized = true
	if s.normalized && len(s.optionOrder) == len(s.Options) && slices.Equal(order, s.optionOrder) {
		n.optionOrder = orderOf(n.Options, order)
		return n, nil
	}
	n.optionOrder = javaSchemaOptions(order, s.Options).Keys()
	return n, nil
}

// OptionOrder returns the option keys in the order of Java's HashMap when s
// is normalized (Normalized, SchemaBuilder.Build and DecodeSchema return
// normalized schemas), which is how Java serializes them; otherwise in the
// order they were given, keys without one sorted.
func (s *Schema) OptionOrder() []string { return orderOf(s.Options, s.optionOrder) }

// javaSchemaOptions is the HashMap Java's Schema constructor makes of
// options given in order: a copy, without the key options.
func javaSchemaOptions(order []string, opts map[string]string) *javacompat.StringMap {
	m := javacompat.CopyStringMap(order, opts)
	m.Remove(optionPartition)
	m.Remove(optionPrimaryKey)
	return m
}

// orderOf returns the keys of opts in the given order, those missing from it
// appended in key order.
func orderOf(opts map[string]string, order []string) []string {
	out := make([]string, 0, len(opts))
	seen := make(map[string]bool, len(opts))
	for _, k := range order {
		if _, ok := opts[k]; ok && !seen[k] {
			out = append(out, k)
			seen[k] = true
		}
	}
	for _, k := range slices.Sorted(maps.Keys(opts)) {
		if !seen[k] {
			out = append(out, k)
		}
	}
	return out
}

func keysFromOption(opts map[string]string, key string, keys []string) ([]string, error) {
	v, ok := opts[key]
	if !ok {
		return keys, nil
	}
	if len(keys) > 0 {
		return nil, fmt.Errorf("%w: %q is defined both as an option and in the key list", ErrInvalidSchema, key)
	}
	delete(opts, key)
	out := []string{}
	for _, part := range strings.Split(v, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out, nil
}

func (s *Schema) clone() *Schema {
	c := &Schema{
		Fields:        cloneFields(s.Fields),
		PartitionKeys: slices.Clone(s.PartitionKeys),
		PrimaryKeys:   slices.Clone(s.PrimaryKeys),
		Options:       maps.Clone(s.Options),
		optionOrder:   slices.Clone(s.optionOrder),
		normalized:    s.normalized,
	}
	if s.Comment != nil {
		cm := *s.Comment
		c.Comment = &cm
	}
	return c
}

// RowType returns the columns as a ROW type. Like Java's Schema.rowType it
// is NOT NULL; the fields alias s.Fields.
func (s *Schema) RowType() DataType { return RowType(s.Fields...).NotNull() }

// DecodeSchema parses a table definition in the JSON form of Java's Schema
// (the "schema" member of the interop plans, the file of `paimon table
// create --schema`):
//
//	{"fields":[{"id":0,"name":"k","type":"INT NOT NULL"},...],
//	 "partitionKeys":[...],"primaryKeys":[...],"options":{...},"comment":"..."}
//
// "fields" is required. Unknown members are ignored; missing or null keys,
// options and comment are empty. Field ids are optional: when no top-level
// field has one, all fields are numbered as SchemaBuilder numbers them
// (Java requires them); giving ids to some fields only is an error. Option
// values may be JSON strings, numbers or booleans; the options keep the
// order they are listed in (a repeated key keeps its first place and its
// last value, as Jackson's LinkedHashMap). The result is normalized like
// Java's Schema constructor does on deserialization (see Normalized).
// Every error wraps ErrInvalidSchema.
func DecodeSchema(data []byte) (*Schema, error) {
	s, err := decodeSchema(data)
	if err != nil {
		return nil, fmt.Errorf("%w: schema JSON: %w", ErrInvalidSchema, err)
	}
	n, err := s.Normalized()
	if err != nil && !errors.Is(err, ErrInvalidSchema) {
		err = fmt.Errorf("%w: %w", ErrInvalidSchema, err)
	}
	return n, err
}

func decodeSchema(data []byte) (*Schema, error) {
	if !json.Valid(data) {
		return nil, errors.New("not valid JSON")
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil || top == nil {
		return nil, errors.New("not a JSON object")
	}
	s := &Schema{}
	var rawFields []json.RawMessage
	if raw, ok := top["fields"]; !ok || isJSONNull(raw) {
		return nil, errors.New("missing \"fields\"")
	}
	if err := unmarshalMember(top, "fields", &rawFields); err != nil {
		return nil, err
	}
	fields, err := decodeSchemaFields(rawFields)
	if err != nil {
		return nil, err
	}
	s.Fields = fields
	if err := unmarshalMember(top, "partitionKeys", &s.PartitionKeys); err != nil {
		return nil, err
	}
	if err := unmarshalMember(top, "primaryKeys", &s.PrimaryKeys); err != nil {
		return nil, err
	}
	if err := unmarshalMember(top, "comment", &s.Comment); err != nil {
		return nil, err
	}
	if raw, ok := top["options"]; ok && !isJSONNull(raw) {
		if s.Options, s.optionOrder, err = decodeSchemaOptions(raw); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func unmarshalMember(top map[string]json.RawMessage, key string, dst any) error {
	raw, ok := top[key]
	if !ok || isJSONNull(raw) {
		return nil
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		return fmt.Errorf("%q: %w", key, err)
	}
	return nil
}

// decodeSchemaFields decodes the top-level fields: with ids as
// DataField.UnmarshalJSON (ids required at every depth), without ids by
// numbering them like SchemaBuilder.
func decodeSchemaFields(raws []json.RawMessage) ([]DataField, error) {
	withID := 0
	members := make([]map[string]json.RawMessage, len(raws))
	for i, raw := range raws {
		if err := json.Unmarshal(raw, &members[i]); err != nil || members[i] == nil {
			return nil, fmt.Errorf("\"fields\"[%d]: not an object", i)
		}
		if id, ok := members[i]["id"]; ok && !isJSONNull(id) {
			withID++
		}
	}
	if withID != 0 && withID != len(raws) {
		return nil, errors.New("\"fields\": some fields have ids and others do not")
	}
	fields := make([]DataField, len(raws))
	for i, raw := range raws {
		if withID > 0 {
			if err := json.Unmarshal(raw, &fields[i]); err != nil {
				return nil, fmt.Errorf("\"fields\"[%d]: %w", i, err)
			}
			continue
		}
		f, err := decodeFieldWithoutID(members[i])
		if err != nil {
			return nil, fmt.Errorf("\"fields\"[%d]: %w", i, err)
		}
		fields[i] = f
	}
	if withID == 0 {
		fields = AssignFieldIDs(fields)
	}
	return fields, nil
}

func decodeFieldWithoutID(m map[string]json.RawMessage) (DataField, error) {
	var f DataField
	if err := json.Unmarshal(m["name"], &f.Name); err != nil || f.Name == "" {
		return f, errors.New("field without a \"name\" string")
	}
	raw, ok := m["type"]
	if !ok {
		return f, fmt.Errorf("field %q without \"type\"", f.Name)
	}
	if err := json.Unmarshal(raw, &f.Type); err != nil {
		return f, fmt.Errorf("field %q: %w", f.Name, err)
	}
	for _, opt := range []struct {
		key string
		dst **string
	}{{"description", &f.Description}, {"defaultValue", &f.DefaultValue}} {
		if err := unmarshalMember(m, opt.key, opt.dst); err != nil {
			return f, fmt.Errorf("field %q: %w", f.Name, err)
		}
	}
	return f, nil
}

// decodeSchemaOptions reads the options object keeping its member order (a
// repeated key keeps its first place and its last value, as in Jackson's
// LinkedHashMap). Numbers and booleans are taken as their text.
func decodeSchemaOptions(raw json.RawMessage) (map[string]string, []string, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, nil, errors.New("\"options\": not an object")
	}
	opts := map[string]string{}
	var order []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, fmt.Errorf("\"options\": %w", err)
		}
		key, _ := tok.(string)
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, nil, fmt.Errorf("option %q: %w", key, err)
		}
		var text string
		switch v := v.(type) {
		case string:
			text = v
		case json.Number:
			text = v.String()
		case bool:
			text = fmt.Sprint(v)
		default:
			return nil, nil, fmt.Errorf("option %q: value must be a string, number or boolean", key)
		}
		if _, dup := opts[key]; !dup {
			order = append(order, key)
		}
		opts[key] = text
	}
	return opts, order, nil
}

// Encode returns the schema as Java's JsonSerdeUtil.toJson writes a Schema
// (Jackson pretty printer; members fields, partitionKeys, primaryKeys,
// options, then comment if set; options sorted by key).
func (s *Schema) Encode() ([]byte, error) { return s.encode(true) }

// MarshalJSON encodes the schema like Encode, but compact.
func (s *Schema) MarshalJSON() ([]byte, error) { return s.encode(false) }

// UnmarshalJSON decodes like DecodeSchema; a JSON null leaves s unchanged.
func (s *Schema) UnmarshalJSON(data []byte) error {
	if isJSONNull(data) {
		return nil
	}
	d, err := DecodeSchema(data)
	if err != nil {
		return err
	}
	*s = *d
	return nil
}

func (s *Schema) encode(pretty bool) ([]byte, error) {
	if err := validateFields(s.Fields, 0); err != nil {
		return nil, err
	}
	w := jackson.NewWriter(pretty)
	w.BeginObject()
	w.Name("fields")
	writeFieldsJSON(w, s.Fields)
	stringArrayField(w, "partitionKeys", s.PartitionKeys)
	stringArrayField(w, "primaryKeys", s.PrimaryKeys)
	w.Name("options")
	writeOptions(w, s.Options, nil)
	if s.Comment != nil {
		w.StringField("comment", *s.Comment)
	}
	w.EndObject()
	return w.Bytes(), nil
}

// SchemaBuilder assembles a Schema column by column, numbering fields the way
// Java's Schema.Builder does: each column takes the next id, then the fields
// of ROW types inside it are renumbered after it, children before parents.
// For `a INT, b ROW<x INT, y ROW<p INT>>` the ids are a=0, b=1, x=2, p=3, y=4.
// Options are kept in a HashMap as Java's builder keeps them, so the schema
// file lists them in Java's order.
type SchemaBuilder struct {
	s       Schema
	highest int
	opts    *javacompat.StringMap // Java Builder's HashMap, for the option order
}

// NewSchemaBuilder returns an empty builder.
func NewSchemaBuilder() *SchemaBuilder {
	return &SchemaBuilder{s: Schema{Options: map[string]string{}}, highest: -1, opts: javacompat.NewStringMap()}
}

// Column appends a column of type t; ids inside t are replaced.
func (b *SchemaBuilder) Column(name string, t DataType) *SchemaBuilder {
	b.highest++
	f := NewField(b.highest, name, t)
	f.Type = ReassignFieldIDs(t, &b.highest)
	b.s.Fields = append(b.s.Fields, f)
	return b
}

// ColumnWithDescription appends a column with a description (its COMMENT).
func (b *SchemaBuilder) ColumnWithDescription(name string, t DataType, description string) *SchemaBuilder {
	b.Column(name, t)
	last := &b.s.Fields[len(b.s.Fields)-1]
	last.Description = &description
	return b
}

// PartitionKeys sets the partition columns.
func (b *SchemaBuilder) PartitionKeys(names ...string) *SchemaBuilder {
	b.s.PartitionKeys = slices.Clone(names)
	return b
}

// PrimaryKey sets the primary-key columns.
func (b *SchemaBuilder) PrimaryKey(names ...string) *SchemaBuilder {
	b.s.PrimaryKeys = slices.Clone(names)
	return b
}

// Option sets one table option.
func (b *SchemaBuilder) Option(key, value string) *SchemaBuilder {
	b.s.Options[key] = value
	b.opts.Put(key, value)
	return b
}

// Options sets several table options, in key order.
func (b *SchemaBuilder) Options(opts map[string]string) *SchemaBuilder {
	for _, k := range slices.Sorted(maps.Keys(opts)) {
		b.Option(k, opts[k])
	}
	return b
}

// Comment sets the table comment.
func (b *SchemaBuilder) Comment(comment string) *SchemaBuilder {
	b.s.Comment = &comment
	return b
}

// HighestFieldID returns the highest id assigned so far, -1 before the first
// column.
func (b *SchemaBuilder) HighestFieldID() int { return b.highest }

// Build returns the normalized schema (see Schema.Normalized). Duplicate or
// unknown key columns are errors wrapping ErrInvalidSchema.
func (b *SchemaBuilder) Build() (*Schema, error) {
	// Java's Schema constructor copies the builder's HashMap (Normalized
	// replays that copy from the builder's order).
	s := b.s
	s.optionOrder = b.opts.Keys()
	return s.Normalized()
}

// AssignFieldIDs returns a copy of fields numbered as SchemaBuilder numbers
// columns (see there), for callers that write Schema literals without ids.
func AssignFieldIDs(fields []DataField) []DataField {
	out := make([]DataField, len(fields))
	highest := -1
	for i, f := range fields {
		f = f.Clone()
		highest++
		f.ID = highest
		f.Type = ReassignFieldIDs(f.Type, &highest)
		out[i] = f
	}
	return out
}
