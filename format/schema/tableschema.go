package schema

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/paimon-go/paimon-go/internal/coreoptions"
	"github.com/paimon-go/paimon-go/internal/jackson"
)

// Versions of the schema file format (Java TableSchema).
const (
	SchemaVersionPaimon07 = 1 // no "version" member; default bucket was 1
	SchemaVersionPaimon08 = 2 // default file.format was orc
	CurrentSchemaVersion  = 3
)

// Option keys the schema itself interprets (Java CoreOptions).
const (
	optionBucket     = coreoptions.Bucket
	optionBucketKey  = coreoptions.BucketKey
	optionFileFormat = coreoptions.FileFormat
	optionPrimaryKey = coreoptions.PrimaryKey
	optionPartition  = coreoptions.Partition
)

// TableSchema is one version of a table's schema, the content of a
// schema/schema-<ID> file (Java org.apache.paimon.schema.TableSchema).
//
// Treat a TableSchema as immutable once shared: the accessors return slices
// that alias its fields. Clone before modifying.
type TableSchema struct {
	Version        int
	ID             int64
	Fields         []DataField
	HighestFieldID int // highest field id ever assigned, nested and dropped ones included; -1 if none
	PartitionKeys  []string
	PrimaryKeys    []string
	Options        map[string]string
	Comment        *string
	TimeMillis     int64 // creation time, epoch milliseconds; 0 in files that lack it

	// optionOrder is the order Encode writes the options in: that of the
	// decoded file, so that decoding and re-encoding a Java-written file
	// reproduces it byte for byte, or that of Java's HashMap for schemas
	// made by NewTableSchema or WithOptionOrder.
	optionOrder []string
}

// NewTableSchema returns schema version id for a new table defined by s, as
// Java TableSchema.create does: current format version, HighestFieldID
// computed from the fields, options in the order of s (Java's HashMap order
// when s is normalized). s should be normalized (DecodeSchema and
// SchemaBuilder.Build return normalized schemas).
func NewTableSchema(id int64, s *Schema, timeMillis int64) (*TableSchema, error) {
	highest, err := HighestFieldID(s.Fields)
	if err != nil {
		return nil, err
	}
	c := s.clone()
	ts := &TableSchema{
		Version:        CurrentSchemaVersion,
		ID:             id,
		Fields:         c.Fields,
		HighestFieldID: highest,
		PartitionKeys:  c.PartitionKeys,
		PrimaryKeys:    c.PrimaryKeys,
		Options:        c.Options,
		Comment:        c.Comment,
		TimeMillis:     timeMillis,
		optionOrder:    orderOf(c.Options, c.optionOrder),
	}
	if err := ts.Validate(); err != nil {
		return nil, err
	}
	return ts, nil
}

// OptionOrder returns the option keys in the order Encode writes them: the
// order the schema was decoded or made with, then any other keys sorted.
// Java lists a schema's options in the order of its HashMap; code that
// changes a schema (package paimon's schema changes) starts from this order.
func (s *TableSchema) OptionOrder() []string { return orderOf(s.Options, s.optionOrder) }

// WithOptionOrder returns a copy of s whose Encode writes the options in
// the given order (keys it does not list after them, sorted), which makes
// the file byte for byte Java's when order is that of Java's HashMap.
func (s *TableSchema) WithOptionOrder(order []string) *TableSchema {
	c := s.Clone()
	c.optionOrder = orderOf(c.Options, order)
	return c
}

// Decode parses a schema file as Java's SchemaSerializer.deserialize does,
// including its compatibility rules for old files:
//
//   - a missing "version" means version 1 (Paimon 0.7);
//   - version <= 1 without a "bucket" option gets bucket=1 (the old default);
//   - version <= 2 without a "file.format" option gets file.format=orc;
//   - a missing "timeMillis" is 0, a missing "comment" is nil.
//
// Unknown members are ignored. Option values that are JSON numbers or
// booleans are taken as their text, as Jackson's asText does. A JSON null
// counts as absent (Java would read the text "null"). The decoded schema must
// pass Validate, since Java's TableSchema constructor rejects such files too.
// Every error wraps ErrCorrupt.
func Decode(data []byte) (*TableSchema, error) {
	s, err := decodeTableSchema(data)
	if err != nil {
		return nil, corrupt(err)
	}
	return s, nil
}

