package paimon

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/internal/coreoptions"
	"github.com/paimon-go/paimon-go/paimon/predicate"
)

// ErrColumnNotFound reports a projected column the schema does not have.
var ErrColumnNotFound = errors.New("paimon: column not found")

// scanState is a Scan resolved against a snapshot and its schema: what to
// read, how to prune and what to output.
type scanState struct {
	snapshot *snapshot.Snapshot // nil for a table without snapshots
	schema   *schema.TableSchema
	filter   *predicate.Bound // bound to schema.Fields; nil without filter
	pather   *partitionPather
	pruner   *pruner
	schemas  *schemaCache

	// rowTracking and dataEvolution are the schema's row-tracking.enabled
	// and data-evolution.enabled (see row_tracking.go, data_evolution.go).
	rowTracking, dataEvolution bool
	// evolutionDVs is deletion-vectors.enabled on a data-evolution table
	// (Java 2.0.0): each row-id group's anchor file is kept by pruning.
	evolutionDVs bool
	// fileIndexRead is file-index.read.enabled (file_index.go).
	fileIndexRead bool
	// branch reads the splits of the other branch of a fallback or
	// primary-branch read (branch_read.go); nil otherwise.
	branch *branchRead

	mergeOnce sync.Once // mergeConfig, for primary-key tables
	merge     *mergeConfig
	mergeErr  error

	fieldPos   map[int]int        // schema.Fields index by field id
	readFields []schema.DataField // top-level fields read from data files, in schema order
	kindCol    int                // readFields index of _VALUE_KIND for audit-log reads, else -1
	residual   *predicate.Bound   // filter bound to readFields
	outputs    []outputColumn
	descCols   []int // outputs holding descriptor-stored BLOBs (blob_descriptor.go)
	outFields  []schema.DataField
	outSchema  *arrow.Schema
}

// outputColumn is one returned column: a read field, possibly a ROW pruned
// to some of its fields.
type outputColumn struct {
	read   int              // index in readFields; rowKindColumn for the audit log's rowkind
	pruned *schema.DataType // nil: the whole column
}

// resolve chooses the snapshot the scan reads and prepares the state.
func (s *Scan) resolve(ctx context.Context) (*scanState, error) {
	if err := s.validate(); err != nil {
		return nil, err
	}
	if s.incremental() {
		return s.newState(nil, s.table.schema)
	}
	snap, err := s.chooseSnapshot(ctx)
	if err != nil {
		return nil, err
	}
	ts := s.table.schema
	if snap != nil && s.timeTravel() && snap.SchemaID != ts.ID {
		// Java AbstractFileStoreTable.tryTimeTravel switches to the schema
		// the snapshot was committed with.
		if ts, err = s.table.meta.ReadSchema(ctx, snap.SchemaID); err != nil {
			return nil, err
		}
	}
	return s.newState(snap, ts)
}

// resolveFor prepares the state for reading splits of snapshot id planned
// elsewhere, with the schema the planner used.
func (s *Scan) resolveFor(ctx context.Context, id int64) (*scanState, error) {
	if err := s.validate(); err != nil {
		return nil, err
	}
	ts := s.table.schema
	var snap *snapshot.Snapshot
	if s.timeTravel() {
		var err error
		if snap, err = s.table.meta.ReadSnapshot(ctx, id); err != nil {
			return nil, err
		}
		if snap.SchemaID != ts.ID {
			if ts, err = s.table.meta.ReadSchema(ctx, snap.SchemaID); err != nil {
				return nil, err
			}
		}
	}
	return s.newState(snap, ts)
}

func (s *Scan) timeTravel() bool {
	return s.spec.SnapshotID != 0 || s.spec.Tag != "" || !s.spec.Timestamp.IsZero()
}

