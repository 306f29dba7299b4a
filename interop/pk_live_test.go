package interop_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/internal/interop"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/paimon"
)

// TestLivePrimaryKeyMatchesJava is the acceptance test of the LSM merge
// reader. Java Paimon (every installed version) applies randomized
// primary-key workloads — over 200,000 +I/-U/+U/-D rows in total, 20+
// commits per table, with full and normal Java compactions in between — and
// our scan must read exactly what Java reads, compared as multisets of
// canon-v1 rows: at the latest snapshot, at three older snapshots, through
// the audit log (latest and one older snapshot), with a projection and
// incrementally between snapshots. A scan that fails (for example with
// paimon.ErrUnsupported) fails the test. Every scan uses a checked allocator
// that must end at zero bytes.
//
// The tables cover every merge engine — deduplicate (plain, with
// sequence.field, with ignore-delete), partial-update (two sequence groups,
// one holding a sum), aggregation (sum, max, min, last_non_null_value,
// listagg, bool_or, collect, merge_map and the default function; once with
// retractions and ignore-retract, once with aggregation.remove-record-on-delete)
// and first-row (ignore-delete) — each with and without deletion vectors
// (first-row: Java refuses deletion vectors, so twice without), each in
// Parquet and in Avro, keyed by INT, by (region STRING partition, STRING) and
// by (BIGINT, STRING, DATE partition), with fixed buckets 2..4. Six of the
// fourteen tables also write changelog-producer=input changelog files.
//
// Incremental reads (WithIncremental against Java's incremental-between
// through the audit log, the dump's --incremental) are checked from the first
// snapshot and over a random range, in auto and delta mode, and on the tables
// with changelog-producer=input also in changelog mode.
//
// The workloads come from a logged seed; PAIMON_SEED=<n> replays a run.
func TestLivePrimaryKeyMatchesJava(t *testing.T) {
	runners := interop.RequireJava(t)
	seed := liveSeed(t)
	tables := genPKTables(seed)
	planDir := t.TempDir()
	total := 0
	for i := range tables {
		pt := &tables[i]
		b, err := json.Marshal(pt.plan)
		require.NoError(t, err)
		pt.planFile = filepath.Join(planDir, pt.plan.Table+".json")
		require.NoError(t, os.WriteFile(pt.planFile, b, 0o644))
		total += pt.ops
		require.GreaterOrEqual(t, pt.commits, 20, pt.plan.Table)
		t.Logf("%s: %d ops (%v) in %d commits, %d full and %d normal compactions, %d keys, plan %d KiB",
			pt.plan.Table, pt.ops, pt.kinds, pt.commits, pt.fullCompactions, pt.normalCompactions, pt.keys, len(b)>>10)
	}
	require.GreaterOrEqual(t, total, 200_000, "the test promises at least 200,000 operations")
	t.Logf("%d tables, %d operations", len(tables), total)
	// The JVMs live for a minute or two: C2 compilation costs them more CPU
	// than it saves (about a third of the apply's CPU time on two cores).
	t.Setenv("JAVA_TOOL_OPTIONS", strings.TrimSpace(os.Getenv("JAVA_TOOL_OPTIONS")+" -XX:TieredStopAtLevel=1"))
	ctx := context.Background()
	for _, r := range runners {
		t.Run(r.Name(), func(t *testing.T) {
			r.Timeout = 10 * time.Minute
			start := time.Now()
			wh := t.TempDir()
			require.NoError(t, pkApply(ctx, r, wh, tables))
			applied := time.Now()
			out := t.TempDir()
			var items []interop.BatchItem
			for i := range tables {
				items = append(items, tables[i].dumpItems(t, wh, out, seed+int64(i))...)
			}
			require.NoError(t, r.Batch(ctx, items))
			dumped := time.Now()
			fsys, err := localfs.New(wh, nil)
			require.NoError(t, err)
			for i := range tables {
				pt := &tables[i]
				t.Run(pt.plan.Table, func(t *testing.T) { pt.check(ctx, t, fsys, out, r.Version) })
			}
			t.Logf("Java apply %v, Java dumps %v (%d), Go checks %v", applied.Sub(start).Round(time.Millisecond),
				dumped.Sub(applied).Round(time.Millisecond), len(items), time.Since(dumped).Round(time.Millisecond))
		})
	}
}

