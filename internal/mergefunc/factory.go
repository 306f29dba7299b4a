package mergefunc

import (
	"sort"
	"strings"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/javacompat"
)

// NewFactory returns the merge engine of a primary-key table, chosen by the
// option merge-engine (deduplicate, partial-update, aggregation or
// first-row; default deduplicate), as Java's
// PrimaryKeyTableUtils.createMergeFunctionFactory does. It validates the
// merge-related options as Java's SchemaValidation and the engine factories
// do (ErrInvalid), and refuses what cannot be computed exactly
// (ErrUnsupported, naming the function and the field).
//
// The Functions it creates receive every value field of the table (Row.Values
// in schema order) and wrap the engine like Java's
// ReducerMergeFunctionWrapper: a single version is returned unchanged.
func NewFactory(ts *schema.TableSchema) (Factory, error) {
	if ts == nil {
		return nil, invalidf("nil table schema")
	}
	if len(ts.PrimaryKeys) == 0 {
		return nil, invalidf("table has no primary key: merge engines apply to primary-key tables only")
	}
	o := options(ts.Options)
	if err := validateFieldsPrefix(ts, o); err != nil {
		return nil, err
	}
	if _, err := SequenceFields(ts); err != nil {
		return nil, err
	}
	e, err := o.mergeEngine()
	if err != nil {
		return nil, err
	}
	if e == enginePartialUpdate || e == engineAggregation {
		if err := validateAggFunctionNames(ts, o); err != nil {
			return nil, err
		}
	}
	if e == engineDeduplicate || e == engineFirstRow {
		ignore, err := o.ignoreDelete()
		if err != nil {
			return nil, err
		}
		return &selectingFactory{firstRow: e == engineFirstRow, ignoreDelete: ignore, arity: len(ts.Fields)}, nil
	}
	var mk func() engineFunc
	switch e {
	case engineDeduplicate:
		mk, err = newDeduplicate(o)
	case engineFirstRow:
		mk, err = newFirstRow(o)
	case enginePartialUpdate:
		mk, err = newPartialUpdate(ts, o)
	case engineAggregation:
		mk, err = newAggregation(ts, o)
	}
	if err != nil {
		return nil, err
	}
	return &factory{newEngine: mk, arity: len(ts.Fields)}, nil
}

// validateFieldsPrefix mirrors SchemaValidation.validateFieldsPrefix: in
// every option key starting with "fields", the part after the first dot is
// a comma-separated list of field names (or default-aggregate-function).
func validateFieldsPrefix(ts *schema.TableSchema, o options) error {
	keys := make([]string, 0, len(o))
	for k := range o {
		if strings.HasPrefix(k, fieldsPrefix) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		parts := javacompat.Split(k, ".")
		if len(parts) < 2 {
			return invalidf("option key '%s' names no field", k)
		}
		for _, f := range javacompat.Split(parts[1], fieldsSeparator) {
			if f != keyDefaultAggFunction && ts.FieldIndex(f) < 0 {
				return invalidf("field %s can not be found in table schema (option '%s')", f, k)
			}
		}
	}
	return nil
}

// validateAggFunctionNames mirrors SchemaValidation
// .validateMergeFunctionFactory: the function configured for every field
// (or the default function) must exist, even where the engine will not use
// it (key and sequence fields).
func validateAggFunctionNames(ts *schema.TableSchema, o options) error {
	for _, f := range ts.Fields {
		if fn, ok := o.aggFuncName(f.Name); ok {
			if _, known := aggBuilders[fn]; !known {
				_, err := newFieldAgg(f.Type, f.Name, fn, o)
				return err
			}
		}
	}
	return nil
}

// engineFunc is one merge engine without the single-version shortcut
// (Java MergeFunction).
type engineFunc interface {
	reset()
	add(r *Row) error
	result() (*Row, error)
}

type factory struct {
	newEngine func() engineFunc
	arity     int
}

// New implements Factory.
func (f *factory) New() Function { return &reducer{inner: f.newEngine(), arity: f.arity} }

// reducer mirrors Java's ReducerMergeFunctionWrapper: the first version is
// held back, and the engine only sees the versions of keys that have two or
// more.
type reducer struct {
	inner  engineFunc
	arity  int
	first  *Row
	merged bool
}

// Reset implements Function.
func (r *reducer) Reset() {
	r.first = nil
	r.merged = false
	r.inner.reset()
}

// Add implements Function. After an error the Function must be Reset.
func (r *reducer) Add(row *Row) error {
	if row == nil {
		return mergeErrf("nil row")
	}
	if len(row.Values) != r.arity {
		return mergeErrf("row of %d values for %d fields", len(row.Values), r.arity)
	}
	if row.Kind < 0 || row.Kind > 3 {
		return mergeErrf("invalid row kind %d", row.Kind)
	}
	if r.first == nil {
		r.first = row
		return nil
	}
	if !r.merged {
		r.merged = true
		if err := r.inner.add(r.first); err != nil {
			return err
		}
	}
	return r.inner.add(row)
}

// Result implements Function.
func (r *reducer) Result() (*Row, error) {
	if !r.merged {
		return r.first, nil
	}
	return r.inner.result()
}
