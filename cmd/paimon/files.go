package main

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/arrowrow"
	"github.com/paimon-go/paimon-go/internal/evolution"
	"github.com/paimon-go/paimon-go/internal/partpath"
)

// filesColumns are the columns of Java's $files system table
// (org.apache.paimon.table.system.FilesTable, Paimon 1.4.2), in order.
var filesColumns = []column{
	{"partition", stringNull},
	{"bucket", intNotNull},
	{"file_path", stringNotNull},
	{"file_format", stringNotNull},
	{"schema_id", bigintNotNull},
	{"level", intNotNull},
	{"record_count", bigintNotNull},
	{"file_size_in_bytes", bigintNotNull},
	{"min_key", stringNull},
	{"max_key", stringNull},
	{"null_value_counts", stringNotNull},
	{"min_value_stats", stringNotNull},
	{"max_value_stats", stringNotNull},
	{"min_sequence_number", bigintNull},
	{"max_sequence_number", bigintNull},
	{"creation_time", tsNull},
	{"deleteRowCount", bigintNull},
	{"file_source", stringNull},
	{"first_row_id", bigintNull},
	{"write_cols", schema.ArrayType(schema.StringType())},
}

var intNotNull = schema.IntType().NotNull()

// errStats reports value statistics of a data file that cannot be shown.
var errStats = errors.New("value statistics")

func runFiles(ctx context.Context, e *env, c *command, args []string) error {
	return runSnapshotMeta(ctx, e, c, args, true, filesColumns, fileRows)
}

// fileRows emits one row per data file of the snapshot, grouped by
// partition and bucket. Like Java's FilesTable it lists every level (a batch
// scan of a deletion-vector or first-row table would skip level 0) and, for
// postpone-bucket tables, only the real buckets.
func fileRows(ctx context.Context, src *snapshotSource, emit func([]any) error) error {
	files, err := src.liveFiles(ctx)
	if err != nil {
		return err
	}
	if postponeTable(src.schema) {
		files = realBuckets(files)
	}
	parts := src.schema.PartitionFields()
	type group struct {
		name   string
		bucket int32
	}
	names := make([]group, len(files))
	for i := range files {
		n, err := partitionRowText(files[i].Partition, parts)
		if err != nil {
			return fmt.Errorf("data file %s: partition: %w", files[i].File.FileName, err)
		}
		names[i] = group{n, files[i].Bucket}
	}
	order := make([]int, len(files))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		x, y := names[order[a]], names[order[b]]
		if x.name != y.name {
			return x.name < y.name
		}
		return x.bucket < y.bucket
	})
	r := &fileRenderer{src: src, parts: parts, evolutions: map[int64]*statsEvolution{}}
	for _, i := range order {
		row, err := r.row(ctx, &files[i], names[i].name)
		if err != nil {
			return fmt.Errorf("data file %s: %w", files[i].File.FileName, err)
		}
		if err := emit(row); err != nil {
			return err
		}
	}
	return nil
}

// fileRenderer turns manifest entries into $files rows. It caches the
// statistics evolution of each file schema; it is not safe for concurrent
// use.
type fileRenderer struct {
	src        *snapshotSource
	parts      []schema.DataField
	evolutions map[int64]*statsEvolution
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
	minKey, err := keyText(f.MinKey, fileSchema)
	if err != nil {
		return nil, fmt.Errorf("min key: %w", err)
	}
	maxKey, err := keyText(f.MaxKey, fileSchema)
	if err != nil {
		return nil, fmt.Errorf("max key: %w", err)
	}
	evo, err := r.evolution(fileSchema)
	if err != nil {
		return nil, err
	}
	nulls, lower, upper, err := evo.render(f)
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
	return []any{
		partition,
		e.Bucket,
		path,
		format,
		f.SchemaID,
		f.Level,
		f.RowCount,
		f.FileSize,
		minKey,
		maxKey,
		nulls,
		lower,
		upper,
		f.MinSequenceNumber,
		f.MaxSequenceNumber,
		created,
		optInt64(f.DeleteRowCount),
		source,
		optInt64(f.FirstRowID),
		writeCols,
	}, nil
}

