package paimon

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	iofs "io/fs"
	"maps"
	"slices"
	"strings"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/internal/coreoptions"
)

// Schema is the definition of a table to create, mirroring Java
// org.apache.paimon.schema.Schema: columns (with field ids), partition and
// primary keys, options and comment. CreateTable turns it into schema-0.
//
// A Schema literal is fine; CreateTable normalizes it as Java's Schema
// constructor does (a "partition" or "primary-key" option becomes the key
// list, primary-key columns become NOT NULL). SchemaBuilder and
// ParseSchemaJSON also remember the order the options were given in, which
// decides where Java's HashMap puts colliding keys and so the exact bytes of
// the schema file; a literal's options count as given in key order.
type Schema struct {
	Fields        []schema.DataField
	PartitionKeys []string
	PrimaryKeys   []string
	Options       map[string]string
	Comment       *string

	// optionOrder is the iteration order of the options map Java's Schema
	// constructor copies (nil: sorted keys). When normalized is set, the
	// schema is already what that constructor produced and optionOrder is
	// the order of its own map.
	optionOrder []string
	normalized  bool
}

// SchemaBuilder assembles a Schema column by column and numbers the fields
// as Java's Schema.Builder does: each column takes the next id, then the
// fields of ROW types inside it are renumbered after it, children before
// parents (`a INT, b ROW<x INT, y ROW<p INT>>` gives a=0, b=1, x=2, p=3,
// y=4).
type SchemaBuilder struct {
	b    *schema.SchemaBuilder
	opts *javaHashMap // Java Builder's HashMap, for the option order
}

// NewSchemaBuilder returns an empty builder.
func NewSchemaBuilder() *SchemaBuilder {
	return &SchemaBuilder{b: schema.NewSchemaBuilder(), opts: newJavaHashMap()}
}

// Column appends a column of type t; ids inside t are replaced.
func (b *SchemaBuilder) Column(name string, t schema.DataType) *SchemaBuilder {
	b.b.Column(name, t)
	return b
}

// ColumnWithDescription appends a column with a description (its COMMENT).
func (b *SchemaBuilder) ColumnWithDescription(name string, t schema.DataType, description string) *SchemaBuilder {
	b.b.ColumnWithDescription(name, t, description)
	return b
}

// PartitionKeys sets the partition columns.
func (b *SchemaBuilder) PartitionKeys(names ...string) *SchemaBuilder {
	b.b.PartitionKeys(names...)
	return b
}

// PrimaryKey sets the primary-key columns.
func (b *SchemaBuilder) PrimaryKey(names ...string) *SchemaBuilder {
	b.b.PrimaryKey(names...)
	return b
}

// Option sets one table option.
func (b *SchemaBuilder) Option(key, value string) *SchemaBuilder {
	b.b.Option(key, value)
	b.opts.put(key, value)
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
	b.b.Comment(comment)
	return b
}

// HighestFieldID returns the highest field id assigned so far, -1 before the
// first column.
func (b *SchemaBuilder) HighestFieldID() int { return b.b.HighestFieldID() }

// Build returns the schema, normalized like Java's Schema constructor.
// Duplicate or unknown key columns are errors wrapping ErrInvalidSchema.
func (b *SchemaBuilder) Build() (*Schema, error) {
	s, err := b.b.Build()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidSchema, err)
	}
	// Java's Schema constructor copies the builder's HashMap, then takes
	// the key options out of the copy.
	m := copyJavaHashMap(b.opts.order(), b.opts.vals)
	m.remove(ddlOptPartitionKeys)
	m.remove(ddlOptPrimaryKey)
	out := fromFormatSchema(s)
	out.optionOrder = m.order()
	out.normalized = true
	return out, nil
}

// AssignFieldIDs returns a copy of fields numbered as SchemaBuilder numbers
// columns (see there), for callers that write Schema literals without ids.
func AssignFieldIDs(fields []schema.DataField) []schema.DataField {
	out := make([]schema.DataField, len(fields))
	highest := -1
	for i, f := range fields {
		f = f.Clone()
		highest++
		f.ID = highest
		f.Type = reassignFieldIDs(f.Type, &highest)
		out[i] = f
	}
	return out
}

