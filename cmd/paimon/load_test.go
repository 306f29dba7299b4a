package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/stretchr/testify/require"
)

// typesSchema has a column of most types, partitioned by part.
const typesSchema = `{
 "fields": [
  {"name": "id", "type": "INT NOT NULL"},
  {"name": "b", "type": "BOOLEAN"},
  {"name": "ti", "type": "TINYINT"},
  {"name": "si", "type": "SMALLINT"},
  {"name": "bi", "type": "BIGINT"},
  {"name": "f", "type": "FLOAT"},
  {"name": "d", "type": "DOUBLE"},
  {"name": "dec", "type": "DECIMAL(10, 2)"},
  {"name": "s", "type": "STRING"},
  {"name": "vc", "type": "VARCHAR(5)"},
  {"name": "bin", "type": "BYTES"},
  {"name": "dt", "type": "DATE"},
  {"name": "tm", "type": "TIME(3)"},
  {"name": "ts", "type": "TIMESTAMP(6)"},
  {"name": "ltz", "type": "TIMESTAMP(3) WITH LOCAL TIME ZONE"},
  {"name": "arr", "type": {"type": "ARRAY", "element": "INT"}},
  {"name": "m", "type": {"type": "MAP", "key": "STRING NOT NULL", "value": "INT"}},
  {"name": "r", "type": {"type": "ROW", "fields": [{"id": 0, "name": "x", "type": "INT"}, {"id": 1, "name": "y", "type": "STRING"}]}},
  {"name": "part", "type": "STRING"}
 ],
 "partitionKeys": ["part"],
 "options": {"file.format": "parquet"}
}`

const typesCSV = `id,b,ti,si,bi,f,d,dec,s,vc,bin,dt,tm,ts,ltz,arr,m,r,part
1,true,-128,32767,9223372036854775807,1.5,-0.25,12.5,"hello, world",abcde,00ff,2024-02-29,12:34:56.789,2024-02-29 12:34:56.123456,2024-02-29T12:34:56.789+01:00,"[1,null,3]","[[""k"",1]]","{""x"":1,""y"":""a""}",p1
2,FALSE,0,0,0,NaN,Infinity,-0.01,"line
break",,,1969-12-31,00:00,2024-02-29T00:00:00,2024-02-29 12:00:00Z,[],{},"{""x"":null}",p2
3,,,,,,,,,,,,,,,,,,
`

const typesJSONL = `{"id":4,"b":true,"ti":1,"si":2,"bi":3,"f":"f32:3fc00000","d":2.5e-1,"dec":"1.00","s":"x","vc":"é","bin":"beef","dt":"2024-01-01","tm":"01:02:03.004","ts":"2024-01-01T01:02:03.004005000","ltz":"2024-01-01T01:02:03.004Z","arr":[7],"m":[["a",null]],"r":{"x":5,"y":null},"part":"p1"}

{"id":5,"dec":3,"d":"f64:4000000000000000","m":{"z":2}}
`

// newTable creates db.t in a fresh warehouse from a schema JSON.
func newTable(t *testing.T, schemaJSON string) (wh string) {
	t.Helper()
	wh = t.TempDir()
	runOK(t, "db", "create", "--warehouse", wh, "db")
	runOK(t, "table", "create", "--warehouse", wh, "--schema", writeTemp(t, "schema.json", schemaJSON), "db.t")
	return wh
}

func scanLines(t *testing.T, wh, table string, extra ...string) []string {
	t.Helper()
	out := runOK(t, append([]string{"scan", "--warehouse", wh, "--output", "canon", table}, extra...)...)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) == 1 && lines[0] == "" {
		return nil
	}
	slices.Sort(lines)
	return lines
}

