package interop_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"iter"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/internal/interop"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/paimon"
	"github.com/paimon-go/paimon-go/paimon/predicate"
)

// TestLiveScanMatchesJava has Java Paimon (every installed version) write
// randomly generated append-only tables — over 100,000 rows in many commits
// and partitions — and checks that our scan reads exactly the rows Java
// reads: at the latest snapshot, at some older snapshots and at every tag,
// with projections, with filters (also combined with a tag and a projection),
// through serialised splits read back by another table handle, and with a
// limit. Every scan uses a checked allocator that must end at zero bytes.
//
// The tables are generated from a seed that is logged; PAIMON_SEED=<n>
// replays a run. The three tables are
//
//   - live_parquet: unaware-bucket Parquet, partitioned by (dt, hr) with a
//     few NULL hr values, every primitive type with NULLs, NaN and
//     infinities, pre-1970 and INT96 timestamps; one compaction and
//     small manifest merge thresholds so that manifests are rewritten;
//   - live_avro: fixed bucket (bucket=4, bucket-key=user_id) Avro,
//     partitioned by region, with one full compaction;
//   - live_evolve: a table whose schema evolves between commits (add,
//     rename, widen INT→BIGINT, FLOAT→DOUBLE and DECIMAL(10,2)→(20,2),
//     drop a column and re-add the name with another type) and whose file
//     format changes from Parquet to Avro half-way.
//
// Java's ReadBuilder filter is only a pruning hint, so the expected rows of a
// filter are Java's full dump filtered with predicate.Bound.Test, the
// row-wise reference evaluator.
func TestLiveScanMatchesJava(t *testing.T) {
	runners := interop.RequireJava(t)
	seed := liveSeed(t)
	tables := genLiveTables(seed)
	planDir := t.TempDir()
	total := 0
	for i := range tables {
		lt := &tables[i]
		b, err := json.Marshal(lt.plan)
		require.NoError(t, err)
		lt.planFile = filepath.Join(planDir, lt.plan.Table+".json")
		require.NoError(t, os.WriteFile(lt.planFile, b, 0o644))
		total += lt.rows
		t.Logf("%s: %d rows in %d commits, plan %d KiB", lt.plan.Table, lt.rows, lt.commits, len(b)>>10)
	}
	require.GreaterOrEqual(t, total, 100_000, "the test promises at least 100,000 rows")
	ctx := context.Background()
	for _, r := range runners {
		t.Run(r.Name(), func(t *testing.T) {
			r.Timeout = 10 * time.Minute
			start := time.Now()
			wh := t.TempDir()
			for _, lt := range tables {
				require.NoError(t, r.Apply(ctx, wh, lt.planFile), lt.plan.Table)
			}
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
				lt := &tables[i]
				t.Run(lt.plan.Table, func(t *testing.T) { lt.check(ctx, t, fsys, out) })
			}
			t.Logf("Java apply %v, Java dumps %v (%d), Go checks %v", applied.Sub(start).Round(time.Millisecond),
				dumped.Sub(applied).Round(time.Millisecond), len(items), time.Since(dumped).Round(time.Millisecond))
		})
	}
}

// liveSeed returns PAIMON_SEED or a fresh seed, and logs it.
func liveSeed(t *testing.T) int64 {
	t.Helper()
	seed := time.Now().UnixNano() % 1_000_000_007
	if s := os.Getenv("PAIMON_SEED"); s != "" {
		v, err := strconv.ParseInt(s, 10, 64)
		require.NoError(t, err, "PAIMON_SEED")
		seed = v
	}
	t.Logf("seed=%d (PAIMON_SEED=%d replays this run)", seed, seed)
	return seed
}

// ---------------------------------------------------------------------------
// The plan format of interop/README.md.

type livePlan struct {
	DB     string           `json:"db"`
	Table  string           `json:"table"`
	Schema liveSchema       `json:"schema"`
	Ops    []map[string]any `json:"ops"`
}

type liveSchema struct {
	Fields        []liveField       `json:"fields"`
	PartitionKeys []string          `json:"partitionKeys"`
	PrimaryKeys   []string          `json:"primaryKeys"`
	Options       map[string]string `json:"options"`
	Comment       *string           `json:"comment"`
}

type liveField struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
	Type any    `json:"type"` // a type string, or a JSON object for nested types
}

// liveFilter is one filtered scan to check. pruned says the filter must
// reduce the rows of the planned files (partition, bucket or statistics
// pruning), which Java's scan does too.
type liveFilter struct {
	name   string
	pred   *predicate.Predicate
	pruned bool
}

// liveTravel is a filtered, projected read of a tag, in the names of the
// tag's schema.
type liveTravel struct {
	tag  string
	pred *predicate.Predicate
	cols []string
}

// liveTable is one generated table and what to check on it.
type liveTable struct {
	plan     livePlan
	planFile string
	rows     int // rows written
	commits  int // write commits
	// projections are column lists read with Java --cols and WithColumns.
	projections [][]string
	filters     []liveFilter
	// splitFilter is the filter (and splitColumns the projection) of the
	// second split round trip.
	splitFilter  *predicate.Predicate
	splitColumns []string
	// travel are filtered, projected reads of tags.
	travel []liveTravel

	// Filled by dumpItems.
	snapshots []int64
	tags      []string
}

func (lt *liveTable) id() string { return lt.plan.DB + "." + lt.plan.Table }

// ---------------------------------------------------------------------------
// Column generators: each returns a canon-v1 JSON value Java's apply decodes.

type liveColumn struct {
	name  string
	typ   any // as liveField.Type
	nulls int // percent
	gen   func(r *rand.Rand) any
}

func (c liveColumn) value(r *rand.Rand) any {
	if c.nulls > 0 && r.IntN(100) < c.nulls {
		return nil
	}
	return c.gen(r)
}

func genIntRange(lo, hi int64) func(*rand.Rand) any {
	return func(r *rand.Rand) any {
		switch r.IntN(25) {
		case 0:
			return lo
		case 1:
			return hi
		case 2:
			if lo <= 0 && hi >= 0 {
				return int64(0)
			}
		}
		span := uint64(hi-lo) + 1
		if span == 0 { // the whole int64 range
			return int64(r.Uint64())
		}
		return lo + int64(r.Uint64N(span))
	}
}

