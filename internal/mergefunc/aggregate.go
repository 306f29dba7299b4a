package mergefunc

import (
	"slices"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
)

// aggregation mirrors Java AggregateMergeFunction: every field is folded by
// its aggregate function, retractions (-U/-D) call the functions' retract.
// With aggregation.remove-record-on-delete a -D replaces the accumulated
// row by the deleted row's values and makes the result a -D (a later
// insert keeps folding from those values, as in Java).
type aggregation struct {
	aggs           []fieldAgg
	nullable       []bool
	removeOnDelete bool

	latest    *Row
	row       []any
	deleteRow bool
}

// aggFuncNameForAggregation mirrors AggregateMergeFunction.getAggFuncName:
// sequence fields keep the last value, key fields the key, the others
// their configured function, else the default function, else
// last_non_null_value.
func aggFuncNameForAggregation(field string, o options, pks, seqFields []string) string {
	if slices.Contains(seqFields, field) {
		return aggLastValue
	}
	if slices.Contains(pks, field) {
		return aggPrimaryKey
	}
	if fn, ok := o.aggFuncName(field); ok {
		return fn
	}
	return aggLastNonNullValue
}

func newAggregation(ts *schema.TableSchema, o options) (func() engineFunc, error) {
	removeOnDelete, err := o.boolean(optAggRemoveRecordOnDelete, false)
	if err != nil {
		return nil, err
	}
	seq := o.sequenceFieldNames()
	names := make([]string, len(ts.Fields))
	nullable := make([]bool, len(ts.Fields))
	for i, f := range ts.Fields {
		names[i] = aggFuncNameForAggregation(f.Name, o, ts.PrimaryKeys, seq)
		nullable[i] = f.Type.Nullable
		// Build once to validate; every Function gets its own instances
		// because some functions keep per-key state.
		if _, err := newFieldAgg(f.Type, f.Name, names[i], o); err != nil {
			return nil, err
		}
	}
	return func() engineFunc {
		a := &aggregation{aggs: make([]fieldAgg, len(ts.Fields)), nullable: nullable, removeOnDelete: removeOnDelete}
		for i, f := range ts.Fields {
			a.aggs[i], _ = newFieldAgg(f.Type, f.Name, names[i], o)
		}
		a.reset()
		return a
	}, nil
}

func (a *aggregation) reset() {
	a.latest = nil
	a.row = make([]any, len(a.aggs))
	for _, g := range a.aggs {
		g.reset()
	}
	a.deleteRow = false
}

// initRow copies a row's values, refusing NULL in a NOT NULL field as Java's
// initRow does.
func initRow(values []any, nullable []bool) ([]any, error) {
	out := make([]any, len(values))
	for i, v := range values {
		if v == nil && !nullable[i] {
			return nil, mergeErrf("field %d can not be null", i)
		}
		out[i] = v
	}
	return out, nil
}

func (a *aggregation) add(r *Row) error {
	a.latest = r
	a.deleteRow = a.removeOnDelete && r.Kind == data.Delete
	if a.deleteRow {
		row, err := initRow(r.Values, a.nullable)
		if err != nil {
			return err
		}
		a.row = row
		return nil
	}
	retract := r.Kind.IsRetract()
	for i, g := range a.aggs {
		var v any
		var err error
		if retract {
			v, err = g.retract(a.row[i], r.Values[i])
		} else {
			v, err = g.agg(a.row[i], r.Values[i])
		}
		if err != nil {
			return err
		}
		a.row[i] = v
	}
	return nil
}

func (a *aggregation) result() (*Row, error) {
	if a.latest == nil {
		return nil, mergeErrf("trying to get result from merge function without any input")
	}
	kind := data.Insert
	if a.deleteRow {
		kind = data.Delete
	}
	return &Row{Seq: a.latest.Seq, Kind: kind, Values: a.row}, nil
}