func decodeTableSchema(data []byte) (*TableSchema, error) {
	if !json.Valid(data) {
		return nil, fmt.Errorf("not valid JSON")
	}
	if !utf8.Valid(data) {
		return nil, fmt.Errorf("not valid UTF-8")
	}
	o, err := readObject(data)
	if err != nil {
		return nil, err
	}
	if err := checkMembers(o, "version", "id", "fields", "highestFieldId", "partitionKeys",
		"primaryKeys", "options", "comment", "timeMillis"); err != nil {
		return nil, err
	}
	s := &TableSchema{Version: SchemaVersionPaimon07}
	member := func(key string) (json.RawMessage, error) {
		v, ok := o.get(key)
		if !ok {
			return nil, fmt.Errorf("missing %q", key)
		}
		return v, nil
	}
	if v, ok := o.get("version"); ok {
		n, err := readInt(v, 32)
		if err != nil {
			return nil, fmt.Errorf("\"version\": %w", err)
		}
		s.Version = int(n)
	}
	v, err := member("id")
	if err != nil {
		return nil, err
	}
	if s.ID, err = readInt(v, 64); err != nil {
		return nil, fmt.Errorf("\"id\": %w", err)
	}
	if v, err = member("fields"); err != nil {
		return nil, err
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
	if v, err = member("highestFieldId"); err != nil {
		return nil, err
	}
	n, err := readInt(v, 32)
	if err != nil {
		return nil, fmt.Errorf("\"highestFieldId\": %w", err)
	}
	s.HighestFieldID = int(n)
	for _, keys := range []struct {
		member string
		dst    *[]string
	}{{"partitionKeys", &s.PartitionKeys}, {"primaryKeys", &s.PrimaryKeys}} {
		if v, err = member(keys.member); err != nil {
			return nil, err
		}
		if *keys.dst, err = readStringArray(v); err != nil {
			return nil, fmt.Errorf("%q: %w", keys.member, err)
		}
	}
	if v, err = member("options"); err != nil {
		return nil, err
	}
	if s.Options, s.optionOrder, err = readOptions(v); err != nil {
		return nil, err
	}
	if s.Version <= SchemaVersionPaimon07 {
		setDefault(s, optionBucket, "1")
	}
	if s.Version <= SchemaVersionPaimon08 {
		setDefault(s, optionFileFormat, "orc")
	}
	if v, ok := o.get("comment"); ok {
		c, err := readString(v)
		if err != nil {
			return nil, fmt.Errorf("\"comment\": %w", err)
		}
		s.Comment = &c
	}
	if v, ok := o.get("timeMillis"); ok {
		if s.TimeMillis, err = readInt(v, 64); err != nil {
			return nil, fmt.Errorf("\"timeMillis\": %w", err)
		}
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	// Readers map data file columns by field id: an id above the highest
	// one the schema ever assigned is damage (a flipped digit), not a
	// column of this table.
	if top := highestID(s.Fields); top > s.HighestFieldID {
		return nil, fmt.Errorf("field id %d is above highestFieldId %d", top, s.HighestFieldID)
	}
	return s, nil
}

// highestID is the largest field id at any nesting level.
func highestID(fields []DataField) int {
	top := -1
	var visit func(t *DataType)
	visit = func(t *DataType) {
		if t == nil {
			return
		}
		for i := range t.Fields {
			top = max(top, t.Fields[i].ID)
			visit(&t.Fields[i].Type)
		}
		visit(t.Element)
		visit(t.Key)
		visit(t.Value)
	}
	visit(&DataType{Fields: fields})
	return top
}

func readOptions(raw json.RawMessage) (map[string]string, []string, error) {
	o, err := readObject(raw)
	if err != nil {
		return nil, nil, fmt.Errorf("\"options\": %w", err)
	}
	opts := make(map[string]string, len(o.keys))
	for _, k := range o.keys {
		v, err := readScalarText(o.vals[k])
		if err != nil {
			return nil, nil, fmt.Errorf("option %q: %w", k, err)
		}
		opts[k] = v
	}
	return opts, o.keys, nil
}

func setDefault(s *TableSchema, key, value string) {
	if _, ok := s.Options[key]; !ok {
		s.Options[key] = value
		s.optionOrder = append(s.optionOrder, key)
	}
}

// Encode returns the schema file content exactly as Java's
// JsonSerdeUtil.toJson writes it (Jackson's default pretty printer, members
// in SchemaSerializer's order, "comment" omitted when nil, no trailing
// newline).
//
// Options are written in the order Decode read them or NewTableSchema and
// WithOptionOrder were given (see OptionOrder), then any others sorted by
// key. Encode refuses a schema that fails Validate.
func (s *TableSchema) Encode() ([]byte, error) { return s.encode(true) }

// MarshalJSON encodes the schema like Encode, but compact (Java
// JsonSerdeUtil.toFlatJson).
func (s *TableSchema) MarshalJSON() ([]byte, error) { return s.encode(false) }

// UnmarshalJSON decodes like Decode; a JSON null leaves s unchanged.
func (s *TableSchema) UnmarshalJSON(data []byte) error {
	if isJSONNull(data) {
		return nil
	}
	d, err := Decode(data)
	if err != nil {
		return err
	}
	*s = *d
	return nil
}

func (s *TableSchema) encode(pretty bool) ([]byte, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	w := jackson.NewWriter(pretty)
	w.BeginObject()
	w.IntField("version", int64(s.Version))
	w.IntField("id", s.ID)
	w.Name("fields")
	writeFieldsJSON(w, s.Fields)
	w.IntField("highestFieldId", int64(s.HighestFieldID))
	stringArrayField(w, "partitionKeys", s.PartitionKeys)
	stringArrayField(w, "primaryKeys", s.PrimaryKeys)
	w.Name("options")
	writeOptions(w, s.Options, s.optionOrder)
	if s.Comment != nil {
		w.StringField("comment", *s.Comment)
	}
	w.IntField("timeMillis", s.TimeMillis)
	w.EndObject()
	return w.Bytes(), nil
}

// writeOptions writes the keys listed in order first (those still present),
// then the remaining keys sorted.
func writeOptions(w *jackson.Writer, opts map[string]string, order []string) {
	w.BeginObject()
	written := make(map[string]bool, len(opts))
	for _, k := range order {
		if v, ok := opts[k]; ok && !written[k] {
			w.StringField(k, v)
			written[k] = true
		}
	}
	for _, k := range slices.Sorted(maps.Keys(opts)) {
		if !written[k] {
			w.StringField(k, opts[k])
		}
	}
	w.EndObject()
}

// Validate checks the rules Java's TableSchema constructor and RowType
// enforce when a schema is loaded: valid types, non-blank unique field names,
// partition and primary keys that name distinct columns, primary keys not
// made only of partition keys, a numeric "bucket" option, and "bucket-key"
// columns that exist, are not partition keys and are part of the primary
// key when there is one. Field ids must be unique across all nesting
// levels too: Java checks that only when it creates a schema
// (RowType.collectFieldIds, "Broken schema, field id N is duplicated"),
// but readers map data file columns to table columns by id, so a file that
// repeats one cannot be read correctly. Errors wrap ErrInvalidSchema or
// ErrInvalidType.
func (s *TableSchema) Validate() error {
	if err := validateFields(s.Fields, 0); err != nil {
		return err
	}
	if _, err := HighestFieldID(s.Fields); err != nil {
		return err
	}
	if err := checkKeys(s.Fields, s.PartitionKeys, s.PrimaryKeys); err != nil {
		return err
	}
	if len(s.PrimaryKeys) > 0 && len(s.TrimmedPrimaryKeys()) == 0 {
		return fmt.Errorf("%w: primary key %v should not be the same as the partition keys %v: a partition would hold only one record",
			ErrInvalidSchema, s.PrimaryKeys, s.PartitionKeys)
	}
	if _, err := s.Bucket(); err != nil {
		return err
	}
	keys := s.bucketKeyOption()
	for _, k := range keys {
		if fieldIndex(s.Fields, k) < 0 {
			return fmt.Errorf("%w: bucket key %q is not a column (columns %v)", ErrInvalidSchema, k, s.FieldNames())
		}
		if slices.Contains(s.PartitionKeys, k) {
			return fmt.Errorf("%w: bucket key %q must not be a partition key", ErrInvalidSchema, k)
		}
		if len(s.PrimaryKeys) > 0 && !slices.Contains(s.PrimaryKeys, k) {
			return fmt.Errorf("%w: bucket key %q must be part of the primary key %v", ErrInvalidSchema, k, s.PrimaryKeys)
		}
	}
	return nil
}

// checkKeys verifies that partition and primary keys are distinct column
// names (Java Schema.normalizeFields).
func checkKeys(fields []DataField, partitionKeys, primaryKeys []string) error {
	for _, kind := range []struct {
		what string
		keys []string
	}{{"partition key", partitionKeys}, {"primary key", primaryKeys}} {
		seen := map[string]bool{}
		for _, k := range kind.keys {
			if seen[k] {
				return fmt.Errorf("%w: %s %q is listed twice", ErrInvalidSchema, kind.what, k)
			}
			seen[k] = true
			if fieldIndex(fields, k) < 0 {
				return fmt.Errorf("%w: %s %q is not a column (columns %v)", ErrInvalidSchema, kind.what, k, fieldNames(fields))
			}
		}
	}
	return nil
}

// Clone returns a deep copy of s.
func (s *TableSchema) Clone() *TableSchema {
	c := *s
	c.Fields = cloneFields(s.Fields)
	c.PartitionKeys = slices.Clone(s.PartitionKeys)
	c.PrimaryKeys = slices.Clone(s.PrimaryKeys)
	c.Options = maps.Clone(s.Options)
	c.optionOrder = slices.Clone(s.optionOrder)
	if s.Comment != nil {
		cm := *s.Comment
		c.Comment = &cm
	}
	return &c
}

func cloneFields(fields []DataField) []DataField {
	if fields == nil {
		return nil
	}
	out := make([]DataField, len(fields))
	for i, f := range fields {
		out[i] = f.Clone()
	}
	return out
}

// RowType returns the table's columns as a nullable ROW type (Java
// logicalRowType). The fields alias s.Fields.
func (s *TableSchema) RowType() DataType { return RowType(s.Fields...) }

// FieldNames returns the column names in table order.
func (s *TableSchema) FieldNames() []string { return fieldNames(s.Fields) }

// FieldIndex returns the position of the column called name, or -1.
func (s *TableSchema) FieldIndex(name string) int { return fieldIndex(s.Fields, name) }

// FieldIndexByID returns the position of the top-level column with the given
// id, or -1.
func (s *TableSchema) FieldIndexByID(id int) int { return fieldIndexByID(s.Fields, id) }

// FieldByName returns the column called name.
func (s *TableSchema) FieldByName(name string) (DataField, bool) {
	return fieldAt(s.Fields, fieldIndex(s.Fields, name))
}

// FieldByID returns the top-level column with the given id.
func (s *TableSchema) FieldByID(id int) (DataField, bool) {
	return fieldAt(s.Fields, fieldIndexByID(s.Fields, id))
}

// PartitionFields returns the partition columns in partition-key order (Java
// logicalPartitionType). Names that are not columns are skipped.
func (s *TableSchema) PartitionFields() []DataField { return s.project(s.PartitionKeys) }

// PrimaryKeyFields returns the primary-key columns in key order.
func (s *TableSchema) PrimaryKeyFields() []DataField { return s.project(s.PrimaryKeys) }

// TrimmedPrimaryKeys returns the primary keys that are not partition keys:
// the key of the LSM tree inside one partition (Java trimmedPrimaryKeys).
// For a table without primary key it is empty.
func (s *TableSchema) TrimmedPrimaryKeys() []string {
	out := make([]string, 0, len(s.PrimaryKeys))
	for _, k := range s.PrimaryKeys {
		if !slices.Contains(s.PartitionKeys, k) {
			out = append(out, k)
		}
	}
	return out
}

// TrimmedPrimaryKeyFields returns the columns of TrimmedPrimaryKeys.
func (s *TableSchema) TrimmedPrimaryKeyFields() []DataField {
	return s.project(s.TrimmedPrimaryKeys())
}

// BucketKeys returns the columns rows are bucketed by: the "bucket-key"
// option split on commas if set, else the trimmed primary keys (Java
// TableSchema.bucketKeys). Empty for an append table without bucket-key.
func (s *TableSchema) BucketKeys() []string {
	if keys := s.bucketKeyOption(); len(keys) > 0 {
		return keys
	}
	return s.TrimmedPrimaryKeys()
}

// BucketKeyFields returns the columns of BucketKeys.
func (s *TableSchema) BucketKeyFields() []DataField { return s.project(s.BucketKeys()) }

// bucketKeyOption splits the bucket-key option like Java's String.split(","):
// no trimming, trailing empty strings dropped; blank means unset.
func (s *TableSchema) bucketKeyOption() []string {
	v := s.Options[optionBucketKey]
	if strings.TrimSpace(v) == "" {
		return nil
	}
	parts := strings.Split(v, ",")
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return parts
}

// Bucket returns the "bucket" option: the number of buckets, -1 for dynamic
// (primary key) or unaware (append) bucketing — the default when the option
// is absent — or -2 for postpone mode. A value that is not a 32-bit integer
// is an error wrapping ErrInvalidSchema.
func (s *TableSchema) Bucket() (int, error) {
	v, ok := s.Options[optionBucket]
	if !ok {
		return -1, nil
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 32)
	if err != nil {
		return 0, fmt.Errorf("%w: option bucket=%q is not an integer", ErrInvalidSchema, v)
	}
	return int(n), nil
}

// CrossPartitionUpdate reports whether the primary key does not include all
// partition keys, so that an update may move a row between partitions (Java
// TableSchema.crossPartitionUpdate).
func (s *TableSchema) CrossPartitionUpdate() bool {
	if len(s.PrimaryKeys) == 0 || len(s.PartitionKeys) == 0 {
		return false
	}
	for _, k := range s.PartitionKeys {
		if !slices.Contains(s.PrimaryKeys, k) {
			return true
		}
	}
	return false
}

func (s *TableSchema) project(names []string) []DataField {
	out := make([]DataField, 0, len(names))
	for _, n := range names {
		if f, ok := s.FieldByName(n); ok {
			out = append(out, f)
		}
	}
	return out
}
