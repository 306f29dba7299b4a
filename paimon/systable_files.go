package paimon

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/arrowrow"
	"github.com/paimon-go/paimon-go/internal/evolution"
	"github.com/paimon-go/paimon-go/internal/javacompat"
	"github.com/paimon-go/paimon-go/internal/partpath"
)

// The system tables read from one snapshot's manifests: manifests, files,
// partitions and buckets.

// manifestsFields is Java's ManifestsTable (Paimon 1.4.2).
var manifestsFields = columns(
	"file_name", stringNotNull,
	"file_size", bigintNotNull,
	"num_added_files", bigintNotNull,
	"num_deleted_files", bigintNotNull,
	"schema_id", bigintNotNull,
	"min_partition_stats", stringNull,
	"max_partition_stats", stringNull,
	"min_row_id", bigintNull,
	"max_row_id", bigintNull,
)

// manifestRows emits one row per manifest file of the snapshot: base, delta
// and changelog manifests, in that order (ManifestList.readAllManifests).
// The partition statistics are rendered as a ROW cast to STRING ("{v1,
// v2}").
func manifestRows(ctx context.Context, src *systemSource, emit func([]any) error) error {
	if src.snap == nil {
		return nil // Java logs "Check if your snapshot is empty." and lists nothing
	}
	// The lists are read checking the sizes the snapshot records, so a
	// truncated list fails instead of listing fewer manifests.
	data, err := src.meta.DataManifests(ctx, src.snap)
	if err != nil {
		return err
	}
	changelog, err := src.meta.ChangelogManifests(ctx, src.snap)
	if err != nil {
		return err
	}
	parts := src.schema.PartitionFields()
	for _, m := range slices.Concat(data, changelog) {
		var bounds [2]any
		for i, b := range [][]byte{m.PartitionStats.MinValues, m.PartitionStats.MaxValues} {
			if len(b) == 0 {
				continue // no statistics: NULL
			}
			if bounds[i], err = src.partitionRowText(b, parts); err != nil {
				return fmt.Errorf("manifest %s: partition statistics: %w", m.FileName, err)
			}
		}
		err = emit([]any{m.FileName, m.FileSize, m.NumAddedFiles, m.NumDeletedFiles, m.SchemaID,
			bounds[0], bounds[1], optInt64(m.MinRowID), optInt64(m.MaxRowID)})
		if err != nil {
			return err
		}
	}
	return nil
}

// filesFields is Java's FilesTable (Paimon 1.4.2).
var filesFields = columns(
	"partition", stringNull,
	"bucket", intNotNull,
	"file_path", stringNotNull,
	"file_format", stringNotNull,
	"schema_id", bigintNotNull,
	"level", intNotNull,
	"record_count", bigintNotNull,
	"file_size_in_bytes", bigintNotNull,
	"min_key", stringNull,
	"max_key", stringNull,
	"null_value_counts", stringNotNull,
	"min_value_stats", stringNotNull,
	"max_value_stats", stringNotNull,
	"min_sequence_number", bigintNull,
	"max_sequence_number", bigintNull,
	"creation_time", tsNull,
	"deleteRowCount", bigintNull,
	"file_source", stringNull,
	"first_row_id", bigintNull,
	"write_cols", schema.ArrayType(schema.StringType()),
)

// errStats reports value statistics of a data file that cannot be shown.
var errStats = fmt.Errorf("%w: value statistics", ErrCorrupt)