// pkApply applies the plans in two JVMs running side by side (the harness
// machine has two cores), each applying its share of the tables in turn.
func pkApply(ctx context.Context, r *interop.Runner, wh string, tables []pkTable) error {
	const jvms = 2
	errs := make([]error, jvms)
	var wg sync.WaitGroup
	for w := range jvms {
		args := []string{"apply", wh}
		for i := w; i < len(tables); i += jvms {
			args = append(args, tables[i].planFile)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[w] = r.Run(ctx, args...)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// ---------------------------------------------------------------------------
// Plans. Types are SQL text or Paimon's JSON type objects (nested types).

type pkPlan struct {
	DB             string            `json:"db"`
	Table          string            `json:"table"`
	CatalogOptions map[string]string `json:"catalogOptions,omitempty"`
	Schema         pkSchema          `json:"schema"`
	Ops            []map[string]any  `json:"ops"`
}

type pkSchema struct {
	Fields        []pkField         `json:"fields"`
	PartitionKeys []string          `json:"partitionKeys"`
	PrimaryKeys   []string          `json:"primaryKeys"`
	Options       map[string]string `json:"options"`
	Comment       *string           `json:"comment"`
}

type pkField struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
	Type any    `json:"type"`
}

// pkCol generates the values of one column: gen returns a non-NULL canon-v1
// value for the commit with index c.
type pkCol struct {
	name  string
	typ   any
	nulls int // percent
	gen   func(r *rand.Rand, c int) any
}

func plain(f func(*rand.Rand) any) func(*rand.Rand, int) any {
	return func(r *rand.Rand, _ int) any { return f(r) }
}

func arrayOf(elem any) map[string]any { return map[string]any{"type": "ARRAY", "element": elem} }

func mapOf(key, value any) map[string]any {
	return map[string]any{"type": "MAP", "key": key, "value": value}
}

// genSequence generates sequence-field values that grow with the commit
// but overlap the neighbouring commits', so that later writes often carry
// smaller sequence numbers than earlier ones.
func genSequence(r *rand.Rand, c int) any { return int64(c*40 + r.IntN(100)) }

// genSmallInt draws from a few values, so that equal values (ties of max and
// min, repeated collect elements) are common.
func genSmallInt(lo, hi int64) func(*rand.Rand) any {
	return func(r *rand.Rand) any { return lo + r.Int64N(hi-lo+1) }
}

func genFiniteDouble(r *rand.Rand) any {
	return fmt.Sprintf("f64:%016x", math.Float64bits(math.Round(r.NormFloat64()*1e4)/8))
}

func genArray(n int, elem func(*rand.Rand) any) func(*rand.Rand) any {
	return func(r *rand.Rand) any {
		out := make([]any, r.IntN(n+1))
		for i := range out {
			out[i] = elem(r)
		}
		return out
	}
}

// genStringIntMap generates MAP<STRING, INT> values as canon-v1 pairs with
// distinct keys from a small set and now and then a NULL value.
func genStringIntMap(r *rand.Rand) any {
	keys := []string{"a", "b", "c", "d", "e", "ö", "中"}
	r.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	var out []any
	for _, k := range keys[:r.IntN(4)] {
		var v any = int64(r.IntN(100))
		if r.IntN(10) == 0 {
			v = nil
		}
		out = append(out, []any{k, v})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].([]any)[0].(string) < out[j].([]any)[0].(string) })
	if out == nil {
		out = []any{}
	}
	return out
}

// ---------------------------------------------------------------------------
// Key shapes.

// pkKeyShape is a primary key: its columns (NOT NULL, schema order), the
// partition columns among them, and a generator of distinct keys.
type pkKeyShape struct {
	name      string
	cols      []pkCol
	partition []string
	keys      func(r *rand.Rand, n int) []map[string]any
}

