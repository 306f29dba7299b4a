package interop_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/paimon/predicate"
)

// Filters whose results depend on the statistics our writer stores: Java
// prunes partitions, manifests, data files and row groups by them before it
// tests rows, so a wrong minimum, maximum or null count makes rows that
// match go missing.

// wtFilter is one comparison of a column with a literal.
type wtFilter struct {
	col, op string
	lit     any // Go value (as canon.DecodeValue returns it)
	// arg is the dump's --filter argument: column, operator and the
	// canon-v1 JSON literal.
	arg  string
	pred *predicate.Predicate
}

func (f wtFilter) String() string { return f.arg }

var wtOps = map[string]func(string, any) *predicate.Predicate{
	"=": predicate.Equal, "!=": predicate.NotEqual, "<": predicate.LessThan, "<=": predicate.LessOrEqual,
	">": predicate.GreaterThan, ">=": predicate.GreaterOrEqual,
}

func newWTFilter(t *testing.T, f schema.DataField, op string, lit any) wtFilter {
	t.Helper()
	j, err := canon.EncodeValue(f.Type, lit)
	require.NoError(t, err)
	return wtFilter{col: f.Name, op: op, lit: lit, arg: fmt.Sprintf("%s %s %s", f.Name, op, wtJSON(j)),
		pred: wtOps[op](f.Name, lit)}
}

// wtExtreme returns the largest (max) or smallest value of column i among
// rows, by the reference evaluator's order, and whether there is one.
func wtExtreme(t *testing.T, fields []schema.DataField, rows []wtRow, i int, max bool) (any, bool) {
	t.Helper()
	op := "<"
	if max {
		op = ">"
	}
	var best any
	var beats *predicate.Bound
	for _, r := range rows {
		v := r.vals[i]
		if v == nil || isNaN(v) {
			continue
		}
		if best == nil || beats.Test(r.vals) {
			best = v
			var err error
			beats, err = predicate.Bind(wtOps[op](fields[i].Name, v), fields)
			require.NoError(t, err)
		}
	}
	return best, best != nil
}

func isNaN(v any) bool {
	switch x := v.(type) {
	case float32:
		return x != x
	case float64:
		return x != x
	}
	return false
}

// wtNearExtreme returns a value of column i with only a few values beyond
// it (on the max side or the min side): a literal where the files whose
// statistics end before it can be pruned.
func wtNearExtreme(t *testing.T, r *rand.Rand, m *wtModel, i int, max bool) (any, bool) {
	t.Helper()
	rest := slices.Clone(m.rows)
	// Drop the extreme a few times; what remains has the wanted value as its
	// extreme.
	var v any
	for k := 1 + r.IntN(4); k > 0; k-- {
		e, ok := wtExtreme(t, m.fields, rest, i, max)
		if !ok {
			break
		}
		v = e
		b, err := predicate.Bind(predicate.Equal(m.fields[i].Name, e), m.fields)
		require.NoError(t, err)
		rest = slices.DeleteFunc(rest, func(x wtRow) bool { return b.Test(x.vals) })
	}
	return v, v != nil
}