// fileRows emits one row per data file of the snapshot, grouped by
// partition and bucket. Like Java's FilesTable it lists every level (a
// batch scan of a deletion-vector or first-row table would skip level 0)
// and, for postpone-bucket tables, only the real buckets.
func fileRows(ctx context.Context, src *systemSource, emit func([]any) error) error {
	files, err := src.liveFiles(ctx)
	if err != nil {
		return err
	}
	if src.postponeTable() {
		files = slices.DeleteFunc(files, func(e *manifest.ManifestEntry) bool { return e.Bucket < 0 })
	}
	parts := src.schema.PartitionFields()
	names := make([]string, len(files))
	for i, e := range files {
		if names[i], err = src.partitionRowText(e.Partition, parts); err != nil {
			return fmt.Errorf("data file %s: partition: %w", e.File.FileName, err)
		}
	}
	order := make([]int, len(files))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Or(strings.Compare(names[a], names[b]), cmp.Compare(files[a].Bucket, files[b].Bucket))
	})
	r := &fileRenderer{src: src, parts: parts, evolutions: map[int64]*filesStats{}}
	for _, i := range order {
		row, err := r.row(ctx, files[i], names[i])
		if err != nil {
			return fmt.Errorf("data file %s: %w", files[i].File.FileName, err)
		}
		if err := emit(row); err != nil {
			return err
		}
	}
	return nil
}

// liveFiles is the snapshot's data files (none without a snapshot).
func (src *systemSource) liveFiles(ctx context.Context) ([]*manifest.ManifestEntry, error) {
	if src.snap == nil {
		return nil, nil
	}
	scanned, err := newFileScan(src.meta, src.table.manifests).scan(ctx, src.snap)
	if err != nil {
		return nil, err
	}
	return scanned.live()
}

// entries is the entries of the snapshot's data manifests, unmerged.
func (src *systemSource) entries(ctx context.Context) ([]*manifest.ManifestEntry, error) {
	if src.snap == nil {
		return nil, nil
	}
	scanned, err := newFileScan(src.meta, src.table.manifests).scan(ctx, src.snap)
	if err != nil {
		return nil, err
	}
	out := make([]*manifest.ManifestEntry, 0, scanned.total())
	for _, es := range scanned.entries {
		for i := range es {
			out = append(out, &es[i])
		}
	}
	return out, nil
}

// postponeTable reports a primary-key table in postpone-bucket mode, whose
// batch scans read only real buckets (DataTableBatchScan.onlyReadRealBuckets).
func (src *systemSource) postponeTable() bool {
	n, err := src.schema.Bucket()
	return err == nil && n == postponeBucket && len(src.schema.PrimaryKeys) > 0
}

// fileRenderer turns manifest entries into $files rows. It caches the
// statistics evolution of each file schema; it is not safe for concurrent
// use.
type fileRenderer struct {
	src        *systemSource
	parts      []schema.DataField
	evolutions map[int64]*filesStats
}

func (r *fileRenderer) row(ctx context.Context, e *manifest.ManifestEntry, partition string) ([]any, error) {
	f := &e.File
	path, err := r.filePath(e)
	if err != nil {
		return nil, err
	}
	format, err := formatIdentifier(f.FileName)
	if err != nil {
		return nil, err
	}
	fileSchema, err := r.src.schemaByID(ctx, f.SchemaID)
	if err != nil {
		return nil, err
	}
	var keys [2]any
	for i, b := range [][]byte{f.MinKey, f.MaxKey} {
		if keys[i], err = keyText(b, fileSchema, r.src); err != nil {
			return nil, fmt.Errorf("key: %w", err)
		}
	}
	evo, ok := r.evolutions[fileSchema.ID]
	if !ok {
		if evo, err = newFilesStats(r.src.schema, fileSchema); err != nil {
			return nil, err
		}
		r.evolutions[fileSchema.ID] = evo
	}
	nulls, lower, upper, err := evo.render(f, r.src)
	if err != nil {
		return nil, err
	}
	var created, source, writeCols any
	if f.CreationTime != nil {
		created = data.Timestamp{Millis: *f.CreationTime}
	}
	if f.FileSource != nil {
		source = f.FileSource.String()
	}
	if f.WriteCols != nil {
		cols := make([]any, len(f.WriteCols))
		for i, c := range f.WriteCols {
			cols[i] = c
		}
		writeCols = cols
	}
	return []any{partition, e.Bucket, path, format, f.SchemaID, f.Level, f.RowCount, f.FileSize, keys[0], keys[1],
		nulls, lower, upper, f.MinSequenceNumber, f.MaxSequenceNumber, created, optInt64(f.DeleteRowCount), source,
		optInt64(f.FirstRowID), writeCols}, nil
}

