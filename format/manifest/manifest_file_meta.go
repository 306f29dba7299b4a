package manifest

// ManifestFileMeta is one record of a manifest list: a manifest file and a
// summary of its entries (Java org.apache.paimon.manifest.ManifestFileMeta,
// serialized by ManifestFileMetaSerializer with _VERSION 2).
type ManifestFileMeta struct {
	// FileName is the manifest's name in the table's manifest/ directory.
	FileName string `avro:"_FILE_NAME"`
	// FileSize is the manifest's size in bytes.
	FileSize int64 `avro:"_FILE_SIZE"`
	// NumAddedFiles counts the manifest's ADD entries.
	NumAddedFiles int64 `avro:"_NUM_ADDED_FILES"`
	// NumDeletedFiles counts its DELETE entries; readers looking for
	// deletions skip manifests where it is 0.
	NumDeletedFiles int64 `avro:"_NUM_DELETED_FILES"`
	// PartitionStats are min/max/null counts of the partition values of
	// the entries, over all partition fields.
	PartitionStats SimpleStats `avro:"_PARTITION_STATS"`
	// SchemaID is the largest schema id among the entries.
	SchemaID int64 `avro:"_SCHEMA_ID"`
	// MinBucket is the smallest entry bucket; nil when unknown (files
	// before Paimon 1.1, and pypaimon's).
	MinBucket *int32 `avro:"_MIN_BUCKET"`
	// MaxBucket is the largest entry bucket, nil when unknown.
	MaxBucket *int32 `avro:"_MAX_BUCKET"`
	// MinLevel is the smallest file level, nil when unknown.
	MinLevel *int32 `avro:"_MIN_LEVEL"`
	// MaxLevel is the largest file level, nil when unknown.
	MaxLevel *int32 `avro:"_MAX_LEVEL"`
	// MinRowID is the smallest first row id of the entries; nil when any
	// entry has none (or before Paimon 1.4).
	MinRowID *int64 `avro:"_MIN_ROW_ID"`
	// MaxRowID is the largest last row id (first row id + row count - 1).
	MaxRowID *int64 `avro:"_MAX_ROW_ID"`
}

// manifestFileMetaVersion is ManifestFileMetaSerializer.getVersion().
const manifestFileMetaVersion = 2

type manifestFileMetaRecord struct {
	Version          int32 `avro:"_VERSION"`
	ManifestFileMeta `avro:",inline"`
}

// manifestFileMetaSchemaJSON is the writer schema of Java Paimon 1.4.2, as
// AvroSchemaConverter derives it from ManifestFileMeta.SCHEMA.
const manifestFileMetaSchemaJSON = `{"type":"record","name":"record","namespace":"org.apache.paimon.avro.generated","fields":[{"name":"_VERSION","type":"int"},{"name":"_FILE_NAME","type":"string"},{"name":"_FILE_SIZE","type":"long"},{"name":"_NUM_ADDED_FILES","type":"long"},{"name":"_NUM_DELETED_FILES","type":"long"},{"name":"_PARTITION_STATS","type":{"type":"record","name":"record__PARTITION_STATS","fields":[{"name":"_MIN_VALUES","type":"bytes"},{"name":"_MAX_VALUES","type":"bytes"},{"name":"_NULL_COUNTS","type":["null",{"type":"array","items":["null","long"]}],"default":null}]}},{"name":"_SCHEMA_ID","type":"long"},{"name":"_MIN_BUCKET","type":["null","int"],"default":null},{"name":"_MAX_BUCKET","type":["null","int"],"default":null},{"name":"_MIN_LEVEL","type":["null","int"],"default":null},{"name":"_MAX_LEVEL","type":["null","int"],"default":null},{"name":"_MIN_ROW_ID","type":["null","long"],"default":null},{"name":"_MAX_ROW_ID","type":["null","long"],"default":null}]}`
