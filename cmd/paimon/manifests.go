package main

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/paimon"
)

// manifestsColumns are the columns of Java's $manifests system table
// (org.apache.paimon.table.system.ManifestsTable, Paimon 1.4.2), in order.
var manifestsColumns = []column{
	{"file_name", stringNotNull},
	{"file_size", bigintNotNull},
	{"num_added_files", bigintNotNull},
	{"num_deleted_files", bigintNotNull},
	{"schema_id", bigintNotNull},
	{"min_partition_stats", stringNull},
	{"max_partition_stats", stringNull},
	{"min_row_id", bigintNull},
	{"max_row_id", bigintNull},
}

// travelDetails is the help text of the system-table commands that read one
// snapshot's files.
const travelDetails = `
The table is "database.table" or "database.table$branch_NAME". Flags may come
before or after it. --snapshot and --tag read an older snapshot, as Java's
scan.snapshot-id and scan.tag-name options do for the system table; values
are then rendered with that snapshot's schema.

Times are shown as Java's system tables show them: wall-clock times in the
local time zone; data-file creation times as the writer recorded them.

Exit status: 0 ok, 1 runtime error, 2 usage error.`

func runManifests(ctx context.Context, e *env, c *command, args []string) error {
	return runSnapshotMeta(ctx, e, c, args, true, manifestsColumns, manifestRows)
}

