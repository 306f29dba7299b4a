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
	"slices"
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
	// Dumps are the plan's extra reads (dump-<name>.jsonl), see DumpSpec.
	Dumps []DumpSpec `json:"dumps,omitempty"`
}

// DumpSpec is one extra read a plan asks its producer to record beside the
// standard dumps, as "dumps": [...] at the top level of the plan: a branch,
// a system table such as $row_tracking, a projection, a snapshot or tag, an
// incremental range or a filter, or several of these at once. The golden
// tests replay each one through the library and `paimon scan`.
type DumpSpec struct {
	// Name names the output, dump-<Name>.jsonl.
	Name string `json:"name"`
	// Branch reads the table's branch (Java "table$branch_<Branch>").
	Branch string `json:"branch,omitempty"`
	// System reads a system table: "row_tracking" or "audit_log".
	System string `json:"system,omitempty"`
	// Cols projects top-level columns (system columns such as _ROW_ID
	// included), in order.
	Cols []string `json:"cols,omitempty"`
	// Snapshot and Tag time travel.
	Snapshot int64  `json:"snapshot,omitempty"`
	Tag      string `json:"tag,omitempty"`
	// Incremental is "S,E": the changes after snapshot S up to E, read
	// with their row kinds (the audit log); IncrementalMode picks delta or
	// changelog files.
	Incremental     string `json:"incremental,omitempty"`
	IncrementalMode string `json:"incrementalMode,omitempty"`
	// Filter is a filter in the harness's --filter syntax:
	// "<col> <op> <canon-v1 JSON literal>", "<col> is null" or
	// "<col> is not null".
	Filter string `json:"filter,omitempty"`
	// PlannedFiles asks the Java producer to record the files its plan
	// keeps for Filter as dump-<Name>.files (bucket path/file name, one a
	// line; the warehouse path replaced by $WAREHOUSE).
	PlannedFiles bool `json:"plannedFiles,omitempty"`
	// Versions, when set, are the only producer versions that record this
	// dump (a read the other versions do differently or cannot do).
	Versions []string `json:"versions,omitempty"`
}

// args are the harness's dump arguments for the spec.
func (d DumpSpec) args(warehouse, table string) []string {
	if d.Branch != "" {
		table += "$branch_" + d.Branch
	}
	if d.System != "" && d.System != "audit_log" {
		table += "$" + d.System
	}
	o := interop.DumpOptions{Snapshot: d.Snapshot, Tag: d.Tag, Columns: d.Cols}
	if d.System == "audit_log" {
		o.Mode = "audit"
	}
	args := interop.DumpArgs(warehouse, table, o)
	if d.Incremental != "" {
		args = append(args, "--incremental", d.Incremental)
		if d.IncrementalMode != "" {
			args = append(args, "--incremental-mode", d.IncrementalMode)
		}
	}
	if d.Filter != "" {
		args = append(args, "--filter", d.Filter)
	}
	return args
}

