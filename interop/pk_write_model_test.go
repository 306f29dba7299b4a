package interop_test

import (
	"fmt"
	"math/rand/v2"
	"sort"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/canon"
)

// The in-memory models and workloads of TestLivePrimaryKeyWrites: what a
// primary-key table must read as after a sequence of writes, per merge
// engine, computed from the rows written (in commit order) by rules taken
// from Java's merge functions, independently of both Java and this
// library's merge code.

// pwRow is one written row: its kind and values (format/data model, by
// column name; absent means NULL).
type pwRow struct {
	kind string
	vals map[string]any
}

// pwModel is a merge engine's model of one table.
type pwModel interface {
	// apply folds a written row in, in write order.
	apply(key string, r pwRow)
	// rows returns the table's rows (column values by name).
	rows() []map[string]any
}

// --- deduplicate -------------------------------------------------------------

// pwDedup keeps, per key, the version that wins Java's merge order: the
// largest sequence.field value (NULL smallest) when there is one, later
// writes on ties (DeduplicateMergeFunction over UserDefinedSeqComparator).
// A winning retraction deletes the key.
type pwDedup struct {
	seqField string
	order    int64
	win      map[string]pwVersion
}

type pwVersion struct {
	r     pwRow
	order int64
}

func (m *pwDedup) apply(key string, r pwRow) {
	m.order++
	v := pwVersion{r, m.order}
	cur, ok := m.win[key]
	if !ok || m.seqField == "" || pwCompareSeq(r.vals[m.seqField], cur.r.vals[m.seqField]) >= 0 {
		m.win[key] = v
	}
}

// pwCompareSeq orders sequence values, NULL first.
func pwCompareSeq(a, b any) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return -1
	case b == nil:
		return 1
	}
	x, y := a.(int64), b.(int64)
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

func (m *pwDedup) rows() []map[string]any {
	var out []map[string]any
	for _, v := range m.win {
		if v.r.kind == "+I" || v.r.kind == "+U" {
			out = append(out, v.r.vals)
		}
	}
	return out
}

// winnerSeq returns the sequence value of a key's winning version and
// whether that version is an insert.
func (m *pwDedup) winner(key string) (any, bool, bool) {
	v, ok := m.win[key]
	if !ok {
		return nil, false, false
	}
	return v.r.vals[m.seqField], v.r.kind == "+I" || v.r.kind == "+U", true
}

// --- first-row ---------------------------------------------------------------

// pwFirst keeps the first insert of each key (FirstRowMergeFunction;
// ignore-delete drops retractions before they are written).
type pwFirst struct{ first map[string]map[string]any }

func (m *pwFirst) apply(key string, r pwRow) {
	if r.kind != "+I" && r.kind != "+U" {
		return
	}
	if _, ok := m.first[key]; !ok {
		m.first[key] = r.vals
	}
}

func (m *pwFirst) rows() []map[string]any {
	var out []map[string]any
	for _, v := range m.first {
		out = append(out, v)
	}
	return out
}

// --- aggregation -------------------------------------------------------------

// pwAgg folds every version of a key with the column's function
// (AggregateMergeFunction): a_sum and a_cnt sum (a retraction subtracts;
// NULLs are skipped, a retraction of a NULL sum gives the negated input),
// a_max max and a_lnn last_non_null_value (retractions ignored:
// ignore-retract). A key is read once it has been inserted (the result is
// always +I).
//
// last_non_null_value does retract (a retraction of a non-NULL value makes
// it NULL), but that is not associative: Java's result then depends on how
// the writer's buffer and each compaction group the versions, which no
// model of the written rows can follow; the retracting function of the
// test is sum.
type pwAgg struct {
	state    map[string]map[string]any
	keyCols  []string
	inserted map[string]bool
}

func (m *pwAgg) apply(key string, r pwRow) {
	acc, ok := m.state[key]
	if !ok {
		acc = map[string]any{}
		for _, k := range m.keyCols {
			acc[k] = r.vals[k]
		}
		m.state[key] = acc
	}
	retract := r.kind == "-U" || r.kind == "-D"
	if !retract {
		m.inserted[key] = true
	}
	for _, c := range []string{"a_sum", "a_cnt"} {
		pwSum(acc, c, r.vals, retract)
	}
	if in, has := r.vals["a_max"]; has && !retract {
		if cur, ok := acc["a_max"]; !ok || in.(int32) > cur.(int32) {
			acc["a_max"] = in
		}
	}
	if in, has := r.vals["a_lnn"]; has && !retract {
		acc["a_lnn"] = in
	}
}

