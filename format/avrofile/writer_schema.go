package avrofile

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/paimon-go/paimon-go/format/schema"
)

// javaRowName is the full name Java's AvroSchemaConverter gives the
// top-level record of a data file. Nested records are named after it:
// "<parent>_<field>" for a ROW field, "<parent>_key"/"<parent>_value" below
// a map entry record; array elements and string-keyed map values keep their
// parent's name.
const javaRowName = "org.apache.paimon.avro.generated.record"

// writerSchemaJSON returns the Avro schema Java Paimon 1.4.2 writes in the
// header of a data file with these columns: exactly the text of
// AvroSchemaConverter.convertToSchema(rowType).toString() for the NOT NULL
// row type of fields (Avro 1.11's compact JSON, key order included). Types
// Java cannot convert (VARIANT, TIME(p > 3), TIMESTAMP(p > 6)) and names
// Avro rejects yield ErrUnsupportedSchema, as Java fails on them too.
func writerSchemaJSON(fields []schema.DataField) (string, error) {
	sb := schemaBuilder{names: map[string]string{}}
	out, err := sb.record(javaRowName, fields, "", nil)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrUnsupportedSchema, err)
	}
	return out, nil
}

// schemaBuilder renders Avro schema JSON the way Avro 1.11's
// Schema.toString does. names maps the full name of every record written
// so far to its expanded definition: Avro writes a record whose name it has
// seen as a bare name reference when it equals the first (Schema.equals is
// structural, so comparing expanded definitions decides), and fails ("Can't
// redefine") otherwise. Java derives record names from field names, so
// both happen only when names like "a_b" and "a"."b" meet.
//
// An expanding builder (names == nil) renders every record in full with
// its namespace: the comparison key.
type schemaBuilder struct {
	names map[string]string
}

// value renders the schema of a value of type t. rowName is the name its
// records derive from; space is the enclosing namespace (Avro's
// Names.space), which decides whether a record spells out its namespace.
func (sb schemaBuilder) value(t schema.DataType, rowName, space string) (string, error) {
	core, err := sb.core(t, rowName, space)
	if err != nil || !t.Nullable {
		return core, err
	}
	// Java AvroSchemaConverter.nullableSchema: null first.
	return `["null",` + core + `]`, nil
}

func (sb schemaBuilder) core(t schema.DataType, rowName, space string) (string, error) {
	switch t.Root {
	case schema.Boolean:
		return `"boolean"`, nil
	case schema.TinyInt, schema.SmallInt, schema.Int:
		return `"int"`, nil
	case schema.BigInt:
		return `"long"`, nil
	case schema.Float:
		return `"float"`, nil
	case schema.Double:
		return `"double"`, nil
	case schema.Char, schema.VarChar:
		return `"string"`, nil
	case schema.Binary, schema.VarBinary, schema.Blob:
		return `"bytes"`, nil
	case schema.Decimal:
		return `{"type":"bytes","logicalType":"decimal","precision":` + strconv.Itoa(t.Precision) +
			`,"scale":` + strconv.Itoa(t.Scale) + `}`, nil
	case schema.Date:
		return `{"type":"int","logicalType":"date"}`, nil
	case schema.Time:
		if t.Precision > 3 {
			return "", fmt.Errorf("TIME(%d): Avro supports precision up to 3", t.Precision)
		}
		return `{"type":"int","logicalType":"time-millis"}`, nil
	case schema.Timestamp, schema.TimestampLTZ:
		logical := "timestamp-"
		if t.Root == schema.TimestampLTZ {
			logical = "local-timestamp-"
		}
		switch {
		case t.Precision <= 3:
			logical += "millis"
		case t.Precision <= 6:
			logical += "micros"
		default:
			return "", fmt.Errorf("%s(%d): Avro supports precision up to 6", t.Root, t.Precision)
		}
		return `{"type":"long","logicalType":"` + logical + `"}`, nil
	case schema.Array, schema.Vector:
		if t.Element == nil {
			return "", fmt.Errorf("%s without element type", t.Root)
		}
		items, err := sb.value(*t.Element, rowName, space)
		if err != nil {
			return "", err
		}
		return `{"type":"array","items":` + items + `}`, nil
	case schema.Map, schema.Multiset:
		return sb.mapSchema(t, rowName, space)
	case schema.Row:
		return sb.record(rowName, t.Fields, space, nil)
	}
	return "", fmt.Errorf("type %s has no Avro mapping", t.Root)
}

