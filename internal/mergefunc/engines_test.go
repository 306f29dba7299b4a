package mergefunc_test

import (
	"testing"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/mergefunc"
)

var none = want{none: true}

func TestDeduplicate(t *testing.T) {
	s := func(opts map[string]string) *schema.TableSchema { return tbl(opts, fld("v", schema.StringType())) }
	ignore := map[string]string{"ignore-delete": "true"}
	tests := []struct {
		name string
		ts   *schema.TableSchema
		rows []mergefunc.Row
		want want
	}{
		{"no versions", s(nil), nil, none},
		{"single version unchanged", s(nil), []mergefunc.Row{del(7, "x")}, row(data.Delete, "x")},
		{"last wins", s(nil), []mergefunc.Row{ins(1, "a"), ins(2, nil), ins(3, "c")}, row(data.Insert, "c")},
		{"last null wins", s(nil), []mergefunc.Row{ins(1, "a"), ins(2, nil)}, row(data.Insert, nil)},
		{"last delete kept as delete", s(nil), []mergefunc.Row{ins(1, "a"), del(2, "a")}, row(data.Delete, "a")},
		{"last -U kept", s(nil), []mergefunc.Row{ins(1, "a"), ub(2, "a")}, row(data.UpdateBefore, "a")},
		{"ignore-delete skips retractions", s(ignore), []mergefunc.Row{ins(1, "a"), del(2, "a"), ub(3, "a")}, row(data.Insert, "a")},
		{"ignore-delete all retractions", s(ignore), []mergefunc.Row{del(1, "a"), del(2, "b")}, none},
		{"fallback key deduplicate.ignore-delete", s(map[string]string{"deduplicate.ignore-delete": "TRUE"}),
			[]mergefunc.Row{ins(1, "a"), del(2, "a")}, row(data.Insert, "a")},
		{"fallback key partial-update.ignore-delete", s(map[string]string{"partial-update.ignore-delete": "true"}),
			[]mergefunc.Row{ins(1, "a"), del(2, "a")}, row(data.Insert, "a")},
		{"ignore-delete wins over fallback", s(map[string]string{"ignore-delete": "false", "first-row.ignore-delete": "true"}),
			[]mergefunc.Row{ins(1, "a"), del(2, "a")}, row(data.Delete, "a")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := merge(t, tt.ts, tt.rows...)
			tt.want.check(t, got, err)
		})
	}
}

func TestFirstRow(t *testing.T) {
	s := func(opts map[string]string) *schema.TableSchema {
		if opts == nil {
			opts = map[string]string{}
		}
		opts["merge-engine"] = "first-row"
		return tbl(opts, fld("v", schema.StringType()))
	}
	tests := []struct {
		name string
		ts   *schema.TableSchema
		rows []mergefunc.Row
		want want
	}{
		{"first wins", s(nil), []mergefunc.Row{ins(1, "a"), ins(2, "b")}, row(data.Insert, "a")},
		{"first null wins", s(nil), []mergefunc.Row{ins(1, nil), ins(2, "b")}, row(data.Insert, nil)},
		{"single delete passes through", s(nil), []mergefunc.Row{del(1, "a")}, row(data.Delete, "a")},
		{"delete refused", s(nil), []mergefunc.Row{ins(1, "a"), del(2, "a")}, fails(mergefunc.ErrMerge, "can not accept DELETE/UPDATE_BEFORE")},
		{"first-row.ignore-delete", s(map[string]string{"first-row.ignore-delete": "true"}),
			[]mergefunc.Row{del(1, "x"), ins(2, "a"), ub(3, "a"), ins(4, "b")}, row(data.Insert, "a")},
		{"ignore-delete all retractions", s(map[string]string{"ignore-delete": "true"}), []mergefunc.Row{del(1, "x"), ub(2, "y")}, none},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := merge(t, tt.ts, tt.rows...)
			tt.want.check(t, got, err)
		})
	}
}