func (s *Scan) newState(snap *snapshot.Snapshot, ts *schema.TableSchema) (*scanState, error) {
	checked := ts
	if s.spec.followRead {
		checked = withoutOptions(ts, followStartOptions)
	}
	if err := checkOptions(checked, coreoptions.Read, s.table.name()); err != nil {
		return nil, err
	}
	st := &scanState{snapshot: snap, schema: ts, schemas: newSchemaCache(s.table.meta, ts), kindCol: -1, fieldPos: fieldsByID(ts.Fields)}
	var err error
	if st.pather, err = newPartitionPather(ts); err != nil {
		return nil, err
	}
	opts := tableOptions(ts.Options)
	st.rowTracking = opts.boolean(optRowTracking, false)
	st.dataEvolution = opts.boolean(optDataEvolution, false)
	st.evolutionDVs = st.dataEvolution && opts.boolean(optDeletionVectors, false)
	st.fileIndexRead = opts.boolean(coreoptions.FileIndexReadEnabled, true)
	if s.spec.RowTracking && !st.rowTracking {
		return nil, fmt.Errorf("%w: %s has no row tracking (%s is not true), so no $row_tracking table",
			ErrInvalidScan, s.table.name(), optRowTracking)
	}
	if s.spec.Filter != nil {
		if st.filter, err = predicate.Bind(s.spec.Filter, ts.Fields); err != nil {
			return nil, fmt.Errorf("paimon: filter on %s: %w", s.table.name(), err)
		}
	}
	auditLog := s.spec.AuditLog || s.incremental()
	if err := st.project(s.spec.Columns, auditLog, s.spec.RowTracking); err != nil {
		return nil, fmt.Errorf("paimon: projection on %s: %w", s.table.name(), err)
	}
	if err := st.descriptorColumns(s.table); err != nil {
		return nil, err
	}
	if auditLog && len(ts.PrimaryKeys) > 0 {
		st.kindCol = len(st.readFields)
		st.readFields = append(st.readFields, valueKindField)
	}
	if st.filter != nil {
		if st.residual, err = predicate.Bind(s.spec.Filter, st.readFields); err != nil {
			return nil, err
		}
	}
	if st.outSchema, err = schema.ToArrowSchema(st.outFields); err != nil {
		return nil, err
	}
	if st.pruner, err = newPruner(st); err != nil {
		return nil, err
	}
	return st, nil
}

func (t *Table) name() string {
	if t.id.Table != "" {
		return t.id.String()
	}
	return t.meta.Root()
}

// project resolves the requested columns into the fields to read and the
// columns to output.
//
// The fields of a row-tracking table include _ROW_ID and _SEQUENCE_NUMBER
// after its own; all columns (nil) means the table's own fields, or all of
// them with rowTrackingColumns (the $row_tracking table).
func (st *scanState) project(columns []string, auditLog, rowTrackingColumns bool) error {
	fields := st.schema.Fields
	all := len(fields)
	if st.rowTracking {
		fields = rowTrackingFields(fields)
		if rowTrackingColumns {
			all = len(fields)
		}
	}
	type sel struct {
		top  int
		path [][]int // nested selections inside top; nil path = whole column
	}
	var sels []*sel
	byTop := map[int]*sel{}
	if columns == nil && auditLog {
		s := &sel{top: rowKindColumn}
		sels = append(sels, s)
		byTop[rowKindColumn] = s
	}
	if columns == nil {
		for i := range fields[:all] {
			s := &sel{top: i}
			sels = append(sels, s)
			byTop[i] = s
		}
	}
	seen := map[string]bool{}
	for _, name := range columns {
		if seen[name] {
			return fmt.Errorf("%w: column %q selected twice", ErrInvalidScan, name)
		}
		seen[name] = true
		if auditLog && name == rowKindField.Name {
			s := &sel{top: rowKindColumn}
			sels = append(sels, s)
			byTop[rowKindColumn] = s
			continue
		}
		top, path, err := resolveColumn(fields, name)
		if err != nil {
			return err
		}
		s, ok := byTop[top]
		if !ok {
			s = &sel{top: top}
			sels = append(sels, s)
			byTop[top] = s
		} else if s.path == nil || path == nil {
			return fmt.Errorf("%w: column %q overlaps another selected column", ErrInvalidScan, name)
		}
		if path != nil {
			s.path = append(s.path, path)
		}
	}
	// Read the selected top-level fields and the filter's fields, in
	// schema order.
	need := map[int]bool{}
	for _, s := range sels {
		if s.top != rowKindColumn {
			need[s.top] = true
		}
	}
	if st.filter != nil {
		for _, l := range st.filter.Leaves() {
			need[l.FieldIndex()] = true
		}
	}
	var tops []int
	for i := range need {
		tops = append(tops, i)
	}
	sort.Ints(tops)
	readPos := map[int]int{}
	for _, i := range tops {
		readPos[i] = len(st.readFields)
		st.readFields = append(st.readFields, fields[i])
	}
	for _, s := range sels {
		if s.top == rowKindColumn {
			st.outputs = append(st.outputs, outputColumn{read: rowKindColumn})
			st.outFields = append(st.outFields, rowKindField)
			continue
		}
		f := fields[s.top]
		oc := outputColumn{read: readPos[s.top]}
		if s.path != nil {
			t, err := pruneRowType(f.Type, s.path)
			if err != nil {
				return err
			}
			oc.pruned = &t
			f.Type = t
		}
		st.outputs = append(st.outputs, oc)
		st.outFields = append(st.outFields, f)
	}
	return nil
}