// genFilters returns the filters checked on a table: near the extremes of
// each column for random data, and at the edges of a commit's window for
// windowed data.
func (wt *wtTable) genFilters(t *testing.T, r *rand.Rand) []wtFilter {
	t.Helper()
	m := wt.model
	var out []wtFilter
	add := func(i int, op string, v any, ok bool) {
		if ok {
			out = append(out, newWTFilter(t, m.fields[i], op, v))
		}
	}
	cols := wt.spec.filterCols
	if n := wt.spec.filterSample; n > 0 && n < len(cols) {
		cols = slices.Clone(cols)
		r.Shuffle(len(cols), func(a, b int) { cols[a], cols[b] = cols[b], cols[a] })
		cols = cols[:n]
	}
	for _, c := range cols {
		i := m.col(t, c)
		f := m.fields[i]
		randomValue := func() (any, bool) {
			for range 50 {
				if v := m.rows[r.IntN(len(m.rows))].vals[i]; v != nil && !isNaN(v) {
					return v, true
				}
			}
			return nil, false
		}
		if wt.spec.windowed {
			commits := len(wt.spec.commits)
			k := 1 + r.IntN(commits-2)
			var in []wtRow
			for _, row := range m.rows {
				if row.commit == k {
					in = append(in, row)
				}
			}
			hi, okHi := wtExtreme(t, m.fields, in, i, true)
			lo, okLo := wtExtreme(t, m.fields, in, i, false)
			// Three of the five comparisons, drawn per column and run.
			kinds := []string{">", ">=", "<", "<=", "="}
			r.Shuffle(len(kinds), func(a, b int) { kinds[a], kinds[b] = kinds[b], kinds[a] })
			for _, op := range kinds[:3] {
				switch op {
				case ">", ">=":
					add(i, op, hi, okHi)
				case "<", "<=":
					add(i, op, lo, okLo)
				default:
					v, ok := randomValue()
					add(i, op, v, ok)
				}
			}
			continue
		}
		if f.Type.Root == schema.Boolean {
			add(i, "=", r.IntN(2) == 0, true)
			add(i, "!=", true, true)
			continue
		}
		v, ok := wtNearExtreme(t, r, m, i, true)
		add(i, ">", v, ok)
		v, ok = wtNearExtreme(t, r, m, i, false)
		add(i, "<=", v, ok)
		if r.IntN(2) == 0 {
			v, ok = randomValue()
			add(i, "=", v, ok)
		}
	}
	return out
}

// eqFilters returns "=" filters on the bucket-key columns, with literals
// from the rows of every writer (ours, Java's, ours again), so that Java's
// bucket pruning must find each writer's rows.
func (wt *wtTable) eqFilters(t *testing.T, r *rand.Rand, m *wtModel) []wtFilter {
	t.Helper()
	var out []wtFilter
	for _, c := range wt.spec.eqCols {
		i := m.col(t, c)
		seen := map[string]bool{}
		for _, commit := range []int{0, wt.javaCommit, wt.goAfterCommit} {
			var in []wtRow
			for _, row := range m.rows {
				if row.commit == commit && row.vals[i] != nil {
					in = append(in, row)
				}
			}
			for range 2 {
				if len(in) == 0 {
					break
				}
				row := in[r.IntN(len(in))]
				f := newWTFilter(t, m.fields[i], "=", row.vals[i])
				if !seen[f.arg] {
					seen[f.arg] = true
					out = append(out, f)
				}
			}
		}
	}
	return out
}

// javaUnsignedBytes reports whether a Java Paimon version compares BINARY
// values as unsigned bytes: 2.0.0 changed CompareUtils.compare(byte[],
// byte[]) from signed (1.4.2, which predicate.Bound.Test mirrors) to
// unsigned.
func javaUnsignedBytes(version string) bool { return !strings.HasPrefix(version, "1.") }

// wantFor returns the rows Java version must return for f: the reference
// evaluator's, except for BINARY comparisons under Java's unsigned order.
func (m *wtModel) wantFor(t *testing.T, f wtFilter, version string) []string {
	t.Helper()
	lit, isBytes := f.lit.([]byte)
	if !isBytes || f.op == "=" || f.op == "!=" || !javaUnsignedBytes(version) {
		return m.filter(t, f.pred)
	}
	i := m.col(t, f.col)
	var out []string
	for _, r := range m.rows {
		v, ok := r.vals[i].([]byte)
		if !ok {
			continue
		}
		c := bytes.Compare(v, lit)
		if f.op == "<" && c < 0 || f.op == "<=" && c <= 0 || f.op == ">" && c > 0 || f.op == ">=" && c >= 0 {
			out = append(out, r.line)
		}
	}
	sort.Strings(out)
	return out
}
