package mergefunc

import (
	"errors"

	"github.com/paimon-go/paimon-go/format/schema"
)

// Aggregate function names (the identifiers of Java's
// FieldAggregatorFactory implementations in paimon-core, identical in 1.4.2
// and 2.0.0).
const (
	aggSum                 = "sum"
	aggProduct             = "product"
	aggMin                 = "min"
	aggMax                 = "max"
	aggLastValue           = "last_value"
	aggLastNonNullValue    = "last_non_null_value"
	aggFirstValue          = "first_value"
	aggFirstNonNullValue   = "first_non_null_value"
	aggFirstNotNullLegacy  = "first_not_null_value"
	aggBoolAnd             = "bool_and"
	aggBoolOr              = "bool_or"
	aggListagg             = "listagg"
	aggCollect             = "collect"
	aggMergeMap            = "merge_map"
	aggMergeMapWithKeyTime = "merge_map_with_keytime"
	aggNestedUpdate        = "nested_update"
	aggNestedPartialUpdate = "nested_partial_update"
	aggPrimaryKey          = "primary-key"
	aggRbm32               = "rbm32"
	aggRbm64               = "rbm64"
	aggThetaSketch         = "theta_sketch"
	aggHllSketch           = "hll_sketch"
)

// fieldAgg is one field's aggregate function (Java FieldAggregator). agg
// folds an input into the accumulator; retract undoes an input (-U/-D);
// reset clears per-key state before the next key.
type fieldAgg interface {
	agg(acc, in any) (any, error)
	retract(acc, in any) (any, error)
	reset()
}

// reversedAgg is implemented by functions that override Java's
// FieldAggregator.aggReversed (its default is agg with the arguments
// swapped).
type reversedAgg interface {
	aggReversed(acc, in any) (any, error)
}

// aggReversed folds an input that is older than the accumulator (partial
// update with a sequence group whose sequence went backwards).
func aggReversed(a fieldAgg, acc, in any) (any, error) {
	if r, ok := a.(reversedAgg); ok {
		return r.aggReversed(acc, in)
	}
	return a.agg(in, acc)
}

// aggBase carries the names for messages and the default behaviour: no
// state, and retraction refused as Java's FieldAggregator.retract does.
type aggBase struct {
	fn    string
	field string
}

func (b aggBase) reset() {}

func (b aggBase) retract(any, any) (any, error) {
	return nil, mergeErrf("aggregate function '%s' does not support retraction (field %s); if you allow this function to ignore "+
		"retraction messages, you can configure 'fields.%s.ignore-retract'='true'", b.fn, b.field, b.field)
}

// newFieldAgg mirrors FieldAggregatorFactory.create: find the function,
// refuse ignore-retract together with aggregation.remove-record-on-delete,
// build it for the field type, and wrap it to ignore retractions if asked.
func newFieldAgg(t schema.DataType, field, fn string, o options) (fieldAgg, error) {
	build, ok := aggBuilders[fn]
	if !ok {
		// Java finds aggregate functions by service loading: a table that
		// names an unknown one was written with a custom plugin.
		return nil, errors.Join(invalidf("use unsupported aggregation: %s or spell aggregate function incorrectly (field %s)", fn, field),
			unsupportedf("aggregate function %s of field %s is not built in", fn, field))
	}
	removeOnDelete, err := o.boolean(optAggRemoveRecordOnDelete, false)
	if err != nil {
		return nil, err
	}
	ignoreRetract, err := o.boolean(fieldsPrefix+"."+field+"."+keyIgnoreRetract, false)
	if err != nil {
		return nil, err
	}
	if removeOnDelete && ignoreRetract {
		return nil, invalidf("%s and %s.%s.%s have conflicting behavior so should not be enabled at the same time",
			optAggRemoveRecordOnDelete, fieldsPrefix, field, keyIgnoreRetract)
	}
	a, err := build(t, aggBase{fn: fn, field: field}, o)
	if err != nil {
		return nil, err
	}
	if ignoreRetract {
		return ignoreRetractAgg{a}, nil
	}
	return a, nil
}

type aggBuilder func(t schema.DataType, b aggBase, o options) (fieldAgg, error)

var aggBuilders map[string]aggBuilder

func init() {
	aggBuilders = map[string]aggBuilder{
		aggSum:              newSumAgg,
		aggProduct:          newProductAgg,
		aggMin:              newMinMaxAgg(false),
		aggMax:              newMinMaxAgg(true),
		aggLastValue:        func(_ schema.DataType, b aggBase, _ options) (fieldAgg, error) { return &lastValueAgg{b}, nil },
		aggLastNonNullValue: func(_ schema.DataType, b aggBase, _ options) (fieldAgg, error) { return &lastNonNullAgg{b}, nil },
		aggFirstValue: func(_ schema.DataType, b aggBase, _ options) (fieldAgg, error) {
			return &firstValueAgg{aggBase: b}, nil
		},
		aggFirstNonNullValue: func(_ schema.DataType, b aggBase, _ options) (fieldAgg, error) {
			return &firstNonNullAgg{aggBase: b}, nil
		},
		aggFirstNotNullLegacy: func(_ schema.DataType, b aggBase, _ options) (fieldAgg, error) {
			return &firstNonNullAgg{aggBase: b}, nil
		},
		aggBoolAnd:             newBoolAgg(true),
		aggBoolOr:              newBoolAgg(false),
		aggListagg:             newListaggAgg,
		aggCollect:             newCollectAgg,
		aggMergeMap:            newMergeMapAgg,
		aggMergeMapWithKeyTime: newMergeMapWithKeyTimeAgg,
		aggNestedUpdate:        newNestedUpdateAgg,
		aggNestedPartialUpdate: newNestedPartialUpdateAgg,
		aggPrimaryKey:          func(_ schema.DataType, b aggBase, _ options) (fieldAgg, error) { return &primaryKeyAgg{b}, nil },
		aggRbm32:               newRbm32Agg,
		aggRbm64:               newOpaqueBinaryAgg("Roaring64Bitmap serialization (ART layout) is not reproduced"),
		aggThetaSketch:         newOpaqueBinaryAgg("Apache DataSketches theta union is not reproduced"),
		aggHllSketch:           newOpaqueBinaryAgg("Apache DataSketches HLL union is not reproduced"),
	}
}

