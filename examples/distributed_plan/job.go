package main

import (
	"context"
	"fmt"

	"github.com/paimon-go/paimon-go/catalog"
	"github.com/paimon-go/paimon-go/paimon"
	"github.com/paimon-go/paimon-go/paimon/predicate"
)

// job is what the coordinator tells every worker besides its splits: where
// the table is and how to scan it. Scan.ReadSplits needs a scan with the
// same columns and filter as the one that planned the splits, so the
// workers rebuild it from this description.
type job struct {
	Warehouse string
	Table     string
	By        string // the column rows are counted by; "" counts all rows together
	Where     string // the filter as text, parsed by predicate.Parse
}

// open opens the job's table through its own catalog, as a worker in
// another process would. The caller closes the catalog.
func (j job) open(ctx context.Context) (catalog.Catalog, *paimon.Table, error) {
	id, err := paimon.ParseIdentifier(j.Table)
	if err != nil {
		return nil, nil, err
	}
	cat, err := catalog.Open(ctx, j.Warehouse, nil)
	if err != nil {
		return nil, nil, err
	}
	tbl, err := cat.LoadTable(ctx, id)
	if err != nil {
		cat.Close()
		return nil, nil, err
	}
	return cat, tbl, nil
}

// scan builds the job's scan of tbl: only the column counted by (or the
// first column when counting all rows: one narrow column is the cheapest
// thing to read) and the filter.
func (j job) scan(tbl *paimon.Table) (*paimon.Scan, error) {
	col := j.By
	if col == "" {
		col = tbl.Schema().Fields[0].Name
	}
	opts := []paimon.ScanOption{paimon.WithColumns(col)}
	if j.Where != "" {
		p, err := predicate.Parse(j.Where)
		if err != nil {
			return nil, fmt.Errorf("filter %q: %w", j.Where, err)
		}
		opts = append(opts, paimon.WithFilter(p))
	}
	return tbl.NewScan(opts...), nil
}
