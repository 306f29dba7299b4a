// Package lint holds tests that enforce the module's architecture: imports
// point down the layers (codecs → fs → table core → catalogs → CLI), and each
// third-party library with a narrow role is imported from one place only. It
// mirrors pebble's internal/lint TestForbiddenImports.
package lint

import (
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/paimon-go/paimon-go"

type pkg struct {
	ImportPath string
	Imports    []string
	Deps       []string
}

func listPackages(t *testing.T) []pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-e", "-json=ImportPath,Imports,Deps", module+"/...")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	var pkgs []pkg
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) < 5 {
		t.Fatalf("go list found only %d packages", len(pkgs))
	}
	return pkgs
}

// rel returns the package path relative to the module ("" for the root).
func rel(path string) (string, bool) {
	if path == module {
		return "", true
	}
	r, ok := strings.CutPrefix(path, module+"/")
	return r, ok
}

func under(p, dir string) bool { return p == dir || strings.HasPrefix(p, dir+"/") }

// rule forbids packages matching from to import (directly) anything matching
// a forbidden prefix, unless the importer is listed as allowed.
type rule struct {
	name      string
	applies   func(p string) bool
	forbidden func(imp string) bool
}

func TestForbiddenImports(t *testing.T) {
	internalImp := func(prefix string) func(string) bool {
		return func(imp string) bool {
			r, ok := rel(imp)
			return ok && under(r, prefix)
		}
	}
	any := func(fs ...func(string) bool) func(string) bool {
		return func(imp string) bool {
			for _, f := range fs {
				if f(imp) {
					return true
				}
			}
			return false
		}
	}
	rules := []rule{
		{"format/* are pure codecs: no fs, table core, catalog or test harness",
			func(p string) bool { return under(p, "format") },
			any(internalImp("fs"), internalImp("paimon"), internalImp("catalog"), internalImp("internal/interop"), internalImp("internal/canon"), internalImp("cmd"))},
		{"fs imports nothing of the module's upper layers",
			func(p string) bool { return under(p, "fs") && !under(p, "fs/fstest") },
			any(internalImp("format"), internalImp("paimon"), internalImp("catalog"), internalImp("internal/interop"), internalImp("cmd"))},
		{"paimon never imports catalogs, cloud drivers or the CLI",
			func(p string) bool { return under(p, "paimon") },
			any(internalImp("catalog"), internalImp("fs/blobfs"), internalImp("cmd"), internalImp("examples"))},
		{"catalog never imports the CLI",
			func(p string) bool { return under(p, "catalog") },
			any(internalImp("cmd"), internalImp("examples"))},
		{"the command is flags, printing and progress: the library does the work",
			func(p string) bool { return under(p, "cmd/paimon") },
			any(internalImp("internal/evolution"), internalImp("internal/partpath"), internalImp("internal/arrowrow"),
				internalImp("internal/canon"), internalImp("internal/arrowval"), internalImp("internal/datafile"),
				internalImp("internal/mergetree"), internalImp("internal/mergefunc"), internalImp("internal/coreoptions"))},
		{"examples use the public API only",
			func(p string) bool { return under(p, "examples") },
			internalImp("internal")},
		{"only internal/avro imports the Avro library",
			func(p string) bool { return p != "internal/avro" },
			func(imp string) bool { return strings.HasPrefix(imp, "github.com/twmb/avro") }},
		{"only fs/blobfs imports gocloud.dev",
			func(p string) bool { return !under(p, "fs/blobfs") },
			func(imp string) bool { return strings.HasPrefix(imp, "gocloud.dev") }},
	}
	for _, p := range listPackages(t) {
		r, ok := rel(p.ImportPath)
		if !ok {
			continue
		}
		for _, ru := range rules {
			if !ru.applies(r) {
				continue
			}
			for _, imp := range p.Imports {
				if ru.forbidden(imp) {
					t.Errorf("%s imports %s: %s", p.ImportPath, imp, ru.name)
				}
			}
		}
	}
}

// TestCoreHasNoCloudSDK checks transitive dependencies: nothing outside the
// cloud adapter links a cloud SDK or grpc through gocloud.
func TestCoreHasNoCloudSDK(t *testing.T) {
	for _, p := range listPackages(t) {
		r, ok := rel(p.ImportPath)
		if !ok || under(r, "fs/blobfs") || under(r, "cmd") || under(r, "examples") || under(r, "catalog") {
			continue
		}
		for _, d := range p.Deps {
			if strings.HasPrefix(d, "gocloud.dev") || strings.HasPrefix(d, "github.com/aws/") ||
				strings.HasPrefix(d, "cloud.google.com/") || strings.HasPrefix(d, "github.com/Azure/") {
				t.Errorf("%s depends on %s; cloud SDKs belong in fs/blobfs only", p.ImportPath, d)
				break
			}
		}
	}
}
