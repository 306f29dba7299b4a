package schema

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/paimon-go/paimon-go/internal/jackson"
)

// Schema is the definition of a table to create (Java
// org.apache.paimon.schema.Schema): columns, keys, options and comment,
// without the id, version and time a TableSchema adds. Its JSON form
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
}

// Normalized returns a normalized copy of s, applying what Java's Schema
// constructor does:
//
//   - a "partition" or "primary-key" option (comma-separated, trimmed) is
//     moved into PartitionKeys or PrimaryKeys and removed from the options;
//     giving both the option and the list is an error;
//   - column names must be non-blank and unique, types valid, and partition
//     and primary keys distinct column names;
//   - primary-key columns become NOT NULL.
//
// Errors wrap ErrInvalidSchema or ErrInvalidType. s is not modified.
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
	return n, nil
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

// DecodeSchema parses Schema JSON and normalizes it (see Normalized), as
// Jackson does by calling Java's Schema constructor. Field ids are required.
// Unlike Java, missing "partitionKeys", "primaryKeys" and "options" mean
// empty. Every error wraps ErrCorrupt.
func DecodeSchema(data []byte) (*Schema, error) {
	s, err := decodeSchema(data)
	if err != nil {
		return nil, corrupt(err)
	}
	return s, nil
}

func decodeSchema(data []byte) (*Schema, error) {
	if !json.Valid(data) {
		return nil, fmt.Errorf("not valid JSON")
	}
	o, err := readObject(data)
	if err != nil {
		return nil, err
	}
	s := &Schema{}
	v, ok := o.get("fields")
	if !ok {
		return nil, fmt.Errorf("missing \"fields\"")
	}
	elems, err := readArray(v)
	if err != nil {
		return nil, fmt.Errorf("\"fields\": %w", err)
	}
	s.Fields = make([]DataField, 0, len(elems))
	for i, e := range elems {
		f, err := decodeField(e, nil, 0)
		if err != nil {
			return nil, fmt.Errorf("\"fields\"[%d]: %w", i, err)
		}
		s.Fields = append(s.Fields, f)
	}
	for _, keys := range []struct {
		member string
		dst    *[]string
	}{{"partitionKeys", &s.PartitionKeys}, {"primaryKeys", &s.PrimaryKeys}} {
		if v, ok := o.get(keys.member); ok {
			if *keys.dst, err = readStringArray(v); err != nil {
				return nil, fmt.Errorf("%q: %w", keys.member, err)
			}
		}
	}
	if v, ok := o.get("options"); ok {
		if s.Options, _, err = readOptions(v); err != nil {
			return nil, err
		}
	}
	if v, ok := o.get("comment"); ok {
		c, err := readString(v)
		if err != nil {
			return nil, fmt.Errorf("\"comment\": %w", err)
		}
		s.Comment = &c
	}
	return s.Normalized()
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
type SchemaBuilder struct {
	s       Schema
	highest int
}

// NewSchemaBuilder returns an empty builder.
func NewSchemaBuilder() *SchemaBuilder {
	return &SchemaBuilder{s: Schema{Options: map[string]string{}}, highest: -1}
}

// Column appends a column. Ids inside t are replaced.
func (b *SchemaBuilder) Column(name string, t DataType) *SchemaBuilder {
	b.highest++
	f := NewField(b.highest, name, t)
	f.Type = reassignFieldIDs(t, &b.highest)
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
	return b
}

// Options sets several table options.
func (b *SchemaBuilder) Options(opts map[string]string) *SchemaBuilder {
	maps.Copy(b.s.Options, opts)
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

// Build returns the normalized schema (see Schema.Normalized).
func (b *SchemaBuilder) Build() (*Schema, error) { return b.s.Normalized() }