var pkShapes = []pkKeyShape{
	{
		name: "int",
		cols: []pkCol{{name: "k", typ: "INT NOT NULL"}},
		keys: func(r *rand.Rand, n int) []map[string]any {
			seen := map[int64]bool{}
			var out []map[string]any
			for _, k := range []int64{math.MinInt32, math.MaxInt32, 0, -1} {
				seen[k] = true
				out = append(out, map[string]any{"k": k})
			}
			for len(out) < n {
				k := int64(r.IntN(4*n)) - int64(2*n)
				if !seen[k] {
					seen[k] = true
					out = append(out, map[string]any{"k": k})
				}
			}
			return out
		},
	},
	{
		name:      "str",
		cols:      []pkCol{{name: "region", typ: "STRING NOT NULL"}, {name: "s", typ: "STRING NOT NULL"}},
		partition: []string{"region"},
		keys: func(r *rand.Rand, n int) []map[string]any {
			regions := []string{"eu", "us-east", "apac", "中东"}
			seen := map[string]bool{}
			var out []map[string]any
			gen := genString(14)
			for len(out) < n {
				region := regions[r.IntN(len(regions))]
				s := gen(r).(string)
				if k := region + "\x00" + s; !seen[k] {
					seen[k] = true
					out = append(out, map[string]any{"region": region, "s": s})
				}
			}
			return out
		},
	},
	{
		name: "composite",
		cols: []pkCol{
			{name: "id", typ: "BIGINT NOT NULL"}, {name: "name", typ: "STRING NOT NULL"}, {name: "d", typ: "DATE NOT NULL"},
		},
		partition: []string{"d"},
		keys: func(r *rand.Rand, n int) []map[string]any {
			ids := []int64{math.MinInt64, math.MaxInt64, 0, -7}
			for len(ids) < 24 {
				ids = append(ids, int64(r.Uint64())>>r.IntN(60))
			}
			names := []string{"", "a", "ab", "abc", "b", "Ä", "naïve", "日本", "🚀", "x y", "z"}
			days := []string{"1969-12-31", "2024-02-29", "2024-03-01", "2099-12-31"}
			var out []map[string]any
			for _, id := range ids {
				for _, nm := range names {
					for _, d := range days {
						out = append(out, map[string]any{"id": id, "name": nm, "d": d})
					}
				}
			}
			r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
			return out[:min(n, len(out))]
		},
	},
}

// ---------------------------------------------------------------------------
// Merge engines.

// pkEngine is a merge-engine configuration: its options, value columns and
// which row kinds its workload writes.
type pkEngine struct {
	name    string
	options map[string]string
	cols    []pkCol
	// updateBefore: updates are written as -U old, +U new (two rows) now
	// and then; otherwise updates are +U (or +I) alone.
	updateBefore bool
	// dv: Java accepts deletion vectors with this engine.
	dv bool
	// partial sets whole sequence groups to NULL (a partial-update row).
	partial func(r *rand.Rand, m map[string]any)
}