// manifestRows emits one row per manifest file of the snapshot: base, delta
// and changelog manifests, in that order (ManifestList.readAllManifests).
// The partition statistics are rendered as a ROW cast to STRING ("{v1, v2}").
func manifestRows(ctx context.Context, src *snapshotSource, emit func([]any) error) error {
	if src.snap == nil {
		return nil // Java logs "Check if your snapshot is empty." and lists nothing
	}
	// The library reads the lists checking the sizes the snapshot records,
	// so a truncated list fails instead of listing fewer manifests.
	data, err := src.meta.DataManifests(ctx, src.snap)
	if err != nil {
		return err
	}
	changelog, err := src.meta.ChangelogManifests(ctx, src.snap)
	if err != nil {
		return err
	}
	parts := src.schema.PartitionFields()
	for _, metas := range [][]manifest.ManifestFileMeta{data, changelog} {
		for i := range metas {
			m := &metas[i]
			lo, err := partitionStatsText(m.PartitionStats.MinValues, parts)
			if err != nil {
				return fmt.Errorf("manifest %s: min partition: %w", m.FileName, err)
			}
			hi, err := partitionStatsText(m.PartitionStats.MaxValues, parts)
			if err != nil {
				return fmt.Errorf("manifest %s: max partition: %w", m.FileName, err)
			}
			err = emit([]any{
				m.FileName,
				m.FileSize,
				m.NumAddedFiles,
				m.NumDeletedFiles,
				m.SchemaID,
				lo,
				hi,
				optInt64(m.MinRowID),
				optInt64(m.MaxRowID),
			})
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// snapshotArgs is the parsed command line of a system-table command that
// reads one snapshot.
type snapshotArgs struct {
	metaArgs
	snapshot int64 // 0: not given
	tag      string
}

// parseSnapshotArgs parses --warehouse, --output and, when travel is set,
// --snapshot and --tag.
func parseSnapshotArgs(e *env, c *command, args []string, travel bool) (*snapshotArgs, error) {
	var a snapshotArgs
	var snapshotFlag string
	fs := newFlagSet(c)
	fs.StringVar(&a.warehouse, "warehouse", "", "warehouse `URI`: a path, file://, mem://, s3://, gs:// or azblob:// (default $"+warehouseEnv+")")
	fs.StringVar(&a.output, "output", formatTable, "output `format`: "+strings.Join(rowFormats, ", "))
	if travel {
		fs.StringVar(&snapshotFlag, "snapshot", "", "read snapshot `N` instead of the latest")
		fs.StringVar(&a.tag, "tag", "", "read the snapshot of tag `T`")
	}
	pos, err := parseArgs(e, c, fs, args)
	if err != nil {
		return nil, err
	}
	switch len(pos) {
	case 0:
		return nil, usagef(c.name, "missing table name (database.table)")
	case 1:
	default:
		return nil, usagef(c.name, "expected one table name, got %d arguments: %s", len(pos), strings.Join(pos, " "))
	}
	if a.table, err = paimon.ParseIdentifier(pos[0]); err != nil {
		return nil, usagef(c.name, "%v", err)
	}
	if a.warehouse = warehouseFlag(a.warehouse); a.warehouse == "" {
		return nil, usagef(c.name, "no warehouse: pass --warehouse URI or set $%s", warehouseEnv)
	}
	if !slices.Contains(rowFormats, a.output) {
		return nil, usagef(c.name, "--output %q: want one of %s", a.output, strings.Join(rowFormats, ", "))
	}
	if snapshotFlag != "" {
		if a.snapshot, err = strconv.ParseInt(snapshotFlag, 10, 64); err != nil || a.snapshot <= 0 {
			return nil, usagef(c.name, "--snapshot %q: want a positive snapshot id", snapshotFlag)
		}
	}
	if a.snapshot != 0 && a.tag != "" {
		return nil, usagef(c.name, "--snapshot and --tag are exclusive")
	}
	return &a, nil
}

// snapshotSource is what the file-level system tables read: the table, the
// snapshot chosen (nil when the table has none) and the schema values are
// rendered with.
type snapshotSource struct {
	tbl  *paimon.Table
	meta *paimon.TableMeta
	// location is the table directory as Java prints it in file paths: the
	// warehouse as given, then <database>.db/<table>.
	location string
	snap     *snapshot.Snapshot
	// schema is the latest schema, or the travelled snapshot's schema
	// (Java AbstractFileStoreTable.tryTimeTravel switches to it).
	schema  *schema.TableSchema
	schemas sync.Map // int64 -> *schema.TableSchema
}

// snapshotRowsFunc is the body of a command reading one snapshot.
type snapshotRowsFunc func(ctx context.Context, src *snapshotSource, emit func([]any) error) error

// runSnapshotMeta parses the command line, loads the table, chooses the
// snapshot and prints the rows that rows produces under cols. The output is
// flushed even when rows fails part way.
func runSnapshotMeta(ctx context.Context, e *env, c *command, args []string, travel bool, cols []column, rows snapshotRowsFunc) (err error) {
	a, err := parseSnapshotArgs(e, c, args, travel)
	if err != nil {
		return err
	}
	tbl, closeCatalog, err := loadTable(ctx, a.warehouse, a.table)
	if err != nil {
		return err
	}
	defer closeCatalog()
	src, err := openSnapshotSource(ctx, tbl, a)
	if err != nil {
		return err
	}
	out, err := newRowWriter(a.output, e.stdout, cols)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := out.close(); err == nil {
			err = cerr
		}
	}()
	return rows(ctx, src, out.writeRow)
}

// openSnapshotSource resolves the snapshot to read: the one asked for, or
// the latest.
func openSnapshotSource(ctx context.Context, tbl *paimon.Table, a *snapshotArgs) (*snapshotSource, error) {
	meta := tbl.Meta()
	src := &snapshotSource{
		tbl:      tbl,
		meta:     meta,
		location: strings.TrimRight(a.warehouse, "/") + "/" + a.table.Database + ".db/" + a.table.Table,
		schema:   tbl.Schema(),
	}
	var err error
	switch {
	case a.snapshot != 0:
		src.snap, err = meta.ReadSnapshot(ctx, a.snapshot)
	case a.tag != "":
		var t *snapshot.Tag
		if t, err = meta.ReadTag(ctx, a.tag); err == nil {
			src.snap = &t.Snapshot
		}
	default:
		id, ok, lerr := meta.LatestSnapshotID(ctx)
		if lerr != nil || !ok {
			return src, lerr
		}
		src.snap, err = meta.ReadSnapshot(ctx, id)
	}
	if err != nil {
		return nil, err
	}
	if (a.snapshot != 0 || a.tag != "") && src.snap.SchemaID != src.schema.ID {
		if src.schema, err = meta.ReadSchema(ctx, src.snap.SchemaID); err != nil {
			return nil, err
		}
	}
	return src, nil
}

// schemaByID returns schema id, read once.
func (src *snapshotSource) schemaByID(ctx context.Context, id int64) (*schema.TableSchema, error) {
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

// dataEntries returns the entries of the snapshot's base and delta
// manifests, unmerged, in manifest order.
func (src *snapshotSource) dataEntries(ctx context.Context) ([]manifest.ManifestEntry, error) {
	if src.snap == nil {
		return nil, nil
	}
	metas, err := src.meta.DataManifests(ctx, src.snap)
	if err != nil {
		return nil, err
	}
	per, err := readManifestsConcurrently(ctx, src.meta, metas)
	if err != nil {
		return nil, err
	}
	var out []manifest.ManifestEntry
	for _, es := range per {
		out = append(out, es...)
	}
	return out, nil
}

// liveFiles returns the data files of the snapshot: the ADD entries left
// after merging DELETE entries into them.
func (src *snapshotSource) liveFiles(ctx context.Context) ([]manifest.ManifestEntry, error) {
	if src.snap == nil {
		return nil, nil
	}
	return src.meta.LiveFiles(ctx, src.snap, nil)
}

// readManifestsConcurrently reads manifest files with a few workers and
// returns their entries in manifest order. The first error wins.
func readManifestsConcurrently(ctx context.Context, meta *paimon.TableMeta, metas []manifest.ManifestFileMeta) ([][]manifest.ManifestEntry, error) {
	out := make([][]manifest.ManifestEntry, len(metas))
	errs := make([]error, len(metas))
	workers := min(runtime.GOMAXPROCS(0)*2, len(metas), 16)
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if ctx.Err() != nil {
					errs[i] = ctx.Err()
					continue
				}
				out[i], errs[i] = meta.ReadListedManifest(ctx, &metas[i])
			}
		}()
	}
	for i := range metas {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