// pwSum folds column c of vals into acc as Java's sum does: NULL inputs
// are skipped, a retraction subtracts, a NULL accumulator takes the
// (negated) input.
func pwSum(acc map[string]any, c string, vals map[string]any, retract bool) {
	in, has := vals[c]
	if !has {
		return
	}
	x := in.(int64)
	if retract {
		x = -x
	}
	if cur, ok := acc[c]; ok {
		acc[c] = cur.(int64) + x
	} else {
		acc[c] = x
	}
}

func (m *pwAgg) rows() []map[string]any {
	var out []map[string]any
	for k, v := range m.state {
		if m.inserted[k] {
			out = append(out, v)
		}
	}
	return out
}

// --- partial-update ----------------------------------------------------------

// pwPartial is partial-update with two sequence groups (g1 over pa, pb; g2
// over pc, pd, pc summed) and pe outside any group
// (PartialUpdateMergeFunction.updateWithSequenceGroup and
// retractWithSequenceGroup): a group whose sequence values are all NULL in
// the input is skipped; otherwise, if the input's sequence is not older,
// the group's fields take the input's values (NULLs too; on a retraction
// they become NULL) and its sequence field the input's; pc always sums the
// input (subtracts it on a retraction, which the workload never asks for:
// see pwGen.op). pe takes non-NULL inputs of inserts and is untouched by
// retractions. A key is read once inserted.
type pwPartial struct {
	state    map[string]map[string]any
	keyCols  []string
	inserted map[string]bool
}

var pwGroups = []struct {
	seq, agg string
	fields   []string
}{
	{"g1", "", []string{"pa", "pb"}},
	{"g2", "pc", []string{"pc", "pd"}},
}

func (m *pwPartial) apply(key string, r pwRow) {
	acc, ok := m.state[key]
	if !ok {
		acc = map[string]any{}
		for _, k := range m.keyCols {
			acc[k] = r.vals[k]
		}
		m.state[key] = acc
	}
	retract := r.kind == "-U" || r.kind == "-D"
	if !retract {
		m.inserted[key] = true
	}
	for _, g := range pwGroups {
		in, has := r.vals[g.seq]
		if !has {
			continue // an empty sequence group
		}
		newer := pwCompareSeq(in, acc[g.seq]) >= 0
		for _, f := range g.fields {
			if f == g.agg {
				pwSum(acc, f, r.vals, retract)
				continue
			}
			if !newer {
				continue
			}
			if v, has := r.vals[f]; has && !retract {
				acc[f] = v
			} else {
				delete(acc, f)
			}
		}
		if newer {
			acc[g.seq] = in
		}
	}
	if v, has := r.vals["pe"]; has && !retract {
		acc["pe"] = v
	}
}

func (m *pwPartial) rows() []map[string]any {
	var out []map[string]any
	for k, v := range m.state {
		if m.inserted[k] {
			out = append(out, v)
		}
	}
	return out
}

// --- tables ------------------------------------------------------------------

// pwSpec is one table of the test.
type pwSpec struct {
	name        string
	engine      string // dedup, partial, agg, first
	bucket      int    // > 0 fixed, -1 dynamic, -2 postpone
	seqField    bool   // dedup with sequence.field = ts
	dv          bool
	changelog   bool // changelog-producer = input
	format      string
	partitioned bool
}

// direct reports whether a batch read sees rows as soon as they are
// committed: not with deletion vectors or first-row (Java reads levels above
// 0 only), nor in postpone buckets (read after compaction).
func (s *pwSpec) direct() bool { return !s.dv && s.engine != "first" && s.bucket != -2 }

// pySkip says why pypaimon 2.1.0 cannot read the table ("" when it can).
func (s *pwSpec) pySkip() string {
	switch s.engine {
	case "partial":
		return "partial-update with sequence groups and a per-field aggregate function"
	case "agg":
		return "aggregation with fields.<f>.ignore-retract"
	}
	return ""
}

