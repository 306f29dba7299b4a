package lint

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/paimon-go/paimon-go/internal/coreoptions"
)

// optionKeyAllowed lists, per key, the non-test files where a string equal
// to an option key is not that option. Keep it short and say why.
var optionKeyAllowed = map[string]map[string]string{
	// Java's CoreOptions TYPE, BRANCH, BUCKET, PARTITION and PRIMARY_KEY
	// are also ordinary words of JSON documents, reports and file layouts.
	"type": {
		"format/schema/json.go":   "member of a data type's and a field's JSON",
		"format/schema/schema.go": "member of a field's JSON",
		"catalog/rest/commit.go":  "member of the REST instant JSON",
	},
	"branch": {
		"catalog/rest/versions.go": "member of the REST create-branch JSON",
		"cmd/paimon/branchcmd.go":  "command name",
		"paimon/tablemeta.go":      "directory name prefix (branch-<name>)",
	},
	"primary-key": {
		"internal/mergefunc/aggregator.go": "name of the primary-key aggregate function",
		"paimon/schema_validation.go":      "name of the primary-key aggregate function",
		"cmd/paimon/describe.go":           "table type label",
		"paimon/health/text.go":            "table type label",
		"paimon/health/rules.go":           "table type label",
	},
	"bucket": {
		"paimon/systable_files.go": "column of Java's $files and $buckets",
		"cmd/paimon/explain.go":    "column heading",
		"paimon/health/text.go":    "column heading",
		"paimon/health/rules.go":   "finding subject",
	},
	"partition": {
		"paimon/systable_files.go":    "column of Java's $files, $partitions and $buckets",
		"paimon/schema_validation.go": "word of an error message",
		"cmd/paimon/explain.go":       "column heading",
		"paimon/health/text.go":       "column heading",
	},
	// Avro's own container-file metadata key, which the avro.codec table
	// option is named after.
	"avro.codec": {
		"internal/avro/blocks.go":     "Avro file metadata key",
		"internal/avro/ocf_writer.go": "Avro file metadata key",
		"internal/avro/reader.go":     "Avro file metadata key",
	},
}

// TestOptionKeysInOnePlace enforces that every table option key string
// lives in internal/coreoptions: a string literal equal to a key Java's
// CoreOptions declares may appear in no other non-test Go file (struct tags,
// import paths and comments do not count). Use the coreoptions constants
// (or, outside the library, the constants the paimon package exports).
func TestOptionKeysInOnePlace(t *testing.T) {
	keys := map[string]bool{}
	for _, o := range coreoptions.All() {
		if !strings.Contains(o.Key, "*") {
			keys[o.Key] = true
		}
	}
	if len(keys) < 300 {
		t.Fatalf("coreoptions knows only %d keys", len(keys))
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	used := map[[2]string]bool{}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			name := d.Name()
			if rel != "." && (strings.HasPrefix(name, ".") || name == "testdata" || rel == "internal/coreoptions") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		checked++
		skip := map[*ast.BasicLit]bool{}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ImportSpec:
				skip[n.Path] = true
			case *ast.Field:
				if n.Tag != nil {
					skip[n.Tag] = true
				}
			case *ast.BasicLit:
				if n.Kind != token.STRING || skip[n] {
					return true
				}
				s, err := strconv.Unquote(n.Value)
				if err != nil || !keys[s] {
					return true
				}
				if _, ok := optionKeyAllowed[s][rel]; ok {
					used[[2]string{s, rel}] = true
					return true
				}
				t.Errorf("%s: option key %q: use the internal/coreoptions constant", fset.Position(n.Pos()), s)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for key, files := range optionKeyAllowed {
		for file := range files {
			if !used[[2]string{key, file}] {
				t.Errorf("optionKeyAllowed: %s no longer holds %q; drop the entry", file, key)
			}
		}
	}
	if checked < 100 {
		t.Fatalf("checked only %d files", checked)
	}
}
