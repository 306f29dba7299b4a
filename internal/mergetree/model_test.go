package mergetree_test

import (
	"flag"
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/internal/mergefunc"
	"github.com/paimon-go/paimon-go/internal/mergetree"
)

var (
	modelSeed  = flag.Uint64("mergetree.seed", 0, "seed of TestReadModel (0: time-based)")
	modelCases = flag.Int("mergetree.cases", 2000, "number of TestReadModel cases (4 merge functions each)")
)

// modelConfig is a table shape of the model test.
type modelConfig struct {
	name string
	ts   *schema.TableSchema
	// key draws a random trimmed primary key.
	key func(r *rand.Rand) []any
	// seqField is the index of the sequence.field column, or -1.
	seqField int
	desc     bool
}

func buildSchema(t testing.TB, b *schema.SchemaBuilder) *schema.TableSchema {
	t.Helper()
	s, err := b.Build()
	require.NoError(t, err)
	ts, err := schema.NewTableSchema(0, s, 0)
	require.NoError(t, err)
	return ts
}

// Small alphabets keep collisions (several versions of a key) frequent and
// put bytes >= 0x80 next to ASCII, where signed and unsigned orders differ.
var (
	strAlphabet = []string{"a", "b", "z", "é", "\u007f", "ÿ", "0"}
	binAlphabet = []byte{0x00, 0x01, 0x7f, 0x80, 0xff}
)

func randString(r *rand.Rand) string {
	n := r.IntN(4)
	s := ""
	for range n {
		s += strAlphabet[r.IntN(len(strAlphabet))]
	}
	return s
}

func randBytes(r *rand.Rand) []byte {
	b := make([]byte, r.IntN(4))
	for i := range b {
		b[i] = binAlphabet[r.IntN(len(binAlphabet))]
	}
	return b
}

func modelConfigs(t testing.TB) []modelConfig {
	valueCols := func(b *schema.SchemaBuilder) *schema.SchemaBuilder {
		return b.Column("v", schema.IntType()).Column("s", schema.StringType()).Column("sf", schema.BigIntType())
	}
	intKey := buildSchema(t, valueCols(schema.NewSchemaBuilder().Column("k", schema.IntType())).PrimaryKey("k"))
	strKey := buildSchema(t, valueCols(schema.NewSchemaBuilder().Column("k", schema.StringType())).PrimaryKey("k"))
	composite := buildSchema(t, valueCols(schema.NewSchemaBuilder().
		Column("k1", schema.IntType()).Column("k2", schema.StringType())).PrimaryKey("k1", "k2"))
	wide := buildSchema(t, valueCols(schema.NewSchemaBuilder().
		Column("kb", schema.BooleanType()).Column("kd", schema.DateType()).
		Column("kdec", schema.DecimalType(20, 3)).Column("kbin", schema.BytesType()).
		Column("kts", schema.TimestampType(6)).Column("kbig", schema.BigIntType())).
		PrimaryKey("kb", "kd", "kdec", "kbin", "kts", "kbig"))
	partitioned := buildSchema(t, valueCols(schema.NewSchemaBuilder().
		Column("p", schema.StringType()).Column("k", schema.IntType())).
		PartitionKeys("p").PrimaryKey("p", "k"))

	intGen := func(r *rand.Rand) []any { return []any{int32(r.IntN(40) - 20)} }
	return []modelConfig{
		{name: "int", ts: intKey, key: intGen, seqField: -1},
		{name: "string", ts: strKey, key: func(r *rand.Rand) []any { return []any{randString(r)} }, seqField: -1},
		{name: "composite", ts: composite, seqField: -1, key: func(r *rand.Rand) []any {
			return []any{int32(r.IntN(5)), randString(r)}
		}},
		{name: "wide", ts: wide, seqField: -1, key: func(r *rand.Rand) []any {
			return []any{
				r.IntN(2) == 0,
				int32(r.IntN(3) - 1),
				data.Decimal{Unscaled: big.NewInt(int64(r.IntN(5) - 2)), Precision: 20, Scale: 3},
				randBytes(r),
				data.TimestampFromMicros(int64(r.IntN(3)-1) * 999),
				[]int64{-1 << 63, -1, 0, 1<<63 - 1}[r.IntN(4)],
			}
		}},
		{name: "partitioned", ts: partitioned, seqField: -1, key: intGen},
		{name: "int-seqfield", ts: intKey, key: intGen, seqField: intKey.FieldIndex("sf")},
		{name: "composite-seqfield-desc", ts: composite, seqField: composite.FieldIndex("sf"), desc: true, key: func(r *rand.Rand) []any {
			return []any{int32(r.IntN(4)), randString(r)}
		}},
	}
}