// filePath is the file's external path, or its bucket directory under the
// table location followed by its name (FilesTable: bucketPath + "/" +
// name; FileStorePathFactory.relativeBucketPath).
func (r *fileRenderer) filePath(e *manifest.ManifestEntry) (string, error) {
	if p := e.File.ExternalPath; p != nil {
		return *p, nil
	}
	vals, err := partitionValuesOf(e.Partition, r.parts)
	if err != nil {
		return "", fmt.Errorf("partition: %w", err)
	}
	opts := tableOptions(r.src.schema.Options)
	dir, err := partpath.Path(r.parts, vals, opts.partitionDefaultName(), opts.boolean(optPartitionLegacyName, true))
	if err != nil {
		return "", err
	}
	return r.src.location() + "/" + bucketDirectory(r.src.schema, dir, e.Bucket) + "/" + e.File.FileName, nil
}

// compressionExtensions are the file extensions of Java's
// HadoopCompressionType, which formatIdentifier looks through.
var compressionExtensions = []string{"gz", "bz2", "deflate", "snappy", "lz4", "zst"}

// formatIdentifier is the file format named by a data file's extension,
// skipping a compression extension ("x.zst.parquet" is parquet; Java
// DataFilePathFactory.formatIdentifier).
func formatIdentifier(name string) (string, error) {
	i := strings.LastIndexByte(name, '.')
	if i < 0 {
		return "", fmt.Errorf("%w: %q is not a legal data file name", ErrCorrupt, name)
	}
	ext := name[i+1:]
	for _, c := range compressionExtensions {
		if strings.EqualFold(ext, c) {
			j := strings.LastIndexByte(name[:i], '.')
			if j < 0 {
				return "", fmt.Errorf("%w: %q is not a legal data file name", ErrCorrupt, name)
			}
			return name[j+1 : i], nil
		}
	}
	return ext, nil
}

// keyText renders a primary-key file's min or max key as Java's
// Arrays.toString of the key fields ("[1, a]"), typed by the file's schema
// (its trimmed primary keys); NULL when the key row is empty (append
// tables).
func keyText(b []byte, s *schema.TableSchema, src *systemSource) (any, error) {
	if len(b) == 0 {
		return nil, nil
	}
	row, err := binaryrow.ParseSerialized(b)
	if err != nil {
		return nil, err
	}
	if row.Arity() <= 0 {
		return nil, nil
	}
	fields := s.TrimmedPrimaryKeyFields()
	if len(fields) == 0 {
		fields = s.Fields
	}
	var sb strings.Builder
	sb.WriteByte('[')
	for i := range row.Arity() {
		if i > 0 {
			sb.WriteString(", ")
		}
		if i >= len(fields) {
			return nil, fmt.Errorf("key row has %d fields, schema %d has %d key fields", row.Arity(), s.ID, len(fields))
		}
		v, err := row.Value(i, &fields[i].Type)
		if err != nil {
			return nil, fmt.Errorf("key field %s: %w", fields[i].Name, err)
		}
		sb.WriteString(javaObjectText(v, fields[i].Type))
	}
	sb.WriteByte(']')
	return sb.String(), nil
}

// javaObjectText is the toString of the object Java's InternalRowUtils.get
// returns for a value: DATE and TIME as their int, TIMESTAMP as
// LocalDateTime.toString, DECIMAL in plain notation, FLOAT and DOUBLE as
// Float/Double.toString. Java prints binary values as an array identity
// ("[B@1b6d3586"), which means nothing outside its JVM; they are shown as
// SQL hex literals (X'CAFE') instead.
func javaObjectText(v any, t schema.DataType) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case []byte:
		return fmt.Sprintf("X'%X'", x)
	}
	s, err := partpath.ValueString(v, t, true)
	if err != nil {
		return fmt.Sprint(v)
	}
	return s
}

