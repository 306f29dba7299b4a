package paimon

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/internal/arrowrow"
)

// System tables: Java Paimon's read-only tables about a table
// (org.apache.paimon.table.system), which Java names "t$snapshots",
// "t$files" and so on. Table.SystemTable reads them with Java's columns
// (Paimon 1.4.2) and Java's rendering of values: times as Java shows them,
// partitions and statistics as Java casts them to STRING, options in
// Java's HashMap order. The golden corpus (testdata/golden) holds Java's
// own dumps of these tables; the tests compare against them.

// The system tables Table.SystemTable serves, by Java's names.
const (
	SystemSnapshots  = "snapshots"  // SnapshotsTable: one row per snapshot file
	SystemSchemas    = "schemas"    // SchemasTable: one row per schema file
	SystemOptions    = "options"    // OptionsTable: the latest schema's options
	SystemTags       = "tags"       // TagsTable: one row per tag
	SystemBranches   = "branches"   // BranchesTable: one row per branch
	SystemConsumers  = "consumers"  // ConsumersTable: one row per consumer
	SystemManifests  = "manifests"  // ManifestsTable: the manifests of a snapshot
	SystemFiles      = "files"      // FilesTable: the data files of a snapshot
	SystemPartitions = "partitions" // PartitionsTable: the partitions of a snapshot
	SystemBuckets    = "buckets"    // BucketsTable: the buckets of the latest snapshot
	SystemAuditLog   = "audit_log"  // AuditLogTable: the rows with their row kind
	// RowTrackingTable: the rows with _ROW_ID and _SEQUENCE_NUMBER (tables
	// with row-tracking.enabled).
	SystemRowTracking = "row_tracking"
)

// SystemTableOptions configures Table.SystemTable. A nil *SystemTableOptions
// is the zero value.
type SystemTableOptions struct {
	// SnapshotID and Tag select an older snapshot for the tables that read
	// one (manifests, files, partitions, audit_log, row_tracking), as Java's
	// scan.snapshot-id and scan.tag-name options do; values are then
	// rendered with that snapshot's schema. At most one may be set; other
	// tables refuse them.
	SnapshotID int64
	Tag        string
	// Location is the table's location as the files table prints it at
	// the start of each file_path ("s3://bucket/wh/db.db/t"); empty means
	// the table directory in its file system.
	Location string
	// TimeZone is the zone Java's system tables convert times to
	// (ZoneId.systemDefault()); nil means time.Local.
	TimeZone *time.Location
	// Allocator allocates the record batches; nil means
	// memory.DefaultAllocator.
	Allocator memory.Allocator
	// BatchSize is the maximum number of rows per batch; 0 means 4096.
	BatchSize int
}

// ErrNoSystemTable reports a system table name this library does not serve.
var ErrNoSystemTable = fmt.Errorf("%w: system table", ErrUnsupported)

// SystemTableNames lists the names Table.SystemTable accepts.
func SystemTableNames() []string {
	out := make([]string, 0, len(systemTables)+2)
	for _, st := range systemTables {
		out = append(out, st.name)
	}
	return append(out, SystemAuditLog, SystemRowTracking)
}

// SystemTableFields returns the columns of the system table name, as Java
// declares them. The columns of audit_log and row_tracking depend on the
// table: they are those of Table.SystemTable's reader.
func SystemTableFields(name string) ([]schema.DataField, error) {
	i := slices.IndexFunc(systemTables, func(st *systemTable) bool { return st.name == name })
	if i < 0 {
		return nil, fmt.Errorf("%w %q: its columns depend on the table", ErrNoSystemTable, name)
	}
	return slices.Clone(systemTables[i].fields), nil
}

