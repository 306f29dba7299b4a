package mergefunc

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/paimon-go/paimon-go/internal/coreoptions"
	"github.com/paimon-go/paimon-go/internal/javacompat"
)

// Option keys and key parts of Java CoreOptions that drive the merge
// engines.
const (
	optMergeEngine               = coreoptions.MergeEngine
	optIgnoreDelete              = coreoptions.IgnoreDelete
	optSequenceField             = coreoptions.SequenceField
	optSequenceSortOrder         = coreoptions.SequenceFieldSortOrder
	optAggRemoveRecordOnDelete   = coreoptions.AggregationRemoveRecordOnDelete
	optPURemoveRecordOnDelete    = coreoptions.PartialUpdateRemoveRecordOnDelete
	optPURemoveRecordOnSeqGroup  = coreoptions.PartialUpdateRemoveRecordOnSequenceGroup
	fieldsPrefix                 = "fields"
	fieldsSeparator              = ","
	keyAggFunction               = "aggregate-function"
	keyDefaultAggFunction        = "default-aggregate-function"
	keyIgnoreRetract             = "ignore-retract"
	keyNestedKey                 = "nested-key"
	keyCountLimit                = "count-limit"
	keyDistinct                  = "distinct"
	keyListAggDelimiter          = "list-agg-delimiter"
	keyMergeMapTsField           = "ts-field"
	keySequenceGroup             = "sequence-group"
	keyNestedKeyNullStrategy     = "nested-key-null-strategy" // Java 2.0.0 only
	keyNestedSequenceField       = "nested-sequence-field"    // Java 2.0.0 only
	defaultListAggDelimiter      = ","
	defaultCountLimit            = int32(2147483647)
	defaultAggFunctionOptionName = fieldsPrefix + "." + keyDefaultAggFunction
)

// ignoreDeleteFallbacks are the old names of ignore-delete, tried in this
// order when the key itself is absent (Java CoreOptions.IGNORE_DELETE
// withFallbackKeys).
var ignoreDeleteFallbacks = []string{"first-row.ignore-delete", "deduplicate.ignore-delete", "partial-update.ignore-delete"}

// engine is a merge engine (Java CoreOptions.MergeEngine).
type engine int

const (
	engineDeduplicate engine = iota
	enginePartialUpdate
	engineAggregation
	engineFirstRow
)

var engineNames = [...]string{"deduplicate", "partial-update", "aggregation", "first-row"}

// options reads table options the way Java's Options does: raw string
// values, fallback keys, and Java's parsing of booleans, integers and
// enums.
type options map[string]string

// raw returns the value of key, or of the first fallback key present.
func (o options) raw(key string, fallbacks ...string) (string, string, bool) {
	if v, ok := o[key]; ok {
		return v, key, true
	}
	for _, k := range fallbacks {
		if v, ok := o[k]; ok {
			return v, k, true
		}
	}
	return "", "", false
}

// parseErr mirrors Options.get's "Could not parse value" exception.
func parseErr(key, value, why string) error {
	return fmt.Errorf("%w: could not parse value '%s' for key '%s': %s", ErrInvalid, value, key, why)
}

// boolean parses a boolean option: true/false, case-insensitive (Java
// OptionsUtils.convertToBoolean).
func (o options) boolean(key string, def bool, fallbacks ...string) (bool, error) {
	v, k, ok := o.raw(key, fallbacks...)
	if !ok {
		return def, nil
	}
	switch strings.ToUpper(v) {
	case "TRUE":
		return true, nil
	case "FALSE":
		return false, nil
	}
	return false, parseErr(k, v, "expected either true or false (case insensitive)")
}

// int32Opt parses an integer option as Java's Integer.parseInt does.
func (o options) int32Opt(key string, def int32) (int32, error) {
	v, ok := o[key]
	if !ok {
		return def, nil
	}
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return 0, parseErr(key, v, "not an int")
	}
	return int32(n), nil
}

// enum parses an enum option by case-insensitive comparison with the
// constants' string forms (Java OptionsUtils.convertToEnum).
func (o options) enum(key string, names []string, def int) (int, error) {
	v, ok := o[key]
	if !ok {
		return def, nil
	}
	up := strings.ToUpper(v)
	for i, n := range names {
		if strings.ToUpper(n) == up {
			return i, nil
		}
	}
	return 0, parseErr(key, v, "expected one of "+strings.Join(names, ", "))
}

func (o options) mergeEngine() (engine, error) {
	e, err := o.enum(optMergeEngine, engineNames[:], int(engineDeduplicate))
	return engine(e), err
}

func (o options) ignoreDelete() (bool, error) {
	return o.boolean(optIgnoreDelete, false, ignoreDeleteFallbacks...)
}

// fieldOpt returns the value of fields.<field>.<suffix>.
func (o options) fieldOpt(field, suffix string) (string, bool) {
	v, ok := o[fieldsPrefix+"."+field+"."+suffix]
	return v, ok
}

// aggFuncName returns fields.<field>.aggregate-function, else
// fields.default-aggregate-function, else "" (Java CoreOptions.fieldAggFunc
// then fieldsDefaultFunc).
func (o options) aggFuncName(field string) (string, bool) {
	if v, ok := o.fieldOpt(field, keyAggFunction); ok {
		return v, true
	}
	if v, ok := o[defaultAggFunctionOptionName]; ok {
		return v, true
	}
	return "", false
}

// sequenceFieldNames returns sequence.field split on commas and trimmed
// (Java CoreOptions.sequenceField).
func (o options) sequenceFieldNames() []string {
	v, ok := o[optSequenceField]
	if !ok {
		return nil
	}
	parts := javacompat.Split(v, ",")
	for i, p := range parts {
		parts[i] = javacompat.Trim(p)
	}
	return parts
}

// javaOrderedKeys returns the option keys in the iteration order of the Java
// HashMap inside org.apache.paimon.options.Options. Java inserts the keys in
// the order of the schema's option map; Go maps have no order, so keys are
// inserted sorted. Only keys sharing a hash bin can come out differently,
// and the order only matters for option sets Java rejects or resolves
// ambiguously (overlapping sequence groups).
func (o options) javaOrderedKeys() []string {
	keys := make([]string, 0, len(o))
	for k := range o {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var m javacompat.HashMap
	for _, k := range keys {
		if err := m.Put(javacompat.StringHashCode(k), k, nil); err != nil {
			// A treeified bin orders by hash, then by String.compareTo; the
			// sorted order is the closest we can do.
			return keys
		}
	}
	out := make([]string, 0, len(keys))
	for _, e := range m.Entries() {
		out = append(out, e.Key.(string))
	}
	return out
}