func pkEngines() []pkEngine {
	dedupCols := []pkCol{
		{"v_int", "INT", 10, plain(genIntRange(math.MinInt32, math.MaxInt32))},
		{"v_big", "BIGINT", 10, plain(genIntRange(math.MinInt64, math.MaxInt64))},
		{"v_str", "STRING", 10, plain(genString(30))},
		{"v_dec", "DECIMAL(12, 3)", 10, plain(genDecimal(12, 3))},
		{"v_dbl", "DOUBLE", 10, plain(genFloat64)},
		{"v_ts", "TIMESTAMP(6)", 10, plain(genTimestamp(6, false))},
		{"v_bool", "BOOLEAN", 10, plain(genBool)},
		{"v_arr", arrayOf("STRING"), 10, plain(genArray(3, genString(6)))},
	}
	withSeq := append([]pkCol{{"seq", "BIGINT", 2, genSequence}}, dedupCols...)
	aggCols := []pkCol{
		{"a_sum", "BIGINT", 10, plain(genSmallInt(-1000, 1000))},
		{"a_dsum", "DECIMAL(16, 2)", 10, plain(genDecimal(8, 2))},
		{"a_max", "INT", 10, plain(genSmallInt(-50, 50))},
		{"a_min", "DATE", 10, plain(genDate)},
		{"a_lnn", "STRING", 20, plain(genString(10))},
		{"a_lagg", "STRING", 20, plain(genWord([]string{"x", "yy", "zzz", "ä", "中"}))},
		{"a_bor", "BOOLEAN", 10, plain(func(r *rand.Rand) any { return r.IntN(4) == 0 })},
		{"a_col", arrayOf("INT"), 10, plain(genArray(3, genSmallInt(0, 9)))},
		{"a_map", mapOf("STRING NOT NULL", "INT"), 10, plain(genStringIntMap)},
		{"a_def", "TIMESTAMP(3)", 20, plain(genTimestamp(3, false))},
	}
	aggOptions := func(retract bool) map[string]string {
		o := map[string]string{
			"merge-engine":                     "aggregation",
			"fields.a_sum.aggregate-function":  "sum",
			"fields.a_dsum.aggregate-function": "sum",
			"fields.a_max.aggregate-function":  "max",
			"fields.a_min.aggregate-function":  "min",
			"fields.a_lnn.aggregate-function":  "last_non_null_value",
			"fields.a_lagg.aggregate-function": "listagg",
			"fields.a_lagg.list-agg-delimiter": "|",
			"fields.a_bor.aggregate-function":  "bool_or",
			"fields.a_col.aggregate-function":  "collect",
			"fields.a_col.distinct":            "true",
			"fields.a_map.aggregate-function":  "merge_map",
			// a_def has no function: the default, last_non_null_value.
		}
		if retract {
			// max, min, listagg and bool_or cannot retract: Java throws
			// unless told to ignore the retraction.
			for _, f := range []string{"a_max", "a_min", "a_lagg", "a_bor"} {
				o["fields."+f+".ignore-retract"] = "true"
			}
		} else {
			o["aggregation.remove-record-on-delete"] = "true"
		}
		return o
	}
	partialCols := []pkCol{
		{"pa", "STRING", 10, plain(genString(12))},
		{"pb", "INT", 10, plain(genSmallInt(-100, 100))},
		{"g1", "BIGINT", 0, genSequence},
		{"pc", "DECIMAL(12, 2)", 10, plain(genDecimal(6, 2))},
		{"pd", "STRING", 10, plain(genWord([]string{"alpha", "beta", "gamma", "δ"}))},
		{"g2", "INT", 0, genSequence},
		{"pe", "DOUBLE", 30, plain(genFiniteDouble)},
	}
	return []pkEngine{
		{name: "dedup", options: map[string]string{"merge-engine": "deduplicate"}, cols: dedupCols, updateBefore: true, dv: true},
		{name: "seq", options: map[string]string{"merge-engine": "deduplicate", "sequence.field": "seq"}, cols: withSeq, updateBefore: true, dv: true},
		{name: "igndel", options: map[string]string{"merge-engine": "deduplicate", "ignore-delete": "true"}, cols: dedupCols, updateBefore: true, dv: true},
		{
			name: "partial",
			options: map[string]string{
				"merge-engine":                 "partial-update",
				"fields.g1.sequence-group":     "pa,pb",
				"fields.g2.sequence-group":     "pc,pd",
				"fields.pc.aggregate-function": "sum",
			},
			cols: partialCols, updateBefore: true, dv: true,
			partial: func(r *rand.Rand, m map[string]any) {
				for _, group := range [][]string{{"pa", "pb", "g1"}, {"pc", "pd", "g2"}, {"pe"}} {
					if r.IntN(100) < 35 {
						for _, c := range group {
							delete(m, c)
						}
					}
				}
			},
		},
		{name: "agg", options: aggOptions(true), cols: aggCols, updateBefore: true, dv: true},
		{name: "aggrm", options: aggOptions(false), cols: aggCols, updateBefore: false, dv: true},
		{
			name:    "first",
			options: map[string]string{"merge-engine": "first-row", "ignore-delete": "true"},
			cols: []pkCol{
				{"f_str", "STRING", 10, plain(genString(20))},
				{"f_int", "INT", 10, plain(genIntRange(math.MinInt32, math.MaxInt32))},
				{"f_ts", "TIMESTAMP(3)", 10, plain(genTimestamp(3, false))},
				{"f_ltz", "TIMESTAMP(3) WITH LOCAL TIME ZONE", 10, plain(genTimestamp(3, true))},
				{"f_dec", "DECIMAL(8, 2)", 10, plain(genDecimal(8, 2))},
			},
			updateBefore: true,
		},
	}
}

// ---------------------------------------------------------------------------
// Workload generation.

// pkOpsPerTable is the number of rows each table's commits write on average:
// 14 tables make a little over 200,000 operations.
const pkOpsPerTable = 14_700

