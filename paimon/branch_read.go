package paimon

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/internal/coreoptions"
)

// Reads across two branches (Java FallbackReadFileStoreTable): a table with
// scan.fallback-branch = B reads each partition from its own branch when
// that branch has it, and the partitions only B has from B; with
// scan.primary-branch = P the roles swap: partitions P has come from P,
// the rest from the table's own branch. "Has" means has data files the
// scan would consider (its snapshot, incremental range and partition
// filter). The two branches must have the same columns. A snapshot id is
// carried over to the other branch by time: its latest snapshot committed
// at or before the chosen one, or its first; tags, timestamps and
// incremental ranges apply to both as given. A branch named in the option
// that does not exist is ignored, as in Java.

// otherBranch is the other branch a scan of t reads.
type otherBranch struct {
	name  string
	table *Table
	first bool // the other branch is read first (scan.primary-branch)
}

// otherBranch returns the branch t's options name for fallback or primary
// reads, nil when none is set or it does not exist.
func (t *Table) otherBranch(ctx context.Context) (*otherBranch, error) {
	opts := tableOptions(t.schema.Options)
	name, first := strings.TrimSpace(opts.str(coreoptions.ScanFallbackBranch, "")), false
	if name == "" {
		name, first = strings.TrimSpace(opts.str(coreoptions.ScanPrimaryBranch, "")), true
	}
	if name == "" {
		return nil, nil
	}
	other, err := OpenTable(ctx, t.meta.fsys, t.meta.Root(), &TableOptions{
		Branch:     name,
		Identifier: Identifier{Database: t.id.Database, Table: t.id.Table, Branch: name},
	})
	if errors.Is(err, ErrTableNotFound) {
		return nil, nil // Java logs the missing branch and reads this one alone
	}
	if err != nil {
		return nil, err
	}
	if other.meta.Branch() == t.meta.Branch() {
		return nil, nil
	}
	if err := sameColumns(t, other); err != nil {
		return nil, err
	}
	return &otherBranch{name: other.meta.Branch(), table: other, first: first}, nil
}

// sameColumns checks that two branches' schemas have the same column
// types, nullability aside (Java validateSchema), and the same names, which
// this library's projections and filters go by.
func sameColumns(t, other *Table) error {
	a, b := t.schema.Fields, other.schema.Fields
	same := len(a) == len(b)
	for i := 0; same && i < len(a); i++ {
		same = a[i].Type.Copy(true).EqualIgnoreFieldIDs(b[i].Type.Copy(true))
	}
	if !same {
		return fmt.Errorf("%w: branches %s and %s of %s do not have the same row type (%s, %s)",
			ErrInvalidScan, t.meta.Branch(), other.meta.Branch(), t.name(), t.schema.RowType(), other.schema.RowType())
	}
	for i := range a {
		if a[i].Name != b[i].Name {
			return fmt.Errorf("%w: branches %s and %s of %s name column %d differently (%s, %s)",
				ErrUnsupported, t.meta.Branch(), other.meta.Branch(), t.name(), i, a[i].Name, b[i].Name)
		}
	}
	return nil
}

// branchScan is the scan s on the other branch: the same spec, with a
// snapshot id carried over by time (Java FallbackReadFileStoreTable
// .rewriteOtherOptions).
func (s *Scan) branchScan(ctx context.Context, ob *otherBranch) (*Scan, error) {
	spec := s.spec
	if spec.SnapshotID != 0 {
		snap, err := s.table.meta.ReadSnapshot(ctx, spec.SnapshotID)
		if err != nil {
			return nil, err
		}
		o := &Scan{table: ob.table}
		otherSnap, err := o.snapshotAsOf(ctx, snap.TimeMillis)
		if err != nil {
			return nil, err
		}
		spec.SnapshotID = 1 // Java's Snapshot.FIRST_SNAPSHOT_ID
		if otherSnap != nil {
			spec.SnapshotID = otherSnap.ID
		}
	}
	return &Scan{table: ob.table, spec: spec}, nil
}

// branchPlan collects and excludes partitions while planning one side of a
// two-branch read.
type branchPlan struct {
	collect    bool
	partitions map[string]bool // the partitions the plan considered (collect)
	exclude    map[string]bool // partitions the other branch has
}

// apply drops the files of excluded partitions and records the partitions
// of the rest that the scan's filter can select (Java's listPartitions of
// the scan with its partition filter). bp may be nil.
func (bp *branchPlan) apply(st *scanState, files []*manifest.ManifestEntry) ([]*manifest.ManifestEntry, error) {
	if bp == nil {
		return files, nil
	}
	if bp.exclude != nil {
		out := files[:0]
		for _, e := range files {
			if !bp.exclude[string(e.Partition)] {
				out = append(out, e)
			}
		}
		files = out
	}
	if bp.collect {
		bp.partitions = map[string]bool{}
		for _, e := range files {
			p := string(e.Partition)
			if _, seen := bp.partitions[p]; seen {
				continue
			}
			keep, err := st.pruner.keepPartition(e.Partition)
			if err != nil {
				return nil, &entryError{e, err}
			}
			if keep {
				bp.partitions[p] = true
			}
		}
	}
	return files, nil
}

