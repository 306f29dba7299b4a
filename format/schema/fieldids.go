package schema

import "fmt"

// SystemFieldIDStart is the first field id reserved for Paimon's system
// columns (_KEY_ prefixed keys, _SEQUENCE_NUMBER, _VALUE_KIND, ...); Java
// SpecialFields.SYSTEM_FIELD_ID_START = Integer.MAX_VALUE / 2.
const SystemFieldIDStart = 1073741823

// HighestFieldID returns the largest field id used by fields or, at any
// depth, by the fields of nested ROW types, ignoring system ids; -1 when there
// are none (Java RowType.currentHighestFieldId). A duplicated id is an error
// wrapping ErrInvalidSchema, as in Java's collectFieldIds.
func HighestFieldID(fields []DataField) (int, error) {
	seen := map[int]struct{}{}
	if err := collectFieldIDs(fields, seen, 0); err != nil {
		return 0, err
	}
	highest := -1
	for id := range seen {
		if id < SystemFieldIDStart && id > highest {
			highest = id
		}
	}
	return highest, nil
}

func collectFieldIDs(fields []DataField, seen map[int]struct{}, depth int) error {
	if depth > maxNesting {
		return fmt.Errorf("%w: types nested deeper than %d levels", ErrInvalidSchema, maxNesting)
	}
	for _, f := range fields {
		if _, dup := seen[f.ID]; dup {
			return fmt.Errorf("%w: field id %d is duplicated (field %q)", ErrInvalidSchema, f.ID, f.Name)
		}
		seen[f.ID] = struct{}{}
		if err := collectTypeIDs(f.Type, seen, depth+1); err != nil {
			return err
		}
	}
	return nil
}

func collectTypeIDs(t DataType, seen map[int]struct{}, depth int) error {
	for _, c := range []*DataType{t.Element, t.Key, t.Value} {
		if c != nil {
			if err := collectTypeIDs(*c, seen, depth+1); err != nil {
				return err
			}
		}
	}
	if t.Root == Row {
		return collectFieldIDs(t.Fields, seen, depth)
	}
	return nil
}

// ReassignFieldIDs returns a copy of t whose nested ROW fields are numbered
// from *counter, mirroring Java ReassignFieldId: within a ROW, each field's
// type is renumbered first and the field itself takes the next id afterwards
// (children before parents). *counter ends at the last id given. A schema
// change adding a column numbers its type this way after the table's
// highest field id.
func ReassignFieldIDs(t DataType, counter *int) DataType {
	t = t.Clone()
	reassignInPlace(&t, counter)
	return t
}

func reassignInPlace(t *DataType, counter *int) {
	for _, c := range []*DataType{t.Element, t.Key, t.Value} {
		if c != nil {
			reassignInPlace(c, counter)
		}
	}
	for i := range t.Fields {
		reassignInPlace(&t.Fields[i].Type, counter)
		*counter++
		t.Fields[i].ID = *counter
	}
}