// ignoreRetractAgg mirrors FieldIgnoreRetractAgg: retractions leave the
// accumulator as it is. It does not forward aggReversed (neither does
// Java), so the wrapped function's override is not used.
type ignoreRetractAgg struct{ inner fieldAgg }

func (a ignoreRetractAgg) agg(acc, in any) (any, error)    { return a.inner.agg(acc, in) }
func (a ignoreRetractAgg) retract(acc, _ any) (any, error) { return acc, nil }
func (a ignoreRetractAgg) reset()                          { a.inner.reset() }

// primaryKeyAgg mirrors FieldPrimaryKeyAgg: key fields take the input.
type primaryKeyAgg struct{ aggBase }

func (primaryKeyAgg) agg(_, in any) (any, error)     { return in, nil }
func (primaryKeyAgg) retract(_, in any) (any, error) { return in, nil }

// lastValueAgg mirrors FieldLastValueAgg; a retraction clears the field.
type lastValueAgg struct{ aggBase }

func (lastValueAgg) agg(_, in any) (any, error)    { return in, nil }
func (lastValueAgg) retract(any, any) (any, error) { return nil, nil }

// lastNonNullAgg mirrors FieldLastNonNullValueAgg; retracting a non-null
// value clears the field.
type lastNonNullAgg struct{ aggBase }

func (lastNonNullAgg) agg(acc, in any) (any, error) {
	if in == nil {
		return acc, nil
	}
	return in, nil
}

func (lastNonNullAgg) retract(acc, in any) (any, error) {
	if in != nil {
		return nil, nil
	}
	return acc, nil
}

// firstValueAgg mirrors FieldFirstValueAgg: the first input of the key,
// null included, wins.
type firstValueAgg struct {
	aggBase
	initialized bool
}

func (a *firstValueAgg) agg(acc, in any) (any, error) {
	if !a.initialized {
		a.initialized = true
		return in, nil
	}
	return acc, nil
}

func (a *firstValueAgg) reset() { a.initialized = false }

// firstNonNullAgg mirrors FieldFirstNonNullValueAgg (also registered under
// the legacy name first_not_null_value).
type firstNonNullAgg struct {
	aggBase
	initialized bool
}

func (a *firstNonNullAgg) agg(acc, in any) (any, error) {
	if !a.initialized && in != nil {
		a.initialized = true
		return in, nil
	}
	return acc, nil
}

func (a *firstNonNullAgg) reset() { a.initialized = false }

// boolAgg mirrors FieldBoolAndAgg and FieldBoolOrAgg.
type boolAgg struct {
	aggBase
	and bool
}

func newBoolAgg(and bool) aggBuilder {
	return func(t schema.DataType, b aggBase, _ options) (fieldAgg, error) {
		if t.Root != schema.Boolean {
			return nil, invalidf("data type for %s column %s must be 'BooleanType' but was '%s'", b.fn, b.field, t)
		}
		return &boolAgg{aggBase: b, and: and}, nil
	}
}

func (a *boolAgg) agg(acc, in any) (any, error) {
	if acc == nil || in == nil {
		if acc == nil {
			return in, nil
		}
		return acc, nil
	}
	x, y, err := pair[bool](schema.BooleanType(), acc, in)
	if err != nil {
		return nil, err
	}
	if a.and {
		return x && y, nil
	}
	return x || y, nil
}

// minMaxAgg mirrors FieldMinAgg and FieldMaxAgg over
// InternalRowUtils.compare. Java accepts any field type when the table is
// created and only throws "Incomparable type" once two non-null values of
// an unsupported type meet; so does this.
type minMaxAgg struct {
	aggBase
	t   schema.DataType
	max bool
}

func newMinMaxAgg(max bool) aggBuilder {
	return func(t schema.DataType, b aggBase, _ options) (fieldAgg, error) {
		return &minMaxAgg{aggBase: b, t: t, max: max}, nil
	}
}

func (a *minMaxAgg) agg(acc, in any) (any, error) {
	if acc == nil || in == nil {
		if acc == nil {
			return in, nil
		}
		return acc, nil
	}
	c, err := rowUtilsCompare(a.t, acc, in)
	if err != nil {
		return nil, err
	}
	if (c < 0) == a.max {
		return in, nil
	}
	return acc, nil
}