// TestLoadTypes loads CSV and JSON lines into a table of most types and
// checks what scan reads back; then it dumps the table with scan --output
// csv, jsonl, json and canon and loads those dumps into fresh tables, which must read
// back the same.
func TestLoadTypes(t *testing.T) {
	wh := newTable(t, typesSchema)
	csvFile := writeTemp(t, "rows.csv", typesCSV)
	jsonFile := writeTemp(t, "rows.jsonl", typesJSONL)
	out := runOK(t, "load", "--warehouse", wh, "db.t", csvFile, jsonFile, "--commit-user", "loader")
	require.Equal(t, "Loaded 5 rows from 2 files into db.t: snapshot 1.\n", out)
	got := scanLines(t, wh, "db.t", "--select", "id,b,ti,si,bi,f,d,dec,s,vc,bin,dt,tm,ts,ltz,arr,m,r,part")
	checkGolden(t, "load/types.jsonl", strings.Join(got, "\n")+"\n")
	snaps := jsonRows(t, runOK(t, "snapshots", "--warehouse", wh, "db.t", "--output", "jsonl"))
	require.Len(t, snaps, 1)
	require.Equal(t, "loader", snaps[0]["commit_user"])

	for format, ext := range map[string]string{"csv": "csv", "jsonl": "jsonl", "json": "jsonl", "canon": "jsonl"} {
		t.Run("round trip "+format, func(t *testing.T) {
			out := runOK(t, "scan", "--warehouse", wh, "db.t", "--output", format)
			if format == "json" { // an array: one element per line
				var rows []json.RawMessage
				require.NoError(t, json.Unmarshal([]byte(out), &rows))
				var sb strings.Builder
				for _, r := range rows {
					sb.Write(r)
					sb.WriteByte('\n')
				}
				out = sb.String()
			}
			dump := writeTemp(t, "dump."+ext, out)
			wh2 := newTable(t, typesSchema)
			runOK(t, "load", "--warehouse", wh2, "db.t", dump)
			require.Equal(t, got, scanLines(t, wh2, "db.t", "--select", "id,b,ti,si,bi,f,d,dec,s,vc,bin,dt,tm,ts,ltz,arr,m,r,part"))
		})
	}
}

// TestLoadGolden appends to copies of Java's append tables and reads the
// old and new rows back.
func TestLoadGolden(t *testing.T) {
	for _, tc := range []struct {
		scenario, table, file, content string
		snapshot                       string
	}{
		{"append-unpartitioned", "append_unpartitioned", "new.csv", "id,score,name\n10,0.5,ten\n11,,\n", "6"},
		{"append-fixed-bucket", "append_fixed_bucket", "new.jsonl", "", ""},
		{"append-partitioned-avro", "append_partitioned_avro", "new.jsonl", "", ""},
	} {
		t.Run(tc.scenario, func(t *testing.T) {
			wh, _ := goldenCopy(t, tc.scenario, tc.table)
			table := "interop." + tc.table
			before := scanLines(t, wh, table)
			content := tc.content
			if content == "" {
				// Reload the table's own rows: every column in canon-v1.
				content = strings.Join(before, "\n") + "\n"
			}
			file := writeTemp(t, tc.file, content)
			out := runOK(t, "load", "--warehouse", wh, table, file, "--batch-rows", "1")
			require.Contains(t, out, "Loaded ")
			after := scanLines(t, wh, table)
			if tc.content == "" {
				count := map[string]int{}
				for _, l := range after {
					count[l]++
				}
				require.Equal(t, len(before)*2, len(after))
				for _, l := range before {
					require.Equal(t, 2, count[l], l)
				}
				return
			}
			require.Contains(t, out, "snapshot "+tc.snapshot+".")
			require.Equal(t, len(before)+2, len(after))
			require.Contains(t, after, `{"id":10,"name":"ten","score":"f64:3fe0000000000000"}`)
			require.Contains(t, after, `{"id":11,"name":null,"score":null}`)
		})
	}
}

// writeParquet writes one batch to a Parquet file with pqarrow.
func writeParquet(t *testing.T, name string, rec arrow.RecordBatch) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	f, err := os.Create(p)
	require.NoError(t, err)
	w, err := pqarrow.NewFileWriter(rec.Schema(), f, nil, pqarrow.DefaultWriterProps())
	require.NoError(t, err)
	require.NoError(t, w.Write(rec))
	require.NoError(t, w.Close())
	return p
}