// SystemTable reads the system table name ("snapshots", "files", ...; see
// SystemTableNames) of t's branch. Errors about the table itself (a
// missing snapshot or tag) are returned here; errors met while reading
// rows come from the reader's Err. The caller releases the reader and
// every batch it keeps.
func (t *Table) SystemTable(ctx context.Context, name string, opts *SystemTableOptions) (array.RecordReader, error) {
	var o SystemTableOptions
	if opts != nil {
		o = *opts
	}
	if o.TimeZone == nil {
		o.TimeZone = time.Local
	}
	if o.Allocator == nil {
		o.Allocator = memory.DefaultAllocator
	}
	if o.BatchSize <= 0 {
		o.BatchSize = 4096
	}
	if o.SnapshotID < 0 {
		return nil, fmt.Errorf("%w: negative snapshot id %d", ErrInvalidScan, o.SnapshotID)
	}
	if o.SnapshotID != 0 && o.Tag != "" {
		return nil, fmt.Errorf("%w: a snapshot id and a tag select two snapshots", ErrInvalidScan)
	}
	switch name {
	case SystemAuditLog:
		return t.readAs(ctx, &o, WithAuditLog())
	case SystemRowTracking:
		return t.readAs(ctx, &o, WithRowTracking())
	}
	i := slices.IndexFunc(systemTables, func(st *systemTable) bool { return st.name == name })
	if i < 0 {
		return nil, fmt.Errorf("%w %q (known: %s)", ErrNoSystemTable, name, strings.Join(SystemTableNames(), ", "))
	}
	st := systemTables[i]
	if !st.travel && (o.SnapshotID != 0 || o.Tag != "") {
		return nil, fmt.Errorf("%w: system table %s always reads the latest metadata: it takes no snapshot or tag", ErrInvalidScan, name)
	}
	src, err := t.systemSource(ctx, &o, st.snapshot)
	if err != nil {
		return nil, err
	}
	sch, err := schema.ToArrowSchema(st.fields)
	if err != nil {
		return nil, err
	}
	return array.ReaderFromIter(sch, rowBatches(ctx, sch, st.fields, &o, func(emit func([]any) error) error {
		return st.rows(ctx, src, emit)
	})), nil
}

// readAs reads the table as one of the system tables that are scans of it:
// Java's AuditLogTable (a leading rowkind column) and RowTrackingTable.
func (t *Table) readAs(ctx context.Context, o *SystemTableOptions, as ScanOption) (array.RecordReader, error) {
	scanOpts := []ScanOption{as, WithAllocator(o.Allocator), WithBatchSize(o.BatchSize)}
	if o.SnapshotID != 0 {
		scanOpts = append(scanOpts, WithSnapshotID(o.SnapshotID))
	}
	if o.Tag != "" {
		scanOpts = append(scanOpts, WithTag(o.Tag))
	}
	return t.NewScan(scanOpts...).NewReader(ctx)
}

// systemTable is one system table: Java's columns and the rows.
type systemTable struct {
	name   string
	fields []schema.DataField
	// travel: SnapshotID and Tag select the snapshot read. snapshot: the
	// rows read one snapshot (the chosen or the latest).
	travel, snapshot bool
	rows             func(ctx context.Context, src *systemSource, emit func([]any) error) error
}

// systemTables are the tables built from metadata, in the order
// SystemTableNames lists them.
var systemTables []*systemTable

func init() {
	systemTables = []*systemTable{
		{name: SystemSnapshots, fields: snapshotsFields, rows: snapshotRows},
		{name: SystemSchemas, fields: schemasFields, rows: schemaRows},
		{name: SystemOptions, fields: optionsFields, rows: optionRows},
		{name: SystemTags, fields: tagsFields, rows: tagRows},
		{name: SystemBranches, fields: branchesFields, rows: branchRows},
		{name: SystemConsumers, fields: consumersFields, rows: consumerRows},
		{name: SystemManifests, fields: manifestsFields, travel: true, snapshot: true, rows: manifestRows},
		{name: SystemFiles, fields: filesFields, travel: true, snapshot: true, rows: fileRows},
		{name: SystemPartitions, fields: partitionsFields, travel: true, snapshot: true, rows: partitionRows},
		// Java's BucketsTable reads through a bare snapshot reader, which
		// ignores scan.snapshot-id and scan.tag-name: always the latest.
		{name: SystemBuckets, fields: bucketsFields, snapshot: true, rows: bucketRows},
	}
}