// Plan reads the snapshot's manifests and returns the splits to read. For a
// table with scan.fallback-branch or scan.primary-branch it plans both
// branches; the splits of the other branch carry its name (Split.Branch).
func (s *Scan) Plan(ctx context.Context) (*Plan, error) {
	if err := s.validate(); err != nil {
		return nil, err
	}
	ob, err := s.table.otherBranch(ctx)
	if err != nil {
		return nil, err
	}
	if ob == nil {
		return s.planOne(ctx, nil)
	}
	other, err := s.branchScan(ctx, ob)
	if err != nil {
		return nil, err
	}
	first, second := s, other
	if ob.first {
		first, second = other, s
	}
	bp := &branchPlan{collect: true}
	p1, err := first.planOne(ctx, bp)
	if err != nil {
		return nil, err
	}
	p2, err := second.planOne(ctx, &branchPlan{exclude: bp.partitions})
	if err != nil {
		return nil, err
	}
	own, theirs := p1, p2
	if ob.first {
		own, theirs = p2, p1
	}
	for i := range theirs.Splits {
		theirs.Splits[i].Branch = ob.name
	}
	own.state.branch = &branchRead{name: ob.name, scan: other, st: theirs.state}
	plan := *own
	plan.Splits = append(append([]Split(nil), p1.Splits...), p2.Splits...)
	plan.Stats = addStats(p1.Stats, p2.Stats)
	return &plan, nil
}

func addStats(a, b PlanStats) PlanStats {
	a.Manifests += b.Manifests
	a.ManifestsPruned += b.ManifestsPruned
	a.Files += b.Files
	a.FilesPrunedByPartition += b.FilesPrunedByPartition
	a.FilesPrunedByBucket += b.FilesPrunedByBucket
	a.FilesPrunedByStats += b.FilesPrunedByStats
	a.FilesPrunedByIndex += b.FilesPrunedByIndex
	a.FilesPrunedByLimit += b.FilesPrunedByLimit
	a.FilesSkippedLevel0 += b.FilesSkippedLevel0
	a.RowCount += b.RowCount
	return a
}

// branchRead is how a scan reads the splits of the other branch.
type branchRead struct {
	name string
	scan *Scan
	st   *scanState
}

// readBranchSplit reads a split of the other branch with that branch's
// scan and state, in the columns of this scan's output.
func (r *splitReader) readBranchSplit(ctx context.Context, sp *Split, yield func(arrow.RecordBatch, error) bool) bool {
	br := r.st.branch
	if br == nil || br.name != sp.Branch {
		yield(nil, fmt.Errorf("%w: a split of branch %s in a read of %s", ErrInvalidScan, sp.Branch, r.scan.table.name()))
		return false
	}
	out := r.st.outSchema
	scan, st := r.scan, r.st
	r.scan, r.st, r.inBranch = br.scan, br.st, true
	defer func() { r.scan, r.st, r.inBranch = scan, st, false }()
	return r.readSplit(ctx, sp, func(rec arrow.RecordBatch, err error) bool {
		if err != nil {
			return yield(nil, err)
		}
		// Same columns and types; nullability may differ between the
		// branches' schemas.
		next := array.NewRecordBatch(out, rec.Columns(), rec.NumRows())
		rec.Release()
		return yield(next, nil)
	})
}

// stateForSplits resolves the state to read splits planned elsewhere:
// splits of this table's branch must share one snapshot, and so must those
// of the other branch (Split.Branch).
func (s *Scan) stateForSplits(ctx context.Context, splits []Split) (*scanState, error) {
	var own, theirs []Split
	for _, sp := range splits {
		if sp.Branch == "" {
			own = append(own, sp)
		} else {
			theirs = append(theirs, sp)
		}
	}
	snapshotOf := func(group []Split) (int64, error) {
		if len(group) == 0 {
			return 0, nil
		}
		for _, sp := range group[1:] {
			if sp.SnapshotID != group[0].SnapshotID || sp.Branch != group[0].Branch {
				return 0, fmt.Errorf("%w: splits of snapshots %d and %d in one read", ErrInvalidScan, group[0].SnapshotID, sp.SnapshotID)
			}
		}
		return group[0].SnapshotID, nil
	}
	id, err := snapshotOf(own)
	if err != nil {
		return nil, err
	}
	var st *scanState
	if len(own) > 0 {
		st, err = s.resolveFor(ctx, id)
	} else {
		st, err = s.resolve(ctx) // the output columns of the scan's own snapshot
	}
	if err != nil {
		return nil, err
	}
	if len(theirs) == 0 {
		return st, nil
	}
	if id, err = snapshotOf(theirs); err != nil {
		return nil, err
	}
	ob, err := s.table.otherBranch(ctx)
	if err != nil {
		return nil, err
	}
	if ob == nil || ob.name != theirs[0].Branch {
		return nil, fmt.Errorf("%w: splits of branch %s, which %s does not read", ErrInvalidScan, theirs[0].Branch, s.table.name())
	}
	other, err := s.branchScan(ctx, ob)
	if err != nil {
		return nil, err
	}
	ost, err := other.resolveFor(ctx, id)
	if err != nil {
		return nil, err
	}
	st.branch = &branchRead{name: ob.name, scan: other, st: ost}
	return st, nil
}