// pkTable is one generated table and what to check on it.
type pkTable struct {
	plan     pkPlan
	planFile string
	keyCols  []string
	ops      int            // rows written (+I, -U, +U and -D)
	kinds    map[string]int // rows written per kind
	commits  int
	keys     int
	// fullCompactions and normalCompactions count the compact ops.
	fullCompactions, normalCompactions int
	projection                         []string
	// changelog: the table has changelog-producer=input. levelZeroFiltered:
	// a batch scan skips level-0 files (deletion vectors, first-row).
	changelog, levelZeroFiltered bool

	// Filled by dumpItems.
	snapshots   []int64
	auditAt     int64
	incremental []pkIncremental
}

// pkIncremental is an incremental read: the changes after snapshot start up
// to and including end, in a scan mode ("" is auto).
type pkIncremental struct {
	start, end int64
	mode       string
}

func (inc pkIncremental) name() string {
	m := inc.mode
	if m == "" {
		m = "auto"
	}
	return fmt.Sprintf("incremental-%d-%d-%s", inc.start, inc.end, m)
}

func (pt *pkTable) id() string { return pt.plan.DB + "." + pt.plan.Table }

func genPKTables(seed int64) []pkTable {
	r := rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15))
	formats := []string{"parquet", "avro"}
	var out []pkTable
	for i, e := range pkEngines() {
		for j := range 2 {
			dv := j == 1 && e.dv
			shape := pkShapes[(2*i+j)%len(pkShapes)]
			format := formats[(i+j)%2]
			name := fmt.Sprintf("pk_%s_%s_%s", e.name, shape.name, format)
			if dv {
				name += "_dv"
			}
			// Every other engine writes input changelog files on one of its
			// tables (first-row cannot), for the changelog incremental mode.
			changelog := i%2 == j && e.name != "first"
			if changelog {
				name += "_cl"
			}
			out = append(out, genPKTable(r, name, e, shape, format, dv, changelog))
		}
	}
	return out
}

