package main

import (
	"fmt"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/paimon-go/paimon-go/format/schema"
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