// reassignFieldIDs renumbers the ROW fields inside t from *counter, the way
// Java's ReassignFieldId does: within a ROW each field's type first, then the
// field itself.
func reassignFieldIDs(t schema.DataType, counter *int) schema.DataType {
	t = t.Clone()
	var walk func(t *schema.DataType)
	walk = func(t *schema.DataType) {
		for _, c := range []*schema.DataType{t.Element, t.Key, t.Value} {
			if c != nil {
				walk(c)
			}
		}
		for i := range t.Fields {
			walk(&t.Fields[i].Type)
			*counter++
			t.Fields[i].ID = *counter
		}
	}
	walk(&t)
	return t
}

// ParseSchemaJSON parses a table definition in the JSON form of Java's
// Schema (the "schema" member of the interop plans):
//
//	{"fields":[{"id":0,"name":"k","type":"INT NOT NULL"},...],
//	 "partitionKeys":[...],"primaryKeys":[...],"options":{...},"comment":"..."}
//
// Unknown members are ignored; missing or null keys, options and comment are
// empty. Field ids are optional: when no top-level field has one, all
// fields are numbered as SchemaBuilder numbers them (Java requires them);
// giving ids to some fields only is an error. Option values may be JSON
// strings, numbers or booleans. The result is normalized like Java's Schema
// constructor does on deserialization. Errors wrap ErrInvalidSchema.
func ParseSchemaJSON(data []byte) (*Schema, error) {
	s, err := parseSchemaJSON(data)
	if err != nil {
		return nil, fmt.Errorf("%w: schema JSON: %w", ErrInvalidSchema, err)
	}
	return s.normalize()
}

