package mergefunc

import (
	"cmp"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/coreoptions"
)

// SequenceFields returns the value-field indexes named by the table option
// sequence.field (comma separated, each name trimmed), in the order given,
// or nil when the option is absent. It validates them as Java's
// SchemaValidation.validateSequenceField does: every name must be a field,
// none may repeat or carry an aggregate function, the first-row engine
// refuses sequence fields, and so do tables whose primary key does not
// contain all partition fields. Errors wrap ErrInvalid.
//
// The merge reader orders the versions of one key by these fields before
// the sequence number (Java SortMergeReader with UserDefinedSeqComparator);
// VersionOrder returns that order as a comparator. The option
// sequence.field.sort-order (ascending, the default, or descending,
// case-insensitive) reverses the comparison of non-null values only: a NULL
// sequence field sorts before any value in both directions, because Java's
// generated comparator puts nulls first (nullIsLast=false) and negates only
// the comparison of two non-null values. Numbers compare with < and >, so a
// NaN ties with everything and -0.0 ties with 0.0; strings and byte strings
// compare as unsigned bytes.
func SequenceFields(ts *schema.TableSchema) ([]int, error) {
	o := options(ts.Options)
	names := o.sequenceFieldNames()
	if len(names) == 0 {
		return nil, nil
	}
	seen := make(map[string]bool, len(names))
	idx := make([]int, 0, len(names))
	for _, n := range names {
		i := ts.FieldIndex(n)
		if i < 0 {
			return nil, invalidf("sequence field: '%s' can not be found in table schema", n)
		}
		if _, ok := o.fieldOpt(n, keyAggFunction); ok {
			return nil, invalidf("should not define aggregation on sequence field: '%s'", n)
		}
		if seen[n] {
			return nil, invalidf("sequence field '%s' is defined repeatedly", n)
		}
		seen[n] = true
		idx = append(idx, i)
	}
	e, err := o.mergeEngine()
	if err != nil {
		return nil, err
	}
	if e == engineFirstRow {
		return nil, invalidf("do not support use sequence field on FIRST_ROW merge engine")
	}
	if len(ts.PrimaryKeys) > 0 && ts.CrossPartitionUpdate() {
		return nil, invalidf("you can not use sequence.field in cross partition update case (primary key %v does not include all partition fields %v)",
			ts.PrimaryKeys, ts.PartitionKeys)
	}
	return idx, nil
}

// SequenceDescending reports whether sequence.field.sort-order is
// descending (Java CoreOptions.sequenceFieldSortOrderIsAscending negated).
// Errors wrap ErrInvalid.
func SequenceDescending(ts *schema.TableSchema) (bool, error) {
	i, err := options(ts.Options).enum(optSequenceSortOrder, []string{"ascending", "descending"}, 0)
	return i == 1, err
}

// VersionOrder returns the order in which the merge reader must feed the
// versions of one key to a Function: by the sequence.field values as
// described on SequenceFields, then by sequence number, both ascending
// (Java SortMergeReaderWithMinHeap). Without sequence.field it orders by
// sequence number alone. Comparing values of a type the generated Java
// comparator handles differently from this package (ARRAY, MAP, ROW and
// other non-atomic sequence fields) is refused with ErrUnsupported. The
// comparator returns an error (ErrMerge) only for a value whose Go type
// does not match its field.
func VersionOrder(ts *schema.TableSchema) (func(a, b *Row) (int, error), error) {
	idx, err := SequenceFields(ts)
	if err != nil {
		return nil, err
	}
	desc, err := SequenceDescending(ts)
	if err != nil {
		return nil, err
	}
	bySeq := func(a, b *Row) (int, error) { return cmp.Compare(a.Seq, b.Seq), nil }
	if len(idx) == 0 {
		return bySeq, nil
	}
	c, err := newSeqComparator(ts.Fields, idx, desc, coreoptions.SequenceField)
	if err != nil {
		return nil, err
	}
	n := len(ts.Fields)
	return func(a, b *Row) (int, error) {
		if len(a.Values) != n || len(b.Values) != n {
			return 0, mergeErrf("row of %d/%d values for %d fields", len(a.Values), len(b.Values), n)
		}
		r, err := c.compare(a.Values, b.Values)
		if err != nil || r != 0 {
			return r, err
		}
		return bySeq(a, b)
	}, nil
}

// newSeqComparator builds a comparator over the given fields, refusing types
// whose Java comparison is not reproduced.
func newSeqComparator(fields []schema.DataField, idx []int, desc bool, what string) (*seqComparator, error) {
	c := &seqComparator{fields: idx, descending: desc}
	for _, i := range idx {
		t := fields[i].Type
		if !genComparable(t) {
			return nil, unsupportedf("%s field %s of type %s: comparison of non-atomic types", what, fields[i].Name, t)
		}
		c.types = append(c.types, t)
	}
	return c, nil
}

// LookupMerge reports whether Java merges the versions of a key of this
// table through LookupMergeFunction (PrimaryKeyFileStoreTable wraps the
// engine when CoreOptions.needLookup holds: changelog-producer = lookup,
// deletion vectors, first-row or force-lookup; first-row itself is left
// unwrapped): level-0 versions and only the lowest-level version above 0
// are merged, in reads and in compaction rewrites alike
// (mergetree.Options.LookupHighLevel). Option values are parsed as Java
// parses them; an unparsable one is the engine factory's error to report.
func LookupMerge(ts *schema.TableSchema) (bool, error) {
	o := options(ts.Options)
	e, err := o.mergeEngine()
	if err != nil || e == engineFirstRow {
		return false, err
	}
	cp, err := o.enum(coreoptions.ChangelogProducer, []string{"none", "input", "full-compaction", "lookup"}, 0)
	if err != nil {
		return false, err
	}
	dv, err := o.boolean(coreoptions.DeletionVectorsEnabled, false)
	if err != nil {
		return false, err
	}
	force, err := o.boolean(coreoptions.ForceLookup, false)
	if err != nil {
		return false, err
	}
	return cp == 3 || dv || force, nil
}