func pwSpecs() []pwSpec {
	return []pwSpec{
		{name: "dedup_fixed_cl", engine: "dedup", bucket: 2, changelog: true, format: "parquet", partitioned: true},
		{name: "dedup_dynamic_dv", engine: "dedup", bucket: -1, dv: true, format: "avro"},
		{name: "dedup_postpone", engine: "dedup", bucket: -2, format: "parquet", partitioned: true},
		{name: "seq_fixed_dv", engine: "dedup", bucket: 3, seqField: true, dv: true, format: "parquet"},
		{name: "seq_dynamic_cl", engine: "dedup", bucket: -1, seqField: true, changelog: true, format: "parquet", partitioned: true},
		{name: "seq_postpone", engine: "dedup", bucket: -2, seqField: true, format: "avro"},
		{name: "partial_fixed_cl", engine: "partial", bucket: 2, changelog: true, format: "parquet", partitioned: true},
		{name: "partial_dynamic_dv", engine: "partial", bucket: -1, dv: true, format: "parquet"},
		{name: "partial_postpone", engine: "partial", bucket: -2, format: "parquet"},
		{name: "agg_fixed_dv", engine: "agg", bucket: 2, dv: true, format: "avro", partitioned: true},
		{name: "agg_dynamic_cl", engine: "agg", bucket: -1, changelog: true, format: "parquet"},
		{name: "agg_postpone", engine: "agg", bucket: -2, format: "parquet", partitioned: true},
		{name: "first_fixed", engine: "first", bucket: 2, format: "parquet", partitioned: true},
		{name: "first_dynamic", engine: "first", bucket: -1, format: "avro"},
	}
}

// fields returns the table's columns: the key (p STRING, k INT, or k INT
// alone), then the engine's values.
func (s *pwSpec) fields() []schema.DataField {
	var out []schema.DataField
	add := func(name string, t schema.DataType) {
		out = append(out, schema.NewField(len(out), name, t))
	}
	if s.partitioned {
		add("p", schema.StringType().NotNull())
	}
	add("k", schema.IntType().NotNull())
	switch s.engine {
	case "dedup", "first":
		add("v", schema.BigIntType())
		add("s", schema.StringType())
		add("ts", schema.BigIntType())
	case "partial":
		add("pa", schema.StringType())
		add("pb", schema.IntType())
		add("g1", schema.BigIntType())
		add("pc", schema.BigIntType())
		add("pd", schema.StringType())
		add("g2", schema.BigIntType())
		add("pe", schema.BigIntType())
	case "agg":
		add("a_sum", schema.BigIntType())
		add("a_max", schema.IntType())
		add("a_lnn", schema.StringType())
		add("a_cnt", schema.BigIntType())
	}
	return out
}

func (s *pwSpec) keyCols() []string {
	if s.partitioned {
		return []string{"p", "k"}
	}
	return []string{"k"}
}

func (s *pwSpec) options() map[string]string {
	o := map[string]string{
		"bucket":                    fmt.Sprint(s.bucket),
		"file.format":               s.format,
		"snapshot.num-retained.min": "1000",
		"snapshot.num-retained.max": "1000",
		// Small dynamic buckets, so that new buckets open as keys come.
		"dynamic-bucket.target-row-num": "9",
		// Java's writes compact now and then, as a streaming writer's do.
		"num-sorted-run.compaction-trigger": "3",
	}
	if s.dv {
		o["deletion-vectors.enabled"] = "true"
	}
	if s.changelog {
		o["changelog-producer"] = "input"
	}
	if s.bucket == -2 {
		o["postpone.default-bucket-num"] = "2"
	}
	switch s.engine {
	case "dedup":
		if s.seqField {
			o["sequence.field"] = "ts"
		}
	case "first":
		o["merge-engine"] = "first-row"
		o["ignore-delete"] = "true"
	case "partial":
		o["merge-engine"] = "partial-update"
		o["fields.g1.sequence-group"] = "pa,pb"
		o["fields.g2.sequence-group"] = "pc,pd"
		o["fields.pc.aggregate-function"] = "sum"
	case "agg":
		o["merge-engine"] = "aggregation"
		o["fields.a_sum.aggregate-function"] = "sum"
		o["fields.a_cnt.aggregate-function"] = "sum"
		o["fields.a_max.aggregate-function"] = "max"
		o["fields.a_max.ignore-retract"] = "true"
		o["fields.a_lnn.aggregate-function"] = "last_non_null_value"
		o["fields.a_lnn.ignore-retract"] = "true"
	}
	return o
}

