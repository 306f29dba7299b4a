package interop_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/paimon/predicate"
)

// The expected content of a table: every row any writer (ours or Java's)
// committed and no reader has seen yet, as Go values and canon-v1 lines.

// wtRow is one row: its canon-v1 object (what a Java plan carries), its
// Go values (what our writer writes and the predicates test) and its
// canonical line (what dumps and our scan print).
type wtRow struct {
	obj     map[string]any
	vals    []any
	line    string
	commit  int   // the commit (ours or Java's) that wrote it
	written []any // what our writer writes, when it differs from vals (ORC)
}

// writeVals are the values our writer writes for the row.
func (r wtRow) writeVals() []any {
	if r.written != nil {
		return r.written
	}
	return r.vals
}

// wtModel is the multiset of rows a table holds.
type wtModel struct {
	fields []schema.DataField
	rows   []wtRow
}

func (m *wtModel) clone() *wtModel {
	return &wtModel{fields: m.fields, rows: slices.Clone(m.rows)}
}

// lines returns the sorted canonical lines.
func (m *wtModel) lines() []string {
	out := make([]string, len(m.rows))
	for i, r := range m.rows {
		out[i] = r.line
	}
	sort.Strings(out)
	return out
}

func (m *wtModel) col(t *testing.T, name string) int {
	t.Helper()
	i := slices.IndexFunc(m.fields, func(f schema.DataField) bool { return f.Name == name })
	require.GreaterOrEqual(t, i, 0, "no column %s", name)
	return i
}

// filter returns the sorted lines of the rows p matches, by the reference
// evaluator predicate.Bound.Test (Java's row-wise semantics).
func (m *wtModel) filter(t *testing.T, p *predicate.Predicate) []string {
	t.Helper()
	b, err := predicate.Bind(p, m.fields)
	require.NoError(t, err)
	var out []string
	for _, r := range m.rows {
		if b.Test(r.vals) {
			out = append(out, r.line)
		}
	}
	sort.Strings(out)
	return out
}

// removePartitions drops the rows of the partitions the specs name (Java
// partition specs: strings, the default partition name for NULL; a spec may
// name a prefix of the partition keys) and returns how many it dropped.
func (m *wtModel) removePartitions(t *testing.T, specs ...map[string]string) int {
	t.Helper()
	kept := m.rows[:0:0]
	for _, r := range m.rows {
		if !slices.ContainsFunc(specs, func(s map[string]string) bool { return m.inPartition(t, r, s) }) {
			kept = append(kept, r)
		}
	}
	n := len(m.rows) - len(kept)
	m.rows = kept
	return n
}

// inPartition reports whether row r lies in the partition spec names.
func (m *wtModel) inPartition(t *testing.T, r wtRow, spec map[string]string) bool {
	t.Helper()
	for k, want := range spec {
		v := r.obj[k]
		if want == wtDefaultPartition {
			if v != nil {
				return false
			}
			continue
		}
		if v == nil || wtPartitionString(t, m.fields[m.col(t, k)].Type, v) != want {
			return false
		}
	}
	return true
}

// wtDefaultPartition is Java's partition.default-name.
const wtDefaultPartition = "__DEFAULT_PARTITION__"

// wtPartitionString renders a canon-v1 partition value as a partition spec
// string (only the types the specs of this test use).
func wtPartitionString(t *testing.T, typ schema.DataType, v any) string {
	t.Helper()
	switch typ.Root {
	case schema.Char, schema.VarChar:
		return v.(string)
	case schema.TinyInt, schema.SmallInt, schema.Int, schema.BigInt:
		return fmt.Sprint(v)
	}
	t.Fatalf("no partition spec string for %s", typ)
	return ""
}

// wtCanonLine renders values as the line canon.Canonicalize gives.
func wtCanonLine(t *testing.T, fields []schema.DataField, vals []any) string {
	t.Helper()
	b, err := canon.EncodeRow(fields, vals)
	require.NoError(t, err)
	line, err := canon.Canonicalize(b)
	require.NoError(t, err)
	return line
}

// wtRowGen generates the rows of one table.
type wtRowGen struct {
	r      *rand.Rand
	spec   *wtSpec
	fields []schema.DataField
	nextID int64
}