func TestPartialUpdate(t *testing.T) {
	pu := func(opts map[string]string, fields ...schema.DataField) *schema.TableSchema {
		o := map[string]string{"merge-engine": "partial-update"}
		for k, v := range opts {
			o[k] = v
		}
		return tbl(o, fields...)
	}
	abc := []schema.DataField{fld("a", schema.StringType()), fld("b", schema.IntType()), fld("c", schema.IntType().NotNull())}
	// Sequence groups: g1 protects a and b, g2 protects c and d.
	grouped := []schema.DataField{
		fld("a", schema.IntType()), fld("b", schema.IntType()), fld("g1", schema.IntType()),
		fld("c", schema.IntType()), fld("d", schema.IntType()), fld("g2", schema.IntType()),
	}
	groups := map[string]string{"fields.g1.sequence-group": "a,b", "fields.g2.sequence-group": "c,d"}
	with := func(base map[string]string, kv ...string) map[string]string {
		o := map[string]string{}
		for k, v := range base {
			o[k] = v
		}
		for i := 0; i < len(kv); i += 2 {
			o[kv[i]] = kv[i+1]
		}
		return o
	}
	tests := []struct {
		name string
		ts   *schema.TableSchema
		rows []mergefunc.Row
		want want
	}{
		{"latest non-null wins", pu(nil, abc...),
			[]mergefunc.Row{ins(1, "a1", nil, int32(1)), ins(2, nil, int32(2), int32(2)), ins(3, "a3", nil, int32(3))},
			row(data.Insert, "a3", int32(2), int32(3))},
		{"null in NOT NULL field refused", pu(nil, abc...),
			[]mergefunc.Row{ins(1, "a1", nil, int32(1)), ins(2, nil, nil, nil)}, fails(mergefunc.ErrMerge, "field 3 can not be null")},
		{"delete refused by default", pu(nil, abc...),
			[]mergefunc.Row{ins(1, "a", nil, int32(1)), del(2, "a", nil, int32(1))}, fails(mergefunc.ErrMerge, "can not accept delete records")},
		{"ignore-delete skips deletes", pu(map[string]string{"ignore-delete": "true"}, abc...),
			[]mergefunc.Row{ins(1, "a", nil, int32(1)), del(2, "x", int32(9), int32(9)), ins(3, nil, int32(3), int32(3))},
			row(data.Insert, "a", int32(3), int32(3))},
		{"ignore-delete: a first delete seeds the row", pu(map[string]string{"ignore-delete": "true"}, abc...),
			[]mergefunc.Row{del(1, "x", int32(9), int32(9)), ins(2, nil, nil, int32(2))},
			row(data.Insert, "x", int32(9), int32(2))},
		{"ignore-delete: only deletes give a delete", pu(map[string]string{"ignore-delete": "true"}, abc...),
			[]mergefunc.Row{del(1, "x", int32(9), int32(9)), ub(2, "y", nil, int32(2))},
			row(data.Delete, "x", int32(9), int32(9))},
		{"remove-record-on-delete", pu(map[string]string{"partial-update.remove-record-on-delete": "true"}, abc...),
			[]mergefunc.Row{ins(1, "a", int32(1), int32(1)), del(2, "d", nil, int32(2))},
			row(data.Delete, "d", nil, int32(2))},
		{"remove-record-on-delete then insert", pu(map[string]string{"partial-update.remove-record-on-delete": "true"}, abc...),
			[]mergefunc.Row{ins(1, "a", int32(1), int32(1)), del(2, "d", nil, int32(2)), ins(3, nil, int32(5), int32(3))},
			row(data.Insert, "d", int32(5), int32(3))},
		{"remove-record-on-delete ignores -U", pu(map[string]string{"partial-update.remove-record-on-delete": "true"}, abc...),
			[]mergefunc.Row{ins(1, "a", int32(1), int32(1)), ub(2, "u", nil, int32(2))},
			row(data.Insert, "a", int32(1), int32(1))},
		{"sequence groups: newer group updates, older does not", pu(groups, grouped...),
			[]mergefunc.Row{
				ins(1, int32(1), int32(1), int32(10), int32(1), int32(1), int32(10)),
				ins(2, int32(2), nil, int32(11), int32(2), int32(2), int32(9)),
			},
			// g1 is newer: a and b take the input, null included; g2 is older.
			row(data.Insert, int32(2), nil, int32(11), int32(1), int32(1), int32(10))},
		{"sequence groups: equal sequence updates", pu(groups, grouped...),
			[]mergefunc.Row{
				ins(1, int32(1), int32(1), int32(10), nil, nil, nil),
				ins(2, int32(5), int32(6), int32(10), nil, nil, nil),
			},
			row(data.Insert, int32(5), int32(6), int32(10), nil, nil, nil)},
		{"sequence groups: null sequence leaves the group", pu(groups, grouped...),
			[]mergefunc.Row{
				ins(1, int32(1), int32(1), int32(10), int32(3), int32(3), int32(3)),
				ins(2, int32(7), int32(7), nil, int32(4), int32(4), int32(4)),
			},
			row(data.Insert, int32(1), int32(1), int32(10), int32(4), int32(4), int32(4))},
		{"sequence groups: first version beats the empty row", pu(groups, grouped...),
			[]mergefunc.Row{
				ins(1, int32(1), nil, int32(1), nil, nil, nil),
				ins(2, nil, nil, nil, int32(8), nil, int32(1)),
			},
			row(data.Insert, int32(1), nil, int32(1), int32(8), nil, int32(1))},
		{"sequence groups: retract a newer group nulls its fields", pu(groups, grouped...),
			[]mergefunc.Row{
				ins(1, int32(1), int32(1), int32(10), int32(1), int32(1), int32(10)),
				ub(2, int32(1), int32(1), int32(11), nil, nil, nil),
			},
			row(data.Insert, nil, nil, int32(11), int32(1), int32(1), int32(10))},
		{"sequence groups: retract an older group is ignored", pu(groups, grouped...),
			[]mergefunc.Row{
				ins(1, int32(1), int32(1), int32(10), int32(1), int32(1), int32(10)),
				del(2, int32(1), int32(1), int32(9), nil, nil, nil),
			},
			row(data.Insert, int32(1), int32(1), int32(10), int32(1), int32(1), int32(10))},
		{"sequence groups: only retractions give a delete", pu(groups, grouped...),
			[]mergefunc.Row{
				del(1, int32(1), int32(1), int32(10), nil, nil, nil),
				del(2, int32(1), int32(1), int32(11), nil, nil, nil),
			},
			row(data.Delete, nil, nil, int32(11), nil, nil, nil)},
		{"remove-record-on-sequence-group", pu(with(groups, "partial-update.remove-record-on-sequence-group", "g2"), grouped...),
			[]mergefunc.Row{
				ins(1, int32(1), int32(1), int32(10), int32(1), int32(1), int32(10)),
				del(2, nil, nil, nil, int32(5), int32(5), int32(11)),
			},
			row(data.Delete, nil, nil, nil, int32(5), int32(5), int32(11))},
		{"remove-record-on-sequence-group: other group retracts", pu(with(groups, "partial-update.remove-record-on-sequence-group", "g2"), grouped...),
			[]mergefunc.Row{
				ins(1, int32(1), int32(1), int32(10), int32(1), int32(1), int32(10)),
				del(2, int32(1), int32(1), int32(11), nil, nil, nil),
			},
			row(data.Insert, nil, nil, int32(11), int32(1), int32(1), int32(10))},
		{"aggregate function in a sequence group", pu(with(groups, "fields.a.aggregate-function", "sum", "fields.c.aggregate-function", "max"), grouped...),
			[]mergefunc.Row{
				ins(1, int32(1), int32(1), int32(10), int32(5), nil, int32(10)),
				ins(2, int32(2), nil, int32(11), int32(3), nil, int32(9)),
				ins(3, int32(4), nil, int32(5), int32(7), nil, int32(8)),
			},
			// a: sum whatever the order; c: max, also for older versions
			// (aggReversed); b keeps null from the newer version 2.
			row(data.Insert, int32(7), nil, int32(11), int32(7), nil, int32(10))},
		{"aggregate retraction in a sequence group", pu(with(groups, "fields.a.aggregate-function", "sum"), grouped...),
			[]mergefunc.Row{
				ins(1, int32(5), int32(1), int32(10), nil, nil, nil),
				ub(2, int32(2), nil, int32(9), nil, nil, nil),
			},
			// Older retraction: sum retracts anyway, b untouched.
			row(data.Insert, int32(3), int32(1), int32(10), nil, nil, nil)},
		{"last_non_null_value needs no group", pu(map[string]string{"fields.a.aggregate-function": "last_non_null_value"}, abc...),
			[]mergefunc.Row{ins(1, "x", nil, int32(1)), ins(2, nil, int32(2), int32(2))},
			row(data.Insert, "x", int32(2), int32(2))},
		{"multi-field sequence group", pu(map[string]string{"fields.s1,s2.sequence-group": "a"},
			fld("a", schema.StringType()), fld("s1", schema.IntType()), fld("s2", schema.IntType())),
			[]mergefunc.Row{
				ins(1, "first", int32(1), int32(5)),
				ins(2, "older", int32(1), int32(4)),
				ins(3, "newer", int32(1), int32(6)),
				ins(4, "null-s2", int32(1), nil),
			},
			row(data.Insert, "newer", int32(1), int32(6))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := merge(t, tt.ts, tt.rows...)
			tt.want.check(t, got, err)
		})
	}
}

// TestFunctionReuse checks that Reset clears per-key state (first_value,
// partial-update rows) between keys.
func TestFunctionReuse(t *testing.T) {
	ts := tbl(map[string]string{"merge-engine": "aggregation", "fields.v.aggregate-function": "first_value"}, fld("v", schema.IntType()))
	f, err := mergefunc.NewFactory(ts)
	if err != nil {
		t.Fatal(err)
	}
	fn := f.New()
	got, err := mergeWith(fn, ins(1, int32(1)), ins(2, int32(2)))
	row(data.Insert, int32(1)).check(t, got, err)
	got, err = mergeWith(fn, ins(3, int32(3)), ins(4, int32(4)))
	row(data.Insert, int32(3)).check(t, got, err)
}