func (s *pwSpec) newModel() pwModel {
	switch s.engine {
	case "dedup":
		seq := ""
		if s.seqField {
			seq = "ts"
		}
		return &pwDedup{seqField: seq, win: map[string]pwVersion{}}
	case "first":
		return &pwFirst{first: map[string]map[string]any{}}
	case "partial":
		return &pwPartial{state: map[string]map[string]any{}, keyCols: s.keyCols(), inserted: map[string]bool{}}
	case "agg":
		return &pwAgg{state: map[string]map[string]any{}, keyCols: s.keyCols(), inserted: map[string]bool{}}
	}
	panic(s.engine)
}

// --- workloads ---------------------------------------------------------------

// pwGen generates the writes of one table: inserts of new keys, updates
// (+U alone, or -U old +U new as change data capture writes them), deletes
// and re-inserts, each consistent with what its engine can merge
// deterministically whatever Java's compactions do.
type pwGen struct {
	spec  *pwSpec
	model pwModel
	keys  []map[string]any // the key space
	// last holds each key's last inserted values (what a -U or -D
	// retracts), absent for keys never inserted or deleted.
	last map[string]map[string]any
	ever map[string]bool // inserted at least once
	seq  int64           // sequence-field and sequence-group clock
}

func newPWGen(s *pwSpec, nkeys int) *pwGen {
	g := &pwGen{spec: s, model: s.newModel(), last: map[string]map[string]any{}, ever: map[string]bool{}, seq: 1000}
	for i := range nkeys {
		k := map[string]any{"k": int32(i*7 - 90)}
		if s.partitioned {
			k["p"] = []string{"a", "b", "ü"}[i%3]
		}
		g.keys = append(g.keys, k)
	}
	return g
}

func (g *pwGen) keyString(k map[string]any) string { return fmt.Sprint(k["p"], "/", k["k"]) }

// commit returns the rows of one commit, and applies them to the model.
func (g *pwGen) commit(r *rand.Rand, n int) []pwRow {
	var out []pwRow
	for len(out) < n {
		k := g.keys[r.IntN(len(g.keys))]
		for _, row := range g.op(r, k) {
			g.model.apply(g.keyString(k), row)
			out = append(out, row)
		}
	}
	return out
}

func (g *pwGen) withKey(k map[string]any, vals map[string]any) map[string]any {
	out := maps(vals)
	for c, v := range k {
		out[c] = v
	}
	return out
}