func parseSchemaJSON(data []byte) (*Schema, error) {
	if !json.Valid(data) {
		return nil, errors.New("not valid JSON")
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil || top == nil {
		return nil, errors.New("not a JSON object")
	}
	s := &Schema{}
	var rawFields []json.RawMessage
	if err := unmarshalMember(top, "fields", &rawFields); err != nil {
		return nil, err
	}
	fields, err := parseFieldsJSON(rawFields)
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
	if raw, ok := top["options"]; ok && !isNullJSON(raw) {
		if s.Options, s.optionOrder, err = parseOptionsJSON(raw); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func unmarshalMember(top map[string]json.RawMessage, key string, dst any) error {
	raw, ok := top[key]
	if !ok || isNullJSON(raw) {
		return nil
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		return fmt.Errorf("%q: %w", key, err)
	}
	return nil
}

func isNullJSON(raw []byte) bool { return bytes.Equal(bytes.TrimSpace(raw), []byte("null")) }

// parseFieldsJSON decodes the top-level fields: with ids through the
// schema package's decoder (ids required at every depth), without ids by
// numbering them like SchemaBuilder.
func parseFieldsJSON(raws []json.RawMessage) ([]schema.DataField, error) {
	withID := 0
	members := make([]map[string]json.RawMessage, len(raws))
	for i, raw := range raws {
		if err := json.Unmarshal(raw, &members[i]); err != nil || members[i] == nil {
			return nil, fmt.Errorf("\"fields\"[%d]: not an object", i)
		}
		if id, ok := members[i]["id"]; ok && !isNullJSON(id) {
			withID++
		}
	}
	if withID != 0 && withID != len(raws) {
		return nil, errors.New("\"fields\": some fields have ids and others do not")
	}
	fields := make([]schema.DataField, len(raws))
	for i, raw := range raws {
		if withID > 0 {
			if err := json.Unmarshal(raw, &fields[i]); err != nil {
				return nil, fmt.Errorf("\"fields\"[%d]: %w", i, err)
			}
			continue
		}
		f, err := parseFieldWithoutID(members[i])
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

func parseFieldWithoutID(m map[string]json.RawMessage) (schema.DataField, error) {
	var f schema.DataField
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

// parseOptionsJSON reads the options object keeping its member order (a
// repeated key keeps its first place and its last value, as in Jackson's
// LinkedHashMap). Numbers and booleans are taken as their text.
func parseOptionsJSON(raw json.RawMessage) (map[string]string, []string, error) {
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

func fromFormatSchema(s *schema.Schema) *Schema {
	return &Schema{
		Fields:        s.Fields,
		PartitionKeys: s.PartitionKeys,
		PrimaryKeys:   s.PrimaryKeys,
		Options:       s.Options,
		Comment:       s.Comment,
	}
}

// normalize applies Java's Schema constructor: the options are copied into a
// new HashMap, "partition" and "primary-key" options move into the key
// lists, the columns are checked and primary-key columns become NOT NULL.
// A schema that is already normalized keeps its option order.
func (s *Schema) normalize() (*Schema, error) {
	n, err := (&schema.Schema{
		Fields:        s.Fields,
		PartitionKeys: s.PartitionKeys,
		PrimaryKeys:   s.PrimaryKeys,
		Options:       s.Options,
		Comment:       s.Comment,
	}).Normalized()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidSchema, err)
	}
	out := fromFormatSchema(n)
	out.normalized = true
	order := orderOf(s.Options, s.optionOrder)
	if s.normalized && len(s.optionOrder) == len(s.Options) && slices.Equal(order, s.optionOrder) {
		out.optionOrder = orderOf(n.Options, order)
		return out, nil
	}
	m := copyJavaHashMap(order, s.Options)
	m.remove(ddlOptPartitionKeys)
	m.remove(ddlOptPrimaryKey)
	out.optionOrder = m.order()
	return out, nil
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

// CreateTable creates the table in directory path of fsys by writing
// schema/schema-0, as Java's SchemaManager.createTable does: the schema is
// normalized, numbered as schema 0 with the current time, validated like
// Java's SchemaValidation (errors wrap ErrInvalidSchema) and written with
// create-if-absent. A directory that already holds a schema file, or that
// another writer claims first, yields an error wrapping ErrTableExists.
//
// The file is byte for byte what Java writes for the same schema, including
// the order of the options (that of Java's HashMap), except for timeMillis.
func CreateTable(ctx context.Context, fsys fs.FS, path string, s *Schema) (*Table, error) {
	if s == nil {
		return nil, fmt.Errorf("%w: nil schema", ErrInvalidSchema)
	}
	n, err := s.normalize()
	if err != nil {
		return nil, err
	}
	meta := NewTableMeta(fsys, path)
	ids, err := meta.SchemaIDs(ctx)
	if err != nil {
		return nil, fmt.Errorf("paimon: create table %s: %w", path, err)
	}
	if len(ids) > 0 {
		return nil, fmt.Errorf("%w: %s already has schema %d", ErrTableExists, path, ids[len(ids)-1])
	}
	fmtSchema := &schema.Schema{Fields: n.Fields, PartitionKeys: n.PartitionKeys,
		PrimaryKeys: n.PrimaryKeys, Options: n.Options, Comment: n.Comment}
	ts, err := schema.NewTableSchema(0, fmtSchema, nowMillis())
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidSchema, err)
	}
	if ts, err = withOptionOrder(ts, n.optionOrder); err != nil {
		return nil, err
	}
	if err := validateTableSchema(ctx, meta, ts); err != nil {
		return nil, err
	}
	err = writeSchema(ctx, meta, ts)
	if errors.Is(err, iofs.ErrExist) {
		return nil, fmt.Errorf("%w: %s: schema 0 was created concurrently", ErrTableExists, path)
	}
	if err != nil {
		return nil, err
	}
	return &Table{meta: meta, schema: ts}, nil
}

// ddlOptPartitionKeys and ddlOptPrimaryKey are the options Java's Schema
// constructor turns into key lists.
const (
	ddlOptPartitionKeys = coreoptions.Partition
	ddlOptPrimaryKey    = coreoptions.PrimaryKey
)

// trimmedSplit splits a comma-separated list and trims its elements.
func splitTrimmed(s string) []string {
	parts := strings.Split(s, ",")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}