func genFloat32(r *rand.Rand) any {
	switch r.IntN(40) {
	case 0:
		return "f32:nan"
	case 1:
		return "f32:7f800000" // +Inf
	case 2:
		return "f32:ff800000" // -Inf
	case 3:
		return "f32:80000000" // -0.0
	case 4:
		return fmt.Sprintf("f32:%08x", r.Uint32()) // any bits
	}
	return fmt.Sprintf("f32:%08x", math.Float32bits(float32(r.NormFloat64()*1000)))
}

func genFloat64(r *rand.Rand) any {
	switch r.IntN(40) {
	case 0:
		return "f64:nan"
	case 1:
		return "f64:7ff0000000000000"
	case 2:
		return "f64:fff0000000000000"
	case 3:
		return "f64:8000000000000000"
	case 4:
		return fmt.Sprintf("f64:%016x", r.Uint64())
	}
	return fmt.Sprintf("f64:%016x", math.Float64bits(r.NormFloat64()*1e6))
}

// genPlainFloat generates ordinary finite values (for the evolving table,
// whose FLOAT becomes DOUBLE).
func genPlainFloat(r *rand.Rand) any {
	return fmt.Sprintf("f32:%08x", math.Float32bits(float32(r.Float64()*2-0.5)))
}

func genPlainDouble(r *rand.Rand) any {
	return fmt.Sprintf("f64:%016x", math.Float64bits(r.Float64()*2-0.5))
}

// genDecimal generates DECIMAL(p, s) text with a random number of digits.
func genDecimal(p, s int) func(*rand.Rand) any {
	return func(r *rand.Rand) any {
		digits := 1 + r.IntN(p)
		u := new(big.Int)
		for range digits {
			u.Mul(u, big.NewInt(10))
			u.Add(u, big.NewInt(int64(r.IntN(10))))
		}
		if r.IntN(2) == 0 {
			u.Neg(u)
		}
		return formatUnscaled(u, s)
	}
}

func formatUnscaled(u *big.Int, s int) string {
	neg := u.Sign() < 0
	digits := new(big.Int).Abs(u).String()
	if s > 0 {
		if len(digits) <= s {
			digits = strings.Repeat("0", s-len(digits)+1) + digits
		}
		digits = digits[:len(digits)-s] + "." + digits[len(digits)-s:]
	}
	if neg {
		return "-" + digits
	}
	return digits
}

// liveRunes are the characters strings are made of: ASCII (most), JSON
// escapes, 2-, 3- and 4-byte UTF-8.
var liveRunes = []rune("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-.,\"\\/\t\néüß€中文字😀🚀")

func genString(maxLen int) func(*rand.Rand) any {
	return func(r *rand.Rand) any {
		n := r.IntN(maxLen + 1)
		b := make([]rune, n)
		for i := range b {
			if r.IntN(4) > 0 {
				b[i] = liveRunes[r.IntN(26)] // mostly lower-case letters: prefixes repeat
			} else {
				b[i] = liveRunes[r.IntN(len(liveRunes))]
			}
		}
		return string(b)
	}
}

func genWord(words []string) func(*rand.Rand) any {
	return func(r *rand.Rand) any { return words[r.IntN(len(words))] }
}

func genHex(minLen, maxLen int) func(*rand.Rand) any {
	return func(r *rand.Rand) any {
		b := make([]byte, minLen+r.IntN(maxLen-minLen+1))
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return hex.EncodeToString(b)
	}
}

var (
	liveMinSec = time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	liveMaxSec = time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
)

func genDate(r *rand.Rand) any {
	sec := liveMinSec + r.Int64N(liveMaxSec-liveMinSec)
	if r.IntN(20) == 0 {
		sec = int64(r.IntN(3)-1) * 86400 // around the epoch
	}
	return time.Unix(sec, 0).UTC().Format("2006-01-02")
}

func genTime(r *rand.Rand) any {
	ms := r.IntN(86_400_000)
	return fmt.Sprintf("%02d:%02d:%02d.%03d", ms/3_600_000, ms/60_000%60, ms/1000%60, ms%1000)
}

// genTimestamp generates TIMESTAMP(p) text (TIMESTAMP_LTZ with a "Z"),
// between 1900 and 2100 with values around the epoch now and then: a
// negative epoch value with a sub-millisecond part is where conversions go
// wrong.
func genTimestamp(p int, ltz bool) func(*rand.Rand) any {
	unit := int64(math.Pow10(9 - p))
	return func(r *rand.Rand) any {
		sec := liveMinSec + r.Int64N(liveMaxSec-liveMinSec)
		nanos := r.Int64N(1_000_000_000/unit) * unit
		if r.IntN(20) == 0 {
			sec = int64(r.IntN(3) - 2) // 1969-12-31T23:59:58 .. 1970-01-01T00:00:00
		}
		s := time.Unix(sec, nanos).UTC().Format("2006-01-02T15:04:05.000000000")
		if ltz {
			s += "Z"
		}
		return s
	}
}

func genBool(r *rand.Rand) any { return r.IntN(2) == 0 }

// primitiveColumns are every primitive type, NULLs in each. maxTS is the
// largest timestamp precision the file format takes (Avro: 6).
func primitiveColumns(maxTS int) []liveColumn {
	cols := []liveColumn{
		{"c_bool", "BOOLEAN", 5, genBool},
		{"c_tiny", "TINYINT", 5, genIntRange(math.MinInt8, math.MaxInt8)},
		{"c_small", "SMALLINT", 5, genIntRange(math.MinInt16, math.MaxInt16)},
		{"c_int", "INT", 5, genIntRange(math.MinInt32, math.MaxInt32)},
		{"c_big", "BIGINT", 5, genIntRange(math.MinInt64, math.MaxInt64)},
		{"c_float", "FLOAT", 5, genFloat32},
		{"c_double", "DOUBLE", 5, genFloat64},
		{"c_dec_s", "DECIMAL(9, 2)", 5, genDecimal(9, 2)},
		{"c_dec_m", "DECIMAL(18, 4)", 5, genDecimal(18, 4)},
		{"c_dec_l", "DECIMAL(38, 10)", 5, genDecimal(38, 10)},
		{"c_char", "CHAR(4)", 5, genString(4)},
		{"c_varchar", "VARCHAR(24)", 5, genString(24)},
		{"c_str", "STRING", 5, genString(40)},
		{"c_bin", "BINARY(4)", 5, genHex(4, 4)},
		{"c_varbin", "VARBINARY(32)", 5, genHex(0, 32)},
		{"c_bytes", "BYTES", 5, genHex(0, 64)},
		{"c_date", "DATE", 5, genDate},
		{"c_time", "TIME", 5, genTime},
		{"c_ts3", "TIMESTAMP(3)", 5, genTimestamp(3, false)},
		{"c_ts6", "TIMESTAMP(6)", 5, genTimestamp(6, false)},
	}
	if maxTS >= 9 {
		cols = append(cols, liveColumn{"c_ts9", "TIMESTAMP(9)", 5, genTimestamp(9, false)})
	}
	return append(cols,
		liveColumn{"c_ltz3", "TIMESTAMP(3) WITH LOCAL TIME ZONE", 5, genTimestamp(3, true)},
		liveColumn{"c_ltz6", "TIMESTAMP(6) WITH LOCAL TIME ZONE", 5, genTimestamp(6, true)},
	)
}

