package evolution

import "github.com/paimon-go/paimon-go/format/schema"

// CastValue evolves a min/max statistic v (format/data model, as
// format/binaryrow decodes it) of a field written as type from into the
// table's type to, for pruning. ok is false when pruning on the evolved value
// is not what Java does: Java keeps a filter on a field whose type changed
// only when CastExecutors.castLiteralsWithEvolution can move its literals to
// the file type, i.e. when the types are equal ignoring nullability, or when
// both are integral and the table type is at least as wide (TINYINT ->
// SMALLINT -> INT -> BIGINT); for every other change
// (SimpleStatsEvolutions.filterUnsafeFilter) the field is not used to skip
// files. Widening is exact and order-preserving, so the evolved bounds are
// safe to compare with the table-typed predicate (Java additionally gives up
// when a literal does not fit the file type; pruning with the widened bounds
// then only skips files Java would read and filter to nothing). A nil v (no
// statistic) stays nil.
func CastValue(v any, from, to schema.DataType) (any, bool) {
	if from.EqualIgnoreNullable(to) {
		return v, true
	}
	if !from.Root.IsIntegerNumeric() || !to.Root.IsIntegerNumeric() || !integerWidening(to.Root, from.Root) {
		return nil, false
	}
	if v == nil {
		return nil, true
	}
	n, ok := intOf(v)
	if !ok {
		return nil, false
	}
	return numericFromLong(n, to.Root), true
}

// integerWidening mirrors CastExecutors.integerScaleLargerThan(table, file).
func integerWidening(table, file schema.TypeRoot) bool {
	return (table == schema.SmallInt && file == schema.TinyInt) ||
		(table == schema.Int && file != schema.BigInt) ||
		table == schema.BigInt
}
