package evolution

import (
	"time"

	"github.com/paimon-go/paimon-go/format/schema"
)

// This file mirrors how Java's CastExecutors picks a cast rule: every rule
// declares input roots/families and target types/roots/families; resolve
// looks the target up as the exact type, then its root, then its families
// (in DataTypeFamily order), and for each of those the input's root, then its
// families; the first hit wins, even when that rule then declines the pair
// (its create returns null), in which case the pair has no cast.

// castFunc converts one non-null value of the format/data model. A nil result
// is SQL NULL (Java's Decimal.fromBigDecimal overflow); an error is a value
// Java's cast throws on.
type castFunc func(v any) (any, error)

// env carries what Java's casts read from the JVM.
type env struct {
	loc *time.Location // TimeZone.getDefault()
}

// family is Java's DataTypeFamily (format/schema).
type family = schema.TypeFamily

// The families, under the short names the rule table uses.
const (
	famPredefined         = schema.FamilyPredefined
	famConstructed        = schema.FamilyConstructed
	famCharacterString    = schema.FamilyCharacterString
	famBinaryString       = schema.FamilyBinaryString
	famNumeric            = schema.FamilyNumeric
	famIntegerNumeric     = schema.FamilyIntegerNumeric
	famExactNumeric       = schema.FamilyExactNumeric
	famApproximateNumeric = schema.FamilyApproximateNumeric
	famDatetime           = schema.FamilyDatetime
	famTime               = schema.FamilyTime
	famTimestamp          = schema.FamilyTimestamp
	famCollection         = schema.FamilyCollection
	famExtension          = schema.FamilyExtension
)

func families(r schema.TypeRoot) []family { return r.Families() }

// rule names one of Java's cast rules (org.apache.paimon.casting.*CastRule).
type rule int

const (
	noRule rule = iota
	ruleDecimalToDecimal
	ruleNumericPrimitiveToDecimal
	ruleDecimalToNumericPrimitive
	ruleNumericPrimitive
	ruleNumericPrimitiveToTimestamp
	ruleBooleanToNumeric
	ruleNumericToBoolean
	ruleNumericToString
	ruleBooleanToString
	ruleTimestampToString
	ruleTimeToString
	ruleDateToString
	ruleStringToString
	ruleArrayToString
	ruleMapToString
	ruleRowToString
	ruleStringToBoolean
	ruleStringToDecimal
	ruleStringToNumericPrimitive
	ruleStringToDate
	ruleStringToTime
	ruleStringToTimestamp
	ruleStringToBinary
	ruleStringToArray
	ruleStringToMap
	ruleStringToRow
	ruleTimestampToTimestamp
	ruleTimestampToDate
	ruleTimestampToTime
	ruleDateToTimestamp
	ruleTimeToTimestamp
	ruleTimestampToNumericPrimitive
	ruleBinaryToBinary
	ruleBinaryToString
)

// key is one lookup key of the rule table: the exact type STRING (the only
// exact target type any rule declares, VarCharType.STRING_TYPE), a root, or a
// family.
type key struct {
	kind byte // 's' exact STRING, 'r' root, 'f' family
	v    int
}

var stringKey = key{kind: 's'}

func rootKey(r schema.TypeRoot) key { return key{kind: 'r', v: int(r)} }
func famKey(f family) key           { return key{kind: 'f', v: int(f)} }

// predicate is a rule's CastRulePredicate.
type predicate struct {
	inputs  []key
	targets []key
}

func roots(rs ...schema.TypeRoot) []key {
	out := make([]key, len(rs))
	for i, r := range rs {
		out[i] = rootKey(r)
	}
	return out
}

func fams(fs ...family) []key {
	out := make([]key, len(fs))
	for i, f := range fs {
		out[i] = famKey(f)
	}
	return out
}

// ruleTable maps target key -> input key -> rule, filled in Java's addRule
// order (later rules overwrite earlier ones for the same key pair).
var ruleTable = buildRuleTable()

