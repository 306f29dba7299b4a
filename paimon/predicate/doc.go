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
// # Literals
//
// Bind accepts these Go values per column type; any other fails with
// ErrTypeMismatch naming the field, its type and the literal. Conversions
// are exact or refused: a literal that would be rounded or overflow is an
// error, never a nearby value.
//
//	BOOLEAN                 bool
//	TINYINT … BIGINT        any Go integer in range; a float with no fraction
//	FLOAT, DOUBLE           float32, float64; an integer or float exactly
//	                        representable (int64(100) for a DOUBLE)
//	DECIMAL(p, s)           data.Decimal, a decimal string ("12.50"), any Go
//	                        integer or float whose exact value fits p and s
//	CHAR, VARCHAR           string
//	BINARY, VARBINARY       []byte
//	DATE                    int32 days since 1970-01-01, time.Time (its
//	                        date), "2024-06-01"
//	TIME                    int32 milliseconds of the day, time.Duration,
//	                        "12:30:00" or "12:30:00.123"
//	TIMESTAMP               data.Timestamp, time.Time (its wall clock),
//	                        "2024-06-01T12:30:00[.fraction]" or with a space;
//	                        text with a zone is refused (no zone to compare)
//	TIMESTAMP_LTZ           data.Timestamp, time.Time (its instant), RFC 3339
//	                        text with a zone ("2024-06-01T12:30:00Z"); text
//	                        without one is read as UTC
//	nil                     a NULL literal, which matches nothing
//
// Parse's literals follow the same rules: numbers convert to the column's
// numeric type when exact, 'text' to a DATE/TIME/TIMESTAMP column as ISO-8601,
// and DATE '...', TIME '...', TIMESTAMP '...' name the type explicitly.
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
