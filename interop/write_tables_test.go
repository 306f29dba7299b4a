package interop_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// The tables of TestLiveWritesReadByJava: what our writer commits to each,
// which columns are checked with filters, and what Java does to it
// afterwards.

// wtCommit is one commit of our writer.
type wtCommit struct {
	kind string // "append", "overwrite" (partition may be nil: the whole table) or "drop"
	rows int    // rows written (not for "drop")
	// writes is the number of Write calls the rows are split into.
	writes int
	// partition is the static partition of an overwrite (Java strings, as
	// CommitOptions take them); drops lists the partitions dropped.
	partition map[string]string
	drops     []map[string]string
	// identifier is the commit identifier; 0 means BatchCommitIdentifier.
	identifier int64
}

// wtSpec describes one table.
type wtSpec struct {
	name      string
	fields    []json.RawMessage // Paimon field JSON (id, name, type)
	partition []string
	options   map[string]string
	// gens overrides the random value of a column (per commit index).
	gens    map[string]wtGen
	commits []wtCommit
	// filterCols are the columns checked with Java --filter dumps;
	// windowed says the values move with the commit (the filters then sit
	// at the edges of the commits' windows), otherwise they sit near the
	// column's extremes.
	filterCols []string
	windowed   bool
	// filterSample, when set, checks only that many of filterCols, drawn
	// per run (the seed decides), which keeps the JVMs' work down.
	filterSample int
	// eqCols are columns (bucket keys) filtered with "=" again after Java
	// and our writer have both written: Java prunes buckets by the hash of
	// the literal, so rows in a wrong bucket go missing.
	eqCols []string
	// pySkip says why pypaimon does not read the table ("": it does).
	pySkip string
	// light tables are only read (Java's dump, $files and $snapshots,
	// pypaimon's dump): no filters, no maintenance round.
	light bool
	// javaOverwrite is the partition Java overwrites in the maintenance
	// plan (nil: no overwrite).
	javaOverwrite map[string]string
	// javaRows and goRowsAfter are the rows Java writes in the maintenance
	// plan and our writer appends after it (light tables: none).
	javaRows, goRowsAfter int
}

// allTypesFields returns the fields of an all-types plan
// (interop/plans/all-types-<format>.json), so that these tables cover every
// type the golden corpus does.
func allTypesFields(t *testing.T, format string) []json.RawMessage {
	t.Helper()
	root, err := os.Getwd()
	require.NoError(t, err)
	b, err := os.ReadFile(filepath.Join(root, "plans", "all-types-"+format+".json"))
	require.NoError(t, err)
	var plan struct {
		Schema struct {
			Fields []json.RawMessage `json:"fields"`
		} `json:"schema"`
	}
	require.NoError(t, json.Unmarshal(b, &plan))
	require.NotEmpty(t, plan.Schema.Fields)
	return plan.Schema.Fields
}

// wtField is a field JSON object.
func wtField(id int, name string, typ any) json.RawMessage {
	b, err := json.Marshal(map[string]any{"id": id, "name": name, "type": typ})
	if err != nil {
		panic(err)
	}
	return b
}

// wtEscapingValues are string partition values that need escaping in
// partition paths (Java PartitionPathUtils.escapePathName), and NULL (the
// default partition).
var wtEscapingValues = []any{"a/b", "x=y", "50%", "with space", "ü#?", "plain", nil}

// allPrimitiveColumns are the primitive columns of the all-types plans:
// every one is filtered.
var allPrimitiveColumns = []string{"id", "c_bool", "c_tiny", "c_small", "c_int", "c_big", "c_float", "c_double",
	"c_dec_5_2", "c_dec_18_4", "c_dec_38_10", "c_char", "c_varchar", "c_string", "c_binary", "c_varbinary",
	"c_bytes", "c_date", "c_time", "c_time3", "c_ts0", "c_ts3", "c_ts6", "c_ts9", "c_ltz3", "c_ltz6", "c_ltz9",
	"c_nn_str"}

// wtWithout returns names without the given one. ORC tables leave CHAR out
// of their filters: Java's ORC writer records CHAR statistics padded with
// spaces (the manifest's too, derived from them) while its reader trims the
// values, so Java prunes files and row groups that hold matching rows
// (c_char <= "\t" finds nothing when every value is ""); this library
// records the same statistics, so that Java reads its files as its own, and
// prunes as Java does.
func wtWithout(names []string, name string) []string {
	return slices.DeleteFunc(slices.Clone(names), func(n string) bool { return n == name })
}

// wtNoMultiset is why pypaimon reads no table with a MULTISET column.
const wtNoMultiset = "pypaimon 2.1.0 reads no table with a MULTISET column, even projected away " +
	"(PyarrowFieldParser.from_paimon_type: Unsupported data type: MULTISET<STRING NOT NULL>); " +
	"types_py_parquet and types_py_avro hold every other type for it"