// mapEntryTypes returns the key and value types of a MAP or MULTISET as
// Java's AvroSchemaConverter sees them: a MULTISET is a map from its
// elements to nullable INT counts.
func mapEntryTypes(t schema.DataType) (key, value *schema.DataType, err error) {
	if t.Root == schema.Multiset {
		if t.Element == nil {
			return nil, nil, fmt.Errorf("MULTISET without element type")
		}
		count := schema.IntType()
		return t.Element, &count, nil
	}
	if t.Key == nil || t.Value == nil {
		return nil, nil, fmt.Errorf("MAP without key or value type")
	}
	return t.Key, t.Value, nil
}

// mapSchema renders MAP and MULTISET: an Avro map when the key is
// CHAR/VARCHAR, else an array of {key, value} records carrying the
// logical type "map" (Java AvroSchemaConverter.isArrayMap, LogicalMap).
func (sb schemaBuilder) mapSchema(t schema.DataType, rowName, space string) (string, error) {
	key, value, err := mapEntryTypes(t)
	if err != nil {
		return "", err
	}
	if key.Root.IsCharacterString() {
		values, err := sb.value(*value, rowName, space)
		if err != nil {
			return "", err
		}
		return `{"type":"map","values":` + values + `}`, nil
	}
	entry := []schema.DataField{{Name: "key", Type: *key}, {Name: "value", Type: *value}}
	// Java gives the key field no default, even when it is nullable.
	rec, err := sb.record(rowName, entry, space, []bool{false, value.Nullable})
	if err != nil {
		return "", err
	}
	return `{"type":"array","items":` + rec + `,"logicalType":"map"}`, nil
}

// record renders a record named fullName. nullDefault says which fields
// carry "default":null; nil means the nullable ones (a ROW's fields). The
// records below field f are named fullName_f.
func (sb schemaBuilder) record(fullName string, fields []schema.DataField, space string, nullDefault []bool) (string, error) {
	ns, name := splitFullName(fullName)
	if err := checkName(name); err != nil {
		return "", fmt.Errorf("record name %q: %w", fullName, err)
	}
	if sb.names != nil {
		key, err := schemaBuilder{}.record(fullName, fields, "", nullDefault)
		if err != nil {
			return "", err
		}
		if prev, ok := sb.names[fullName]; ok {
			if prev != key {
				return "", fmt.Errorf("record name %q is derived for two different rows (Avro: can't redefine)", fullName)
			}
			if ns == space {
				return `"` + name + `"`, nil
			}
			return `"` + fullName + `"`, nil
		}
		sb.names[fullName] = key
	}

	var b strings.Builder
	b.WriteString(`{"type":"record","name":"`)
	b.WriteString(name)
	b.WriteByte('"')
	if ns != space || sb.names == nil {
		b.WriteString(`,"namespace":"`)
		b.WriteString(ns)
		b.WriteByte('"')
	}
	b.WriteString(`,"fields":[`)
	seen := make(map[string]bool, len(fields))
	for i, f := range fields {
		if err := checkName(f.Name); err != nil {
			return "", fmt.Errorf("field name %q: %w", f.Name, err)
		}
		if seen[f.Name] {
			return "", fmt.Errorf("duplicate field name %q", f.Name)
		}
		seen[f.Name] = true
		ft, err := sb.value(f.Type, fullName+"_"+f.Name, ns)
		if err != nil {
			return "", fmt.Errorf("field %q: %w", f.Name, err)
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"name":"`)
		b.WriteString(f.Name)
		b.WriteString(`","type":`)
		b.WriteString(ft)
		if nullDefault == nil && f.Type.Nullable || nullDefault != nil && nullDefault[i] {
			b.WriteString(`,"default":null`)
		}
		b.WriteByte('}')
	}
	b.WriteString("]}")
	return b.String(), nil
}

// splitFullName splits an Avro full name at its last dot, as Avro's
// Schema.Name does.
func splitFullName(full string) (namespace, name string) {
	if i := strings.LastIndexByte(full, '.'); i >= 0 {
		return full[:i], full[i+1:]
	}
	return "", full
}

// checkName applies Avro 1.11's name validation (Schema.validateName): a
// letter or '_' first, then letters, digits or '_', where letters and
// digits are judged per UTF-16 unit by Java's Character.isLetter /
// isLetterOrDigit. Java Paimon fails on other names (AvroFileFormat
// validates the row type when the table is created), and since the names
// are written into the JSON unescaped, accepting them here would also
// corrupt the schema text.
func checkName(name string) error {
	if name == "" {
		return fmt.Errorf("empty name")
	}
	for i, r := range name {
		ok := r == '_' || unicode.IsLetter(r) || i > 0 && unicode.IsDigit(r)
		// Outside the BMP Java sees two surrogates, neither a letter;
		// invalid UTF-8 decodes to U+FFFD, not a letter either.
		if !ok || r > 0xFFFF {
			return fmt.Errorf("illegal character %q at byte %d (Avro names are letters, digits and '_', not starting with a digit)", r, i)
		}
	}
	return nil
}
