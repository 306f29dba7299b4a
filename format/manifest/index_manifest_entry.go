package manifest

// IndexManifestEntry is one record of an index manifest: an index file added
// to or deleted from a bucket (Java
// org.apache.paimon.manifest.IndexManifestEntry, serialized by
// IndexManifestEntrySerializer with _VERSION 1). Index manifests on disk
// list every live index file of a snapshot, so they hold ADD entries only.
type IndexManifestEntry struct {
	// Kind says whether the index file is added or deleted (_KIND).
	Kind FileKind `avro:"_KIND"`
	// Partition is the serialized partition BinaryRow (_PARTITION).
	Partition []byte `avro:"_PARTITION"`
	// Bucket is the bucket id (_BUCKET).
	Bucket int32 `avro:"_BUCKET"`
	// IndexFile describes the index file; its fields are stored inline in
	// the record, as Java flattens IndexFileMeta into the entry.
	IndexFile IndexFileMeta `avro:",inline"`
}

// Index types Java Paimon writes in _INDEX_TYPE (global indexes add their own
// type names).
const (
	IndexTypeHash            = "HASH"
	IndexTypeDeletionVectors = "DELETION_VECTORS"
)

// IndexFileMeta describes one index file (Java
// org.apache.paimon.index.IndexFileMeta).
type IndexFileMeta struct {
	// IndexType is IndexTypeHash, IndexTypeDeletionVectors or a global index
	// type (_INDEX_TYPE).
	IndexType string `avro:"_INDEX_TYPE"`
	// FileName is the file's name in the index/ directory (_FILE_NAME).
	FileName string `avro:"_FILE_NAME"`
	// FileSize is the file size in bytes (_FILE_SIZE).
	FileSize int64 `avro:"_FILE_SIZE"`
	// RowCount is the number of hashes (HASH) or of deletion vectors
	// (DELETION_VECTORS) in the file (_ROW_COUNT).
	RowCount int64 `avro:"_ROW_COUNT"`
	// DVRanges locates each data file's deletion vector inside a
	// DELETION_VECTORS file, in file order; nil for other index types
	// (_DELETIONS_VECTORS_RANGES).
	DVRanges []DeletionVectorMeta `avro:"_DELETIONS_VECTORS_RANGES"`
	// ExternalPath is the absolute path of a file stored outside the
	// warehouse (_EXTERNAL_PATH, 1.3).
	ExternalPath *string `avro:"_EXTERNAL_PATH"`
	// GlobalIndex describes a global index file (_GLOBAL_INDEX, 1.4).
	GlobalIndex *GlobalIndexMeta `avro:"_GLOBAL_INDEX"`
}

// DeletionVectorMeta locates the deletion vector of one data file inside a
// deletion-vectors index file (Java org.apache.paimon.index.DeletionVectorMeta).
type DeletionVectorMeta struct {
	// DataFileName is the data file the vector belongs to (f0).
	DataFileName string `avro:"f0"`
	// Offset is the byte offset of the vector in the index file (f1).
	Offset int32 `avro:"f1"`
	// Length is the vector's length (f2); its exact meaning differs between
	// 32-bit and 64-bit deletion vectors.
	Length int32 `avro:"f2"`
	// Cardinality is the number of deleted rows; nil when unknown
	// (_CARDINALITY, 1.0).
	Cardinality *int64 `avro:"_CARDINALITY"`
}

// GlobalIndexMeta describes a global index file (Java
// org.apache.paimon.index.GlobalIndexMeta).
type GlobalIndexMeta struct {
	// RowRangeStart is the first row id the index covers.
	RowRangeStart int64 `avro:"_ROW_RANGE_START"`
	// RowRangeEnd is the last row id the index covers (inclusive).
	RowRangeEnd int64 `avro:"_ROW_RANGE_END"`
	// IndexFieldID is the id of the indexed field.
	IndexFieldID int32 `avro:"_INDEX_FIELD_ID"`
	// ExtraFieldIDs lists further field ids; nil means null.
	ExtraFieldIDs []int32 `avro:"_EXTRA_FIELD_IDS"`
	// IndexMeta is index-specific metadata; nil means null.
	IndexMeta []byte `avro:"_INDEX_META"`
}

// indexManifestEntryVersion is IndexManifestEntrySerializer.getVersion().
const indexManifestEntryVersion = 1

type indexManifestEntryRecord struct {
	Version            int32 `avro:"_VERSION"`
	IndexManifestEntry `avro:",inline"`
}

// indexManifestEntrySchemaJSON is the writer schema of Java Paimon 1.4.2, as
// AvroSchemaConverter derives it from IndexManifestEntry.SCHEMA.
const indexManifestEntrySchemaJSON = `{"type":"record","name":"record","namespace":"org.apache.paimon.avro.generated","fields":[{"name":"_VERSION","type":"int"},{"name":"_KIND","type":"int"},{"name":"_PARTITION","type":"bytes"},{"name":"_BUCKET","type":"int"},{"name":"_INDEX_TYPE","type":"string"},{"name":"_FILE_NAME","type":"string"},{"name":"_FILE_SIZE","type":"long"},{"name":"_ROW_COUNT","type":"long"},{"name":"_DELETIONS_VECTORS_RANGES","type":["null",{"type":"array","items":["null",{"type":"record","name":"record__DELETIONS_VECTORS_RANGES","fields":[{"name":"f0","type":"string"},{"name":"f1","type":"int"},{"name":"f2","type":"int"},{"name":"_CARDINALITY","type":["null","long"],"default":null}]}]}],"default":null},{"name":"_EXTERNAL_PATH","type":["null","string"],"default":null},{"name":"_GLOBAL_INDEX","type":["null",{"type":"record","name":"record__GLOBAL_INDEX","fields":[{"name":"_ROW_RANGE_START","type":"long"},{"name":"_ROW_RANGE_END","type":"long"},{"name":"_INDEX_FIELD_ID","type":"int"},{"name":"_EXTRA_FIELD_IDS","type":["null",{"type":"array","items":"int"}],"default":null},{"name":"_INDEX_META","type":["null","bytes"],"default":null}]}],"default":null}]}`