// TestLoadParquet loads Parquet files whose columns come in another order
// and with other types: cast exactly or refused.
func TestLoadParquet(t *testing.T) {
	mem := memcheck.New()
	build := func(idType arrow.DataType, ids []int64) arrow.RecordBatch {
		sch := arrow.NewSchema([]arrow.Field{
			{Name: "score", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
			{Name: "id", Type: idType},
			{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		}, nil)
		b := array.NewRecordBuilder(mem, sch)
		defer b.Release()
		for i, id := range ids {
			b.Field(0).(*array.Float32Builder).Append(float32(i) + 0.5)
			switch ib := b.Field(1).(type) {
			case *array.Int64Builder:
				ib.Append(id)
			case *array.Int32Builder:
				ib.Append(int32(id))
			}
			if i == 0 {
				b.Field(2).AppendNull()
			} else {
				b.Field(2).(*array.StringBuilder).Append("n" + string(rune('a'+i)))
			}
		}
		return b.NewRecordBatch()
	}
	wh, _ := goldenCopy(t, "append-unpartitioned", "append_unpartitioned")
	table := "interop.append_unpartitioned"
	before := scanLines(t, wh, table)

	ok := build(arrow.PrimitiveTypes.Int64, []int64{20, 21, 22})
	defer ok.Release()
	good := writeParquet(t, "good.parquet", ok)
	out := runOK(t, "load", "--warehouse", wh, table, good)
	require.Equal(t, "Loaded 3 rows from 1 file into interop.append_unpartitioned: snapshot 6.\n", out)
	after := scanLines(t, wh, table)
	require.Len(t, after, len(before)+3)
	require.Contains(t, after, `{"id":20,"name":null,"score":"f64:3fe0000000000000"}`)
	require.Contains(t, after, `{"id":22,"name":"nc","score":"f64:4004000000000000"}`)

	tooBig := build(arrow.PrimitiveTypes.Int64, []int64{1, 3_000_000_000})
	defer tooBig.Release()
	checkNothingLoaded(t, wh, table, "big.parquet: row 2: column id: bad value: 3000000000 is out of range for INT",
		"load", "--warehouse", wh, table, writeParquet(t, "big.parquet", tooBig))

	sch := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.BinaryTypes.String}}, nil)
	b := array.NewRecordBuilder(mem, sch)
	b.Field(0).(*array.StringBuilder).Append("x")
	text := b.NewRecordBatch()
	b.Release()
	defer text.Release()
	checkNothingLoaded(t, wh, table, "text.parquet: column id is STRING NOT NULL in the file and cannot be cast safely to the table's INT NOT NULL",
		"load", "--warehouse", wh, table, writeParquet(t, "text.parquet", text))
	checkNothingLoaded(t, wh, table, "not a Parquet file",
		"load", "--warehouse", wh, table, "--format", "parquet", writeTemp(t, "x.csv", "id\n1\n"))
}

// tableFiles lists the files below a table directory.
func tableFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	require.NoError(t, filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, p)
		}
		return err
	}))
	return out
}

// checkNothingLoaded runs a load that must fail with one line on stderr
// and leave the table's files exactly as they were.
func checkNothingLoaded(t *testing.T, wh, table, want string, args ...string) {
	t.Helper()
	dir := filepath.Join(wh, strings.Replace(table, ".", ".db/", 1))
	before := tableFiles(t, dir)
	runFail(t, want, args...)
	require.Equal(t, before, tableFiles(t, dir), "a failed load leaves no file behind")
}

