package interop_test

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/paimon-go/paimon-go/internal/interop"
)

var update = flag.Bool("update", false, "regenerate testdata/golden with the reference implementations (needs PAIMON_INTEROP=1)")

// Scenario is what testdata/golden/<producer>-<version>/<name>/scenario.json
// records about one golden warehouse, so the Go tests know what to compare
// without re-reading the plan.
type Scenario struct {
	Name      string   `json:"name"`
	Producer  string   `json:"producer"`
	Plan      string   `json:"plan"`  // repository-relative path of the plan that built it
	Table     string   `json:"table"` // "db.table"
	Snapshots []int64  `json:"snapshots"`
	Tags      []string `json:"tags"`
	// Audit is true when audit.jsonl (the $audit_log dump) was recorded.
	Audit bool `json:"audit"`
	// Meta lists the system tables dumped as meta-<name>.jsonl.
	Meta []string `json:"meta"`
}

type planHeader struct {
	DB     string `json:"db"`
	Table  string `json:"table"`
	Schema struct {
		PrimaryKeys []string `json:"primaryKeys"`
	} `json:"schema"`
}

// planSets maps a producer to the directory of plans it can apply.
var planSets = map[string]string{
	"java":     "interop/plans",
	"pypaimon": "interop/python/plans",
}

// metaTables are the Java system tables recorded with every golden table.
var metaTables = []string{"snapshots", "schemas", "options", "files", "manifests", "tags"}

// TestGoldenUpdate regenerates the golden corpus:
//
//	bash interop/setup.sh
//	PAIMON_INTEROP=1 go test ./interop -run TestGoldenUpdate -update -timeout 60m
//
// Every plan is applied by every producer version that can apply it, the
// warehouse is copied into testdata/golden/<producer>-<version>/<plan>/, and
// the producer's own canonical dumps are written beside it.
func TestGoldenUpdate(t *testing.T) {
	if !*update {
		t.Skip("run with -update (and PAIMON_INTEROP=1) to regenerate testdata/golden")
	}
	runners := interop.Require(t)
	root, err := interop.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, r := range runners {
		plans, err := filepath.Glob(filepath.Join(root, planSets[r.Producer], "*.json"))
		if err != nil || len(plans) == 0 {
			t.Fatalf("%s: no plans in %s", r.Name(), planSets[r.Producer])
		}
		outRoot := filepath.Join(root, "testdata", "golden", r.Name())
		if err := os.RemoveAll(outRoot); err != nil {
			t.Fatal(err)
		}
		for _, plan := range plans {
			name := strings.TrimSuffix(filepath.Base(plan), ".json")
			t.Run(r.Name()+"/"+name, func(t *testing.T) {
				if err := generateScenario(ctx, t, r, root, plan, filepath.Join(outRoot, name)); err != nil {
					if errors.Is(err, interop.ErrUnsupported) {
						t.Logf("skipped: %v", err)
						os.RemoveAll(filepath.Join(outRoot, name))
						return
					}
					t.Fatal(err)
				}
			})
		}
		if r.Producer == "java" {
			keys := filepath.Join(outRoot, "binaryrow-keys.jsonl")
			if _, err := r.Run(ctx, "genkeys", keys, "20261202", "1200"); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func generateScenario(ctx context.Context, t *testing.T, r *interop.Runner, root, plan, out string) error {
	raw, err := os.ReadFile(plan)
	if err != nil {
		return err
	}
	var hdr planHeader
	if err := json.Unmarshal(raw, &hdr); err != nil {
		return fmt.Errorf("%s: %w", plan, err)
	}
	wh := t.TempDir()
	if err := r.Apply(ctx, wh, plan); err != nil {
		return err
	}
	table := hdr.DB + "." + hdr.Table
	sc := Scenario{Name: filepath.Base(out), Producer: r.Name(), Table: table}
	sc.Plan, _ = filepath.Rel(root, plan)
	sc.Plan = filepath.ToSlash(sc.Plan)
	tableDir := filepath.Join(wh, hdr.DB+".db", hdr.Table)
	sc.Snapshots, err = listSuffixes(filepath.Join(tableDir, "snapshot"), "snapshot-")
	if err != nil {
		return err
	}
	if sc.Tags, err = listNames(filepath.Join(tableDir, "tag"), "tag-"); err != nil {
		return err
	}

	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	write := func(name string, data []byte) error {
		data = []byte(strings.ReplaceAll(string(data), wh, "$WAREHOUSE"))
		return os.WriteFile(filepath.Join(out, name), data, 0o644)
	}
	dump := func(name string, o interop.DumpOptions) error {
		b, err := r.Dump(ctx, wh, table, o)
		if err != nil {
			return err
		}
		return write(name, b)
	}
	if err := dump("expected.jsonl", interop.DumpOptions{}); err != nil {
		return err
	}
	for _, id := range sc.Snapshots {
		if err := dump(fmt.Sprintf("expected-snapshot-%d.jsonl", id), interop.DumpOptions{Snapshot: id}); err != nil {
			return err
		}
	}
	for _, tag := range sc.Tags {
		if err := dump("expected-tag-"+tag+".jsonl", interop.DumpOptions{Tag: tag}); err != nil {
			return err
		}
	}
	if len(hdr.Schema.PrimaryKeys) > 0 {
		err := dump("audit.jsonl", interop.DumpOptions{Mode: "audit"})
		switch {
		case err == nil:
			sc.Audit = true
		case !errors.Is(err, interop.ErrUnsupported):
			return err
		}
	}
	for _, m := range metaTables {
		b, err := r.Meta(ctx, wh, table, m)
		if errors.Is(err, interop.ErrUnsupported) {
			continue
		}
		if err != nil {
			return err
		}
		if err := write("meta-"+m+".jsonl", b); err != nil {
			return err
		}
		sc.Meta = append(sc.Meta, m)
	}
	if err := copyTree(wh, filepath.Join(out, "warehouse")); err != nil {
		return err
	}
	b, err := json.MarshalIndent(sc, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(out, "scenario.json"), append(b, '\n'), 0o644)
}

func listNames(dir, prefix string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if n, ok := strings.CutPrefix(e.Name(), prefix); ok && !e.IsDir() {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out, nil
}

func listSuffixes(dir, prefix string) ([]int64, error) {
	names, err := listNames(dir, prefix)
	if err != nil {
		return nil, err
	}
	var ids []int64
	for _, n := range names {
		if id, err := strconv.ParseInt(n, 10, 64); err == nil {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	return ids, nil
}

// copyTree copies a warehouse, leaving out hidden temporary files and Hadoop
// checksum files (.crc), which are not part of the table.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if strings.HasPrefix(d.Name(), ".") && strings.HasSuffix(d.Name(), ".crc") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
}