// modelCase is one random bucket: sorted runs of files of KeyValue rows.
type modelCase struct {
	cfg       modelConfig
	runs      [][][]kv // runs → files → rows (keys strictly increasing per run)
	fileBatch int
	outBatch  int
	keep      bool
}

func randKind(r *rand.Rand) data.RowKind {
	switch x := r.IntN(20); {
	case x < 11:
		return data.Insert
	case x < 14:
		return data.UpdateAfter
	case x < 16:
		return data.UpdateBefore
	}
	return data.Delete
}

// genCase draws a case: distinct sequence numbers across the bucket (as a
// bucket's writer guarantees), random kinds and values.
func genCase(r *rand.Rand, cfg modelConfig) modelCase {
	kc, err := mergetree.NewKeyComparator(keyTypesOf(cfg.ts))
	if err != nil {
		panic(err)
	}
	c := modelCase{cfg: cfg, fileBatch: 1 + r.IntN(6), outBatch: 1 + r.IntN(8), keep: r.IntN(3) == 0}
	seqs := r.Perm(10_000)
	next := 0
	nRuns := 1 + r.IntN(5)
	for range nRuns {
		// Distinct keys of the run, sorted.
		var keys [][]any
		for range r.IntN(14) {
			k := cfg.key(r)
			if !slices.ContainsFunc(keys, func(o []any) bool { return kc.Compare(o, k) == 0 }) {
				keys = append(keys, k)
			}
		}
		if len(keys) == 0 {
			continue
		}
		slices.SortFunc(keys, kc.Compare)
		var rows []kv
		for _, k := range keys {
			rows = append(rows, kv{seq: int64(seqs[next]), kind: randKind(r), values: rowValues(r, cfg, k)})
			next++
		}
		// Cut the run into 1-3 files.
		var files [][]kv
		for len(rows) > 0 {
			n := 1 + r.IntN(len(rows))
			if r.IntN(3) == 0 {
				n = len(rows)
			}
			files = append(files, rows[:n])
			rows = rows[n:]
		}
		c.runs = append(c.runs, files)
	}
	return c
}

func keyTypesOf(ts *schema.TableSchema) []schema.DataType { return keyTypes(ts) }

// rowValues builds a value row around a key: trimmed key fields from key,
// partition field "x", v/s/sf random.
func rowValues(r *rand.Rand, cfg modelConfig, key []any) []any {
	ts := cfg.ts
	vals := make([]any, len(ts.Fields))
	for i, f := range ts.TrimmedPrimaryKeyFields() {
		vals[ts.FieldIndexByID(f.ID)] = key[i]
	}
	for i, f := range ts.Fields {
		switch f.Name {
		case "p":
			vals[i] = "x"
		case "v":
			if r.IntN(4) > 0 {
				vals[i] = int32(r.IntN(100))
			}
		case "s":
			if r.IntN(4) > 0 {
				vals[i] = randString(r)
			}
		case "sf":
			if r.IntN(4) > 0 {
				vals[i] = int64(r.IntN(4))
			}
		}
	}
	return vals
}

// engine is a merge function with its reference semantics.
type engine struct {
	name    string
	factory mergefunc.Factory
	// reduce computes the reference result of a key's versions (two or
	// more, in merge order); nil means no row.
	reduce func(ts *schema.TableSchema, versions []kv) *kv
}

func engines(ts *schema.TableSchema) []engine {
	vIdx := ts.FieldIndex("v")
	last := func(_ *schema.TableSchema, vs []kv) *kv { return &vs[len(vs)-1] }
	return []engine{
		{"dedup-selector", dedupFactory(), last},
		{"dedup-values", hiddenDedupFactory(), last},
		{"first-row-selector", factory(func() mergefunc.Function { return &firstRowFunc{} }), func(_ *schema.TableSchema, vs []kv) *kv {
			for i := range vs {
				if !vs[i].kind.IsRetract() {
					return &vs[i]
				}
			}
			return nil
		}},
		{"sum", factory(func() mergefunc.Function { return &sumFunc{field: vIdx} }), func(_ *schema.TableSchema, vs []kv) *kv {
			out := vs[len(vs)-1]
			out.values = slices.Clone(out.values)
			out.values[vIdx] = nil
			var sum int32
			for _, v := range vs {
				if x, ok := v.values[vIdx].(int32); ok {
					sum += x
					out.values[vIdx] = sum
				}
			}
			return &out
		}},
	}
}