func buildRuleTable() map[key]map[key]rule {
	ts := []schema.TypeRoot{schema.Timestamp, schema.TimestampLTZ}
	intApprox := fams(famIntegerNumeric, famApproximateNumeric)
	cs := fams(famCharacterString)
	defs := []struct {
		r rule
		p predicate
	}{
		{ruleDecimalToDecimal, predicate{roots(schema.Decimal), roots(schema.Decimal)}},
		{ruleNumericPrimitiveToDecimal, predicate{intApprox, roots(schema.Decimal)}},
		{ruleDecimalToNumericPrimitive, predicate{roots(schema.Decimal), intApprox}},
		{ruleNumericPrimitive, predicate{intApprox, intApprox}},
		{ruleNumericPrimitiveToTimestamp, predicate{fams(famNumeric), roots(ts...)}},
		{ruleBooleanToNumeric, predicate{roots(schema.Boolean), fams(famNumeric)}},
		{ruleNumericToBoolean, predicate{fams(famIntegerNumeric), roots(schema.Boolean)}},
		{ruleNumericToString, predicate{fams(famNumeric), cs}},
		{ruleBooleanToString, predicate{roots(schema.Boolean), cs}},
		{ruleTimestampToString, predicate{fams(famTimestamp), []key{stringKey}}},
		{ruleTimeToString, predicate{roots(schema.Time), []key{stringKey}}},
		{ruleDateToString, predicate{roots(schema.Date), []key{stringKey}}},
		{ruleStringToString, predicate{cs, cs}},
		{ruleArrayToString, predicate{roots(schema.Array), cs}},
		{ruleMapToString, predicate{roots(schema.Map), cs}},
		{ruleRowToString, predicate{roots(schema.Row), cs}},
		{ruleStringToBoolean, predicate{cs, roots(schema.Boolean)}},
		{ruleStringToDecimal, predicate{cs, roots(schema.Decimal)}},
		{ruleStringToNumericPrimitive, predicate{cs, intApprox}},
		{ruleStringToDate, predicate{cs, roots(schema.Date)}},
		{ruleStringToTime, predicate{cs, roots(schema.Time)}},
		{ruleStringToTimestamp, predicate{cs, fams(famTimestamp)}},
		{ruleStringToBinary, predicate{cs, fams(famBinaryString)}},
		{ruleStringToArray, predicate{cs, roots(schema.Array)}},
		{ruleStringToMap, predicate{cs, roots(schema.Map)}},
		{ruleStringToRow, predicate{cs, roots(schema.Row)}},
		{ruleTimestampToTimestamp, predicate{roots(ts...), roots(ts...)}},
		{ruleTimestampToDate, predicate{roots(ts...), roots(schema.Date)}},
		{ruleTimestampToTime, predicate{roots(ts...), roots(schema.Time)}},
		{ruleDateToTimestamp, predicate{roots(schema.Date), roots(ts...)}},
		{ruleTimeToTimestamp, predicate{roots(schema.Time), roots(ts...)}},
		{ruleTimestampToNumericPrimitive, predicate{roots(ts...), roots(schema.BigInt, schema.Int)}},
		{ruleBinaryToBinary, predicate{fams(famBinaryString), fams(famBinaryString)}},
		{ruleBinaryToString, predicate{fams(famBinaryString), cs}},
	}
	table := map[key]map[key]rule{}
	for _, d := range defs {
		for _, t := range d.p.targets {
			m := table[t]
			if m == nil {
				m = map[key]rule{}
				table[t] = m
			}
			for _, in := range d.p.inputs {
				m[in] = d.r
			}
		}
	}
	return table
}

// isStringType reports whether t equals VarCharType.STRING_TYPE, nullability
// included (the exact-type key of the rule table).
func isStringType(t schema.DataType) bool {
	return t.Root == schema.VarChar && t.Length == schema.MaxLength && t.Nullable
}