// ---------------------------------------------------------------------------
// Plan generation.

// liveBuilder accumulates the ops of one plan.
type liveBuilder struct {
	r       *rand.Rand
	plan    livePlan
	rows    int
	commits int
	nextID  int64
}

func newLiveBuilder(r *rand.Rand, table string, cols []liveColumn, partitionKeys []string, options map[string]string) *liveBuilder {
	b := &liveBuilder{r: r, plan: livePlan{DB: "live", Table: table}}
	b.plan.Schema = liveSchema{PartitionKeys: partitionKeys, PrimaryKeys: []string{}, Options: options}
	for i, c := range cols {
		b.plan.Schema.Fields = append(b.plan.Schema.Fields, liveField{ID: i, Name: c.name, Type: c.typ})
	}
	b.op(map[string]any{"op": "create"})
	return b
}

func (b *liveBuilder) op(o map[string]any) { b.plan.Ops = append(b.plan.Ops, o) }

// write adds one commit of n rows; row(i) fills a row's values.
func (b *liveBuilder) write(n int, row func(m map[string]any)) {
	rows := make([]map[string]any, n)
	for i := range rows {
		m := map[string]any{}
		row(m)
		rows[i] = m
	}
	b.op(map[string]any{"op": "write", "rows": rows})
	b.rows += n
	b.commits++
}

// fill sets the non-NULL values of cols (a missing key is NULL).
func (b *liveBuilder) fill(m map[string]any, cols []liveColumn) {
	for _, c := range cols {
		if v := c.value(b.r); v != nil {
			m[c.name] = v
		}
	}
}

func (b *liveBuilder) seq() int64 {
	b.nextID++
	return b.nextID
}

func genLiveTables(seed int64) []liveTable {
	r := rand.New(rand.NewPCG(uint64(seed), 0x5eed_5ca1ab1e))
	return []liveTable{genParquetTable(r), genAvroTable(r), genEvolveTable(r), genORCTable(r)}
}

var liveDays = []string{"2024-01-01", "2024-01-02", "2024-01-03", "2024-01-04", "2024-01-05"}