// rows returns n new rows for commit c; force pins columns to partition
// spec values (an overwrite's rows must lie in its partition).
func (g *wtRowGen) rows(t *testing.T, n, c int, force map[string]string) []wtRow {
	t.Helper()
	out := make([]wtRow, n)
	for i := range out {
		obj := map[string]any{}
		for _, f := range g.fields {
			var v any
			switch gen, ok := g.spec.gens[f.Name]; {
			case ok:
				v = gen(g.r, c)
			case f.Name == "id":
				g.nextID++
				v = g.nextID
			default:
				v = wtRandomValue(g.r, f.Type, 8)
			}
			if s, ok := force[f.Name]; ok {
				v = wtSpecValue(t, f.Type, s)
			}
			if v == nil && !f.Type.Nullable {
				v = wtRandomValue(g.r, f.Type, 0)
			}
			obj[f.Name] = v
		}
		out[i] = wtNewRow(t, g.fields, obj, c)
		if strings.EqualFold(g.spec.options["file.format"], "orc") {
			out[i] = wtORCStored(t, g.fields, out[i])
		}
	}
	return out
}

// wtORCStored turns a row into what every reader returns from an ORC file,
// Java's or ours: CHAR values without trailing spaces (Java's writer pads
// them, its reader trims), and timestamps whose epoch milliseconds are in
// [-999, -1] one second later (Java's writer truncates the seconds toward
// zero; format/orc's does the same). The written values stay the
// generated ones.
func wtORCStored(t *testing.T, fields []schema.DataField, r wtRow) wtRow {
	t.Helper()
	stored := make([]any, len(r.vals))
	for i, f := range fields {
		stored[i] = orcStoredValue(f.Type, r.vals[i])
	}
	r.written = r.vals
	r.vals = stored
	r.line = wtCanonLine(t, fields, stored)
	return r
}

func orcStoredValue(t schema.DataType, v any) any {
	if v == nil {
		return nil
	}
	switch t.Root {
	case schema.Char:
		return strings.TrimRight(v.(string), " ")
	case schema.Timestamp, schema.TimestampLTZ:
		ts := v.(data.Timestamp)
		if ts.Millis >= -999 && ts.Millis <= -1 {
			ts.Millis += 1000
		}
		return ts
	case schema.Array:
		in := v.([]any)
		out := make([]any, len(in))
		for i, e := range in {
			out[i] = orcStoredValue(*t.Element, e)
		}
		return out
	case schema.Map, schema.Multiset:
		m := v.(data.Map)
		kt, vt := t.Key, t.Value
		if t.Root == schema.Multiset {
			kt, vt = t.Element, nil
		}
		out := data.Map{Keys: make([]any, len(m.Keys)), Values: slices.Clone(m.Values)}
		for i := range m.Keys {
			out.Keys[i] = orcStoredValue(*kt, m.Keys[i])
			if vt != nil {
				out.Values[i] = orcStoredValue(*vt, m.Values[i])
			}
		}
		return out
	case schema.Row:
		in := v.([]any)
		out := make([]any, len(in))
		for i, f := range t.Fields {
			out[i] = orcStoredValue(f.Type, in[i])
		}
		return out
	}
	return v
}

// wtSpecValue turns a partition spec string into a canon-v1 value.
func wtSpecValue(t *testing.T, typ schema.DataType, s string) any {
	t.Helper()
	if s == wtDefaultPartition {
		return nil
	}
	switch typ.Root {
	case schema.Char, schema.VarChar:
		return s
	case schema.TinyInt, schema.SmallInt, schema.Int, schema.BigInt:
		return json.Number(s)
	}
	t.Fatalf("no partition spec value for %s", typ)
	return nil
}

// wtNewRow decodes a canon-v1 object through its JSON text, as a dump line
// would be, and renders its canonical line.
func wtNewRow(t *testing.T, fields []schema.DataField, obj map[string]any, c int) wtRow {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	require.NoError(t, enc.Encode(obj))
	vals, err := canon.DecodeRow(fields, bytes.TrimSpace(buf.Bytes()))
	require.NoError(t, err, "row %s", buf.String())
	return wtRow{obj: obj, vals: vals, line: wtCanonLine(t, fields, vals), commit: c}
}

// wtJSON marshals v without HTML escaping.
func wtJSON(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return strings.TrimSuffix(buf.String(), "\n")
}
