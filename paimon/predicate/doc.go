// Package predicate holds the filter expressions of the scan API, mirroring
// Java Paimon's org.apache.paimon.predicate package (PredicateBuilder,
// LeafPredicate, CompoundPredicate and the LeafFunction classes Equal,
// NotEqual, LessThan, LessOrEqual, GreaterThan, GreaterOrEqual, In, NotIn,
// IsNull, IsNotNull and StartsWith).
//
// A filter is built unbound, by field name and with Go literal values:
//
//	p := predicate.And(
//		predicate.Equal("dt", "2026-08-01"),
//		predicate.GreaterThan("amount", int64(100)))
//
// or parsed from the SQL-like text of the CLI's --where flag (Parse):
//
//	p, err := predicate.Parse("dt = '2026-08-01' AND amount > 100")
//
// Bind resolves the names against a table's fields and converts each literal
// to the column's value representation (see package format/data). The
// resulting *Bound can be evaluated on one row (Test), on column statistics
// (TestStats) or on a whole Arrow record batch (Filter, Mask: the exact
// residual filter, vectorized per column type), and walked by later stages
// (partition pruning, bucket pruning) through its accessors.
//
// # Semantics
//
// Row evaluation follows Java's two-valued collapse of SQL logic: a
// comparison, IN, NOT IN or STARTS WITH with a NULL field value or a NULL
// literal is false. NOT is implemented like Java's Predicate.negate: it is
// pushed down to the leaves at bind time (= becomes !=, < becomes >=, IN
// becomes NOT IN, IS NULL becomes IS NOT NULL, AND becomes OR and vice
// versa). Hence NOT (x = 1) is false when x is NULL, exactly as in Java and
// SQL. STARTS WITH has no negation in Java, so NOT over it fails to bind with
// ErrUnsupported.
//
// Values are ordered as Java's CompareUtils.compareLiteral orders them:
// strings by unsigned UTF-8 bytes (Java BinaryString.compareTo), binary
// strings by signed bytes (CompareUtils.compare on byte[]), decimals by value,
// timestamps chronologically, FLOAT/DOUBLE by Java Float.compare /
// Double.compare (-0.0 < 0.0, NaN equal to itself and above +Inf), booleans
// false < true.
//
// # Exactness
//
// Test, Mask and Filter are exact for every predicate, and agree. TestStats is a "may match" test: it
// returns false only when the statistics prove that no row of the file (or
// partition, or manifest entry) matches, following Java's
// LeafFunction.test(type, rowCount, min, max, nullCount, literals) per
// function; unknown statistics (nil min, max or null count) give true.
package predicate
