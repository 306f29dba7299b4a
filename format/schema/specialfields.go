package schema

import "math"

// System columns of the key-value data files of primary-key tables, with the
// names and ids Java's SpecialFields gives them. They live here, below both
// the file writer (internal/datafile) and the merge reader
// (internal/mergetree), which must agree on them byte for byte.
const (
	// KeyFieldPrefix starts the names of the key columns (_KEY_<field>).
	KeyFieldPrefix = "_KEY_"
	// KeyFieldIDStart is added to a primary-key field's id to give its
	// _KEY_ column's id (SpecialFields.KEY_FIELD_ID_START, equal to
	// SystemFieldIDStart).
	KeyFieldIDStart = math.MaxInt32 / 2
	// SequenceNumberFieldID is the id of _SEQUENCE_NUMBER.
	SequenceNumberFieldID = math.MaxInt32 - 1
	// ValueKindFieldID is the id of _VALUE_KIND.
	ValueKindFieldID = math.MaxInt32 - 2
	// SequenceNumberName and ValueKindName are the system columns' names.
	SequenceNumberName = "_SEQUENCE_NUMBER"
	ValueKindName      = "_VALUE_KIND"
)

// SequenceNumberField returns _SEQUENCE_NUMBER BIGINT NOT NULL, the
// per-bucket version counter of a KeyValue row (SpecialFields.SEQUENCE_NUMBER).
func SequenceNumberField() DataField {
	return NewField(SequenceNumberFieldID, SequenceNumberName, BigIntType().NotNull())
}

// ValueKindField returns _VALUE_KIND TINYINT NOT NULL, the row kind byte of a
// KeyValue row (SpecialFields.VALUE_KIND).
func ValueKindField() DataField {
	return NewField(ValueKindFieldID, ValueKindName, TinyIntType().NotNull())
}

// KeyField returns the _KEY_ column of primary-key field f
// (KeyValue.createKeyValueFields): its name prefixed, its id moved past
// KeyFieldIDStart, its type unchanged.
func KeyField(f DataField) DataField {
	k := f.Clone()
	k.Name = KeyFieldPrefix + k.Name
	k.ID += KeyFieldIDStart
	return k
}

// IsSystemFieldName mirrors SpecialFields.isSystemField(String): _KEY_
// columns and Java's reserved system column names.
func IsSystemFieldName(name string) bool {
	if len(name) >= len(KeyFieldPrefix) && name[:len(KeyFieldPrefix)] == KeyFieldPrefix {
		return true
	}
	switch name {
	case SequenceNumberName, ValueKindName, "_LEVEL", "rowkind", "_ROW_ID":
		return true
	}
	return false
}