func maps(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// op generates the rows of one operation on key k.
func (g *pwGen) op(r *rand.Rand, k map[string]any) []pwRow {
	ks := g.keyString(k)
	last, live := g.last[ks]
	g.seq += 1 + int64(r.IntN(3))
	emit := func(kind string, vals map[string]any) pwRow {
		if kind == "+I" || kind == "+U" {
			g.last[ks] = vals
			g.ever[ks] = true
		}
		return pwRow{kind: kind, vals: g.withKey(k, vals)}
	}
	switch g.spec.engine {
	case "dedup", "first":
		vals := func(ts int64) map[string]any {
			m := map[string]any{"v": r.Int64N(1 << 40), "ts": ts}
			if r.IntN(5) > 0 {
				m["s"] = fmt.Sprintf("s%d", r.IntN(1000))
			}
			return m
		}
		if g.spec.engine == "first" {
			// Retractions are written too; ignore-delete drops them.
			if live && r.IntN(4) == 0 {
				return []pwRow{emit("-D", last)}
			}
			return []pwRow{emit([]string{"+I", "+U"}[r.IntN(2)], vals(g.seq))}
		}
		switch {
		case !live:
			return []pwRow{emit("+I", vals(g.seq))}
		case r.IntN(5) == 0:
			delete(g.last, ks)
			return []pwRow{{kind: "-D", vals: g.withKey(k, pwWithTS(last, g.seq))}}
		case r.IntN(3) == 0:
			old := pwRow{kind: "-U", vals: g.withKey(k, pwWithTS(last, g.seq))}
			g.seq++
			return []pwRow{old, emit("+U", vals(g.seq))}
		}
		ts := g.seq
		if g.spec.seqField && r.IntN(4) == 0 {
			// An out-of-order write: older than the live version, it loses.
			// (Never against a winning delete: compaction drops those.)
			if win, ins, ok := g.model.(*pwDedup).winner(ks); ok && ins && win != nil {
				ts = win.(int64) - 1 - int64(r.IntN(3))
				ret := pwRow{kind: []string{"+I", "+U"}[r.IntN(2)], vals: g.withKey(k, vals(ts))}
				return []pwRow{ret}
			}
		}
		return []pwRow{emit([]string{"+I", "+U"}[r.IntN(2)], vals(ts))}
	case "agg":
		vals := func() map[string]any {
			m := map[string]any{"a_cnt": int64(1)}
			if r.IntN(6) > 0 {
				m["a_sum"] = int64(r.IntN(2000) - 1000)
			}
			if r.IntN(6) > 0 {
				m["a_max"] = int32(r.IntN(100) - 50)
			}
			if r.IntN(3) > 0 {
				m["a_lnn"] = fmt.Sprintf("l%d", r.IntN(100))
			}
			return m
		}
		switch {
		case !live:
			return []pwRow{emit("+I", vals())}
		case r.IntN(5) == 0:
			delete(g.last, ks)
			return []pwRow{{kind: "-D", vals: g.withKey(k, last)}}
		case r.IntN(3) == 0:
			return []pwRow{{kind: "-U", vals: g.withKey(k, last)}, emit("+U", vals())}
		}
		return []pwRow{emit("+I", vals())}
	case "partial":
		groups := func() map[string]any {
			m := map[string]any{}
			if r.IntN(4) > 0 {
				m["g1"] = g.seq - int64(r.IntN(4)) // now and then older than the row's
				if r.IntN(5) > 0 {
					m["pa"] = fmt.Sprintf("a%d", r.IntN(100))
				}
				if r.IntN(5) > 0 {
					m["pb"] = int32(r.IntN(100))
				}
			}
			if r.IntN(4) > 0 {
				m["g2"] = g.seq - int64(r.IntN(4))
				if r.IntN(5) > 0 {
					m["pc"] = int64(r.IntN(200) - 100)
				}
				if r.IntN(5) > 0 {
					m["pd"] = fmt.Sprintf("d%d", r.IntN(100))
				}
			}
			if r.IntN(3) > 0 {
				m["pe"] = int64(r.IntN(1000))
			}
			return m
		}
		if live && r.IntN(6) == 0 {
			// A delete retracts the groups at a newer sequence. It carries
			// no pc: when a merge starts with a retraction, Java initializes
			// the row from it (PartialUpdateMergeFunction.initRow) before
			// retracting, so a retracted sum would depend on how the
			// writer's buffer and each compaction group the versions.
			d := maps(last)
			d["g1"], d["g2"] = g.seq, g.seq
			delete(d, "pc")
			delete(g.last, ks)
			return []pwRow{{kind: "-D", vals: g.withKey(k, d)}}
		}
		return []pwRow{emit([]string{"+I", "+U"}[r.IntN(2)], groups())}
	}
	panic(g.spec.engine)
}

func pwWithTS(m map[string]any, ts int64) map[string]any {
	out := maps(m)
	out["ts"] = ts
	return out
}

// lines renders rows as sorted canon-v1 lines of the table's fields.
func pwLines(fields []schema.DataField, rows []map[string]any) ([]string, error) {
	var out []string
	for _, r := range rows {
		vals := make([]any, len(fields))
		for i, f := range fields {
			vals[i] = r[f.Name]
		}
		b, err := canon.EncodeRow(fields, vals)
		if err != nil {
			return nil, err
		}
		out = append(out, string(b))
	}
	sort.Strings(out)
	return out, nil
}

// pwAuditLines renders written rows as the audit log renders them: a
// rowkind column first.
func pwAuditLines(fields []schema.DataField, rows []pwRow) ([]string, error) {
	af := append([]schema.DataField{schema.NewField(-1, "rowkind", schema.StringType())}, fields...)
	var out []string
	for _, r := range rows {
		vals := []any{r.kind}
		for _, f := range fields {
			vals = append(vals, r.vals[f.Name])
		}
		b, err := canon.EncodeRow(af, vals)
		if err != nil {
			return nil, err
		}
		out = append(out, string(b))
	}
	sort.Strings(out)
	return out, nil
}
