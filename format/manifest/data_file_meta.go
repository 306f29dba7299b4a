package manifest

import "time"

// DataFileMeta describes one data file (Java org.apache.paimon.io.DataFileMeta,
// the _FILE record of a manifest entry). Field comments give the Avro field
// and the Paimon version that introduced the nullable ones; files written
// before that version read them as nil.
type DataFileMeta struct {
	// FileName is the bare file name, relative to the bucket directory
	// (_FILE_NAME).
	FileName string `avro:"_FILE_NAME"`
	// FileSize is the file size in bytes (_FILE_SIZE).
	FileSize int64 `avro:"_FILE_SIZE"`
	// RowCount counts all rows, retractions included (_ROW_COUNT).
	RowCount int64 `avro:"_ROW_COUNT"`
	// MinKey is the serialized BinaryRow of the first key (primary-key
	// tables) or an arity-0 row (append tables) (_MIN_KEY).
	MinKey []byte `avro:"_MIN_KEY"`
	// MaxKey is the serialized BinaryRow of the last key (_MAX_KEY).
	MaxKey []byte `avro:"_MAX_KEY"`
	// KeyStats are the statistics of the key columns (_KEY_STATS).
	KeyStats SimpleStats `avro:"_KEY_STATS"`
	// ValueStats are the statistics of the value columns listed by
	// ValueStatsCols (_VALUE_STATS).
	ValueStats SimpleStats `avro:"_VALUE_STATS"`
	// MinSequenceNumber is the smallest sequence number in the file.
	MinSequenceNumber int64 `avro:"_MIN_SEQUENCE_NUMBER"`
	// MaxSequenceNumber is the largest sequence number in the file.
	MaxSequenceNumber int64 `avro:"_MAX_SEQUENCE_NUMBER"`
	// SchemaID is the id of the table schema the file was written with.
	SchemaID int64 `avro:"_SCHEMA_ID"`
	// Level is the LSM level (0 for append tables) (_LEVEL).
	Level int32 `avro:"_LEVEL"`
	// ExtraFiles lists companion files such as "<name>.index"
	// (_EXTRA_FILES, NOT NULL: nil is written as an empty array).
	ExtraFiles []string `avro:"_EXTRA_FILES"`
	// CreationTime is the stored _CREATION_TIME: milliseconds of the
	// writer's local wall clock encoded as if it were UTC. See
	// CreationTimeIn and CreationTimeMillis.
	CreationTime *int64 `avro:"_CREATION_TIME"`
	// DeleteRowCount counts retraction rows (-U/-D); nil means unknown
	// (_DELETE_ROW_COUNT, 0.8).
	DeleteRowCount *int64 `avro:"_DELETE_ROW_COUNT"`
	// EmbeddedIndex is a small file index stored inline
	// (_EMBEDDED_FILE_INDEX, 0.8).
	EmbeddedIndex []byte `avro:"_EMBEDDED_FILE_INDEX"`
	// FileSource says whether the file holds new data or compaction output
	// (_FILE_SOURCE, 0.9).
	FileSource *FileSource `avro:"_FILE_SOURCE"`
	// ValueStatsCols names the columns ValueStats covers, in order; nil
	// means all value columns, empty means none (_VALUE_STATS_COLS, 1.0).
	ValueStatsCols []string `avro:"_VALUE_STATS_COLS"`
	// ExternalPath is the absolute path of a file stored outside the
	// warehouse (_EXTERNAL_PATH, 1.0).
	ExternalPath *string `avro:"_EXTERNAL_PATH"`
	// FirstRowID is the row id of the file's first row under row tracking
	// (_FIRST_ROW_ID, 1.3).
	FirstRowID *int64 `avro:"_FIRST_ROW_ID"`
	// WriteCols names the columns a data-evolution file holds; nil means
	// all columns (_WRITE_COLS, 1.3).
	WriteCols []string `avro:"_WRITE_COLS"`
}

// CreationTimeIn interprets CreationTime as a wall-clock reading in loc and
// returns that instant, mirroring Java DataFileMeta.creationTimeEpochMillis,
// which uses the JVM default zone. Pass the zone of the writer when known,
// else time.Local to match what Java on this machine would compute. ok is
// false when CreationTime is nil.
func (m *DataFileMeta) CreationTimeIn(loc *time.Location) (t time.Time, ok bool) {
	if m.CreationTime == nil {
		return time.Time{}, false
	}
	wall := time.UnixMilli(*m.CreationTime).UTC()
	return time.Date(wall.Year(), wall.Month(), wall.Day(), wall.Hour(), wall.Minute(),
		wall.Second(), wall.Nanosecond(), loc), true
}

// CreationTimeMillis converts an instant to the value Java stores in
// _CREATION_TIME: the wall clock of t in t's location, read as UTC
// milliseconds. Writers pass time.Now() to match Java's
// Timestamp.fromLocalDateTime(LocalDateTime.now()).
func CreationTimeMillis(t time.Time) int64 {
	wall := time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(),
		t.Nanosecond(), time.UTC)
	return wall.UnixMilli()
}