func genPKTable(r *rand.Rand, name string, e pkEngine, shape pkKeyShape, format string, dv, changelog bool) pkTable {
	pt := pkTable{kinds: map[string]int{}}
	options := map[string]string{
		"bucket":                            fmt.Sprint(2 + r.IntN(3)),
		"file.format":                       format,
		"num-sorted-run.compaction-trigger": fmt.Sprint(3 + r.IntN(3)),
		"snapshot.num-retained.min":         "1000",
		"snapshot.num-retained.max":         "1000",
	}
	if dv {
		options["deletion-vectors.enabled"] = "true"
	}
	if changelog {
		options["changelog-producer"] = "input"
	}
	pt.changelog = changelog
	pt.levelZeroFiltered = dv || e.name == "first"
	for k, v := range e.options {
		options[k] = v
	}
	cols := append(slices.Clone(shape.cols), e.cols...)
	// The plan is the table's only writer: the catalog may cache manifests.
	pt.plan = pkPlan{DB: "live", Table: name, CatalogOptions: map[string]string{"cache-enabled": "true"}, Schema: pkSchema{
		PartitionKeys: append([]string{}, shape.partition...), Options: options,
	}}
	for i, c := range cols {
		pt.plan.Schema.Fields = append(pt.plan.Schema.Fields, pkField{ID: i, Name: c.name, Type: c.typ})
	}
	for _, c := range shape.cols {
		pt.keyCols = append(pt.keyCols, c.name)
	}
	pt.plan.Schema.PrimaryKeys = slices.Clone(pt.keyCols)
	pt.plan.Ops = append(pt.plan.Ops, map[string]any{"op": "create"})

	// A projection: one key column and two value columns, shuffled.
	vals := make([]string, len(e.cols))
	for i, c := range e.cols {
		vals[i] = c.name
	}
	r.Shuffle(len(vals), func(i, j int) { vals[i], vals[j] = vals[j], vals[i] })
	pt.projection = append([]string{pt.keyCols[r.IntN(len(pt.keyCols))]}, vals[:2]...)
	r.Shuffle(len(pt.projection), func(i, j int) { pt.projection[i], pt.projection[j] = pt.projection[j], pt.projection[i] })

	keys := shape.keys(r, 2000+r.IntN(1200))
	pt.keys = len(keys)
	hot := max(1, len(keys)/10)
	pickKey := func() map[string]any {
		if r.IntN(10) < 3 {
			return keys[r.IntN(hot)]
		}
		return keys[r.IntN(len(keys))]
	}
	keyString := func(k map[string]any) string {
		b, _ := json.Marshal(k) // map keys are sorted
		return string(b)
	}
	commits := 22 + r.IntN(5)
	perCommit := pkOpsPerTable / commits
	// Compactions after some commits, never after the last: the latest
	// snapshot always has level-0 files on top of compacted ones.
	compactAfter := map[int]string{}
	for len(compactAfter) < 5 {
		c := 2 + r.IntN(commits-3)
		if _, ok := compactAfter[c]; !ok {
			if len(compactAfter) < 2 {
				compactAfter[c] = "full"
			} else {
				compactAfter[c] = "normal"
			}
		}
	}
	state := map[string]map[string]any{}
	for c := range commits {
		newRow := func(k map[string]any) map[string]any {
			m := map[string]any{}
			for kc, v := range k {
				m[kc] = v
			}
			for _, col := range e.cols {
				if col.nulls > 0 && r.IntN(100) < col.nulls {
					continue
				}
				m[col.name] = col.gen(r, c)
			}
			if e.partial != nil {
				e.partial(r, m)
			}
			return m
		}
		var rows []map[string]any
		var kinds []string
		emit := func(kind string, row map[string]any) {
			rows = append(rows, row)
			kinds = append(kinds, kind)
			pt.kinds[kind]++
		}
		n := perCommit - 50 + r.IntN(101)
		for len(rows) < n {
			k := pickKey()
			ks := keyString(k)
			prev, exists := state[ks]
			if !exists {
				if r.IntN(20) == 0 { // delete of an absent key
					emit("-D", newRow(k))
					continue
				}
				row := newRow(k)
				emit("+I", row)
				state[ks] = row
				continue
			}
			switch x := r.IntN(100); {
			case x < 55:
				if e.updateBefore && r.IntN(3) > 0 {
					emit("-U", prev)
				}
				row := newRow(k)
				emit("+U", row)
				state[ks] = row
			case x < 75:
				emit("-D", prev)
				delete(state, ks)
			default: // an upsert without a retraction
				row := newRow(k)
				emit("+I", row)
				state[ks] = row
			}
		}
		pt.plan.Ops = append(pt.plan.Ops, map[string]any{"op": "write", "rows": rows, "kinds": kinds})
		pt.ops += len(rows)
		pt.commits++
		switch compactAfter[c] {
		case "full":
			pt.plan.Ops = append(pt.plan.Ops, map[string]any{"op": "compact"})
			pt.fullCompactions++
		case "normal":
			pt.plan.Ops = append(pt.plan.Ops, map[string]any{"op": "compact", "full": false})
			pt.normalCompactions++
		}
	}
	return pt
}

// ---------------------------------------------------------------------------
// Java dumps.

