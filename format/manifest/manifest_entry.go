package manifest

// ManifestEntry is one record of a manifest file: a data file added to or
// deleted from a bucket (Java org.apache.paimon.manifest.ManifestEntry,
// serialized by ManifestEntrySerializer with _VERSION 2).
type ManifestEntry struct {
	// Kind says whether the file is added or deleted (_KIND).
	Kind FileKind `avro:"_KIND"`
	// Partition is the serialized partition BinaryRow (_PARTITION).
	Partition []byte `avro:"_PARTITION"`
	// Bucket is the bucket id (_BUCKET).
	Bucket int32 `avro:"_BUCKET"`
	// TotalBuckets is the partition's bucket count when the entry was
	// written: N for fixed buckets, -1 for dynamic and unaware buckets, -2
	// for postpone buckets (_TOTAL_BUCKETS).
	TotalBuckets int32 `avro:"_TOTAL_BUCKETS"`
	// File describes the data file (_FILE).
	File DataFileMeta `avro:"_FILE"`
}

// manifestEntryVersion is ManifestEntrySerializer.getVersion().
const manifestEntryVersion = 2

// manifestEntryRecord is the Avro record: the version field Java's
// VersionedObjectSerializer prepends, then the entry's own fields.
type manifestEntryRecord struct {
	Version       int32 `avro:"_VERSION"`
	ManifestEntry `avro:",inline"`
}

// manifestEntrySchemaJSON is the writer schema of Java Paimon 1.4.2, as
// AvroSchemaConverter derives it from ManifestEntry.SCHEMA.
const manifestEntrySchemaJSON = `{"type":"record","name":"record","namespace":"org.apache.paimon.avro.generated","fields":[{"name":"_VERSION","type":"int"},{"name":"_KIND","type":"int"},{"name":"_PARTITION","type":"bytes"},{"name":"_BUCKET","type":"int"},{"name":"_TOTAL_BUCKETS","type":"int"},{"name":"_FILE","type":{"type":"record","name":"record__FILE","fields":[{"name":"_FILE_NAME","type":"string"},{"name":"_FILE_SIZE","type":"long"},{"name":"_ROW_COUNT","type":"long"},{"name":"_MIN_KEY","type":"bytes"},{"name":"_MAX_KEY","type":"bytes"},{"name":"_KEY_STATS","type":{"type":"record","name":"record__FILE__KEY_STATS","fields":[{"name":"_MIN_VALUES","type":"bytes"},{"name":"_MAX_VALUES","type":"bytes"},{"name":"_NULL_COUNTS","type":["null",{"type":"array","items":["null","long"]}],"default":null}]}},{"name":"_VALUE_STATS","type":{"type":"record","name":"record__FILE__VALUE_STATS","fields":[{"name":"_MIN_VALUES","type":"bytes"},{"name":"_MAX_VALUES","type":"bytes"},{"name":"_NULL_COUNTS","type":["null",{"type":"array","items":["null","long"]}],"default":null}]}},{"name":"_MIN_SEQUENCE_NUMBER","type":"long"},{"name":"_MAX_SEQUENCE_NUMBER","type":"long"},{"name":"_SCHEMA_ID","type":"long"},{"name":"_LEVEL","type":"int"},{"name":"_EXTRA_FILES","type":{"type":"array","items":"string"}},{"name":"_CREATION_TIME","type":["null",{"type":"long","logicalType":"timestamp-millis"}],"default":null},{"name":"_DELETE_ROW_COUNT","type":["null","long"],"default":null},{"name":"_EMBEDDED_FILE_INDEX","type":["null","bytes"],"default":null},{"name":"_FILE_SOURCE","type":["null","int"],"default":null},{"name":"_VALUE_STATS_COLS","type":["null",{"type":"array","items":"string"}],"default":null},{"name":"_EXTERNAL_PATH","type":["null","string"],"default":null},{"name":"_FIRST_ROW_ID","type":["null","long"],"default":null},{"name":"_WRITE_COLS","type":["null",{"type":"array","items":"string"}],"default":null}]}}]}`
