package avrofile

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/avro"
)

// maxSchemaDepth bounds the nesting of writer schemas we compile, so that a
// hostile header cannot exhaust the stack.
const maxSchemaDepth = 64

// compiler turns a writer schema and the requested Paimon types into a tree
// of decoders bound to Arrow builders (it has no state; its methods are the
// compiling functions). Like Java's AvroSchemaVisitor it is
// driven by the writer schema (its types and logical types decide how bytes
// are read) and consults the Paimon type for the target representation.
type compiler struct{}

// schemaError reports a writer schema that cannot produce the requested
// type; the reader wraps it in ErrSchema.
type schemaError struct{ msg string }

func (e *schemaError) Error() string { return e.msg }

func mismatch(path string, w *avro.Node, t schema.DataType) error {
	desc := w.Type
	if w.LogicalType != "" {
		desc += " (" + w.LogicalType + ")"
	}
	return &schemaError{fmt.Sprintf("field %q: cannot read Avro %s as %s", path, desc, t.Root)}
}

// rootRecord returns the record a data file's rows are written with: the
// root itself, or the record branch of a ["null", record] root (Paimon before
// 0.9; Java AvroRowDatumReader) together with the index of its null branch.
func rootRecord(w *avro.Node) (rec *avro.Node, nullIdx int, err error) {
	if w.Type == "record" {
		return w, -1, nil
	}
	if w.Type == "union" && len(w.Branches) == 2 {
		for i := range w.Branches {
			if w.Branches[i].Type == "record" && w.Branches[1-i].Type == "null" {
				return &w.Branches[i], 1 - i, nil
			}
		}
	}
	return nil, 0, &schemaError{fmt.Sprintf("writer schema is Avro %s, not a record", w.Type)}
}