type planHeader struct {
	DB     string `json:"db"`
	Table  string `json:"table"`
	Schema struct {
		PrimaryKeys []string `json:"primaryKeys"`
	} `json:"schema"`
	Dumps []DumpSpec `json:"dumps"`
	// Versions, when set, are the only producer versions that apply the
	// plan (a table the others refuse to create).
	Versions []string `json:"versions"`
	// SkipMeta names system tables (of metaTables) a producer version
	// cannot list for this table, with the versions; each entry says why in
	// gen_plans.py.
	SkipMeta []struct {
		Name     string   `json:"name"`
		Versions []string `json:"versions"`
	} `json:"skipMeta"`
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
// PAIMON_GOLDEN_PRODUCERS=java-1.4.2,pypaimon-2.1.0 limits the run to some
// producers (the others' directories are left as they are), and
// PAIMON_GOLDEN_PLANS=schema-evolution-append-parquet,... regenerates only the
// named plans, leaving every other scenario untouched.
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
	only := map[string]bool{}
	for _, n := range strings.Split(os.Getenv("PAIMON_GOLDEN_PRODUCERS"), ",") {
		if n != "" {
			only[n] = true
		}
	}
	onlyPlans := map[string]bool{}
	for _, n := range strings.Split(os.Getenv("PAIMON_GOLDEN_PLANS"), ",") {
		if n != "" {
			onlyPlans[n] = true
		}
	}
	for _, r := range runners {
		if len(only) > 0 && !only[r.Name()] {
			continue
		}
		t.Run(r.Name(), func(t *testing.T) {
			t.Parallel() // producers write disjoint directories
			plans, err := filepath.Glob(filepath.Join(root, planSets[r.Producer], "*.json"))
			if err != nil || len(plans) == 0 {
				t.Fatalf("%s: no plans in %s", r.Name(), planSets[r.Producer])
			}
			outRoot := filepath.Join(root, "testdata", "golden", r.Name())
			if len(onlyPlans) == 0 {
				if err := os.RemoveAll(outRoot); err != nil {
					t.Fatal(err)
				}
			}
			for _, plan := range plans {
				name := strings.TrimSuffix(filepath.Base(plan), ".json")
				if len(onlyPlans) > 0 && !onlyPlans[name] {
					continue
				}
				if err := os.RemoveAll(filepath.Join(outRoot, name)); err != nil {
					t.Fatal(err)
				}
				t.Run(name, func(t *testing.T) {
					err := generateScenario(ctx, t, r, root, plan, filepath.Join(outRoot, name))
					if errors.Is(err, interop.ErrUnsupported) {
						t.Logf("not generated: %v", err)
						os.RemoveAll(filepath.Join(outRoot, name))
						return
					}
					if err != nil {
						t.Fatal(err)
					}
				})
			}
			if r.Producer == "java" && len(onlyPlans) == 0 {
				keys := filepath.Join(outRoot, "binaryrow-keys.jsonl")
				if _, err := r.Run(ctx, "genkeys", keys, "20261202", "1200"); err != nil {
					t.Fatal(err)
				}
			}
		})
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
	if len(hdr.Versions) > 0 && !slices.Contains(hdr.Versions, r.Version) {
		return fmt.Errorf("%w: plan %s is for versions %v", interop.ErrUnsupported, filepath.Base(plan), hdr.Versions)
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
	// Dumps go to a scratch directory first, then have the temporary
	// warehouse path replaced so the corpus does not depend on it.
	scratch := t.TempDir()
	var items []interop.BatchItem
	add := func(name string, args []string) {
		items = append(items, interop.BatchItem{Out: filepath.Join(scratch, name), Args: args})
	}
	add("expected.jsonl", interop.DumpArgs(wh, table, interop.DumpOptions{}))
	for _, id := range sc.Snapshots {
		add(fmt.Sprintf("expected-snapshot-%d.jsonl", id), interop.DumpArgs(wh, table, interop.DumpOptions{Snapshot: id}))
	}
	for _, tag := range sc.Tags {
		add("expected-tag-"+tag+".jsonl", interop.DumpArgs(wh, table, interop.DumpOptions{Tag: tag}))
	}
	for _, d := range hdr.Dumps {
		if len(d.Versions) > 0 && !slices.Contains(d.Versions, r.Version) {
			continue
		}
		args := d.args(wh, table)
		if d.Filter != "" && r.Producer == "java" && d.PlannedFiles {
			// The files Java's plan keeps for the filter, which
			// TestGoldenPlannedFiles compares with ours.
			args = append(args, "--planned-files", filepath.Join(out, "dump-"+d.Name+".files"))
		}
		add("dump-"+d.Name+".jsonl", args)
		sc.Dumps = append(sc.Dumps, d)
	}
	if err := r.Batch(ctx, items); err != nil {
		return err
	}
	// Optional outputs: the audit log of primary-key tables and the system
	// tables, where the producer supports them.
	var optional []interop.BatchItem
	if len(hdr.Schema.PrimaryKeys) > 0 {
		optional = append(optional, interop.BatchItem{Out: filepath.Join(scratch, "audit.jsonl"),
			Args: interop.DumpArgs(wh, table, interop.DumpOptions{Mode: "audit"})})
	}
	for _, m := range metaTables {
		if slices.ContainsFunc(hdr.SkipMeta, func(s struct {
			Name     string   `json:"name"`
			Versions []string `json:"versions"`
		}) bool {
			return s.Name == m && slices.Contains(s.Versions, r.Version)
		}) {
			continue
		}
		optional = append(optional, interop.BatchItem{Out: filepath.Join(scratch, "meta-"+m+".jsonl"),
			Args: []string{"meta", wh, table, m}})
	}
	if r.Producer == "java" {
		if err := r.Batch(ctx, optional); err != nil {
			return err
		}
		items = append(items, optional...)
	} else {
		for _, it := range optional {
			err := r.Batch(ctx, []interop.BatchItem{it})
			if errors.Is(err, interop.ErrUnsupported) {
				continue
			}
			if err != nil {
				return err
			}
			items = append(items, it)
		}
	}
	for _, it := range items {
		b, err := os.ReadFile(it.Out)
		if err != nil {
			return err
		}
		name := filepath.Base(it.Out)
		if err := os.WriteFile(filepath.Join(out, name), []byte(strings.ReplaceAll(string(b), wh, "$WAREHOUSE")), 0o644); err != nil {
			return err
		}
		switch {
		case name == "audit.jsonl":
			sc.Audit = true
		case strings.HasPrefix(name, "meta-"):
			sc.Meta = append(sc.Meta, strings.TrimSuffix(strings.TrimPrefix(name, "meta-"), ".jsonl"))
		}
	}
	for _, d := range sc.Dumps {
		p := filepath.Join(out, "dump-"+d.Name+".files")
		b, err := os.ReadFile(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(strings.ReplaceAll(string(b), wh, "$WAREHOUSE")), 0o644); err != nil {
			return err
		}
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