// genParquetTable is the unaware-bucket Parquet table partitioned by (dt, hr).
func genParquetTable(r *rand.Rand) liveTable {
	cols := primitiveColumns(9)
	key := []liveColumn{{"id", "BIGINT NOT NULL", 0, nil}, {"dt", "STRING", 0, nil}, {"hr", "INT", 0, nil}}
	b := newLiveBuilder(r, "live_parquet", append(key, cols...), []string{"dt", "hr"}, map[string]string{
		"bucket": "-1", "file.format": "parquet",
		// Rewrite manifests often: merged manifests hold DELETE entries.
		"manifest.merge-min-count": "6", "manifest.target-file-size": "64kb",
	})
	hours := []int64{0, 6, 12, 18}
	commits := 22 + r.IntN(4)
	compactAt := 8 + r.IntN(8)
	tagAt := 4 + r.IntN(commits-6)
	for c := 0; c < commits; c++ {
		// Each commit touches a random subset of the 20 partitions.
		type part struct {
			dt string
			hr int64
		}
		var parts []part
		for _, d := range liveDays {
			for _, h := range hours {
				parts = append(parts, part{d, h})
			}
		}
		r.Shuffle(len(parts), func(i, j int) { parts[i], parts[j] = parts[j], parts[i] })
		parts = parts[:3+r.IntN(6)]
		b.write(2600+r.IntN(400), func(m map[string]any) {
			p := parts[r.IntN(len(parts))]
			m["id"] = b.seq()
			m["dt"] = p.dt
			if r.IntN(200) > 0 {
				m["hr"] = p.hr
			}
			b.fill(m, cols)
		})
		if c == 1 {
			b.op(map[string]any{"op": "tag", "name": "early", "snapshot": 2})
		}
		if c == tagAt {
			b.op(map[string]any{"op": "tag", "name": "mid"})
		}
		if c == compactAt {
			b.op(map[string]any{"op": "compact"})
		}
	}
	ids := b.nextID
	lo, hi := ids*3/10, ids*45/100
	tsLo := data.Timestamp{Millis: time.Date(1960, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()}
	tsHi := data.Timestamp{Millis: time.Date(2030, 6, 1, 12, 0, 0, 0, time.UTC).UnixMilli(), NanoOfMilli: 500}
	return liveTable{
		plan: b.plan, rows: b.rows, commits: b.commits,
		projections: [][]string{{"c_str", "id"}, {"hr", "c_dec_l", "c_ts9", "dt", "c_ltz6"}, {"c_bin"}},
		filters: []liveFilter{
			{"partition-eq", predicate.Equal("dt", "2024-01-03"), true},
			{"id-range", predicate.And(predicate.GreaterOrEqual("id", lo), predicate.LessThan("id", hi)), true},
			{"is-null", predicate.IsNull("c_str"), false},
			{"or-not", predicate.Or(
				predicate.Not(predicate.In("hr", 0, 6)),
				predicate.And(predicate.Equal("dt", "2024-01-02"), predicate.Not(predicate.IsNull("c_int")),
					predicate.LessThan("c_dec_s", "0"))), false},
			{"hr-null", predicate.IsNull("hr"), true},
			{"ts-range", predicate.And(predicate.GreaterOrEqual("c_ts6", tsLo), predicate.LessThan("c_ts9", tsHi),
				predicate.GreaterThan("c_ltz3", tsLo)), false},
			{"str-prefix", predicate.StartsWith("c_str", "ab"), false},
			{"decimal-large", predicate.Or(predicate.GreaterThan("c_dec_l", "1000000000000000000.5"),
				predicate.LessOrEqual("c_dec_m", "-12.3456")), false},
			{"date-time", predicate.And(predicate.LessThan("c_date", time.Date(1970, 1, 2, 0, 0, 0, 0, time.UTC)),
				predicate.GreaterOrEqual("c_time", 43_200_000), predicate.NotEqual("c_bool", true)), false},
			{"not-and", predicate.Not(predicate.And(predicate.GreaterOrEqual("id", lo), predicate.IsNotNull("c_float"))), false},
			{"float-cmp", predicate.And(predicate.GreaterThan("c_double", 0.0), predicate.LessThan("c_float", float32(10))), false},
		},
		splitFilter:  predicate.And(predicate.GreaterOrEqual("id", lo), predicate.LessThan("id", hi)),
		splitColumns: []string{"dt", "c_ts9", "c_str"}, // without the filter column
		travel: []liveTravel{{"mid", predicate.And(predicate.Equal("hr", 12), predicate.LessThan("id", hi)),
			[]string{"c_ltz6", "id", "c_dec_s"}}},
	}
}

// genAvroTable is the fixed-bucket Avro table (bucket=4, bucket-key=user_id).
func genAvroTable(r *rand.Rand) liveTable {
	cols := primitiveColumns(6)
	key := []liveColumn{{"user_id", "BIGINT", 1, genIntRange(0, 999)}, {"region", "STRING", 0, nil}}
	b := newLiveBuilder(r, "live_avro", append(key, cols...), []string{"region"}, map[string]string{
		"bucket": "4", "bucket-key": "user_id", "file.format": "avro",
	})
	regions := []string{"eu", "us", "apac"}
	commits := 15 + r.IntN(3)
	compactAt := 5 + r.IntN(6)
	for c := 0; c < commits; c++ {
		b.write(2000+r.IntN(400), func(m map[string]any) {
			m["region"] = regions[r.IntN(len(regions))]
			b.fill(m, key[:1])
			b.fill(m, cols)
		})
		if c == compactAt {
			b.op(map[string]any{"op": "compact"})
			b.op(map[string]any{"op": "tag", "name": "compacted"})
		}
	}
	u := []any{r.Int64N(1000), r.Int64N(1000), r.Int64N(1000)}
	return liveTable{
		plan: b.plan, rows: b.rows, commits: b.commits,
		projections: [][]string{{"user_id"}, {"c_date", "region", "c_bin", "c_ltz3"}},
		filters: []liveFilter{
			{"bucket-in", predicate.In("user_id", u...), true},
			{"bucket-eq-region", predicate.And(predicate.Equal("user_id", u[0]), predicate.Equal("region", "eu")), true},
			{"bucket-key-null", predicate.IsNull("user_id"), false},
			{"or-not", predicate.Not(predicate.Or(predicate.Equal("region", "us"), predicate.GreaterThan("c_int", 0))), false},
			{"ts-range", predicate.LessThan("c_ts6", data.Timestamp{Millis: -1, NanoOfMilli: 1000}), false},
		},
		splitFilter:  predicate.In("user_id", u...),
		splitColumns: []string{"c_str", "user_id"},
		travel:       []liveTravel{{"compacted", predicate.Equal("user_id", u[1]), []string{"c_bytes", "region"}}},
	}
}

// genList, genPairs and genObject build ARRAY, MAP (canon-v1 [k, v] pairs)
// and ROW values from element generators.
func genList(elem liveColumn, maxLen int) func(*rand.Rand) any {
	return func(r *rand.Rand) any {
		out := make([]any, r.IntN(maxLen+1))
		for i := range out {
			out[i] = elem.value(r)
		}
		return out
	}
}

func genPairs(key, value liveColumn, maxLen int) func(*rand.Rand) any {
	return func(r *rand.Rand) any {
		seen := map[string]bool{}
		var out []any
		for range r.IntN(maxLen + 1) {
			k := key.gen(r)
			ks := fmt.Sprint(k)
			if seen[ks] {
				continue
			}
			seen[ks] = true
			out = append(out, []any{k, value.value(r)})
		}
		if out == nil {
			out = []any{}
		}
		return out
	}
}

func genObject(fields ...liveColumn) func(*rand.Rand) any {
	return func(r *rand.Rand) any {
		m := map[string]any{}
		for _, f := range fields {
			m[f.name] = f.value(r)
		}
		return m
	}
}

// genORCTable is the unaware-bucket ORC table partitioned by dt: every
// primitive type (TIMESTAMP(9) included) and nested columns; small stripes
// and 1,000-row row groups, so that filters prune stripes and row groups
// by Java's statistics and our reader seeks by Java's row index.
func genORCTable(r *rand.Rand) liveTable {
	cols := primitiveColumns(9)
	cols = append(cols,
		liveColumn{"c_ltz9", "TIMESTAMP(9) WITH LOCAL TIME ZONE", 5, genTimestamp(9, true)},
		liveColumn{"c_arr", map[string]any{"type": "ARRAY", "element": "INT"}, 5,
			genList(liveColumn{"e", "INT", 10, genIntRange(-1000, 1000)}, 4)},
		liveColumn{"c_map", map[string]any{"type": "MAP", "key": "STRING NOT NULL", "value": "DOUBLE"}, 5,
			genPairs(liveColumn{"k", "STRING", 0, genWord(liveWords)}, liveColumn{"v", "DOUBLE", 10, genFloat64}, 3)},
		liveColumn{"c_row", map[string]any{"type": "ROW", "fields": []liveField{
			{1001, "a", "INT"}, {1002, "b", "STRING"}, {1003, "t", "TIMESTAMP(6)"}}}, 5, genObject(
			liveColumn{"a", "INT", 10, genIntRange(math.MinInt32, math.MaxInt32)},
			liveColumn{"b", "STRING", 10, genString(12)},
			liveColumn{"t", "TIMESTAMP(6)", 10, genTimestamp(6, false)})},
		liveColumn{"c_arr_row", map[string]any{"type": "ARRAY", "element": map[string]any{"type": "ROW", "fields": []liveField{
			{1004, "x", "BIGINT"}, {1005, "y", "DECIMAL(20, 4)"}}}}, 5, genList(liveColumn{"e", nil, 10,
			genObject(liveColumn{"x", "BIGINT", 10, genIntRange(math.MinInt64, math.MaxInt64)},
				liveColumn{"y", "DECIMAL(20, 4)", 10, genDecimal(20, 4)})}, 3)},
	)
	key := []liveColumn{{"id", "BIGINT NOT NULL", 0, nil}, {"dt", "STRING", 0, nil}, {"w", "STRING", 2, genWord(liveWords)}}
	b := newLiveBuilder(r, "live_orc", append(key, cols...), []string{"dt"}, map[string]string{
		"bucket": "-1", "file.format": "orc",
		"file.block-size": "96kb", "orc.row.index.stride": "1000",
	})
	commits := 14 + r.IntN(3)
	compactAt := 6 + r.IntN(5)
	for c := 0; c < commits; c++ {
		day := liveDays[r.IntN(len(liveDays))]
		b.write(2400+r.IntN(600), func(m map[string]any) {
			m["id"] = b.seq()
			m["dt"] = day
			b.fill(m, key[2:])
			b.fill(m, cols)
		})
		if c == 2 {
			b.op(map[string]any{"op": "tag", "name": "early"})
		}
		if c == compactAt {
			b.op(map[string]any{"op": "compact"})
		}
	}
	ids := b.nextID
	lo, hi := ids*3/10, ids*3/10+1500
	tsLo := data.Timestamp{Millis: time.Date(1950, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()}
	return liveTable{
		plan: b.plan, rows: b.rows, commits: b.commits,
		projections: [][]string{{"c_row", "id"}, {"c_arr_row", "c_ts9", "dt", "c_map"}, {"c_char", "c_ltz9"}},
		filters: []liveFilter{
			{"id-range", predicate.And(predicate.GreaterOrEqual("id", lo), predicate.LessThan("id", hi)), true},
			{"id-point", predicate.Equal("id", lo+7), true},
			{"partition-eq", predicate.Equal("dt", "2024-01-02"), true},
			{"word", predicate.Equal("w", "gamma"), false},
			{"word-null", predicate.IsNull("w"), false},
			{"ts-range", predicate.And(predicate.GreaterOrEqual("c_ts9", tsLo), predicate.LessThan("c_ltz6",
				data.Timestamp{Millis: -1, NanoOfMilli: 1000})), false},
			{"char", predicate.Equal("c_char", "ab"), false},
			{"str-prefix", predicate.StartsWith("c_str", "ab"), false},
			{"date-bool", predicate.And(predicate.GreaterThan("c_date", time.Date(1969, 12, 31, 0, 0, 0, 0, time.UTC)),
				predicate.Equal("c_bool", true)), false},
			{"decimal", predicate.Or(predicate.GreaterThan("c_dec_l", "1000000000000000000.5"),
				predicate.LessOrEqual("c_dec_s", "-12.34")), false},
			{"float", predicate.GreaterThan("c_float", float32(0)), false},
			{"tiny-small", predicate.And(predicate.LessThan("c_tiny", int8(0)), predicate.GreaterOrEqual("c_small", int16(0))), false},
		},
		splitFilter:  predicate.And(predicate.GreaterOrEqual("id", lo), predicate.LessThan("id", hi)),
		splitColumns: []string{"c_row", "c_ts9", "c_str"},
		travel:       []liveTravel{{"early", predicate.LessThan("id", ids/10), []string{"c_arr", "id", "c_ltz9"}}},
	}
}

var liveWords = []string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu"}

// genEvolveTable is the table whose schema evolves between commits.
func genEvolveTable(r *rand.Rand) liveTable {
	cols := []liveColumn{
		{"id", "BIGINT NOT NULL", 0, nil},
		{"p", "STRING", 0, genWord([]string{"x", "y", "z"})},
		{"a", "INT", 10, genIntRange(math.MinInt32, math.MaxInt32)},
		{"b", "STRING", 10, genWord(liveWords)},
		{"c", "DOUBLE", 10, genPlainDouble},
		{"f", "FLOAT", 10, genPlainFloat},
		{"d", "DECIMAL(10, 2)", 10, genDecimal(10, 2)},
	}
	b := newLiveBuilder(r, "live_evolve", cols, []string{"p"}, map[string]string{"file.format": "parquet"})
	writes := func(n int) {
		for range n {
			b.write(900+r.IntN(300), func(m map[string]any) {
				m["id"] = b.seq()
				b.fill(m, cols[1:])
			})
		}
	}
	find := func(name string) int {
		for i, c := range cols {
			if c.name == name {
				return i
			}
		}
		panic(name)
	}
	alter := func(changes ...map[string]any) { b.op(map[string]any{"op": "alter", "changes": changes}) }

	writes(3)
	b.op(map[string]any{"op": "tag", "name": "v0", "snapshot": 2})
	alter(map[string]any{"addColumn": map[string]any{"name": "x", "type": "INT", "comment": nil}})
	cols = append(cols, liveColumn{"x", "INT", 20, genIntRange(-1000, 1000)})
	writes(2)
	alter(map[string]any{"renameColumn": map[string]any{"from": "b", "to": "b2"}})
	cols[find("b")].name = "b2"
	writes(2)
	b.op(map[string]any{"op": "compact"})
	b.op(map[string]any{"op": "tag", "name": "renamed"})
	alter(map[string]any{"updateColumnType": map[string]any{"name": "a", "type": "BIGINT"}})
	cols[find("a")] = liveColumn{"a", "BIGINT", 10, genIntRange(-1<<40, 1<<40)}
	writes(2)
	alter(map[string]any{"setOption": map[string]any{"key": "file.format", "value": "avro"}})
	writes(1)
	alter(map[string]any{"dropColumn": "c"})
	cols = slices.Delete(cols, find("c"), find("c")+1)
	writes(2)
	alter(map[string]any{"addColumn": map[string]any{"name": "c", "type": "STRING", "comment": nil}})
	cols = append(cols, liveColumn{"c", "STRING", 30, genWord(liveWords)})
	writes(1)
	alter(map[string]any{"updateColumnType": map[string]any{"name": "f", "type": "DOUBLE"}},
		map[string]any{"updateColumnType": map[string]any{"name": "d", "type": "DECIMAL(20, 2)"}})
	cols[find("f")] = liveColumn{"f", "DOUBLE", 10, genPlainDouble}
	cols[find("d")] = liveColumn{"d", "DECIMAL(20, 2)", 10, genDecimal(20, 2)}
	writes(2)
	return liveTable{
		plan: b.plan, rows: b.rows, commits: b.commits,
		projections: [][]string{{"b2", "c", "a"}, {"x", "id", "p"}, {"f", "d"}},
		filters: []liveFilter{
			{"widened-int", predicate.Or(predicate.GreaterThan("a", int64(1)<<33), predicate.LessThan("a", int64(-5))), false},
			{"widened-only-new", predicate.GreaterThan("a", int64(math.MaxInt32)), false},
			{"added-is-null", predicate.IsNull("x"), false},
			{"added-range", predicate.And(predicate.GreaterOrEqual("x", -10), predicate.LessOrEqual("x", 500)), false},
			{"renamed-eq", predicate.Equal("b2", "gamma"), false},
			{"readded-not-null", predicate.IsNotNull("c"), false},
			{"readded-eq", predicate.Equal("c", "beta"), false},
			{"widened-float", predicate.GreaterThan("f", 0.5), false},
			{"widened-decimal", predicate.LessThan("d", "-100.00"), false},
			{"partition-or", predicate.Or(predicate.Equal("p", "x"), predicate.IsNull("b2")), false},
		},
		splitFilter:  predicate.IsNull("x"),
		splitColumns: []string{"b2", "x", "id"},
		travel: []liveTravel{
			{"v0", predicate.Or(predicate.Equal("b", "delta"), predicate.GreaterThan("a", 0)), []string{"a", "b", "c"}},
			{"renamed", predicate.And(predicate.Equal("b2", "gamma"), predicate.IsNotNull("x")), []string{"x", "b2", "f"}},
		},
	}
}

// ---------------------------------------------------------------------------
// Java dumps.

func (lt *liveTable) dumpItems(t *testing.T, wh, out string, seed int64) []interop.BatchItem {
	t.Helper()
	dir := filepath.Join(wh, lt.plan.DB+".db", lt.plan.Table)
	ids, err := listSuffixes(filepath.Join(dir, "snapshot"), "snapshot-")
	require.NoError(t, err)
	require.NotEmpty(t, ids)
	tags, err := listNames(filepath.Join(dir, "tag"), "tag-")
	require.NoError(t, err)
	// The first snapshot, two random older ones (the snapshot count is the
	// same for every Java version, so is the choice).
	r := rand.New(rand.NewPCG(uint64(seed), 7))
	picks := map[int64]bool{ids[0]: true}
	for range 2 {
		if len(ids) > 2 {
			picks[ids[1+r.IntN(len(ids)-2)]] = true
		}
	}
	lt.snapshots = nil
	for id := range picks {
		lt.snapshots = append(lt.snapshots, id)
	}
	slices.Sort(lt.snapshots)
	lt.tags = tags
	var items []interop.BatchItem
	add := func(name string, o interop.DumpOptions) {
		items = append(items, interop.BatchItem{Out: lt.dumpFile(out, name), Args: interop.DumpArgs(wh, lt.id(), o)})
	}
	add("full", interop.DumpOptions{})
	for _, id := range lt.snapshots {
		add(fmt.Sprintf("snapshot-%d", id), interop.DumpOptions{Snapshot: id})
	}
	for _, tag := range lt.tags {
		add("tag-"+tag, interop.DumpOptions{Tag: tag})
	}
	for i, cols := range lt.projections {
		add(fmt.Sprintf("proj-%d", i), interop.DumpOptions{Columns: cols})
	}
	return items
}

func (lt *liveTable) dumpFile(out, name string) string {
	return filepath.Join(out, lt.plan.Table+"-"+name+".jsonl")
}

// ---------------------------------------------------------------------------
// Go side.

func (lt *liveTable) check(ctx context.Context, t *testing.T, fsys *localfs.FS, out string) {
	tbl, err := paimon.OpenTable(ctx, fsys, lt.plan.DB+".db/"+lt.plan.Table, nil)
	require.NoError(t, err)
	full := readCanon(t, lt.dumpFile(out, "full"))
	require.Len(t, full, lt.rows, "Java's dump of %s has every row written", lt.id())
	compare := func(t *testing.T, what string, want, got []string) {
		t.Helper()
		if d := canon.Compare(want, got); d != "" {
			t.Errorf("%s %s: Go scan differs from Java:\n%s%s", lt.id(), what, d, explainDiff(want, got))
		}
	}

	var fullPlan *paimon.Plan
	t.Run("full", func(t *testing.T) {
		got, plan := goScan(ctx, t, tbl)
		fullPlan = plan
		t.Logf("%d splits, stats %+v", len(plan.Splits), plan.Stats)
		compare(t, "full scan", full, got)
	})
	for _, id := range lt.snapshots {
		t.Run(fmt.Sprintf("snapshot-%d", id), func(t *testing.T) {
			got, _ := goScan(ctx, t, tbl, paimon.WithSnapshotID(id))
			compare(t, fmt.Sprintf("snapshot %d", id), readCanon(t, lt.dumpFile(out, fmt.Sprintf("snapshot-%d", id))), got)
		})
	}
	for _, tag := range lt.tags {
		t.Run("tag-"+tag, func(t *testing.T) {
			got, _ := goScan(ctx, t, tbl, paimon.WithTag(tag))
			compare(t, "tag "+tag, readCanon(t, lt.dumpFile(out, "tag-"+tag)), got)
		})
	}
	for i, cols := range lt.projections {
		t.Run(fmt.Sprintf("proj-%d", i), func(t *testing.T) {
			got, _ := goScan(ctx, t, tbl, paimon.WithColumns(cols...))
			compare(t, fmt.Sprintf("projection %v", cols), readCanon(t, lt.dumpFile(out, fmt.Sprintf("proj-%d", i))), got)
		})
	}

	// Filters: Java's full dump filtered with the reference evaluator.
	fields := tbl.Schema().Fields
	dump := decodeDump(t, full, fields)
	expect := dump.filter
	for _, f := range lt.filters {
		t.Run("filter-"+f.name, func(t *testing.T) {
			want := expect(t, f.pred, nil)
			got, plan := goScan(ctx, t, tbl, paimon.WithFilter(f.pred))
			t.Logf("%s: %d of %d rows; plan reads %d rows in %d splits, stats %+v",
				f.pred, len(want), len(full), plan.Stats.RowCount, len(plan.Splits), plan.Stats)
			compare(t, "filter "+f.pred.String(), want, got)
			if f.pruned && fullPlan != nil && plan.Stats.RowCount >= fullPlan.Stats.RowCount {
				t.Errorf("%s filter %s: planned %d rows, the full scan %d: nothing was pruned",
					lt.id(), f.pred, plan.Stats.RowCount, fullPlan.Stats.RowCount)
			}
		})
	}

	// Splits through MarshalBinary into another table handle (another
	// process would do the same), unfiltered and filtered+projected.
	t.Run("splits", func(t *testing.T) {
		got := splitRoundTrip(ctx, t, fsys, tbl, lt)
		compare(t, "split round trip", full, got)
	})
	t.Run("splits-filtered", func(t *testing.T) {
		got := splitRoundTrip(ctx, t, fsys, tbl, lt, paimon.WithFilter(lt.splitFilter), paimon.WithColumns(lt.splitColumns...))
		compare(t, "split round trip with filter "+lt.splitFilter.String(), expect(t, lt.splitFilter, lt.splitColumns), got)
	})
	// Time travel with a filter and a projection: the names are those of
	// the tag's schema.
	for _, tt := range lt.travel {
		t.Run("tag-"+tt.tag+"-filtered", func(t *testing.T) {
			tag, err := tbl.Meta().ReadTag(ctx, tt.tag)
			require.NoError(t, err)
			old, err := tbl.Meta().ReadSchema(ctx, tag.SchemaID)
			require.NoError(t, err)
			want := decodeDump(t, readCanon(t, lt.dumpFile(out, "tag-"+tt.tag)), old.Fields).filter(t, tt.pred, tt.cols)
			got, _ := goScan(ctx, t, tbl, paimon.WithTag(tt.tag), paimon.WithFilter(tt.pred), paimon.WithColumns(tt.cols...))
			t.Logf("%s at tag %s: %d rows", tt.pred, tt.tag, len(want))
			compare(t, fmt.Sprintf("tag %s with filter %s and columns %v", tt.tag, tt.pred, tt.cols), want, got)
		})
	}
	t.Run("limit", func(t *testing.T) {
		const n = 1234
		got, _ := goScan(ctx, t, tbl, paimon.WithLimit(n))
		require.Len(t, got, min(n, len(full)))
		if d := canon.Compare(full, mergeSorted(full, got)); d != "" {
			t.Errorf("%s limit %d returned rows Java does not have:\n%s", lt.id(), n, d)
		}
	})
}

// decodedDump is a canonical dump with its rows decoded into values.
type decodedDump struct {
	lines  []string
	fields []schema.DataField
	values [][]any
}

func decodeDump(t *testing.T, lines []string, fields []schema.DataField) *decodedDump {
	t.Helper()
	d := &decodedDump{lines: lines, fields: fields, values: make([][]any, len(lines))}
	for i, line := range lines {
		v, err := canon.DecodeRow(fields, []byte(line))
		require.NoError(t, err)
		d.values[i] = v
	}
	return d
}

// filter returns the sorted canonical lines of the rows p matches (by the
// reference evaluator Bound.Test), projected to cols unless cols is nil.
func (d *decodedDump) filter(t *testing.T, p *predicate.Predicate, cols []string) []string {
	t.Helper()
	bound, err := predicate.Bind(p, d.fields)
	require.NoError(t, err)
	var outFields []schema.DataField
	var idx []int
	for _, c := range cols {
		i := slices.IndexFunc(d.fields, func(f schema.DataField) bool { return f.Name == c })
		require.GreaterOrEqual(t, i, 0, c)
		outFields, idx = append(outFields, d.fields[i]), append(idx, i)
	}
	var want []string
	for i, v := range d.values {
		if !bound.Test(v) {
			continue
		}
		if cols == nil {
			want = append(want, d.lines[i])
			continue
		}
		sub := make([]any, len(idx))
		for k, j := range idx {
			sub[k] = v[j]
		}
		b, err := canon.EncodeRow(outFields, sub)
		require.NoError(t, err)
		want = append(want, string(b))
	}
	sort.Strings(want)
	return want
}

// goScan runs a scan with a checked allocator and returns its rows as sorted
// canonical lines, and the plan.
func goScan(ctx context.Context, t *testing.T, tbl *paimon.Table, opts ...paimon.ScanOption) ([]string, *paimon.Plan) {
	t.Helper()
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	scan := tbl.NewScan(append(opts, paimon.WithAllocator(mem))...)
	plan, err := scan.Plan(ctx)
	require.NoError(t, err)
	s, err := tbl.Meta().ReadSchema(ctx, plan.SchemaID)
	require.NoError(t, err)
	return collectLines(t, s, scan.Records(ctx)), plan
}

func splitRoundTrip(ctx context.Context, t *testing.T, fsys *localfs.FS, tbl *paimon.Table, lt *liveTable, opts ...paimon.ScanOption) []string {
	t.Helper()
	plan, err := tbl.NewScan(opts...).Plan(ctx)
	require.NoError(t, err)
	require.NotEmpty(t, plan.Splits)
	var wire [][]byte
	for i := range plan.Splits {
		b, err := plan.Splits[i].MarshalBinary()
		require.NoError(t, err)
		wire = append(wire, b)
	}
	other, err := paimon.OpenTable(ctx, fsys, lt.plan.DB+".db/"+lt.plan.Table, nil)
	require.NoError(t, err)
	splits := make([]paimon.Split, len(wire))
	for i, b := range wire {
		require.NoError(t, splits[i].UnmarshalBinary(b))
		require.Equal(t, plan.Splits[i], splits[i], "split %d after MarshalBinary/UnmarshalBinary", i)
	}
	s, err := other.Meta().ReadSchema(ctx, plan.SchemaID)
	require.NoError(t, err)
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	// Read the splits in two halves, as two workers would.
	scan := other.NewScan(append(opts, paimon.WithAllocator(mem))...)
	half := len(splits) / 2
	got := collectLines(t, s, scan.ReadSplits(ctx, splits[:half]...))
	got = append(got, collectLines(t, s, scan.ReadSplits(ctx, splits[half:]...))...)
	sort.Strings(got)
	return got
}

// collectLines renders every row of the batches with canon-v1. The columns
// are looked up by name in s, the schema the scan returns rows in.
func collectLines(t *testing.T, s *schema.TableSchema, seq iter.Seq2[arrow.RecordBatch, error]) []string {
	t.Helper()
	var lines []string
	var failed error
	for rec, err := range seq {
		if err != nil {
			failed = err
			break
		}
		ls, err := recordLines(rec, s)
		rec.Release()
		if err != nil {
			failed = err
			break
		}
		lines = append(lines, ls...)
	}
	require.NoError(t, failed)
	sort.Strings(lines)
	return lines
}

func recordLines(rec arrow.RecordBatch, s *schema.TableSchema) ([]string, error) {
	fields := make([]schema.DataField, rec.NumCols())
	for j, af := range rec.Schema().Fields() {
		f, ok := s.FieldByName(af.Name)
		if !ok {
			return nil, fmt.Errorf("batch column %q is not in schema %d", af.Name, s.ID)
		}
		fields[j] = f
	}
	enc := newLineEncoder(fields)
	out := make([]string, 0, rec.NumRows())
	vals := make([]any, len(fields))
	for i := range int(rec.NumRows()) {
		for j, f := range fields {
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

// lineEncoder renders rows as the lines canon.Canonicalize produces (keys
// sorted, compact, no HTML escaping) without a map and reflection per row:
// canon.EncodeRow followed by Canonicalize costs most of this test's Go time.
// Values that are not JSON scalars take the slow path, and check compares
// both paths.
type lineEncoder struct {
	fields []schema.DataField
	order  []int    // field indexes by name
	keys   [][]byte // `"name":` in that order
	buf    bytes.Buffer
	str    bytes.Buffer
	json   *json.Encoder
}

func newLineEncoder(fields []schema.DataField) *lineEncoder {
	e := &lineEncoder{fields: fields}
	for j := range fields {
		e.order = append(e.order, j)
	}
	sort.Slice(e.order, func(a, b int) bool { return fields[e.order[a]].Name < fields[e.order[b]].Name })
	e.json = json.NewEncoder(&e.str)
	e.json.SetEscapeHTML(false)
	for _, j := range e.order {
		e.str.Reset()
		_ = e.json.Encode(fields[j].Name)
		e.keys = append(e.keys, append(bytes.TrimSuffix(bytes.Clone(e.str.Bytes()), []byte("\n")), ':'))
	}
	return e
}

func (e *lineEncoder) encode(vals []any, check bool) (string, error) {
	slow := func() (string, error) {
		b, err := canon.EncodeRow(e.fields, vals)
		if err != nil {
			return "", err
		}
		return canon.Canonicalize(b)
	}
	e.buf.Reset()
	e.buf.WriteByte('{')
	for k, j := range e.order {
		if k > 0 {
			e.buf.WriteByte(',')
		}
		e.buf.Write(e.keys[k])
		x, err := canon.EncodeValue(e.fields[j].Type, vals[j])
		if err != nil {
			return "", fmt.Errorf("column %s: %w", e.fields[j].Name, err)
		}
		switch x := x.(type) {
		case nil:
			e.buf.WriteString("null")
		case bool:
			e.buf.WriteString(strconv.FormatBool(x))
		case json.Number:
			e.buf.WriteString(string(x))
		case string:
			e.str.Reset()
			if err := e.json.Encode(x); err != nil {
				return "", err
			}
			e.buf.Write(bytes.TrimSuffix(e.str.Bytes(), []byte("\n")))
		default:
			return slow()
		}
	}
	e.buf.WriteByte('}')
	line := e.buf.String()
	if check {
		want, err := slow()
		if err != nil {
			return "", err
		}
		if want != line {
			return "", fmt.Errorf("line encoder disagrees with canon:\n  %s\n  %s", line, want)
		}
	}
	return line, nil
}

// mergeSorted returns want plus the rows of got that want does not hold
// (counted as a multiset), sorted: Compare(want, result) then reports exactly
// those rows as unexpected.
func mergeSorted(want, got []string) []string {
	count := map[string]int{}
	for _, w := range want {
		count[w]++
	}
	var extra []string
	for _, g := range got {
		if count[g] > 0 {
			count[g]--
		} else {
			extra = append(extra, g)
		}
	}
	out := append(slices.Clone(want), extra...)
	sort.Strings(out)
	return out
}

// explainDiff pairs missing and unexpected rows by their "id" (or the first
// key they share) and names the columns that differ, which is what one wants
// to know about a mismatch.
func explainDiff(want, got []string) string {
	wantSet, gotSet := map[string]int{}, map[string]int{}
	for _, w := range want {
		wantSet[w]++
	}
	for _, g := range got {
		gotSet[g]++
	}
	decode := func(s string) map[string]any {
		var m map[string]any
		dec := json.NewDecoder(strings.NewReader(s))
		dec.UseNumber()
		if dec.Decode(&m) != nil {
			return nil
		}
		return m
	}
	byID := map[string]map[string]any{}
	for w, n := range wantSet {
		if gotSet[w] < n {
			if m := decode(w); m != nil && m["id"] != nil {
				byID[fmt.Sprint(m["id"])] = m
			}
		}
	}
	cols := map[string]int{}
	var examples []string
	for g, n := range gotSet {
		if wantSet[g] >= n {
			continue
		}
		m := decode(g)
		if m == nil || m["id"] == nil {
			continue
		}
		w, ok := byID[fmt.Sprint(m["id"])]
		if !ok {
			continue
		}
		for k, v := range m {
			wb, _ := json.Marshal(w[k])
			gb, _ := json.Marshal(v)
			if string(wb) != string(gb) {
				cols[k]++
				if len(examples) < 10 {
					examples = append(examples, fmt.Sprintf("id %v column %s: Java %s, Go %s", m["id"], k, wb, gb))
				}
			}
		}
	}
	if len(cols) == 0 {
		return ""
	}
	return fmt.Sprintf("differing columns of rows paired by id: %v\n  %s\n", cols, strings.Join(examples, "\n  "))
}