// record compiles a record decoder. fields are the requested fields, each
// with its builder; they are matched to the writer's fields by name, as
// Java's RowReader does. A requested field the writer lacks is an error.
func (cp compiler) record(w *avro.Node, fields []schema.DataField, builders []array.Builder, sb *array.StructBuilder, path string, depth int) (*recordDecoder, error) {
	d := &recordDecoder{b: sb, steps: make([]fieldStep, len(w.Fields))}
	byName := make(map[string]int, len(w.Fields))
	for i := range w.Fields {
		if _, dup := byName[w.Fields[i].Name]; !dup {
			byName[w.Fields[i].Name] = i
		}
	}
	for i, f := range fields {
		j, ok := byName[f.Name]
		if !ok {
			return nil, &schemaError{fmt.Sprintf("field %q not in file", join(path, f.Name))}
		}
		dec, err := cp.value(&w.Fields[j].Type, f.Type, builders[i], join(path, f.Name), depth+1)
		if err != nil {
			return nil, err
		}
		d.steps[j].targets = append(d.steps[j].targets, dec)
	}
	for j := range d.steps {
		if len(d.steps[j].targets) == 0 {
			skip, err := cp.skipper(&w.Fields[j].Type, depth+1)
			if err != nil {
				return nil, err
			}
			d.steps[j].skip = skip
		}
	}
	return d, nil
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// value compiles the decoder of one value of writer node w into builder b,
// which was made for schema.ToArrowType(t).
func (cp compiler) value(w *avro.Node, t schema.DataType, b array.Builder, path string, depth int) (decoder, error) {
	if depth > maxSchemaDepth {
		return nil, &schemaError{fmt.Sprintf("field %q: schema nested deeper than %d", path, maxSchemaDepth)}
	}
	switch w.Type {
	case "union":
		return cp.union(w, t, b, path, depth)
	case "null":
		return nullDecoder{b}, nil
	case "array":
		if w.Items == nil {
			return nil, &schemaError{fmt.Sprintf("field %q: array without items", path)}
		}
	case "map":
		if w.Values == nil {
			return nil, &schemaError{fmt.Sprintf("field %q: map without values", path)}
		}
	}
	bad := func() (decoder, error) { return nil, mismatch(path, w, t) }
	switch t.Root {
	case schema.Boolean:
		if w.Type == "boolean" {
			return boolDecoder{b: b.(*array.BooleanBuilder)}, nil
		}
	case schema.TinyInt:
		if w.Type == "int" {
			return int8Decoder{b: b.(*array.Int8Builder)}, nil
		}
	case schema.SmallInt:
		if w.Type == "int" {
			return int16Decoder{b: b.(*array.Int16Builder)}, nil
		}
	case schema.Int:
		if w.Type == "int" {
			return int32Decoder{b: b.(*array.Int32Builder)}, nil
		}
	case schema.BigInt:
		if w.Type == "int" || w.Type == "long" && !isTimeLogical(w.LogicalType) {
			return int64Decoder{b: b.(*array.Int64Builder), fromInt: w.Type == "int"}, nil
		}
	case schema.Float:
		switch w.Type {
		case "float", "int", "long":
			return float32Decoder{b: b.(*array.Float32Builder), from: w.Type}, nil
		}
	case schema.Double:
		switch w.Type {
		case "double", "float", "int", "long":
			return float64Decoder{b: b.(*array.Float64Builder), from: w.Type}, nil
		}
	case schema.Decimal:
		if (w.Type == "bytes" || w.Type == "fixed") && w.LogicalType == "decimal" {
			if w.Scale != t.Scale {
				return nil, &schemaError{fmt.Sprintf("field %q: file has decimal scale %d, want %d", path, w.Scale, t.Scale)}
			}
			return decimalDecoder{b: b.(*array.Decimal128Builder), size: fixedSize(w)}, nil
		}
	case schema.Char, schema.VarChar, schema.Binary, schema.VarBinary, schema.Blob:
		// Avro promotes string and bytes into each other; Java writes
		// CHAR/VARCHAR as string and BINARY/VARBINARY/BLOB as bytes.
		if (w.Type == "string" || w.Type == "bytes" || w.Type == "fixed") && w.LogicalType != "decimal" {
			return bytesDecoder{b: binaryBuilder(b), size: fixedSize(w)}, nil
		}
	case schema.Date:
		if w.Type == "int" && (w.LogicalType == "" || w.LogicalType == "date") {
			return date32Decoder{b: b.(*array.Date32Builder)}, nil
		}
	case schema.Time:
		switch {
		case w.Type == "int" && (w.LogicalType == "" || w.LogicalType == "time-millis"):
			return time32Decoder{b: b.(*array.Time32Builder)}, nil
		case w.Type == "long" && w.LogicalType == "time-micros":
			return time32Decoder{b: b.(*array.Time32Builder), micros: true}, nil
		}
	case schema.Timestamp, schema.TimestampLTZ:
		if w.Type == "long" {
			if from, ok := timestampUnit(w.LogicalType); ok {
				tb := b.(*array.TimestampBuilder)
				d := timestampDecoder{b: tb, mul: 1, div: 1}
				to := unitFactor(tb.Type().(*arrow.TimestampType).Unit)
				if to > from {
					d.mul = to / from
				} else {
					d.div = from / to
				}
				return d, nil
			}
		}
	case schema.Array:
		if w.Type == "array" {
			lb := b.(*array.ListBuilder)
			elem, err := cp.value(w.Items, *t.Element, lb.ValueBuilder(), path+"[]", depth+1)
			if err != nil {
				return nil, err
			}
			return &listDecoder{b: lb, elem: elem}, nil
		}
	case schema.Vector:
		if w.Type == "array" {
			lb := b.(*array.FixedSizeListBuilder)
			elem, err := cp.value(w.Items, *t.Element, lb.ValueBuilder(), path+"[]", depth+1)
			if err != nil {
				return nil, err
			}
			return &fixedListDecoder{b: lb, n: int64(t.Length), elem: elem}, nil
		}
	case schema.Map, schema.Multiset:
		return cp.mapValue(w, t, b.(*array.MapBuilder), path, depth)
	case schema.Row:
		if w.Type == "record" {
			sb := b.(*array.StructBuilder)
			builders := make([]array.Builder, len(t.Fields))
			for i := range builders {
				builders[i] = sb.FieldBuilder(i)
			}
			return cp.record(w, t.Fields, builders, sb, path, depth)
		}
	case schema.Variant:
		// Java's AvroSchemaConverter has no Avro mapping for VARIANT.
		return nil, &schemaError{fmt.Sprintf("field %q: VARIANT is not supported in Avro files", path)}
	}
	return bad()
}

// union compiles a union: null branches append NULL, the others must all be
// readable as t.
func (cp compiler) union(w *avro.Node, t schema.DataType, b array.Builder, path string, depth int) (decoder, error) {
	branches := make([]decoder, len(w.Branches))
	nullIdx := -1
	for i := range w.Branches {
		br := &w.Branches[i]
		if br.Type == "null" {
			nullIdx = i
			continue
		}
		if br.Type == "union" {
			return nil, &schemaError{fmt.Sprintf("field %q: nested union", path)}
		}
		d, err := cp.value(br, t, b, path, depth+1)
		if err != nil {
			return nil, err
		}
		branches[i] = d
	}
	if len(branches) == 2 && nullIdx >= 0 {
		if f, ok := branches[1-nullIdx].(nullFolder); ok {
			return f.withNull(nullIdx), nil
		}
		return &nullableDecoder{nullIdx: nullIdx, inner: branches[1-nullIdx], b: b}, nil
	}
	return &unionDecoder{branches: branches, b: b}, nil
}

// mapValue compiles MAP and MULTISET: an Avro map when the key is a string
// (CHAR/VARCHAR), else an array of {key, value} records (Java
// AvroSchemaConverter.isArrayMap). MULTISET's values are the int counts.
func (cp compiler) mapValue(w *avro.Node, t schema.DataType, mb *array.MapBuilder, path string, depth int) (decoder, error) {
	kt, vt := t.Key, t.Value
	if t.Root == schema.Multiset {
		it := schema.IntType().NotNull()
		kt, vt = t.Element, &it
	}
	switch w.Type {
	case "map":
		if !kt.Root.IsCharacterString() {
			return nil, mismatch(path, w, t)
		}
		value, err := cp.value(w.Values, *vt, mb.ItemBuilder(), path+"{}", depth+1)
		if err != nil {
			return nil, err
		}
		return &mapDecoder{b: mb, keys: binaryBuilder(mb.KeyBuilder()), value: value}, nil
	case "array":
		rec := w.Items
		if rec.Type != "record" {
			return nil, mismatch(path, w, t)
		}
		fields := []schema.DataField{{Name: "key", Type: *kt}, {Name: "value", Type: *vt}}
		entry, err := cp.record(rec, fields, []array.Builder{mb.KeyBuilder(), mb.ItemBuilder()}, nil, path+"{}", depth)
		if err != nil {
			return nil, err
		}
		return &arrayMapDecoder{b: mb, keys: mb.KeyBuilder(), entry: entry}, nil
	}
	return nil, mismatch(path, w, t)
}

// skipper compiles the decoder that consumes a value of w unread.
func (cp compiler) skipper(w *avro.Node, depth int) (decoder, error) {
	if depth > maxSchemaDepth {
		return nil, &schemaError{fmt.Sprintf("schema nested deeper than %d", maxSchemaDepth)}
	}
	s, err := avro.NewSkipper(w)
	if err != nil {
		// A reference left unexpanded (a recursive type, which no Paimon
		// type maps to) or a malformed node.
		return nil, &schemaError{"a writer field cannot be skipped: " + err.Error()}
	}
	return skipValue{s}, nil
}

func fixedSize(w *avro.Node) int {
	if w.Type == "fixed" {
		return w.Size
	}
	return -1
}

// binaryBuilder returns the BinaryBuilder behind a utf8, binary or
// large_binary builder, so one decoder appends raw bytes to all three.
func binaryBuilder(b array.Builder) *array.BinaryBuilder {
	switch b := b.(type) {
	case *array.StringBuilder:
		return b.BinaryBuilder
	case *array.BinaryBuilder:
		return b
	}
	panic(fmt.Sprintf("avrofile: no binary builder behind %T", b))
}

func isTimeLogical(l string) bool {
	_, ts := timestampUnit(l)
	return ts || l == "time-micros" || l == "time-millis"
}

// timestampUnit returns the ticks per second of a timestamp logical type.
// Java reads timestamp-millis/micros and their local- variants (the latter
// is what Java writes for TIMESTAMP_LTZ); the nanos variants come from Avro
// 1.12 writers and are accepted as well.
func timestampUnit(logical string) (int64, bool) {
	switch logical {
	case "timestamp-millis", "local-timestamp-millis":
		return 1_000, true
	case "timestamp-micros", "local-timestamp-micros":
		return 1_000_000, true
	case "timestamp-nanos", "local-timestamp-nanos":
		return 1_000_000_000, true
	}
	return 0, false
}

func unitFactor(u arrow.TimeUnit) int64 {
	switch u {
	case arrow.Second:
		return 1
	case arrow.Millisecond:
		return 1_000
	case arrow.Microsecond:
		return 1_000_000
	}
	return 1_000_000_000
}