// lookupRule mirrors CastExecutors.internalResolve.
func lookupRule(from, to schema.DataType) rule {
	targets := make([]key, 0, 6)
	if isStringType(to) {
		targets = append(targets, stringKey)
	}
	targets = append(targets, rootKey(to.Root))
	for _, f := range families(to.Root) {
		targets = append(targets, famKey(f))
	}
	inputs := []key{rootKey(from.Root)}
	for _, f := range families(from.Root) {
		inputs = append(inputs, famKey(f))
	}
	for _, t := range targets {
		m := ruleTable[t]
		if m == nil {
			continue
		}
		for _, in := range inputs {
			if r, ok := m[in]; ok {
				return r
			}
		}
	}
	return noRule
}

// CastExists reports whether Java's CastExecutors.resolve finds an executor
// for values of type from read as type to (SchemaManager checks it before
// accepting a column type change).
func CastExists(from, to schema.DataType) bool {
	_, ok := resolve(from, to, &env{loc: time.UTC})
	return ok
}

// resolve mirrors CastExecutors.resolve: the cast Java applies to a value of
// type from read as type to, or ok = false when there is none.
func resolve(from, to schema.DataType, e *env) (castFunc, bool) {
	r := lookupRule(from, to)
	if r == noRule {
		return nil, false
	}
	fn := create(r, from, to, e)
	return fn, fn != nil
}

// create mirrors each rule's create(inputType, targetType); nil where Java's
// returns null.
func create(r rule, from, to schema.DataType, e *env) castFunc {
	switch r {
	case ruleDecimalToDecimal:
		return decimalToDecimal(to)
	case ruleNumericPrimitiveToDecimal:
		return numericToDecimal(from, to)
	case ruleDecimalToNumericPrimitive:
		return decimalToNumeric(to)
	case ruleNumericPrimitive:
		return numericToNumeric(to)
	case ruleNumericPrimitiveToTimestamp:
		return numericToTimestamp(from, to, e)
	case ruleBooleanToNumeric:
		return booleanToNumeric(to)
	case ruleNumericToBoolean:
		return numericToBoolean
	case ruleNumericToString:
		return numericToString(from, to)
	case ruleBooleanToString:
		return booleanToString(to)
	case ruleTimestampToString:
		return timestampToString(from, e)
	case ruleTimeToString:
		return timeToString(from)
	case ruleDateToString:
		return dateToString
	case ruleStringToString:
		return stringToString(to)
	case ruleArrayToString, ruleMapToString, ruleRowToString:
		return nestedToString(from, e)
	case ruleStringToBoolean:
		return stringToBoolean
	case ruleStringToDecimal:
		return stringToDecimal(to)
	case ruleStringToNumericPrimitive:
		return stringToNumeric(to)
	case ruleStringToDate:
		return stringToDate
	case ruleStringToTime:
		return stringToTime
	case ruleStringToTimestamp:
		return stringToTimestamp(to, e)
	case ruleStringToBinary:
		return stringToBinary(to)
	case ruleStringToArray, ruleStringToMap, ruleStringToRow:
		// These parse default values ("[1, 2]", "{k -> v}"); ALTER TABLE
		// never turns a string column into ARRAY/MAP/ROW (DataTypeCasts
		// has no such cast), so no data file needs them.
		return nil
	case ruleTimestampToTimestamp:
		return timestampToTimestamp(from, to, e)
	case ruleTimestampToDate:
		return timestampToDate(from, e)
	case ruleTimestampToTime:
		return timestampToTime(from, e)
	case ruleDateToTimestamp:
		return dateToTimestamp(to, e)
	case ruleTimeToTimestamp:
		return timeToTimestamp(to, e)
	case ruleTimestampToNumericPrimitive:
		return timestampToNumeric(to)
	case ruleBinaryToBinary:
		return binaryToBinary(to)
	case ruleBinaryToString:
		return binaryToString
	}
	return nil
}
