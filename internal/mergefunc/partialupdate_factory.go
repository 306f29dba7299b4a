package mergefunc

import (
	"slices"
	"strings"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/javacompat"
)

// puConfig is what PartialUpdateMergeFunction.Factory derives from the
// options, shared by the Functions of one table.
type puConfig struct {
	nullable       []bool
	ignoreDelete   bool
	removeOnDelete bool
	groups         []*seqGroup // per field, nil if none
	groupsEnabled  bool
	aggNames       []string // per field, "" if none
	partialDelete  map[int]bool
}

func newPartialUpdate(ts *schema.TableSchema, o options) (func() engineFunc, error) {
	cfg, err := partialUpdateConfig(ts, o)
	if err != nil {
		return nil, err
	}
	// Build the aggregators once to validate them.
	for i, fn := range cfg.aggNames {
		if fn != "" {
			if _, err := newFieldAgg(ts.Fields[i].Type, ts.Fields[i].Name, fn, o); err != nil {
				return nil, err
			}
		}
	}
	return func() engineFunc {
		p := &partialUpdate{
			nullable:       cfg.nullable,
			ignoreDelete:   cfg.ignoreDelete,
			groupOf:        cfg.groups,
			aggs:           make([]fieldAgg, len(ts.Fields)),
			groupsEnabled:  cfg.groupsEnabled,
			removeOnDelete: cfg.removeOnDelete,
			partialDelete:  cfg.partialDelete,
		}
		for i, fn := range cfg.aggNames {
			if fn != "" {
				p.aggs[i], _ = newFieldAgg(ts.Fields[i].Type, ts.Fields[i].Name, fn, o)
			}
		}
		p.reset()
		return p
	}, nil
}

// partialUpdateConfig mirrors the constructor of
// PartialUpdateMergeFunction.Factory: sequence groups are read from the
// option keys in Java's HashMap iteration order (it decides which of two
// overlapping definitions fails), then the per-field aggregate functions,
// then the conflicts between the delete options.
func partialUpdateConfig(ts *schema.TableSchema, o options) (*puConfig, error) {
	n := len(ts.Fields)
	cfg := &puConfig{nullable: make([]bool, n), groups: make([]*seqGroup, n), aggNames: make([]string, n), partialDelete: map[int]bool{}}
	for i, f := range ts.Fields {
		cfg.nullable[i] = f.Type.Nullable
	}
	var err error
	if cfg.ignoreDelete, err = o.ignoreDelete(); err != nil {
		return nil, err
	}
	if cfg.removeOnDelete, err = o.boolean(optPURemoveRecordOnDelete, false); err != nil {
		return nil, err
	}
	removeOnSeqGroup, hasRemoveOnSeqGroup := o[optPURemoveRecordOnSeqGroup]

	requireField := func(name string) (int, error) {
		i := ts.FieldIndex(name)
		if i < 0 {
			return 0, invalidf("field %s can not be found in table schema", name)
		}
		return i, nil
	}
	var allSeqFields, protected []string
	seqFieldIndex := map[string]int{}
	for _, k := range o.javaOrderedKeys() {
		if !strings.HasPrefix(k, fieldsPrefix) || !strings.HasSuffix(k, keySequenceGroup) {
			continue
		}
		begin, end := len(fieldsPrefix)+1, len(k)-len(keySequenceGroup)-1
		if begin > end {
			return nil, invalidf("malformed sequence group option '%s'", k)
		}
		var seqIdx []int
		for _, name := range javacompat.Split(k[begin:end], fieldsSeparator) {
			i, err := requireField(name)
			if err != nil {
				return nil, err
			}
			seqIdx = append(seqIdx, i)
		}
		cmp, err := newSeqComparator(ts.Fields, seqIdx, false, "sequence group")
		if err != nil {
			return nil, err
		}
		g := &seqGroup{cmp: cmp}
		for _, name := range javacompat.Split(o[k], fieldsSeparator) {
			i, err := requireField(name)
			if err != nil {
				return nil, err
			}
			if cfg.groups[i] != nil {
				return nil, invalidf("field %s is defined repeatedly by multiple groups: %s", ts.Fields[i].Name, k)
			}
			cfg.groups[i] = g
			protected = append(protected, ts.Fields[i].Name)
		}
		for _, i := range seqIdx {
			name := ts.Fields[i].Name
			allSeqFields = append(allSeqFields, name)
			cfg.groups[i] = g
			seqFieldIndex[name] = i
		}
	}
	for _, g := range cfg.groups {
		if g != nil {
			cfg.groupsEnabled = true
		}
	}
	for i, f := range ts.Fields {
		fn, err := aggFuncNameForPartialUpdate(f.Name, o, ts.PrimaryKeys, allSeqFields, protected)
		if err != nil {
			return nil, err
		}
		cfg.aggNames[i] = fn
	}
	if cfg.removeOnDelete && cfg.ignoreDelete {
		return nil, invalidf("%s and %s have conflicting behavior so should not be enabled at the same time", optIgnoreDelete, optPURemoveRecordOnDelete)
	}
	if hasRemoveOnSeqGroup && cfg.ignoreDelete {
		return nil, invalidf("%s and %s have conflicting behavior so should not be enabled at the same time", optIgnoreDelete, optPURemoveRecordOnSeqGroup)
	}
	if cfg.removeOnDelete && cfg.groupsEnabled {
		return nil, invalidf("%s and %s have conflicting behavior so should not be enabled at the same time", keySequenceGroup, optPURemoveRecordOnDelete)
	}
	if hasRemoveOnSeqGroup {
		names := javacompat.Split(removeOnSeqGroup, fieldsSeparator)
		for _, name := range names {
			if _, ok := seqFieldIndex[name]; !ok {
				return nil, invalidf("field '%s' defined in '%s' option must be part of sequence groups", removeOnSeqGroup, optPURemoveRecordOnSeqGroup)
			}
		}
		for _, name := range names {
			cfg.partialDelete[seqFieldIndex[name]] = true
		}
	}
	return cfg, nil
}

// aggFuncNameForPartialUpdate mirrors PartialUpdateMergeFunction
// .getAggFuncName: sequence-group sequence fields have no function, key
// fields keep the key, and any other configured function except
// last_non_null_value requires the field to be in a sequence group.
func aggFuncNameForPartialUpdate(field string, o options, pks, seqFields, protected []string) (string, error) {
	if slices.Contains(seqFields, field) {
		return "", nil
	}
	if slices.Contains(pks, field) {
		return aggPrimaryKey, nil
	}
	fn, ok := o.aggFuncName(field)
	if !ok {
		return "", nil
	}
	if fn != aggLastNonNullValue && !slices.Contains(protected, field) {
		return "", invalidf("must use sequence group for aggregation functions but not found for field %s", field)
	}
	return fn, nil
}
