package coreoptions

// Parts of the keys Java builds at run time rather than declaring them:
// per-column options fields.<column>.<suffix> (CoreOptions.FIELDS_PREFIX
// and the suffix constants next to it, PartialUpdateMergeFunction's
// SEQUENCE_GROUP, STATS_MODE_SUFFIX), file index options
// file-index.<type>.columns, and the options a file format takes with its
// identifier as prefix (FileFormat.getIdentifierPrefixOptions).
const (
	FieldsPrefix    = "fields"
	FieldsSeparator = ","

	FieldAggFunction            = "aggregate-function"
	FieldDefaultAggFunction     = "default-aggregate-function"
	FieldIgnoreRetract          = "ignore-retract"
	FieldNestedKey              = "nested-key"
	FieldNestedKeyNullStrategy  = "nested-key-null-strategy"
	FieldNestedSequenceField    = "nested-sequence-field"
	FieldCountLimit             = "count-limit"
	FieldDistinct               = "distinct"
	FieldListAggDelimiter       = "list-agg-delimiter"
	FieldMergeMapTsField        = "ts-field"
	FieldSequenceGroup          = "sequence-group"
	FieldStatsMode              = "stats-mode"
	FieldMapStorageLayout       = "map.storage-layout"
	FieldMapShreddingMaxColumns = "map.shared-shredding.max-columns"
	FieldMapShreddingPlacement  = "map.shared-shredding.column-placement-policy"

	// Options of the Parquet and Avro writers (parquet-java's and Avro's
	// own keys, prefixed by the format identifier).
	ParquetCompression          = "parquet.compression"
	ParquetCompressionZstdLevel = "parquet.compression.codec.zstd.level"
	ParquetBlockSize            = "parquet.block.size"
	AvroCodec                   = "avro.codec"
)

// FieldKey returns the per-column option fields.<field>.<suffix>.
func FieldKey(field, suffix string) string { return FieldsPrefix + "." + field + "." + suffix }

// dynamicOptions are the families of keys Java builds from a name; in Key,
// '*' stands for the name (a column, an index type, a format option).
// Where Java declares no type (format options) the type is String.
var dynamicOptions = [...]Option{
	{Key: "fields.*.aggregate-function", Type: KindString, Versions: V1_4_2 | V2_0_0, Summary: "Aggregate function of a column (aggregation and partial-update merge engines)."},
	{Key: "fields.*.ignore-retract", Type: KindBoolean, Default: "false", HasDefault: true, Versions: V1_4_2 | V2_0_0, Summary: "Whether the column's aggregate function ignores retractions."},
	{Key: "fields.*.sequence-group", Type: KindString, Versions: V1_4_2 | V2_0_0, Summary: "Columns whose updates the sequence field(s) named by * order (partial-update)."},
	{Key: "fields.*.nested-key", Type: KindString, Versions: V1_4_2 | V2_0_0, Summary: "Keys of nested_update and nested_partial_update rows."},
	{Key: "fields.*.nested-key-null-strategy", Type: KindEnum, Default: "merge", HasDefault: true, Versions: V2_0_0, Values: []string{"merge", "ignore", "error"}, Summary: "What nested_update does with rows whose nested key is null."},
	{Key: "fields.*.nested-sequence-field", Type: KindString, Versions: V2_0_0, Summary: "Sequence fields of nested_update rows."},
	{Key: "fields.*.count-limit", Type: KindInteger, Default: "2147483647", HasDefault: true, Versions: V1_4_2 | V2_0_0, Summary: "Maximum number of rows nested_update keeps."},
	{Key: "fields.*.distinct", Type: KindBoolean, Default: "false", HasDefault: true, Versions: V1_4_2 | V2_0_0, Summary: "Whether collect keeps distinct elements."},
	{Key: "fields.*.list-agg-delimiter", Type: KindString, Default: ",", HasDefault: true, Versions: V1_4_2 | V2_0_0, Summary: "Delimiter of listagg."},
	{Key: "fields.*.ts-field", Type: KindString, Versions: V1_4_2 | V2_0_0, Summary: "Timestamp field of merge_map_with_keytime."},
	{Key: "fields.*.stats-mode", Type: KindString, Versions: V1_4_2 | V2_0_0, Summary: "Statistics mode of one column (none, counts, truncate(N), full)."},
	{Key: "fields.*.map.storage-layout", Type: KindEnum, Default: "default", HasDefault: true, Versions: V2_0_0, Values: []string{"default", "shared-shredding"}, Summary: "Storage layout of a MAP column."},
	{Key: "fields.*.map.shared-shredding.max-columns", Type: KindInteger, Default: "256", HasDefault: true, Versions: V2_0_0, Summary: "Columns of a shared-shredding MAP."},
	{Key: "fields.*.map.shared-shredding.column-placement-policy", Type: KindEnum, Default: "lru", HasDefault: true, Versions: V2_0_0, Values: []string{"plain", "sequential", "lru"}, Summary: "Column placement of a shared-shredding MAP."},
	{Key: "fields.*.pk-vector.*", Type: KindString, Versions: V2_0_0, Summary: "Options of a primary-key vector index column."},
	{Key: "fields.*.pk-full-text.*", Type: KindString, Versions: V2_0_0, Summary: "Options of a primary-key full-text index column."},
	{Key: "file-index.*", Type: KindString, Versions: V1_4_2 | V2_0_0, Summary: "File index definitions: file-index.<type>.columns and file-index.<type>.<column>.<option>."},
	{Key: ParquetCompression, Type: KindString, Versions: V1_4_2 | V2_0_0, Summary: "Parquet codec, overriding file.compression."},
	{Key: ParquetCompressionZstdLevel, Type: KindInteger, Versions: V1_4_2 | V2_0_0, Summary: "Parquet zstd level, overriding file.compression.zstd-level."},
	{Key: ParquetBlockSize, Type: KindLong, Versions: V1_4_2 | V2_0_0, Summary: "Parquet row-group size in bytes (file.block-size wins)."},
	{Key: AvroCodec, Type: KindString, Versions: V1_4_2 | V2_0_0, Summary: "Avro codec name, overriding file.compression."},
	{Key: "parquet.*", Type: KindString, Versions: V1_4_2 | V2_0_0, Summary: "Other parquet-java writer and reader settings."},
	{Key: "orc.*", Type: KindString, Versions: V1_4_2 | V2_0_0, Summary: "ORC writer and reader settings."},
	{Key: "avro.*", Type: KindString, Versions: V1_4_2 | V2_0_0, Summary: "Other Avro settings."},
	{Key: "csv.*", Type: KindString, Versions: V1_4_2 | V2_0_0, Summary: "CSV settings (format tables)."},
	{Key: "json.*", Type: KindString, Versions: V1_4_2 | V2_0_0, Summary: "JSON settings (format tables)."},
	{Key: "text.*", Type: KindString, Versions: V1_4_2 | V2_0_0, Summary: "Text settings (format tables)."},
	{Key: "lance.*", Type: KindString, Versions: V1_4_2 | V2_0_0, Summary: "Lance settings (lance tables)."},
}

