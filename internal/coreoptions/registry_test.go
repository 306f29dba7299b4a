package coreoptions

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/options.md")

func repoRoot(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// TestClassificationComplete: every option has a line, every line an
// option, each line once.
func TestClassificationComplete(t *testing.T) {
	seen := map[string]bool{}
	for _, lines := range [][]line{classification[:], dynamicClassification[:]} {
		for _, c := range lines {
			if seen[c.key] {
				t.Errorf("%s classified twice", c.key)
			}
			seen[c.key] = true
			if _, ok := byKey[c.key]; !ok {
				t.Errorf("classification line %s names no option", c.key)
			}
			for _, r := range []Rule{c.read, c.write} {
				if r.Class == 0 {
					t.Errorf("%s: rule without a class", c.key)
				}
				if r.Class == Ignorable && r.Allow != nil {
					t.Errorf("%s: an ignorable rule lists values", c.key)
				}
			}
		}
	}
	for _, o := range All() {
		if !seen[o.Key] {
			t.Errorf("option %s (%s) has no classification line", o.Key, o.Source)
		}
	}
}

// TestDefaultsParse: Java's defaults and the values the rules allow parse
// as the option's type (a check on the generator and on the rules).
func TestDefaultsParse(t *testing.T) {
	for _, o := range All() {
		if o.HasDefault {
			if _, err := parseValue(o, o.Key, o.Default); err != nil {
				t.Errorf("default of %s: %v", o.Key, err)
			}
		}
		for _, r := range []Rule{o.Read, o.Write} {
			for _, a := range r.Allow {
				if _, err := parseValue(o, o.Key, a); err != nil {
					t.Errorf("allowed value of %s: %v", o.Key, err)
				}
			}
		}
		if o.Type == KindEnum && len(o.Values) == 0 {
			t.Errorf("enum %s without values", o.Key)
		}
	}
}

// goldenSchemas returns the options and primary keys of every schema file
// of the golden corpus.
func goldenSchemas(t *testing.T) map[string]struct {
	Options     map[string]string `json:"options"`
	PrimaryKeys []string          `json:"primaryKeys"`
} {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(repoRoot(t), "testdata", "golden", "*", "*", "warehouse", "*", "*", "schema", "schema-*"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("no golden schema files found")
	}
	out := map[string]struct {
		Options     map[string]string `json:"options"`
		PrimaryKeys []string          `json:"primaryKeys"`
	}{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var s struct {
			Options     map[string]string `json:"options"`
			PrimaryKeys []string          `json:"primaryKeys"`
		}
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		out[p] = s
	}
	return out
}

// TestGoldenSchemaKeysKnown fails when a table Java or pypaimon wrote
// carries an option the registry does not know: classify it first.
func TestGoldenSchemaKeysKnown(t *testing.T) {
	for p, s := range goldenSchemas(t) {
		for k := range s.Options {
			if _, ok := Lookup(k); !ok {
				t.Errorf("%s: option %q is not in the registry", p, k)
			}
		}
	}
}

func TestCheckKeys(t *testing.T) {
	require := func(cond bool, format string, args ...any) {
		t.Helper()
		if !cond {
			t.Fatalf(format, args...)
		}
	}
	ok := map[string]string{"bucket": "2", "log.scan": "latest", "fields.a.aggregate-function": "sum", "fields.a.b.sequence-group": "c"}
	require(CheckKeys(ok, nil) == nil, "known keys refused: %v", CheckKeys(ok, nil))
	for key, want := range map[string]string{
		"target-file-sizee":         `option target-file-sizee = "v": not a Java Paimon option (did you mean "target-file-size"?)`,
		"snapshot.num-retained.mim": `option snapshot.num-retained.mim = "v": not a Java Paimon option (did you mean "snapshot.num-retained.min"?)`,
		"bukcet":                    `option bukcet = "v": not a Java Paimon option (did you mean "bucket"?)`,
		"my.own.key":                `option my.own.key = "v": not a Java Paimon option`,
	} {
		err := CheckKeys(map[string]string{"bucket": "1", key: "v"}, nil)
		require(errors.Is(err, ErrUnknown), "%s: %v", key, err)
		require(err.Error() == want, "%s: got %q, want %q", key, err, want)
		require(CheckKeys(map[string]string{key: "v"}, []string{key}) == nil, "%s: custom key refused", key)
	}
	for p, s := range goldenSchemas(t) {
		require(CheckKeys(s.Options, nil) == nil, "%s: %v", p, CheckKeys(s.Options, nil))
	}
}

// TestGoldenSchemasReadable: the golden tables are read today, so no
// option they carry may be refused on read.
func TestGoldenSchemasReadable(t *testing.T) {
	for p, s := range goldenSchemas(t) {
		if err := Check(s.Options, Read, len(s.PrimaryKeys) > 0); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
}

func TestLookup(t *testing.T) {
	for key, want := range map[string]string{
		"bucket":                                  "bucket",
		"log.scan":                                "scan.mode", // fallback key
		"write.compaction-skip":                   "write-only",
		"fields.a.aggregate-function":             "fields.*.aggregate-function",
		"fields.a.b.aggregate-function":           "fields.*.aggregate-function",
		"fields.default-aggregate-function":       "fields.default-aggregate-function",
		"fields.m.map.storage-layout":             "fields.*.map.storage-layout",
		"fields.a,b.sequence-group":               "fields.*.sequence-group",
		"file-index.bloom-filter.columns":         "file-index.*",
		"parquet.compression":                     "parquet.compression",
		"parquet.page.size":                       "parquet.*",
		"commit.callback.com.example.Cb.param":    "commit.callback.#.param",
		"metadata.iceberg.storage":                "metadata.iceberg.storage",
		"sink.parallelism":                        "sink.parallelism",
		"fields.a.pk-vector.index.type":           "fields.*.pk-vector.*",
		"fields.x.stats-mode":                     "fields.*.stats-mode",
		"snapshot.expire.clean-empty-directories": "snapshot.clean-empty-directories",
	} {
		o, ok := Lookup(key)
		if !ok || o.Key != want {
			got := "nothing"
			if ok {
				got = o.Key
			}
			t.Errorf("Lookup(%q) = %s, want %s", key, got, want)
		}
	}
	for _, key := range []string{"buckets", "snapshot.num-retained", "fields.", "fields.a.unknown-thing", "parquet."} {
		if o, ok := Lookup(key); ok {
			t.Errorf("Lookup(%q) = %s, want unknown", key, o.Key)
		}
	}
}

// TestOptionsDoc keeps docs/options.md equal to what the registry says.
func TestOptionsDoc(t *testing.T) {
	path := filepath.Join(repoRoot(t), "docs", "options.md")
	want := renderDoc()
	if *update {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./internal/coreoptions -run TestOptionsDoc -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("docs/options.md is stale: go test ./internal/coreoptions -run TestOptionsDoc -update")
	}
}

func renderDoc() []byte {
	var b bytes.Buffer
	counts := map[string]int{}
	for _, o := range All() {
		counts["read "+o.Read.Class.String()]++
		counts["write "+o.Write.Class.String()]++
	}
	b.WriteString("# Table options\n\n")
	b.WriteString("<!-- Generated from internal/coreoptions by `go test ./internal/coreoptions -run TestOptionsDoc -update`; do not edit. -->\n\n")
	b.WriteString("Every table option Java Paimon 1.4.2 and 2.0.0 declare (CoreOptions, and the FlinkConnectorOptions and\n")
	b.WriteString("IcebergOptions keys stored in table schemas), the families Java builds at run time (`*` stands for a\n")
	b.WriteString("column, an index type or a format option; `#` for a class name), and what paimon-go does with each when it\n")
	b.WriteString("reads a table and when it writes one (data files, commits, expiration, schema changes):\n\n")
	b.WriteString("- **implemented**: honoured (for the values listed, if any; other values are refused);\n")
	b.WriteString("- **refused**: a value other than Java's default (or the values listed) fails with an unsupported-option\n")
	b.WriteString("  error before any row is read or written;\n")
	b.WriteString("- **ignorable**: does not change the rows read, nor what Java reads from the files written.\n\n")
	b.WriteString("Rules marked *pk* concern primary-key tables only. A value that does not parse as the option's type is an\n")
	b.WriteString("error naming the key and the value.\n\n")
	fmt.Fprintf(&b, "%d options. On read: %d implemented, %d refused, %d ignorable. On write: %d implemented, %d refused, %d ignorable.\n\n",
		len(All()), counts["read implemented"], counts["read refused"], counts["read ignorable"],
		counts["write implemented"], counts["write refused"], counts["write ignorable"])
	b.WriteString("| Key | Type | Default | Java | Read | Write | Note |\n|---|---|---|---|---|---|---|\n")
	for _, o := range All() {
		def := ""
		if o.HasDefault {
			def = "`" + o.Default + "`"
		}
		java := o.Versions.String()
		if o.Source != CoreOptions {
			java += " (" + o.Source.String() + ")"
		}
		note := o.Note
		if o.Summary != "" {
			if note != "" {
				note = o.Summary + " *" + note + "*"
			} else {
				note = o.Summary
			}
		}
		tables := ""
		if o.Tables == PrimaryKeyTables {
			tables = " *pk*"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s%s | %s%s | %s |\n", o.Key, typeText(o), cell(def), java,
			ruleText(o.Read), tables, ruleText(o.Write), tables, cell(note))
	}
	return b.Bytes()
}

func typeText(o *Option) string {
	if o.Type == KindEnum {
		return "Enum (" + strings.Join(o.Values, ", ") + ")"
	}
	return o.Type.String()
}

func ruleText(r Rule) string {
	s := r.Class.String()
	if len(r.Allow) > 0 {
		s += ": " + strings.Join(r.Allow, ", ")
		if r.Class == Refused {
			s = "refused except default, " + strings.Join(r.Allow, ", ")
		}
	}
	return s
}

func cell(s string) string {
	return strings.NewReplacer("|", "\\|", "\n", " ", "<", "&lt;", ">", "&gt;").Replace(s)
}

func TestCheck(t *testing.T) {
	for _, c := range []struct {
		opts  map[string]string
		op    Op
		pk    bool
		want  error
		names string
	}{
		{map[string]string{"bucket": "2", "file.format": "orc"}, Read, false, nil, ""},
		{map[string]string{"file.format": "orc"}, Write, false, nil, ""},
		{map[string]string{"file.format": "csv"}, Write, false, ErrUnsupported, "file.format"},
		{map[string]string{"file.format": "PARQUET"}, Write, false, nil, ""},
		{map[string]string{"scan.snapshot-id": "3"}, Read, false, ErrUnsupported, "scan.snapshot-id"},
		{map[string]string{"scan.snapshot-id": "3"}, Write, false, nil, ""},
		{map[string]string{"scan.mode": "LATEST-FULL"}, Read, false, nil, ""},
		{map[string]string{"log.scan": "compacted-full"}, Read, false, ErrUnsupported, "log.scan"},
		{map[string]string{"scan.mode": "sideways"}, Read, false, ErrInvalid, "scan.mode"},
		{map[string]string{"data-evolution.enabled": "false"}, Read, false, nil, ""},
		{map[string]string{"data-evolution.enabled": "TRUE"}, Read, false, nil, ""},
		{map[string]string{"data-evolution.enabled": "TRUE"}, Write, false, nil, ""},
		{map[string]string{"blob-field": "b"}, Write, false, ErrUnsupported, "blob-field"},
		{map[string]string{"type": "format-table"}, Read, false, ErrUnsupported, "type"},
		{map[string]string{"type": "materialized-table"}, Read, false, nil, ""},
		{map[string]string{"sequence.snapshot-ordering": "true"}, Read, false, nil, ""}, // append table: not checked
		{map[string]string{"sequence.snapshot-ordering": "true"}, Read, true, ErrUnsupported, "sequence.snapshot-ordering"},
		{map[string]string{"sink.parallelism": "not a number"}, Write, false, nil, ""}, // ignorable
		{map[string]string{"no.such.option": "x"}, Read, false, nil, ""},
		{map[string]string{"fields.m.map.storage-layout": "shared-shredding"}, Read, false, ErrUnsupported, "fields.m.map.storage-layout"},
	} {
		err := Check(c.opts, c.op, c.pk)
		if c.want == nil {
			if err != nil {
				t.Errorf("Check(%v, %s) = %v", c.opts, c.op, err)
			}
			continue
		}
		if !errors.Is(err, c.want) || !strings.Contains(fmt.Sprint(err), c.names) {
			t.Errorf("Check(%v, %s) = %v, want %v naming %s", c.opts, c.op, err, c.want, c.names)
		}
	}
}