func TestLoadErrors(t *testing.T) {
	wh := newTable(t, typesSchema)
	w := "--warehouse=" + wh
	good := writeTemp(t, "good.csv", "id,s\n1,a\n2,b\n")
	big := strings.Repeat("3,x\n", 5000)
	for _, tc := range []struct {
		name, want string
		files      map[string]string
		args       []string
	}{
		{"bad value", "bad.csv:3: column bi: bad value: \"x\" is not an integer", map[string]string{"bad.csv": "id,bi\n1,2\n2,x\n"}, nil},
		{"quoted newline counts lines", "bad.csv:4: column dec: bad value: 1.234 has more than 2 fraction digits", map[string]string{"bad.csv": "id,s,dec\n1,\"a\nb\",1\n2,c,1.234\n"}, nil},
		{"too long", "bad.csv:2: column vc: bad value: 6 characters do not fit VARCHAR(5)", map[string]string{"bad.csv": "id,vc\n1,abcdef\n"}, nil},
		{"unknown column", `bad.csv:1: column "nope" is not a column of db.t (columns: id, b,`, map[string]string{"bad.csv": "id,nope\n1,2\n"}, nil},
		{"duplicate column", `bad.csv:1: column "s" appears twice`, map[string]string{"bad.csv": "id,s,s\n1,2,3\n"}, nil},
		{"missing NOT NULL column", `bad.csv:1: no column "id", which is NOT NULL in db.t`, map[string]string{"bad.csv": "s\na\n"}, nil},
		{"empty NOT NULL value", "bad.csv:2: column id is NOT NULL but the value is empty", map[string]string{"bad.csv": "id,s\n,a\n"}, nil},
		{"ragged csv", "bad.csv:3: wrong number of fields", map[string]string{"bad.csv": "id,s\n1,a\n2\n"}, nil},
		{"empty csv", "bad.csv: empty file", map[string]string{"bad.csv": ""}, nil},
		{"bad json", "bad.jsonl:2: not a JSON object", map[string]string{"bad.jsonl": "{\"id\":1}\n[1]\n"}, nil},
		{"duplicate JSON key", `dup.jsonl:1: column "s" appears twice`, map[string]string{"dup.jsonl": "{\"id\":1,\"s\":\"a\",\"s\":\"b\"}\n"}, nil},
		{"unknown key", `bad.jsonl:1: "nope" is not a column of db.t`, map[string]string{"bad.jsonl": "{\"id\":1,\"nope\":2}\n"}, nil},
		{"json type", "bad.jsonl:1: column s: bad value: number 5 for a STRING column, want a JSON string", map[string]string{"bad.jsonl": "{\"id\":1,\"s\":5}\n"}, nil},
		{"json null NOT NULL", "bad.jsonl:1: column id is NOT NULL but the value is missing or null", map[string]string{"bad.jsonl": "{\"s\":\"a\"}\n"}, nil},
		{"unsupported format", "bad.txt: unsupported file format \".txt\"", map[string]string{"bad.txt": "id\n1\n"}, nil},
		// A good file first, many batches of a second one, then a bad row:
		// the data files already written must be removed.
		{"late failure", "late.csv:5002: column id: bad value: \"x\" is not an integer", map[string]string{"late.csv": "id,s\n" + big + "x,y\n"}, []string{good, "--batch-rows", "100"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{"load", w, "db.t"}
			args = append(args, tc.args...)
			for name, content := range tc.files {
				args = append(args, writeTemp(t, name, content))
			}
			checkNothingLoaded(t, wh, "db.t", tc.want, args...)
			require.Empty(t, scanLines(t, wh, "db.t"), "nothing was committed")
		})
	}

	runFail(t, "no such file", "load", w, "db.t", filepath.Join(t.TempDir(), "missing.csv"))
	runFail(t, "table not found", "load", w, "db.nope", good)
	// An s3:// URI with a parameter the opener rejects: fails offline.
	runFail(t, `unknown query parameter "bogus"`, "load", "--warehouse", "s3://bucket/wh?bogus=1", "db.t", good)
	// A primary-key table Java wrote: the writer continues its sequence
	// numbers, so the loaded row replaces Java's.
	pkWH, _ := goldenCopy(t, "pk-dedup", "pk_dedup")
	checkNothingLoaded(t, pkWH, "interop.pk_dedup", `column "s" is not a column of interop.pk_dedup`,
		"load", "--warehouse", pkWH, "interop.pk_dedup", good)
	runOK(t, "load", "--warehouse", pkWH, "interop.pk_dedup", writeTemp(t, "pk.csv", "dt,id,name\nd1,1,loaded\n"))
	require.Contains(t, runOK(t, "scan", "--warehouse", pkWH, "--output", "csv", "interop.pk_dedup"), "d1,1,loaded,,\n")
	runUsage(t, `--format "xml"`, "load", w, "db.t", good, "--format", "xml")
	runUsage(t, "missing table name (database.table) and at least one file", "load", w, "db.t")
	runUsage(t, "--batch-rows", "load", w, "db.t", good, "--batch-rows", "0")
	runUsage(t, "--delimiter", "load", w, "db.t", good, "--delimiter", ";;")

	// Other delimiters, and a file that loads after all those failures.
	out := runOK(t, "load", w, "db.t", writeTemp(t, "tabs.csv", "id\ts\n7\tseven\n"), "--delimiter", `\t`)
	require.Equal(t, "Loaded 1 rows from 1 file into db.t: snapshot 1.\n", out)
	require.Equal(t, []string{"seven"}, func() []string {
		var out []string
		for _, r := range jsonRows(t, runOK(t, "scan", w, "db.t", "--select", "s")) {
			out = append(out, r["s"].(string))
		}
		return out
	}())

}