// filePath is the file's external path, or its bucket directory under the
// table location followed by its name (FilesTable: bucketPath + "/" + name;
// FileStorePathFactory.relativeBucketPath).
func (r *fileRenderer) filePath(e *manifest.ManifestEntry) (string, error) {
	if p := e.File.ExternalPath; p != nil {
		return *p, nil
	}
	opts := r.src.schema.Options
	vals, err := partitionValuesOf(e.Partition, r.parts)
	if err != nil {
		return "", fmt.Errorf("partition: %w", err)
	}
	defaultName := opts["partition.default-name"]
	if defaultName == "" {
		defaultName = partpath.DefaultName
	}
	legacy := true
	if v, ok := opts["partition.legacy-name"]; ok {
		legacy = !strings.EqualFold(strings.TrimSpace(v), "false")
	}
	dir, err := partpath.Path(r.parts, vals, defaultName, legacy)
	if err != nil {
		return "", err
	}
	if e.Bucket == postponeBucketMode {
		dir += "bucket-postpone"
	} else {
		dir += "bucket-" + strconv.Itoa(int(e.Bucket))
	}
	if d := opts["data-file.path-directory"]; d != "" {
		dir = d + "/" + dir
	}
	return r.src.location + "/" + dir + "/" + e.File.FileName, nil
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
		return "", fmt.Errorf("%q is not a legal data file name", name)
	}
	ext := name[i+1:]
	for _, c := range compressionExtensions {
		if strings.EqualFold(ext, c) {
			j := strings.LastIndexByte(name[:i], '.')
			if j < 0 {
				return "", fmt.Errorf("%q is not a legal data file name", name)
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
func keyText(b []byte, s *schema.TableSchema) (any, error) {
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

// evolution returns the statistics evolution from a file's schema to the
// table schema.
func (r *fileRenderer) evolution(fileSchema *schema.TableSchema) (*statsEvolution, error) {
	if evo, ok := r.evolutions[fileSchema.ID]; ok {
		return evo, nil
	}
	evo, err := newStatsEvolution(r.src.schema, fileSchema)
	if err != nil {
		return nil, err
	}
	r.evolutions[fileSchema.ID] = evo
	return evo, nil
}

// statsEvolution maps the value statistics of files written with one schema
// onto the table's fields, as Java's SimpleStatsEvolution does for
// FilesTable: dense statistics (_VALUE_STATS_COLS) are spread back by name
// over the file schema's fields; when the file schema is not the table's,
// fields are matched by id, a field the file lacks has NULL bounds and a
// null count equal to the row count, and bounds of a field whose type
// changed are cast as the read path casts values.
type statsEvolution struct {
	table      []schema.DataField
	fileFields []schema.DataField
	// index maps table field j to file field index[j] (-1: absent); nil
	// when the file has the table's schema id.
	index []int
	// casts holds, per table field, the mapping that casts a bound of a
	// field whose type changed; nil entries need no cast.
	casts []*evolution.Mapping
}

func newStatsEvolution(table, file *schema.TableSchema) (*statsEvolution, error) {
	evo := &statsEvolution{table: table.Fields, fileFields: file.Fields}
	if table.ID == file.ID {
		return evo, nil
	}
	evo.index = make([]int, len(table.Fields))
	evo.casts = make([]*evolution.Mapping, len(table.Fields))
	for j, tf := range table.Fields {
		k := file.FieldIndexByID(tf.ID)
		evo.index[j] = k
		if k < 0 {
			continue
		}
		ff := file.Fields[k]
		if ff.Type.EqualIgnoreNullable(tf.Type) {
			continue
		}
		m, err := evolution.New([]schema.DataField{tf}, []schema.DataField{ff})
		if err != nil {
			return nil, fmt.Errorf("%w: field %s from schema %d to %d: %w", errStats, tf.Name, file.ID, table.ID, err)
		}
		evo.casts[j] = m
	}
	return evo, nil
}

// fileStats is one file's statistics in the file schema's field space.
type fileStats struct {
	min, max binaryrow.Row
	nulls    []*int64
	// dense maps file field k to its position in the statistics (-1: not
	// collected); nil when the statistics cover every field in order.
	dense []int
	// arity is the number of fields the statistics present.
	arity int
}

func (evo *statsEvolution) decode(f *manifest.DataFileMeta) (*fileStats, error) {
	st := &fileStats{nulls: f.ValueStats.NullCounts}
	var err error
	if st.min, err = binaryrow.ParseSerialized(f.ValueStats.MinValues); err != nil {
		return nil, fmt.Errorf("%w: min values: %w", errStats, err)
	}
	if st.max, err = binaryrow.ParseSerialized(f.ValueStats.MaxValues); err != nil {
		return nil, fmt.Errorf("%w: max values: %w", errStats, err)
	}
	st.arity = st.min.Arity()
	if f.ValueStatsCols != nil {
		pos := make(map[string]int, len(f.ValueStatsCols))
		for i, c := range f.ValueStatsCols {
			if _, dup := pos[c]; !dup {
				pos[c] = i
			}
		}
		st.dense = make([]int, len(evo.fileFields))
		for k, ff := range evo.fileFields {
			p, ok := pos[ff.Name]
			if !ok {
				p = -1
			}
			st.dense[k] = p
		}
		st.arity = len(evo.fileFields)
	}
	return st, nil
}

// position is where file field k's statistics are, or -1.
func (st *fileStats) position(k int) int {
	if st.dense != nil {
		return st.dense[k]
	}
	return k
}

// bound decodes file field k's bound from row, NULL when not collected.
func (st *fileStats) bound(row binaryrow.Row, k int, t schema.DataType) (any, error) {
	p := st.position(k)
	if p < 0 || p >= row.Arity() || row.IsNullAt(p) {
		return nil, nil
	}
	return row.Value(p, &t)
}

// nullCount is file field k's null count, nil when not collected.
func (st *fileStats) nullCount(k int) *int64 {
	p := st.position(k)
	if p < 0 || p >= len(st.nulls) {
		return nil
	}
	return st.nulls[p]
}

// render returns the null_value_counts, min_value_stats and
// max_value_stats texts: Java's TreeMap.toString of field name to value
// ("{a=1, b=null}"), fields sorted by name.
func (evo *statsEvolution) render(f *manifest.DataFileMeta) (nulls, lower, upper string, err error) {
	st, err := evo.decode(f)
	if err != nil {
		return "", "", "", err
	}
	n := min(st.arity, len(evo.table))
	if evo.index != nil {
		n = len(evo.table)
	}
	type entry struct{ name, nulls, lower, upper string }
	entries := make([]entry, 0, n)
	for j := range n {
		tf := evo.table[j]
		k := j
		var count *int64
		if evo.index != nil {
			k = evo.index[j]
			if k < 0 {
				rows := f.RowCount
				count = &rows
			}
		}
		var lo, hi any
		if k >= 0 {
			if k >= len(evo.fileFields) {
				return "", "", "", fmt.Errorf("%w: field %d outside the file schema", errStats, k)
			}
			count = st.nullCount(k)
			ft := evo.fileFields[k].Type
			if lo, err = st.bound(st.min, k, ft); err != nil {
				return "", "", "", fmt.Errorf("%w: min of %s: %w", errStats, tf.Name, err)
			}
			if hi, err = st.bound(st.max, k, ft); err != nil {
				return "", "", "", fmt.Errorf("%w: max of %s: %w", errStats, tf.Name, err)
			}
			if evo.casts != nil && evo.casts[j] != nil {
				if lo, err = castBound(evo.casts[j], ft, tf.Type, lo); err != nil {
					return "", "", "", fmt.Errorf("%w: min of %s: %w", errStats, tf.Name, err)
				}
				if hi, err = castBound(evo.casts[j], ft, tf.Type, hi); err != nil {
					return "", "", "", fmt.Errorf("%w: max of %s: %w", errStats, tf.Name, err)
				}
			}
		}
		c := "null"
		if count != nil {
			c = strconv.FormatInt(*count, 10)
		}
		entries = append(entries, entry{tf.Name, c, javaObjectText(lo, tf.Type), javaObjectText(hi, tf.Type)})
	}
	sort.SliceStable(entries, func(a, b int) bool { return javaStringLess(entries[a].name, entries[b].name) })
	var ns, ls, us strings.Builder
	for _, sb := range []*strings.Builder{&ns, &ls, &us} {
		sb.WriteByte('{')
	}
	for i, e := range entries {
		if i > 0 {
			ns.WriteString(", ")
			ls.WriteString(", ")
			us.WriteString(", ")
		}
		ns.WriteString(e.name + "=" + e.nulls)
		ls.WriteString(e.name + "=" + e.lower)
		us.WriteString(e.name + "=" + e.upper)
	}
	for _, sb := range []*strings.Builder{&ns, &ls, &us} {
		sb.WriteByte('}')
	}
	return ns.String(), ls.String(), us.String(), nil
}

// castBound casts one bound from the file field's type to the table's with
// Java's cast rules (those of the read path), through a one-row Arrow batch.
func castBound(m *evolution.Mapping, from, to schema.DataType, v any) (any, error) {
	if v == nil {
		return nil, nil
	}
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

// javaStringLess orders strings as Java's String.compareTo does: by UTF-16
// code units.
func javaStringLess(a, b string) bool {
	x, y := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
	for i := range min(len(x), len(y)) {
		if x[i] != y[i] {
			return x[i] < y[i]
		}
	}
	return len(x) < len(y)
}