// resolveColumn finds a column by name: a top-level field, or a dotted path
// into ROW fields. Field names may themselves contain dots; an exact
// top-level match wins.
func resolveColumn(fields []schema.DataField, name string) (int, []int, error) {
	for i, f := range fields {
		if f.Name == name {
			return i, nil, nil
		}
	}
	for i, f := range fields {
		rest, ok := strings.CutPrefix(name, f.Name+".")
		if !ok || f.Type.Root != schema.Row {
			continue
		}
		if path, ok := resolveNested(f.Type.Fields, rest); ok {
			return i, path, nil
		}
	}
	return 0, nil, fmt.Errorf("%w: %q", ErrColumnNotFound, name)
}

func resolveNested(fields []schema.DataField, name string) ([]int, bool) {
	for i, f := range fields {
		if f.Name == name {
			return []int{i}, true
		}
	}
	for i, f := range fields {
		rest, ok := strings.CutPrefix(name, f.Name+".")
		if !ok || f.Type.Root != schema.Row {
			continue
		}
		if path, ok := resolveNested(f.Type.Fields, rest); ok {
			return append([]int{i}, path...), true
		}
	}
	return nil, false
}

// pruneRowType keeps the fields of a ROW type named by paths (each a list of
// field positions, outermost first), in the order first selected.
func pruneRowType(t schema.DataType, paths [][]int) (schema.DataType, error) {
	out := t
	out.Fields = nil
	var order []int
	sub := map[int][][]int{}
	whole := map[int]bool{}
	for _, p := range paths {
		i := p[0]
		if _, ok := sub[i]; !ok && !whole[i] {
			order = append(order, i)
		}
		if len(p) == 1 {
			if whole[i] || len(sub[i]) > 0 {
				return t, fmt.Errorf("%w: field %q selected twice", ErrInvalidScan, t.Fields[i].Name)
			}
			whole[i] = true
			continue
		}
		if whole[i] {
			return t, fmt.Errorf("%w: field %q selected twice", ErrInvalidScan, t.Fields[i].Name)
		}
		sub[i] = append(sub[i], p[1:])
	}
	for _, i := range order {
		f := t.Fields[i]
		if !whole[i] {
			nt, err := pruneRowType(f.Type, sub[i])
			if err != nil {
				return t, err
			}
			f.Type = nt
		}
		out.Fields = append(out.Fields, f)
	}
	return out, nil
}

// rowKindColumn marks the audit log's rowkind output column.
const rowKindColumn = -1

// System fields of Java SpecialFields: the row kind stored in primary-key
// data files and the audit log's rowkind column.
var (
	valueKindField = schema.NewField(math.MaxInt32-2, "_VALUE_KIND", schema.TinyIntType().NotNull())
	rowKindField   = schema.NewField(math.MaxInt32-4, "rowkind", schema.StringType())
)