// columns builds Java's row type from name/type pairs, field ids from 0.
func columns(cols ...any) []schema.DataField {
	out := make([]schema.DataField, 0, len(cols)/2)
	for i := 0; i+1 < len(cols); i += 2 {
		out = append(out, schema.DataField{ID: len(out), Name: cols[i].(string), Type: cols[i+1].(schema.DataType)})
	}
	return out
}

// Column types shared by the system tables.
var (
	intNotNull    = schema.IntType().NotNull()
	bigintNotNull = schema.BigIntType().NotNull()
	bigintNull    = schema.BigIntType()
	stringNotNull = schema.StringType().NotNull()
	stringNull    = schema.StringType()
	tsNotNull     = schema.TimestampType(3).NotNull()
	tsNull        = schema.TimestampType(3)
)

// systemSource is what the rows of a system table are read from.
type systemSource struct {
	table *Table
	meta  *TableMeta
	opts  *SystemTableOptions
	// snap is the snapshot read (nil when the table has none); schema is
	// the latest schema, or the chosen snapshot's (Java
	// AbstractFileStoreTable.tryTimeTravel switches to it).
	snap    *snapshot.Snapshot
	schema  *schema.TableSchema
	schemas sync.Map // int64 -> *schema.TableSchema
}

// systemSource resolves the snapshot a system table reads when it reads
// one: the one asked for, or the latest.
func (t *Table) systemSource(ctx context.Context, o *SystemTableOptions, readsSnapshot bool) (*systemSource, error) {
	src := &systemSource{table: t, meta: t.meta, opts: o, schema: t.schema}
	if !readsSnapshot {
		return src, nil
	}
	var err error
	switch {
	case o.SnapshotID != 0:
		src.snap, err = t.meta.ReadSnapshot(ctx, o.SnapshotID)
	case o.Tag != "":
		var tag *snapshot.Tag
		if tag, err = t.meta.ReadTag(ctx, o.Tag); err == nil {
			src.snap = &tag.Snapshot
		}
	default:
		src.snap, err = latestSnapshotOf(ctx, t.meta)
	}
	if err != nil {
		return nil, err
	}
	if (o.SnapshotID != 0 || o.Tag != "") && src.snap.SchemaID != src.schema.ID {
		if src.schema, err = t.meta.ReadSchema(ctx, src.snap.SchemaID); err != nil {
			return nil, err
		}
	}
	return src, nil
}

// schemaByID returns schema id, read once.
func (src *systemSource) schemaByID(ctx context.Context, id int64) (*schema.TableSchema, error) {
	if id == src.schema.ID {
		return src.schema, nil
	}
	if s, ok := src.schemas.Load(id); ok {
		return s.(*schema.TableSchema), nil
	}
	s, err := src.meta.ReadSchema(ctx, id)
	if err != nil {
		return nil, err
	}
	src.schemas.Store(id, s)
	return s, nil
}

// location is the prefix of the files table's paths.
func (src *systemSource) location() string {
	if l := src.opts.Location; l != "" {
		return strings.TrimRight(l, "/")
	}
	return src.meta.Root()
}

// errStopRows ends a row producer whose consumer stopped reading.
var errStopRows = errors.New("paimon: system table reader stopped")

// rowBatches turns rows pushed by produce into record batches of sch.
func rowBatches(ctx context.Context, sch *arrow.Schema, fields []schema.DataField, o *SystemTableOptions,
	produce func(emit func([]any) error) error) iter.Seq2[arrow.RecordBatch, error] {
	return func(yield func(arrow.RecordBatch, error) bool) {
		b := array.NewRecordBuilder(o.Allocator, sch)
		defer b.Release()
		rows := 0
		flush := func() bool {
			if rows == 0 {
				return true
			}
			rows = 0
			return yield(b.NewRecordBatch(), nil)
		}
		err := produce(func(vals []any) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			for i, f := range fields {
				if err := arrowrow.AppendValue(b.Field(i), f.Type, vals[i]); err != nil {
					return fmt.Errorf("column %s: %w", f.Name, err)
				}
			}
			if rows++; rows >= o.BatchSize && !flush() {
				return errStopRows
			}
			return nil
		})
		switch {
		case errors.Is(err, errStopRows):
		case err != nil:
			yield(nil, err)
		default:
			flush()
		}
	}
}