// expected is the sort-and-reduce reference: every version sorted by (key,
// sequence field, sequence number), grouped by key; a lone version passes
// unchanged, a group is reduced by the engine; retractions are dropped
// unless kept.
func (c *modelCase) expected(t testing.TB, e engine) []kv {
	ts := c.cfg.ts
	kc, err := mergetree.NewKeyComparator(keyTypes(ts))
	require.NoError(t, err)
	var all []kv
	for _, run := range c.runs {
		for _, f := range run {
			all = append(all, f...)
		}
	}
	seqCmp := func(a, b kv) int {
		if c.cfg.seqField < 0 {
			return 0
		}
		x, y := a.values[c.cfg.seqField], b.values[c.cfg.seqField]
		switch {
		case x == nil && y == nil:
			return 0
		case x == nil:
			return -1 // NULL first in both directions
		case y == nil:
			return 1
		}
		r := 0
		if x.(int64) < y.(int64) {
			r = -1
		} else if x.(int64) > y.(int64) {
			r = 1
		}
		if c.cfg.desc {
			r = -r
		}
		return r
	}
	slices.SortStableFunc(all, func(a, b kv) int {
		if r := kc.Compare(keyOf(ts, a.values), keyOf(ts, b.values)); r != 0 {
			return r
		}
		if r := seqCmp(a, b); r != 0 {
			return r
		}
		return int(a.seq - b.seq)
	})
	var out []kv
	for lo := 0; lo < len(all); {
		hi := lo + 1
		for hi < len(all) && kc.Compare(keyOf(ts, all[lo].values), keyOf(ts, all[hi].values)) == 0 {
			hi++
		}
		var res *kv
		if hi-lo == 1 {
			res = &all[lo]
		} else {
			res = e.reduce(ts, all[lo:hi])
		}
		if res != nil && (c.keep || !res.kind.IsRetract()) {
			out = append(out, *res)
		}
		lo = hi
	}
	return out
}

// run feeds the case to Read, files in random order. The checked
// allocator, which records a stack per allocation, watches one case in
// eight.
func (c *modelCase) run(t testing.TB, r *rand.Rand, e engine) ([]string, error) {
	var mem memory.Allocator = memcheck.New()
	if r.IntN(8) == 0 {
		checked := memory.NewCheckedAllocator(mem)
		defer checked.AssertSize(t, 0)
		mem = checked
	}
	m := newMemTable(c.cfg.ts)
	defer m.release()
	var files []manifest.DataFileMeta
	for i, run := range c.runs {
		for j, f := range run {
			files = append(files, m.addFile(t, mem, fmt.Sprintf("run%d-file%d", i, j), f, c.fileBatch))
		}
	}
	r.Shuffle(len(files), func(i, j int) { files[i], files[j] = files[j], files[i] })
	opts := &mergetree.Options{
		Schema:             c.cfg.ts,
		Merge:              e.factory,
		SequenceDescending: c.cfg.desc,
		KeepDeletes:        c.keep,
		BatchSize:          c.outBatch,
		Allocator:          mem,
		// Half the cases read their runs ahead on goroutines of their own.
		ReadAhead: []int{0, 0, 1, 3}[r.IntN(4)],
	}
	if c.cfg.seqField >= 0 {
		opts.SequenceFields = []int{c.cfg.seqField}
	}
	return readAll(t, files, m.open, opts)
}

func (c *modelCase) String() string {
	s := fmt.Sprintf("config %s, keep %v, file batch %d, out batch %d\n", c.cfg.name, c.keep, c.fileBatch, c.outBatch)
	for i, run := range c.runs {
		for j, f := range run {
			s += fmt.Sprintf("  run %d file %d:", i, j)
			for _, row := range f {
				line, _ := canon.EncodeRow(c.cfg.ts.Fields, row.values)
				s += fmt.Sprintf(" [%d %s %s]", row.seq, row.kind, line)
			}
			s += "\n"
		}
	}
	return s
}

// TestReadModel checks Read against the sort-and-reduce reference on
// thousands of random buckets. Rerun a failure with -mergetree.seed.
func TestReadModel(t *testing.T) {
	seed := *modelSeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	t.Logf("seed %d (rerun with -mergetree.seed=%d)", seed, seed)
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	cfgs := modelConfigs(t)
	n := *modelCases
	if testing.Short() {
		n /= 10
	}
	for i := range n {
		cfg := cfgs[i%len(cfgs)]
		c := genCase(r, cfg)
		for _, e := range engines(cfg.ts) {
			want := renderRows(t, cfg.ts, c.keep, c.expected(t, e))
			got, err := c.run(t, r, e)
			require.NoError(t, err, "case %d engine %s seed %d\n%s", i, e.name, seed, &c)
			if !slices.Equal(want, got) {
				t.Fatalf("case %d engine %s seed %d\n%s%s", i, e.name, seed, &c, diff(want, got))
			}
		}
	}
}
