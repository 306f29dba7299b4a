package mergetree

import (
	"fmt"
	"math"

	"github.com/paimon-go/paimon-go/format/schema"
)

// System fields of key-value data files and of the audit log, with the ids
// Java's SpecialFields assigns them.
const (
	// KeyFieldPrefix starts the names of the key columns (_KEY_<field>).
	KeyFieldPrefix = schema.KeyFieldPrefix
	// KeyFieldIDStart is added to a primary-key field's id to give its
	// _KEY_ column's id (SpecialFields.KEY_FIELD_ID_START).
	KeyFieldIDStart = schema.KeyFieldIDStart
	// SequenceNumberFieldID is the id of _SEQUENCE_NUMBER.
	SequenceNumberFieldID = schema.SequenceNumberFieldID
	// ValueKindFieldID is the id of _VALUE_KIND.
	ValueKindFieldID = schema.ValueKindFieldID
	// RowKindFieldID is the id of the audit log's rowkind column.
	RowKindFieldID = math.MaxInt32 - 4
)

// SequenceNumberField returns _SEQUENCE_NUMBER BIGINT NOT NULL, the
// per-bucket version counter of a KeyValue row (SpecialFields.SEQUENCE_NUMBER).
func SequenceNumberField() schema.DataField { return schema.SequenceNumberField() }

// ValueKindField returns _VALUE_KIND TINYINT NOT NULL, the row kind byte of
// a KeyValue row (SpecialFields.VALUE_KIND).
func ValueKindField() schema.DataField { return schema.ValueKindField() }

// RowKindField returns the audit log's leading column, rowkind STRING
// (SpecialFields.ROW_KIND), holding "+I", "-U", "+U" or "-D".
func RowKindField() schema.DataField {
	return schema.NewField(RowKindFieldID, "rowkind", schema.StringType())
}

// KeyValueFields returns the columns of a data file written under schema ts
// without thin mode (Java KeyValue.createKeyValueFields with
// PrimaryKeyTableUtils.PrimaryKeyFieldsExtractor): one _KEY_<name> column per
// trimmed primary-key field (the primary key minus partition keys), with id
// KeyFieldIDStart + the field's id and the field's type; then
// _SEQUENCE_NUMBER and _VALUE_KIND; then every field of ts.
//
// A file written with data-file.thin-mode=true lacks the _KEY_ columns: its
// columns are exactly ReadFields(ts). Readers need not know which layout a
// file has, since both hold ReadFields.
func KeyValueFields(ts *schema.TableSchema) ([]schema.DataField, error) {
	keys, err := trimmedKeys(ts)
	if err != nil {
		return nil, err
	}
	out := make([]schema.DataField, 0, len(keys)+2+len(ts.Fields))
	for _, k := range keys {
		out = append(out, schema.KeyField(k))
	}
	return append(out, ReadFields(ts)...), nil
}

// ReadFields returns the columns Read needs from every data file of a table
// whose current schema is ts, and so the columns an OpenFunc yields:
// _SEQUENCE_NUMBER, _VALUE_KIND, then every field of ts. It is also the
// whole layout of thin-mode files. Keys are taken from the value fields, as
// Java's FormatReaderMapping.trimKeyFields does.
func ReadFields(ts *schema.TableSchema) []schema.DataField {
	out := make([]schema.DataField, 0, 2+len(ts.Fields))
	out = append(out, SequenceNumberField(), ValueKindField())
	for _, f := range ts.Fields {
		out = append(out, f.Clone())
	}
	return out
}

// OutputFields returns the columns of the batches Read yields: the fields of
// ts, preceded by RowKindField when keepDeletes is set (the layout of Java's
// AuditLogTable).
func OutputFields(ts *schema.TableSchema, keepDeletes bool) []schema.DataField {
	out := make([]schema.DataField, 0, 1+len(ts.Fields))
	if keepDeletes {
		out = append(out, RowKindField())
	}
	for _, f := range ts.Fields {
		out = append(out, f.Clone())
	}
	return out
}

// trimmedKeys returns the trimmed primary-key fields of ts.
func trimmedKeys(ts *schema.TableSchema) ([]schema.DataField, error) {
	if ts == nil {
		return nil, fmt.Errorf("%w: no table schema", ErrInvalid)
	}
	if len(ts.PrimaryKeys) == 0 {
		return nil, fmt.Errorf("%w: table schema %d has no primary key", ErrInvalid, ts.ID)
	}
	keys := ts.TrimmedPrimaryKeyFields()
	if len(keys) == 0 {
		return nil, fmt.Errorf("%w: table schema %d has no primary key beyond its partition keys", ErrInvalid, ts.ID)
	}
	return keys, nil
}

// keyIndexes returns the positions of the trimmed primary-key fields among
// the fields of ts.
func keyIndexes(ts *schema.TableSchema) ([]int, []schema.DataType, error) {
	keys, err := trimmedKeys(ts)
	if err != nil {
		return nil, nil, err
	}
	idx := make([]int, len(keys))
	types := make([]schema.DataType, len(keys))
	for i, k := range keys {
		idx[i] = ts.FieldIndexByID(k.ID)
		if idx[i] < 0 {
			return nil, nil, fmt.Errorf("%w: primary key %q is not a field", ErrInvalid, k.Name)
		}
		types[i] = k.Type
	}
	return idx, types, nil
}