const pkSchema = `{
 "fields": [
  {"name": "dt", "type": "STRING NOT NULL"},
  {"name": "id", "type": "INT NOT NULL"},
  {"name": "name", "type": "STRING"},
  {"name": "n", "type": "BIGINT"}
 ],
 "partitionKeys": ["dt"],
 "primaryKeys": ["dt", "id"],
 "options": {"bucket": "2"}
}`

// TestLoadPrimaryKey loads upserts, change rows with a row-kind column of
// the files (or of the table), and deletes by key into primary-key tables;
// bad rows commit nothing.
func TestLoadPrimaryKey(t *testing.T) {
	wh := newTable(t, pkSchema)
	dir := t.TempDir()
	file := func(name, body string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
		return p
	}
	scan := func() string { return runOK(t, "scan", "--warehouse", wh, "--output", "csv", "db.t") }
	runOK(t, "load", "--warehouse", wh, "db.t", file("a.csv", "dt,id,name,n\nd1,1,a,10\nd1,2,b,20\nd2,1,c,30\nd1,1,a2,11\n"))
	require.Equal(t, "dt,id,name,n\nd1,1,a2,11\nd1,2,b,20\nd2,1,c,30\n", sortedCSV(scan()))

	runOK(t, "load", "--warehouse", wh, "--row-kind-column", "op", "db.t",
		file("cdc.jsonl", `{"op":"-U","dt":"d1","id":2,"name":"b","n":20}
{"op":"+U","dt":"d1","id":2,"name":"b2","n":21}
{"op":"-D","dt":"d2","id":1}
{"op":"+I","dt":"d3","id":7,"name":"x"}
`))
	require.Equal(t, "dt,id,name,n\nd1,1,a2,11\nd1,2,b2,21\nd3,7,x,\n", sortedCSV(scan()))

	runOK(t, "load", "--warehouse", wh, "--delete", "db.t", file("del.csv", "dt,id\nd1,1\nd9,9\n"))
	require.Equal(t, "dt,id,name,n\nd1,2,b2,21\nd3,7,x,\n", sortedCSV(scan()))

	before := runOK(t, "snapshots", "--warehouse", wh, "db.t")
	runFail(t, "unknown row kind", "load", "--warehouse", wh, "--row-kind-column", "op", "db.t",
		file("bad.csv", "op,dt,id,name,n\n+I,d5,5,ok,1\n+Z,d5,6,bad,2\n"))
	runFail(t, "NULL", "load", "--warehouse", wh, "db.t", file("nullkey.csv", "dt,id,name,n\nd5,,k,1\n"))
	runUsage(t, "exclude each other", "load", "--warehouse", wh, "--delete", "--row-kind-column", "op", "db.t", file("x.csv", "dt,id\nd1,1\n"))
	require.Equal(t, before, runOK(t, "snapshots", "--warehouse", wh, "db.t"), "nothing committed")
	require.Equal(t, "dt,id,name,n\nd1,2,b2,21\nd3,7,x,\n", sortedCSV(scan()))

	app := newTable(t, `{"fields": [{"name": "id", "type": "INT"}], "options": {}}`)
	runFail(t, "needs a primary-key table", "load", "--warehouse", app, "--delete", "db.t", file("y.csv", "id\n1\n"))
}