func (pt *pkTable) dumpItems(t *testing.T, wh, out string, seed int64) []interop.BatchItem {
	t.Helper()
	dir := filepath.Join(wh, pt.plan.DB+".db", pt.plan.Table)
	ids, err := listSuffixes(filepath.Join(dir, "snapshot"), "snapshot-")
	require.NoError(t, err)
	require.Greater(t, len(ids), 4, pt.id())
	// Three older snapshots, not the latest; the audit log also at the
	// first of them.
	r := rand.New(rand.NewPCG(uint64(seed), 11))
	older := slices.Clone(ids[:len(ids)-1])
	r.Shuffle(len(older), func(i, j int) { older[i], older[j] = older[j], older[i] })
	pt.snapshots = slices.Clone(older[:3])
	pt.auditAt = pt.snapshots[0]
	slices.Sort(pt.snapshots)
	var items []interop.BatchItem
	add := func(name string, o interop.DumpOptions) {
		items = append(items, interop.BatchItem{Out: pt.dumpFile(out, name), Args: interop.DumpArgs(wh, pt.id(), o)})
	}
	add("latest", interop.DumpOptions{})
	for _, id := range pt.snapshots {
		add(fmt.Sprintf("snapshot-%d", id), interop.DumpOptions{Snapshot: id})
	}
	add("audit", interop.DumpOptions{Mode: "audit"})
	add(fmt.Sprintf("audit-%d", pt.auditAt), interop.DumpOptions{Mode: "audit", Snapshot: pt.auditAt})
	add("projection", interop.DumpOptions{Columns: pt.projection})
	// Incremental reads: from the start to a random snapshot, and over a
	// random range of about five snapshots (compactions included), in every
	// mode that reads something.
	last := ids[len(ids)-1]
	a := ids[r.IntN(len(ids)-1)]
	b := min(last, a+1+int64(r.IntN(8)))
	pt.incremental = []pkIncremental{{0, ids[1+r.IntN(len(ids)-1)], ""}, {a, b, paimon.IncrementalDelta}}
	if pt.changelog {
		pt.incremental = append(pt.incremental, pkIncremental{a, b, paimon.IncrementalChangelog}, pkIncremental{0, last, ""})
	}
	for _, inc := range pt.incremental {
		args := append(interop.DumpArgs(wh, pt.id(), interop.DumpOptions{}), "--incremental", fmt.Sprintf("%d,%d", inc.start, inc.end))
		if inc.mode != "" {
			args = append(args, "--incremental-mode", inc.mode)
		}
		items = append(items, interop.BatchItem{Out: pt.dumpFile(out, inc.name()), Args: args})
	}
	return items
}

func (pt *pkTable) dumpFile(out, name string) string {
	return filepath.Join(out, pt.plan.Table+"-"+name+".jsonl")
}

// ---------------------------------------------------------------------------
// Go side.

func (pt *pkTable) check(ctx context.Context, t *testing.T, fsys *localfs.FS, out, version string) {
	tbl, err := paimon.OpenTable(ctx, fsys, pt.plan.DB+".db/"+pt.plan.Table, nil)
	require.NoError(t, err)
	checkOne := func(what, file string, opts ...paimon.ScanOption) {
		t.Run(what, func(t *testing.T) {
			want := readCanon(t, pt.dumpFile(out, file))
			got, stats, err := pkScan(ctx, t, tbl, opts...)
			if err != nil {
				t.Errorf("%s %s: Go scan failed (Java read %d rows): %v", pt.id(), what, len(want), err)
				return
			}
			t.Logf("%d rows, %s", len(got), stats)
			if d := canon.Compare(want, got); d != "" {
				t.Errorf("%s %s: Go scan differs from Java:\n%s%s", pt.id(), what, d, pkExplain(want, got, pt.keyCols))
			}
		})
	}
	checkOne("latest", "latest")
	for _, id := range pt.snapshots {
		checkOne(fmt.Sprintf("snapshot-%d", id), fmt.Sprintf("snapshot-%d", id), paimon.WithSnapshotID(id))
	}
	checkOne("audit", "audit", paimon.WithAuditLog())
	checkOne(fmt.Sprintf("audit-%d", pt.auditAt), fmt.Sprintf("audit-%d", pt.auditAt),
		paimon.WithAuditLog(), paimon.WithSnapshotID(pt.auditAt))
	checkOne("projection-"+strings.Join(pt.projection, ","), "projection", paimon.WithColumns(pt.projection...))
	for _, inc := range pt.incremental {
		if version == "1.4.2" && pt.levelZeroFiltered {
			// Java 1.4.2 applies the batch scan's level-0 filter of
			// deletion-vector and first-row tables to incremental reads
			// too, so it returns no changes at all (delta and changelog
			// files are level 0); 2.0.0 returns them, and so do we.
			t.Run(inc.name(), func(t *testing.T) {
				require.Empty(t, readCanon(t, pt.dumpFile(out, inc.name())), "Java 1.4.2 behaviour changed: compare this read")
			})
			continue
		}
		checkOne(inc.name(), inc.name(), paimon.WithIncremental(inc.start, inc.end, inc.mode))
	}
}

