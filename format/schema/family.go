package schema

// TypeFamily groups type roots the way Java's DataTypeFamily does; cast
// rules and SchemaValidation's cast tables are written in terms of
// families. The constant order is Java's enum order, which is the order
// Java's CastExecutors tries a type's families in.
type TypeFamily int

// The families of Java org.apache.paimon.types.DataTypeFamily.
const (
	FamilyPredefined TypeFamily = iota
	FamilyConstructed
	FamilyCharacterString
	FamilyBinaryString
	FamilyNumeric
	FamilyIntegerNumeric
	FamilyExactNumeric
	FamilyApproximateNumeric
	FamilyDatetime
	FamilyTime
	FamilyTimestamp
	FamilyCollection
	FamilyExtension
)

// Families returns the families of a root in enum order (Java
// DataTypeRoot.getFamilies, an EnumSet).
func (r TypeRoot) Families() []TypeFamily {
	switch r {
	case Char, VarChar:
		return []TypeFamily{FamilyPredefined, FamilyCharacterString}
	case Boolean, Variant, Blob:
		return []TypeFamily{FamilyPredefined}
	case Binary, VarBinary:
		return []TypeFamily{FamilyPredefined, FamilyBinaryString}
	case Decimal:
		return []TypeFamily{FamilyPredefined, FamilyNumeric, FamilyExactNumeric}
	case TinyInt, SmallInt, Int, BigInt:
		return []TypeFamily{FamilyPredefined, FamilyNumeric, FamilyIntegerNumeric, FamilyExactNumeric}
	case Float, Double:
		return []TypeFamily{FamilyPredefined, FamilyNumeric, FamilyApproximateNumeric}
	case Date:
		return []TypeFamily{FamilyPredefined, FamilyDatetime}
	case Time:
		return []TypeFamily{FamilyPredefined, FamilyDatetime, FamilyTime}
	case Timestamp:
		return []TypeFamily{FamilyPredefined, FamilyDatetime, FamilyTimestamp}
	case TimestampLTZ:
		return []TypeFamily{FamilyPredefined, FamilyDatetime, FamilyTimestamp, FamilyExtension}
	case Array, Vector, Multiset:
		return []TypeFamily{FamilyConstructed, FamilyCollection}
	case Map:
		return []TypeFamily{FamilyConstructed, FamilyExtension}
	case Row:
		return []TypeFamily{FamilyConstructed}
	}
	return nil
}