// withoutField returns fields without the named one.
func withoutField(fields []json.RawMessage, name string) []json.RawMessage {
	var out []json.RawMessage
	for _, f := range fields {
		var x struct {
			Name string `json:"name"`
		}
		if err := json.Unmarshal(f, &x); err != nil {
			panic(err)
		}
		if x.Name != name {
			out = append(out, f)
		}
	}
	return out
}

func wtSpecs(t *testing.T) []wtSpec {
	statsFields := func() []json.RawMessage {
		return []json.RawMessage{
			wtField(0, "id", "BIGINT NOT NULL"),
			wtField(1, "i", "INT"),
			wtField(2, "l", "BIGINT"),
			wtField(3, "sm", "SMALLINT"),
			wtField(4, "s", "STRING"),
			wtField(5, "d", "DATE"),
			wtField(6, "dec", "DECIMAL(18, 4)"),
			wtField(7, "dec38", "DECIMAL(38, 6)"),
			wtField(8, "ts", "TIMESTAMP(3)"),
			wtField(9, "ts6", "TIMESTAMP(6)"),
			wtField(10, "ts0", "TIMESTAMP(0)"),
			wtField(11, "ltz", "TIMESTAMP(6) WITH LOCAL TIME ZONE"),
			wtField(12, "dbl", "DOUBLE"),
			wtField(13, "f", "FLOAT"),
			wtField(14, "vs", "VARCHAR(40)"),
		}
	}
	statsGens := func() map[string]wtGen {
		return map[string]wtGen{
			"i":     wtWindowInt(-500, 100, 140, 5),
			"l":     wtWindowInt(-1<<40, 1<<36, 1<<36+1<<33, 5),
			"sm":    wtWindowInt(-2000, 400, 500, 5),
			"s":     wtWindowString(5),
			"d":     wtWindowTime(0, false, true, 5),
			"dec":   wtWindowDecimal(50, 4, 5),
			"dec38": wtWindowDecimal(1_000_000_000, 6, 5),
			"ts":    wtWindowTime(3, false, false, 5),
			"ts6":   wtWindowTime(6, false, false, 5),
			"ts0":   wtWindowTime(0, false, false, 5),
			"ltz":   wtWindowTime(6, true, false, 5),
			"dbl":   wtWindowDouble(10, 5, false),
			"f":     wtWindowDouble(3, 5, true),
			"vs":    wtWindowString(5),
		}
	}
	statsCols := []string{"i", "l", "sm", "s", "d", "dec", "dec38", "ts", "ts6", "ts0", "ltz", "dbl", "f", "vs"}
	statsCommits := func() []wtCommit {
		var cs []wtCommit
		for i := range 7 {
			cs = append(cs, wtCommit{kind: "append", rows: 90 + 10*i, writes: 1 + i%3})
		}
		// One commit large enough for the writer to roll files (it checks
		// the file size every 1000 rows, as Java does).
		cs[3] = wtCommit{kind: "append", rows: 1100, writes: 3}
		return cs
	}

	// The all-types columns of the Avro plan: those of the Parquet plan with
	// TIMESTAMP(6) for TIMESTAMP(9), which our writer refuses in both
	// formats (TestLiveWritesReadByJava checks that it does).
	allTypes := allTypesFields(t, "avro")
	avroTypes := append(slices.Clone(allTypes), wtField(42, "p", "STRING"))
	// ORC holds TIMESTAMP(9): the ORC plan's columns as they are.
	orcTypes := allTypesFields(t, "orc")
	return []wtSpec{
		{
			name: "types_orc", fields: orcTypes,
			options: map[string]string{"bucket": "-1", "file.format": "orc", "orc.row.index.stride": "1000"},
			commits: []wtCommit{
				{kind: "append", rows: 1300, writes: 3},
				{kind: "append", rows: 240, writes: 1},
			},
			filterCols: wtWithout(allPrimitiveColumns, "c_char"), filterSample: 14, pySkip: wtNoMultiset,
			javaRows: 60, goRowsAfter: 70,
		},
		{
			name: "types_py_orc", fields: withoutField(orcTypes, "c_multiset"), light: true,
			options: map[string]string{"bucket": "-1", "file.format": "orc", "file.compression": "snappy"},
			commits: []wtCommit{{kind: "append", rows: 150, writes: 2}, {kind: "append", rows: 100, writes: 1}},
		},
		{
			name: "bucket_orc",
			fields: []json.RawMessage{
				wtField(0, "k", "STRING NOT NULL"), wtField(1, "region", "STRING"), wtField(2, "id", "BIGINT"),
				wtField(3, "n", "INT"), wtField(4, "ts", "TIMESTAMP(9)"), wtField(5, "payload", "BYTES"),
				wtField(6, "c", "CHAR(6)"),
			},
			partition: []string{"region"},
			// Few distinct keys: dictionary-encoded strings; zlib.
			options: map[string]string{"bucket": "4", "bucket-key": "k", "file.format": "orc", "file.compression": "zlib"},
			gens: map[string]wtGen{
				"region": wtPick("eu", "us", "ap/south", nil),
				"k":      wtPick(wtKeys(40)...),
				"c":      wtPick("ab", "", "abcdef", "é ✓", nil),
			},
			commits: []wtCommit{
				{kind: "append", rows: 300, writes: 2, identifier: 7},
				{kind: "append", rows: 250, writes: 1, identifier: 8},
			},
			filterCols: []string{"k", "region", "n", "ts", "id"},
			eqCols:     []string{"k"},
			javaRows:   80, goRowsAfter: 80,
		},
		{
			name: "types_parquet", fields: allTypes,
			options: map[string]string{"bucket": "-1", "file.format": "parquet"},
			commits: []wtCommit{
				{kind: "append", rows: 260, writes: 2},
				{kind: "append", rows: 240, writes: 1},
				{kind: "append", rows: 220, writes: 3},
			},
			filterCols: allPrimitiveColumns, filterSample: 14, pySkip: wtNoMultiset,
			javaRows: 60, goRowsAfter: 70,
		},
		{
			name: "types_avro", fields: avroTypes, partition: []string{"p"},
			options: map[string]string{"bucket": "3", "bucket-key": "id", "file.format": "avro"},
			gens:    map[string]wtGen{"p": wtPick(wtEscapingValues...)},
			commits: []wtCommit{
				{kind: "append", rows: 240, writes: 2, identifier: 1},
				{kind: "append", rows: 200, writes: 1, identifier: 2},
				{kind: "overwrite", rows: 40, writes: 1, partition: map[string]string{"p": "x=y"}, identifier: 3},
			},
			filterCols:    append(append([]string{}, allPrimitiveColumns...), "p"),
			filterSample:  14,
			eqCols:        []string{"id"},
			pySkip:        wtNoMultiset,
			javaOverwrite: map[string]string{"p": "a/b"},
			javaRows:      60, goRowsAfter: 60,
		},
		{
			// Parquet LZ4 as parquet-java writes it (Hadoop frames), with a
			// column of long random strings so that pages exceed one Hadoop
			// chunk (256 KiB less overhead) and Java decompresses several.
			name: "lz4_parquet", fields: append(withoutField(allTypes, "c_multiset"), wtField(50, "big", "STRING")), light: true,
			options: map[string]string{"bucket": "-1", "file.format": "parquet", "file.compression": "lz4"},
			gens:    map[string]wtGen{"big": wtLongString(400)},
			commits: []wtCommit{{kind: "append", rows: 1500, writes: 2}, {kind: "append", rows: 100, writes: 1}},
		},
		{
			name: "lz4raw_parquet", fields: withoutField(allTypes, "c_multiset"), light: true,
			options: map[string]string{"bucket": "-1", "file.format": "parquet", "file.compression": "lz4_raw"},
			commits: []wtCommit{{kind: "append", rows: 150, writes: 2}},
		},
		{
			name: "types_py_parquet", fields: withoutField(allTypes, "c_multiset"), light: true,
			options: map[string]string{"bucket": "-1", "file.format": "parquet"},
			commits: []wtCommit{{kind: "append", rows: 150, writes: 2}, {kind: "append", rows: 100, writes: 1}},
		},
		{
			name: "types_py_avro", fields: withoutField(avroTypes, "c_multiset"), light: true, partition: []string{"p"},
			options: map[string]string{"bucket": "2", "bucket-key": "id", "file.format": "avro"},
			gens:    map[string]wtGen{"p": wtPick(wtEscapingValues...)},
			commits: []wtCommit{{kind: "append", rows: 150, writes: 1}, {kind: "append", rows: 100, writes: 2}},
		},
		{
			name: "part_parquet",
			fields: []json.RawMessage{
				wtField(0, "id", "BIGINT NOT NULL"), wtField(1, "dt", "STRING"), wtField(2, "hr", "INT"),
				wtField(3, "v", "DOUBLE"), wtField(4, "s", "STRING"), wtField(5, "amount", "DECIMAL(12, 2)"),
			},
			partition: []string{"dt", "hr"},
			options: map[string]string{"bucket": "-1", "file.format": "parquet",
				"compaction.min.file-num": "2"},
			gens: map[string]wtGen{"dt": wtPick(wtEscapingValues...), "hr": wtPick(int64(0), int64(7), int64(23), nil)},
			commits: []wtCommit{
				{kind: "append", rows: 200, writes: 2},
				{kind: "append", rows: 150, writes: 1},
				{kind: "overwrite", rows: 30, writes: 1, partition: map[string]string{"dt": "50%"}},
				{kind: "append", rows: 120, writes: 1},
				{kind: "drop", drops: []map[string]string{{"dt": "plain", "hr": "7"}, {"dt": "ü#?"}}},
			},
			filterCols:    []string{"dt", "hr", "v", "s", "amount", "id"},
			javaOverwrite: map[string]string{"dt": "with space", "hr": "23"},
			javaRows:      50, goRowsAfter: 50,
		},
		{
			name: "bucket_parquet",
			fields: []json.RawMessage{
				wtField(0, "k", "STRING NOT NULL"), wtField(1, "region", "STRING"), wtField(2, "id", "BIGINT"),
				wtField(3, "n", "INT"), wtField(4, "ts", "TIMESTAMP(6)"), wtField(5, "payload", "BYTES"),
			},
			partition: []string{"region"},
			options:   map[string]string{"bucket": "4", "bucket-key": "k", "file.format": "parquet"},
			gens: map[string]wtGen{
				"region": wtPick("eu", "us", "ap/south", nil),
				"k":      wtPick(wtKeys(40)...),
			},
			commits: []wtCommit{
				{kind: "append", rows: 300, writes: 2, identifier: 7},
				{kind: "append", rows: 250, writes: 1, identifier: 8},
				{kind: "append", rows: 200, writes: 2, identifier: 9},
			},
			filterCols: []string{"k", "region", "n", "ts", "id"},
			eqCols:     []string{"k"},
			javaRows:   80, goRowsAfter: 80,
		},
		{
			name: "part_avro",
			fields: []json.RawMessage{
				wtField(0, "id", "BIGINT NOT NULL"), wtField(1, "d", "DATE"), wtField(2, "code", "INT"),
				wtField(3, "name", "STRING"), wtField(4, "price", "DECIMAL(10, 3)"),
				wtField(5, "at", "TIMESTAMP(3) WITH LOCAL TIME ZONE"),
			},
			partition: []string{"d", "code"},
			options: map[string]string{"bucket": "-1", "file.format": "avro",
				"compaction.min.file-num": "2"},
			gens: map[string]wtGen{
				"d":    wtPick("1969-12-31", "1970-01-01", "2024-02-29", nil),
				"code": wtPick(int64(-1), int64(0), int64(2147483647), nil),
			},
			commits: []wtCommit{
				{kind: "append", rows: 150, writes: 1},
				{kind: "append", rows: 150, writes: 2},
				{kind: "overwrite", rows: 40, writes: 1, partition: map[string]string{"code": "0"}},
			},
			filterCols:    []string{"d", "code", "name", "price", "at"},
			javaOverwrite: map[string]string{"code": "-1"},
			javaRows:      50, goRowsAfter: 50,
		},
		{
			name: "stats_parquet", fields: statsFields(),
			// Small files and row groups, so that the 1100-row commit may
			// roll files and cut row groups (the writer checks the file
			// size every 1000 rows, as Java does).
			options: map[string]string{"bucket": "-1", "file.format": "parquet",
				"target-file-size": "12kb", "parquet.block.size": "4096"},
			gens: statsGens(), commits: statsCommits(),
			filterCols: statsCols, windowed: true,
			javaRows: 60, goRowsAfter: 60,
		},
		{
			name: "stats_orc", fields: statsFields(),
			// Small files and stripes, and the smallest row groups Java
			// allows, so that Java prunes stripes and row groups by our
			// statistics.
			options: map[string]string{"bucket": "-1", "file.format": "orc", "file.compression": "lz4",
				"target-file-size": "16kb", "file.block-size": "8kb", "orc.row.index.stride": "1000"},
			gens: statsGens(), commits: statsCommits(),
			filterCols: statsCols, windowed: true,
			javaRows: 60, goRowsAfter: 60,
		},
		{
			name: "stats_avro", fields: statsFields(),
			options: map[string]string{"bucket": "-1", "file.format": "avro", "target-file-size": "8kb"},
			gens:    statsGens(), commits: statsCommits(),
			filterCols: statsCols, windowed: true,
			javaRows: 60, goRowsAfter: 60,
		},
	}
}

// wtKeys returns n distinct bucket-key strings, some of them multi-byte.
func wtKeys(n int) []any {
	out := make([]any, n)
	for i := range out {
		switch i % 4 {
		case 0:
			out[i] = "key-" + string(rune('a'+i%26))
		case 1:
			out[i] = "ключ-" + string(rune('a'+i%26))
		case 2:
			out[i] = "键/" + string(rune('A'+i%26))
		default:
			out[i] = ""
		}
		out[i] = out[i].(string) + string(rune('0'+i/4%10)) + string(rune('0'+i/40))
	}
	return out
}