// filesStats renders the value statistics of the files written with one
// schema onto the table's fields, as Java's SimpleStatsEvolution does for
// FilesTable, with the mapping planning prunes with (statsColumns): when
// the file schema is the table's, the statistics present are shown in
// field order; otherwise fields are matched by id, a field the file lacks
// has NULL bounds and a null count equal to the row count, and the bounds
// of a field whose type changed are cast as the read path casts values.
type filesStats struct {
	table, file *schema.TableSchema
	same        bool // the file has the table's schema id
	// casts holds, per table field whose type changed, the mapping that
	// casts its bounds.
	casts []*evolution.Mapping
	// byCols caches the mapping of each _VALUE_STATS_COLS list.
	byCols map[string]*statsColumns
}

func newFilesStats(table, file *schema.TableSchema) (*filesStats, error) {
	fs := &filesStats{table: table, file: file, same: table.ID == file.ID, byCols: map[string]*statsColumns{}}
	if fs.same {
		return fs, nil
	}
	fs.casts = make([]*evolution.Mapping, len(table.Fields))
	for j, tf := range table.Fields {
		ff, ok := file.FieldByID(tf.ID)
		if !ok || ff.Type.EqualIgnoreNullable(tf.Type) {
			continue
		}
		m, err := evolution.New([]schema.DataField{tf}, []schema.DataField{ff})
		if err != nil {
			return nil, fmt.Errorf("%w: field %s from schema %d to %d: %w", errStats, tf.Name, file.ID, table.ID, err)
		}
		fs.casts[j] = m
	}
	return fs, nil
}

// render returns the null_value_counts, min_value_stats and
// max_value_stats texts: Java's TreeMap.toString of field name to value
// ("{a=1, b=null}"), fields sorted by name.
func (fs *filesStats) render(f *manifest.DataFileMeta, src *systemSource) (nulls, lower, upper string, err error) {
	// A file that lists the columns it wrote (data evolution) holds only
	// those, the others being all NULL in it: Java 2.0.0's $files projects
	// the file's fields to _WRITE_COLS before mapping them onto the table
	// (SimpleStatsEvolutions.getOrCreate(schemaId, writeCols)), so a field
	// outside them has NULL bounds and a null count equal to the row count,
	// also when _VALUE_STATS_COLS narrows the statistics further (a .blob
	// file collects none). 1.4.2 reads them as if they covered every column.
	cols := statsCols(f)
	written := f.ValueStatsCols == nil && f.WriteCols != nil
	key := layoutKey(0, cols)
	if f.WriteCols != nil {
		key += "\x01" + layoutKey(0, f.WriteCols)
	}
	m, ok := fs.byCols[key]
	if !ok {
		m = newStatsColumns(fs.table, fs.file, cols, written, false)
		if f.WriteCols != nil && f.ValueStatsCols != nil {
			for i, fld := range fs.table.Fields {
				if ff, ok := fs.file.FieldByID(fld.ID); !ok || !slices.Contains(f.WriteCols, ff.Name) {
					m.missing[i] = true
				}
			}
		}
		fs.byCols[key] = m
	}
	minRow, err := binaryrow.ParseSerialized(f.ValueStats.MinValues)
	if err != nil {
		return "", "", "", fmt.Errorf("%w: min values: %w", errStats, err)
	}
	maxRow, err := binaryrow.ParseSerialized(f.ValueStats.MaxValues)
	if err != nil {
		return "", "", "", fmt.Errorf("%w: max values: %w", errStats, err)
	}
	n := len(fs.table.Fields)
	if fs.same && cols == nil {
		n = min(n, minRow.Arity()) // the fields the statistics present
	}
	type entry struct{ name, nulls, lower, upper string }
	entries := make([]entry, 0, n)
	for j := range n {
		tf := fs.table.Fields[j]
		var count *int64
		var bounds [2]any
		switch p := m.col[j]; {
		case m.missing[j]:
			rows := f.RowCount
			count = &rows
		case p >= 0:
			if p < len(f.ValueStats.NullCounts) {
				count = f.ValueStats.NullCounts[p]
			}
			ft := m.types[p]
			for i, row := range []binaryrow.Row{minRow, maxRow} {
				if p >= row.Arity() || row.IsNullAt(p) {
					continue
				}
				v, err := row.Value(p, &ft)
				if err == nil && fs.casts != nil && fs.casts[j] != nil {
					v, err = castBound(fs.casts[j], ft, tf.Type, v)
				}
				if err != nil {
					return "", "", "", fmt.Errorf("%w: bound of %s: %w", errStats, tf.Name, err)
				}
				bounds[i] = v
			}
		}
		c := "null"
		if count != nil {
			c = strconv.FormatInt(*count, 10)
		}
		entries = append(entries, entry{tf.Name, c, javaObjectText(bounds[0], tf.Type), javaObjectText(bounds[1], tf.Type)})
	}
	slices.SortStableFunc(entries, func(a, b entry) int { return javacompat.CompareStrings(a.name, b.name) })
	var sb [3]strings.Builder
	for i, e := range entries {
		for k, s := range []string{e.nulls, e.lower, e.upper} {
			if i > 0 {
				sb[k].WriteString(", ")
			}
			sb[k].WriteString(e.name + "=" + s)
		}
	}
	return "{" + sb[0].String() + "}", "{" + sb[1].String() + "}", "{" + sb[2].String() + "}", nil
}

