package ops

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// TableMeta is what the Java generator recorded about one table in
// meta.json: the shape of its full-scan plan and, for the primary-key
// tables, the rows written and the distinct keys a merged read returns.
type TableMeta struct {
	Splits      int64  `json:"splits"`
	Files       int64  `json:"files"`
	FileRows    int64  `json:"file_rows"`
	FilesWithDV int64  `json:"files_with_dv"`
	Levels      string `json:"levels"`
	Written     int64  `json:"written"`
	Distinct    int64  `json:"distinct"`
	Snapshots   int64  `json:"snapshots"`
}

// Meta is meta.json of a generated warehouse, by table name.
type Meta map[string]TableMeta

// LoadMeta reads meta.json of a warehouse the Java generator wrote.
func LoadMeta(warehouse string) (Meta, error) {
	p := filepath.Join(warehouse, "meta.json")
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	var m Meta
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrBadOptions, p, err)
	}
	// The compaction tables are generated on demand (meta-compact.json,
	// meta-compact-pk.json).
	for _, name := range []string{"meta-compact.json", "meta-compact-pk.json"} {
		b, err := os.ReadFile(filepath.Join(warehouse, name))
		if err != nil {
			continue
		}
		var extra Meta
		if err := json.Unmarshal(b, &extra); err != nil {
			return nil, fmt.Errorf("%w: %s: %v", ErrBadOptions, name, err)
		}
		for k, v := range extra {
			m[k] = v
		}
	}
	return m, nil
}

// FilterRange is the id range [lo, hi) of the selective filter on a table of
// rows rows: 1% of the rows, starting at 42% (inside one data file, so
// statistics prune all others). bench/run.py computes the same range.
func FilterRange(rows int64) (lo, hi int64) {
	lo = rows * 42 / 100
	return lo, lo + rows/100
}