// pkScan runs a scan with a checked allocator and returns its rows as sorted
// canonical lines and a summary of its plan. The columns are typed by the
// batch schema, which includes the audit log's rowkind.
func pkScan(ctx context.Context, t *testing.T, tbl *paimon.Table, opts ...paimon.ScanOption) ([]string, string, error) {
	t.Helper()
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	scan := tbl.NewScan(append(opts, paimon.WithAllocator(mem))...)
	plan, err := scan.Plan(ctx)
	if err != nil {
		return nil, "", err
	}
	files, merging := 0, 0
	for _, sp := range plan.Splits {
		files += len(sp.Files)
		if !sp.RawConvertible || len(sp.Files) > 1 {
			merging++
		}
	}
	summary := fmt.Sprintf("snapshot %d: %d splits (%d need merging), %d files", plan.SnapshotID, len(plan.Splits), merging, files)
	var lines []string
	var enc *lineEncoder
	for rec, err := range scan.ReadSplits(ctx, plan.Splits...) {
		if err != nil {
			return nil, summary, err
		}
		if enc == nil {
			fields, err := schema.FromArrowSchema(rec.Schema())
			if err != nil {
				rec.Release()
				return nil, summary, err
			}
			enc = newLineEncoder(fields)
		}
		ls, err := encodeBatch(enc, rec)
		rec.Release()
		if err != nil {
			return nil, summary, err
		}
		lines = append(lines, ls...)
	}
	sort.Strings(lines)
	return lines, summary, nil
}

// encodeBatch renders every row of a batch as a canonical line.
func encodeBatch(enc *lineEncoder, rec arrow.RecordBatch) ([]string, error) {
	out := make([]string, 0, rec.NumRows())
	vals := make([]any, len(enc.fields))
	for i := range int(rec.NumRows()) {
		for j, f := range enc.fields {
			v, err := parquet.ArrowValue(rec.Column(j), i, f.Type)
			if err != nil {
				return nil, fmt.Errorf("column %s row %d: %w", f.Name, i, err)
			}
			vals[j] = v
		}
		line, err := enc.encode(vals, i == 0)
		if err != nil {
			return nil, err
		}
		out = append(out, line)
	}
	return out, nil
}

// pkExplain pairs missing and unexpected rows by their primary key and names
// what differs: the columns of rows both sides have, and the keys only one
// side has.
func pkExplain(want, got []string, keyCols []string) string {
	decode := func(s string) map[string]any {
		var m map[string]any
		dec := json.NewDecoder(strings.NewReader(s))
		dec.UseNumber()
		if dec.Decode(&m) != nil {
			return nil
		}
		return m
	}
	keyOf := func(m map[string]any) string {
		parts := make([]string, len(keyCols))
		for i, c := range keyCols {
			b, _ := json.Marshal(m[c])
			parts[i] = string(b)
		}
		if k, ok := m["rowkind"]; ok {
			parts = append(parts, fmt.Sprint(k))
		}
		return strings.Join(parts, ",")
	}
	count := func(lines []string) map[string]int {
		c := map[string]int{}
		for _, l := range lines {
			c[l]++
		}
		return c
	}
	wantSet, gotSet := count(want), count(got)
	javaOnly, goOnly := map[string]map[string]any{}, map[string]map[string]any{}
	for w, n := range wantSet {
		if gotSet[w] < n {
			if m := decode(w); m != nil {
				javaOnly[keyOf(m)] = m
			}
		}
	}
	for g, n := range gotSet {
		if wantSet[g] < n {
			if m := decode(g); m != nil {
				goOnly[keyOf(m)] = m
			}
		}
	}
	cols := map[string]int{}
	var examples []string
	onlyJava, onlyGo := 0, 0
	for k, g := range goOnly {
		w, ok := javaOnly[k]
		if !ok {
			onlyGo++
			continue
		}
		for c, v := range g {
			wb, _ := json.Marshal(w[c])
			gb, _ := json.Marshal(v)
			if string(wb) != string(gb) {
				cols[c]++
				if len(examples) < 10 {
					examples = append(examples, fmt.Sprintf("key (%s) column %s: Java %s, Go %s", k, c, wb, gb))
				}
			}
		}
	}
	for k := range javaOnly {
		if _, ok := goOnly[k]; !ok {
			onlyJava++
		}
	}
	sort.Strings(examples)
	return fmt.Sprintf("by primary key (%s): %d keys only Java has, %d only Go has, differing columns of keys both have: %v\n  %s\n",
		strings.Join(keyCols, ","), onlyJava, onlyGo, cols, strings.Join(examples, "\n  "))
}