// castBound casts one bound from the file field's type to the table's with
// Java's cast rules (those of the read path), through a one-row Arrow batch.
func castBound(m *evolution.Mapping, from, to schema.DataType, v any) (any, error) {
	if out, ok := evolution.CastValue(v, from, to); ok {
		return out, nil
	}
	ff := m.FileFields()
	if len(ff) != 1 {
		return nil, fmt.Errorf("cast %s to %s: %d file fields", from, to, len(ff))
	}
	sch, err := schema.ToArrowSchema(ff)
	if err != nil {
		return nil, err
	}
	mem := memory.DefaultAllocator
	b := array.NewRecordBuilder(mem, sch)
	defer b.Release()
	if err := arrowrow.AppendValue(b.Field(0), ff[0].Type, v); err != nil {
		return nil, err
	}
	in := b.NewRecordBatch()
	defer in.Release()
	out, err := m.Apply(in, mem)
	if err != nil {
		return nil, err
	}
	defer out.Release()
	return parquet.ArrowValue(out.Column(0), 0, to)
}

// partitionsFields is Java's PartitionsTable (Paimon 1.4.2).
var partitionsFields = columns(
	"partition", stringNull,
	"record_count", bigintNotNull,
	"file_size_in_bytes", bigintNotNull,
	"file_count", bigintNotNull,
	"last_update_time", tsNull,
	"created_at", tsNull,
	"created_by", stringNull,
	"updated_by", stringNull,
	"options", stringNull,
)

// partitionRows emits one row per partition holding files, sorted by the
// partition text "k1=v1/k2=v2". Like Java's file-system catalog it sums
// the snapshot's manifest entries (ADD counts up, DELETE down;
// PartitionEntry) and keeps partitions with files left; created_at,
// created_by, updated_by and options are only known to a metastore and
// are NULL.
func partitionRows(ctx context.Context, src *systemSource, emit func([]any) error) error {
	entries, err := src.entries(ctx)
	if err != nil {
		return err
	}
	if src.postponeTable() {
		entries = slices.DeleteFunc(entries, func(e *manifest.ManifestEntry) bool { return e.Bucket < 0 })
	}
	parts := src.schema.PartitionFields()
	defaultName := tableOptions(src.schema.Options).partitionDefaultName()
	return emitSums(sumEntries(entries, false), func(g *entrySum) (string, error) {
		return src.partitionSpecText(g.partition, parts, defaultName)
	}, func(name string, g *entrySum) []any {
		return []any{name, g.records, g.bytes, g.files, g.lastUpdate(), nil, nil, nil, nil}
	}, emit)
}

