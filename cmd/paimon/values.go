package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/canon"
)

// columnTypes returns the Paimon type of every column of a scan's Arrow
// schema. The scan names its columns by field id (schema.ParquetFieldIDKey),
// so the table schema's type is used when its Arrow form is the column's;
// otherwise (a ROW pruned to some fields, a column whose type evolved since)
// the type is derived from Arrow, which loses only details that do not
// change how values print (CHAR/VARCHAR length, MULTISET read as a MAP of
// counts).
func columnTypes(ts *schema.TableSchema, sch *arrow.Schema) ([]schema.DataType, error) {
	out := make([]schema.DataType, sch.NumFields())
	for i, af := range sch.Fields() {
		if t, ok := tableType(ts, af); ok {
			out[i] = t
			continue
		}
		t, err := schema.FromArrowType(af.Type, af.Nullable)
		if err != nil {
			return nil, fmt.Errorf("column %s: %w", af.Name, err)
		}
		out[i] = t
	}
	return out, nil
}

func tableType(ts *schema.TableSchema, af arrow.Field) (schema.DataType, bool) {
	if ts == nil {
		return schema.DataType{}, false
	}
	v, ok := af.Metadata.GetValue(schema.ParquetFieldIDKey)
	if !ok {
		return schema.DataType{}, false
	}
	id, err := strconv.Atoi(v)
	if err != nil {
		return schema.DataType{}, false
	}
	f, ok := ts.FieldByID(id)
	if !ok {
		return schema.DataType{}, false
	}
	at, err := schema.ToArrowType(f.Type)
	if err != nil || !arrow.TypeEqual(at, af.Type) {
		return schema.DataType{}, false
	}
	return f.Type, true
}

// style selects how encodeValue renders values.
type style int

const (
	// canonStyle is canon-v1 (interop/README.md): exact and comparable with
	// the Java and Python dumps; FLOAT/DOUBLE as IEEE bits.
	canonStyle style = iota
	// textStyle is for people: FLOAT/DOUBLE as shortest decimal text, MAP
	// entries in stored order. Everything else as canonStyle.
	textStyle
)

// encodeValue renders a value of the format/data model as a JSON-ready
// value: nil, bool, json.Number, string, []any or object. canon.EncodeValue
// does the scalar work; this adds the types canon-v1 leaves out (VARIANT,
// BLOB, VECTOR), keeps ROW fields in schema order, and implements
// textStyle.
func encodeValue(t schema.DataType, v any, st style) (any, error) {
	if v == nil {
		return nil, nil
	}
	switch t.Root {
	case schema.Float, schema.Double:
		if st == canonStyle {
			return canon.EncodeValue(t, v)
		}
		switch f := v.(type) {
		case float32:
			return floatText(float64(f), 32), nil
		case float64:
			return floatText(f, 64), nil
		}
	case schema.Array, schema.Vector:
		arr, ok := v.([]any)
		if !ok || t.Element == nil {
			break
		}
		out := make([]any, len(arr))
		for i, e := range arr {
			x, err := encodeValue(*t.Element, e, st)
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		return out, nil
	case schema.Map, schema.Multiset:
		return encodeMap(t, v, st)
	case schema.Row:
		vals, ok := v.([]any)
		if !ok || len(vals) != len(t.Fields) {
			break
		}
		obj := object{keys: make([]string, len(vals)), vals: make([]any, len(vals))}
		for i, f := range t.Fields {
			x, err := encodeValue(f.Type, vals[i], st)
			if err != nil {
				return nil, err
			}
			obj.keys[i], obj.vals[i] = f.Name, x
		}
		return obj, nil
	case schema.Variant:
		if x, ok := v.(data.Variant); ok {
			return object{keys: []string{"value", "metadata"}, vals: []any{hex.EncodeToString(x.Value), hex.EncodeToString(x.Metadata)}}, nil
		}
	case schema.Blob:
		if b, ok := v.([]byte); ok {
			return hex.EncodeToString(b), nil
		}
	default:
		return canon.EncodeValue(t, v)
	}
	return nil, fmt.Errorf("%w: %T for %v", canon.ErrValue, v, t.Root)
}

// encodeMap renders MAP and MULTISET values as [key, value] pairs; canon-v1
// sorts them by the JSON text of the key so that equal maps print equally.
func encodeMap(t schema.DataType, v any, st style) (any, error) {
	m, ok := v.(data.Map)
	kt, vt := t.Key, t.Value
	if t.Root == schema.Multiset {
		it := schema.IntType()
		kt, vt = t.Element, &it
	}
	if !ok || kt == nil || vt == nil || len(m.Keys) != len(m.Values) {
		return nil, fmt.Errorf("%w: %T for %v", canon.ErrValue, v, t.Root)
	}
	type pair struct {
		sortKey string
		kv      []any
	}
	pairs := make([]pair, len(m.Keys))
	for i := range m.Keys {
		k, err := encodeValue(*kt, m.Keys[i], st)
		if err != nil {
			return nil, err
		}
		x, err := encodeValue(*vt, m.Values[i], st)
		if err != nil {
			return nil, err
		}
		pairs[i].kv = []any{k, x}
		if st == canonStyle {
			b, err := marshalJSON(k)
			if err != nil {
				return nil, err
			}
			pairs[i].sortKey = string(b)
		}
	}
	if st == canonStyle {
		slices.SortStableFunc(pairs, func(a, b pair) int {
			switch {
			case a.sortKey < b.sortKey:
				return -1
			case a.sortKey > b.sortKey:
				return 1
			}
			return 0
		})
	}
	out := make([]any, len(pairs))
	for i, p := range pairs {
		out[i] = p.kv
	}
	return out, nil
}

// floatText renders a float as the shortest decimal that reads back to the
// same value; non-finite values become the strings Java prints.
func floatText(f float64, bits int) any {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	return json.Number(strconv.FormatFloat(f, 'g', -1, bits))
}

// object is a JSON object whose keys keep their order (encoding/json sorts
// map keys; rows should print in column order).
type object struct {
	keys []string
	vals []any
}

// MarshalJSON writes the object with its keys in order and without HTML
// escaping.
func (o object) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	if err := o.appendJSON(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func (o object) appendJSON(buf *bytes.Buffer) error {
	buf.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			buf.WriteByte(',')
		}
		kb, err := marshalJSON(k)
		if err != nil {
			return err
		}
		buf.Write(kb)
		buf.WriteByte(':')
		vb, err := marshalJSON(o.vals[i])
		if err != nil {
			return err
		}
		buf.Write(vb)
	}
	buf.WriteByte('}')
	return nil
}

// marshalJSON is json.Marshal without HTML escaping: "<" in a string value
// should print as "<".
func marshalJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}), nil
}

// cellText renders a value for csv and table output: scalars as their text,
// nested values as compact JSON. ok is false for NULL.
func cellText(t schema.DataType, v any) (s string, ok bool, err error) {
	if v == nil {
		return "", false, nil
	}
	x, err := encodeValue(t, v, textStyle)
	if err != nil {
		return "", false, err
	}
	switch x := x.(type) {
	case string:
		return x, true, nil
	case json.Number:
		return string(x), true, nil
	case bool:
		return strconv.FormatBool(x), true, nil
	}
	b, err := marshalJSON(x)
	if err != nil {
		return "", false, err
	}
	return string(b), true, nil
}