// dynamicClassification is classification for dynamicOptions, one line per
// pattern.
var dynamicClassification = [...]line{
	{"fields.*.aggregate-function", impl, ign, pkTables, "merging happens on read"},
	{"fields.*.ignore-retract", impl, ign, pkTables, "merging happens on read"},
	{"fields.*.sequence-group", impl, ign, pkTables, "merging happens on read"},
	{"fields.*.nested-key", impl, ign, pkTables, "merging happens on read"},
	{"fields.*.nested-key-null-strategy", ref, ign, pkTables, "Java 2.0.0 merge semantics, refused by the merge functions"},
	{"fields.*.nested-sequence-field", ref, ign, pkTables, "Java 2.0.0 merge semantics, refused by the merge functions"},
	{"fields.*.count-limit", impl, ign, pkTables, "merging happens on read"},
	{"fields.*.distinct", impl, ign, pkTables, "merging happens on read"},
	{"fields.*.list-agg-delimiter", impl, ign, pkTables, "merging happens on read"},
	{"fields.*.ts-field", impl, ign, pkTables, "merging happens on read"},
	{"fields.*.stats-mode", ign, impl, allTables, ""},
	{"fields.*.map.storage-layout", ref, ref, allTables, "shared-shredding MAP columns have another file layout"},
	{"fields.*.map.shared-shredding.max-columns", ign, ign, allTables, "only with a shared-shredding layout, refused"},
	{"fields.*.map.shared-shredding.column-placement-policy", ign, ign, allTables, "only with a shared-shredding layout, refused"},
	{"fields.*.pk-vector.*", ign, ign, pkTables, "only with pk-vector.index.columns, refused on write"},
	{"fields.*.pk-full-text.*", ign, ign, pkTables, "only with pk-full-text.index.columns, refused on write"},
	{"file-index.*", ign, ign, allTables, "read: pruning of append files by bloom-filter, bitmap, bsi and range-bitmap indexes (other types keep the file); write: those four types (bitmap version 2) for append and primary-key data files, map-key indexes left out"},
	{ParquetCompression, ign, impl, allTables, ""},
	{ParquetCompressionZstdLevel, ign, impl, allTables, ""},
	{ParquetBlockSize, ign, impl, allTables, ""},
	{AvroCodec, ign, impl, allTables, ""},
	{"parquet.*", ign, ign, allTables, "encoding settings; Java reads any valid Parquet file"},
	{"orc.*", ign, ign, allTables, "the writer honours orc.compress, orc.compression.zstd.level, orc.stripe.size, orc.compress.size, orc.row.index.stride, orc.dictionary.key.threshold and orc.column.encoding.direct; the others are encoding settings (Java reads any valid ORC file)"},
	{"avro.*", ign, ign, allTables, ""},
	{"csv.*", ign, ign, allTables, "only with format tables, refused"},
	{"json.*", ign, ign, allTables, "only with format tables, refused"},
	{"text.*", ign, ign, allTables, "only with format tables, refused"},
	{"lance.*", ign, ign, allTables, "only with lance tables, refused"},
}