// bucketsFields is Java's BucketsTable (Paimon 1.4.2).
var bucketsFields = columns(
	"partition", stringNull,
	"bucket", intNotNull,
	"record_count", bigintNotNull,
	"file_size_in_bytes", bigintNotNull,
	"file_count", bigintNotNull,
	"last_update_time", tsNull,
)

// bucketRows emits one row per partition and bucket holding files, sorted
// by partition text ("{v1, v2}") and bucket, with the sums of Java's
// BucketEntry over the snapshot's manifest entries.
func bucketRows(ctx context.Context, src *systemSource, emit func([]any) error) error {
	entries, err := src.entries(ctx)
	if err != nil {
		return err
	}
	parts := src.schema.PartitionFields()
	return emitSums(sumEntries(entries, true), func(g *entrySum) (string, error) {
		return src.partitionRowText(g.partition, parts)
	}, func(name string, g *entrySum) []any {
		return []any{name, g.bucket, g.records, g.bytes, g.files, g.lastUpdate()}
	}, emit)
}

// emitSums emits the groups sorted by their names, then by bucket.
func emitSums(groups []*entrySum, name func(*entrySum) (string, error), row func(string, *entrySum) []any, emit func([]any) error) error {
	names := make([]string, len(groups))
	for i, g := range groups {
		var err error
		if names[i], err = name(g); err != nil {
			return err
		}
	}
	order := make([]int, len(groups))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Or(strings.Compare(names[a], names[b]), cmp.Compare(groups[a].bucket, groups[b].bucket))
	})
	for _, i := range order {
		if err := emit(row(names[i], groups[i])); err != nil {
			return err
		}
	}
	return nil
}

// entrySum is Java's PartitionEntry / BucketEntry: the sums over manifest
// entries of one partition (and bucket), DELETE entries counting negative,
// and the latest creation time of any entry.
type entrySum struct {
	partition             []byte
	bucket                int32
	records, bytes, files int64
	lastCreation          int64 // the largest _CREATION_TIME (wall-clock millis) seen
	hasCreation           bool
}

// lastUpdate is last_update_time: the newest creation time, shown as the
// wall-clock time the writer recorded (Java converts it to epoch millis in
// the local zone and back).
func (g *entrySum) lastUpdate() any {
	if !g.hasCreation {
		return nil
	}
	return data.Timestamp{Millis: g.lastCreation}
}

// sumEntries groups entries by partition, and by bucket too when byBucket
// is set, and drops the groups with no file left (AbstractFileStoreScan
// readPartitionEntries / readBucketEntries). The groups come in order of
// first appearance.
func sumEntries(entries []*manifest.ManifestEntry, byBucket bool) []*entrySum {
	type key struct {
		partition string
		bucket    int32
	}
	index := map[key]*entrySum{}
	var order []*entrySum
	for _, e := range entries {
		k := key{partition: string(e.Partition)}
		if byBucket {
			k.bucket = e.Bucket
		}
		g := index[k]
		if g == nil {
			g = &entrySum{partition: e.Partition, bucket: k.bucket}
			index[k] = g
			order = append(order, g)
		}
		sign := int64(1)
		if e.Kind == manifest.FileKindDelete {
			sign = -1
		}
		g.records += sign * e.File.RowCount
		g.bytes += sign * e.File.FileSize
		g.files += sign
		if ct := e.File.CreationTime; ct != nil && (!g.hasCreation || *ct > g.lastCreation) {
			g.lastCreation, g.hasCreation = *ct, true
		}
	}
	return slices.DeleteFunc(order, func(g *entrySum) bool { return g.files <= 0 })
}

// partitionValuesOf decodes a serialized partition row with the partition
// fields' types. Fields the row lacks (statistics of an older partition
// layout) decode as NULL instead of failing.
func partitionValuesOf(b []byte, parts []schema.DataField) ([]any, error) {
	if len(parts) == 0 {
		return nil, nil
	}
	row, err := binaryrow.ParseSerialized(b)
	if err != nil {
		return nil, err
	}
	vals := make([]any, len(parts))
	for i := range min(row.Arity(), len(parts)) {
		if vals[i], err = row.Value(i, &parts[i].Type); err != nil {
			return nil, fmt.Errorf("partition field %s: %w", parts[i].Name, err)
		}
	}
	return vals, nil
}

// partitionRowText renders a partition as Java casts the partition ROW to
// STRING (RowToStringCastRule): "{v1, v2}", NULL fields as "null", "{}"
// for an unpartitioned table. $files, $manifests and $buckets show
// partitions this way.
func (src *systemSource) partitionRowText(b []byte, parts []schema.DataField) (string, error) {
	vals, err := partitionValuesOf(b, parts)
	if err != nil {
		return "", err
	}
	var sb strings.Builder
	sb.WriteByte('{')
	for i, f := range parts {
		if i > 0 {
			sb.WriteString(", ")
		}
		if vals[i] == nil {
			sb.WriteString("null")
			continue
		}
		s, err := src.castToString(vals[i], f.Type)
		if err != nil {
			return "", fmt.Errorf("partition field %s: %w", f.Name, err)
		}
		sb.WriteString(s)
	}
	sb.WriteByte('}')
	return sb.String(), nil
}

// partitionSpecText renders a partition as $partitions does: "k1=v1/k2=v2"
// with each value cast to STRING, NULL and blank values shown as the
// partition default name (InternalRowPartitionComputer.generatePartValues
// followed by PartitionsTable.toRow); "" for an unpartitioned table.
func (src *systemSource) partitionSpecText(b []byte, parts []schema.DataField, defaultName string) (string, error) {
	vals, err := partitionValuesOf(b, parts)
	if err != nil {
		return "", err
	}
	var sb strings.Builder
	for i, f := range parts {
		if i > 0 {
			sb.WriteByte('/')
		}
		s := defaultName
		if vals[i] != nil {
			v, err := src.castToString(vals[i], f.Type)
			if err != nil {
				return "", fmt.Errorf("partition field %s: %w", f.Name, err)
			}
			if strings.TrimSpace(v) != "" {
				s = v
			}
		}
		sb.WriteString(f.Name + "=" + s)
	}
	return sb.String(), nil
}

// PartitionName renders a serialized partition row of the table as Java's
// $partitions system table names it: "k1=v1/k2=v2", each value cast to
// STRING (TIMESTAMP_LTZ in the local time zone), NULL and blank values
// shown as partition.default-name; "" for an unpartitioned table.
func (t *Table) PartitionName(partition []byte) (string, error) {
	src := &systemSource{table: t, meta: t.meta, opts: &SystemTableOptions{TimeZone: time.Local}, schema: t.schema}
	return src.partitionSpecText(partition, t.schema.PartitionFields(), tableOptions(t.schema.Options).partitionDefaultName())
}

// castToString renders a scalar value as Java's CastExecutors cast it to
// STRING: DATE as yyyy-mm-dd, TIME and TIMESTAMP with their precision,
// TIMESTAMP_LTZ in the local zone, BINARY decoded as UTF-8.
func (src *systemSource) castToString(v any, t schema.DataType) (string, error) {
	switch x := v.(type) {
	case []byte:
		return strings.ToValidUTF8(string(x), "\uFFFD"), nil
	case data.Timestamp:
		if t.Root == schema.TimestampLTZ {
			local := src.localTime(x.Millis)
			local.NanoOfMilli = x.NanoOfMilli
			v = local
		}
	}
	s, err := partpath.ValueString(v, t, false)
	if errors.Is(err, partpath.ErrUnsupported) {
		return "", fmt.Errorf("%w: %w", ErrUnsupported, err)
	}
	return s, err
}
