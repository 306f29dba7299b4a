package manifest_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/internal/avro"
)

// writeRaw writes records (maps) with an arbitrary writer schema, standing in
// for older Paimon versions and other writers.
func writeRaw(t *testing.T, schemaJSON, codec string, records ...map[string]any) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := avro.NewWriter(&buf, avro.MustParseSchema(schemaJSON), &avro.WriterOptions{Codec: codec})
	require.NoError(t, err)
	for _, r := range records {
		require.NoError(t, w.Encode(r))
	}
	require.NoError(t, w.Close())
	return buf.Bytes()
}

const statsFields = `[{"name":"_MIN_VALUES","type":"bytes"},{"name":"_MAX_VALUES","type":"bytes"},` +
	`{"name":"_NULL_COUNTS","type":["null",{"type":"array","items":["null","long"]}],"default":null}]`

// Paimon 0.9: non-null records, DataFileMeta up to _FILE_SOURCE, and (for
// this test) _SCHEMA_ID written as int to exercise int->long promotion.
const manifest09Schema = `{"type":"record","name":"record","namespace":"org.apache.paimon.avro.generated","fields":[` +
	`{"name":"_VERSION","type":"int"},{"name":"_KIND","type":"int"},{"name":"_PARTITION","type":"bytes"},` +
	`{"name":"_BUCKET","type":"int"},{"name":"_TOTAL_BUCKETS","type":"int"},{"name":"_FILE","type":{"type":"record",` +
	`"name":"record__FILE","fields":[{"name":"_FILE_NAME","type":"string"},{"name":"_FILE_SIZE","type":"long"},` +
	`{"name":"_ROW_COUNT","type":"long"},{"name":"_MIN_KEY","type":"bytes"},{"name":"_MAX_KEY","type":"bytes"},` +
	`{"name":"_KEY_STATS","type":{"type":"record","name":"record__FILE__KEY_STATS","fields":` + statsFields + `}},` +
	`{"name":"_VALUE_STATS","type":{"type":"record","name":"record__FILE__VALUE_STATS","fields":` + statsFields + `}},` +
	`{"name":"_MIN_SEQUENCE_NUMBER","type":"long"},{"name":"_MAX_SEQUENCE_NUMBER","type":"long"},` +
	`{"name":"_SCHEMA_ID","type":"int"},{"name":"_LEVEL","type":"int"},` +
	`{"name":"_EXTRA_FILES","type":{"type":"array","items":"string"}},` +
	`{"name":"_CREATION_TIME","type":["null",{"type":"long","logicalType":"timestamp-millis"}],"default":null},` +
	`{"name":"_DELETE_ROW_COUNT","type":["null","long"],"default":null},` +
	`{"name":"_EMBEDDED_FILE_INDEX","type":["null","bytes"],"default":null},` +
	`{"name":"_FILE_SOURCE","type":["null","int"],"default":null}]}}]}`

// pypaimon 1.4.2 (manifest/schema/*.py): other record names, no namespace.
const pypaimonManifestSchema = `{"type":"record","name":"ManifestEntry","fields":[{"name":"_VERSION","type":"int"},` +
	`{"name":"_KIND","type":"int"},{"name":"_PARTITION","type":"bytes"},{"name":"_BUCKET","type":"int"},` +
	`{"name":"_TOTAL_BUCKETS","type":"int"},{"name":"_FILE","type":{"type":"record","name":"DataFileMeta","fields":[` +
	`{"name":"_FILE_NAME","type":"string"},{"name":"_FILE_SIZE","type":"long"},{"name":"_ROW_COUNT","type":"long"},` +
	`{"name":"_MIN_KEY","type":"bytes"},{"name":"_MAX_KEY","type":"bytes"},` +
	`{"name":"_KEY_STATS","type":{"type":"record","name":"record_KEY_STATS","fields":` + statsFields + `}},` +
	`{"name":"_VALUE_STATS","type":{"type":"record","name":"record_VALUE_STATS","fields":` + statsFields + `}},` +
	`{"name":"_MIN_SEQUENCE_NUMBER","type":"long"},{"name":"_MAX_SEQUENCE_NUMBER","type":"long"},` +
	`{"name":"_SCHEMA_ID","type":"long"},{"name":"_LEVEL","type":"int"},` +
	`{"name":"_EXTRA_FILES","type":{"type":"array","items":"string"}},` +
	`{"name":"_CREATION_TIME","type":["null",{"type":"long","logicalType":"timestamp-millis"}],"default":null},` +
	`{"name":"_DELETE_ROW_COUNT","type":["null","long"],"default":null},` +
	`{"name":"_EMBEDDED_FILE_INDEX","type":["null","bytes"],"default":null},` +
	`{"name":"_FILE_SOURCE","type":["null","int"],"default":null},` +
	`{"name":"_VALUE_STATS_COLS","type":["null",{"type":"array","items":"string"}],"default":null},` +
	`{"name":"_EXTERNAL_PATH","type":["null","string"],"default":null},` +
	`{"name":"_FIRST_ROW_ID","type":["null","long"],"default":null},` +
	`{"name":"_WRITE_COLS","type":["null",{"type":"array","items":"string"}],"default":null}]}}]}`

const pypaimonManifestListSchema = `{"type":"record","name":"ManifestFileMeta","fields":[{"name":"_VERSION","type":"int"},` +
	`{"name":"_FILE_NAME","type":"string"},{"name":"_FILE_SIZE","type":"long"},{"name":"_NUM_ADDED_FILES","type":"long"},` +
	`{"name":"_NUM_DELETED_FILES","type":"long"},{"name":"_PARTITION_STATS","type":{"type":"record",` +
	`"name":"record_PARTITION_STATS","fields":` + statsFields + `}},{"name":"_SCHEMA_ID","type":"long"},` +
	`{"name":"_MIN_ROW_ID","type":["null","long"],"default":null},{"name":"_MAX_ROW_ID","type":["null","long"],"default":null}]}`

// Paimon 0.8 index manifest: nullable top-level record, no _CARDINALITY,
// _EXTERNAL_PATH or _GLOBAL_INDEX.
const index08Schema = `["null",{"type":"record","name":"record","namespace":"org.apache.paimon.avro.generated","fields":[` +
	`{"name":"_VERSION","type":"int"},{"name":"_KIND","type":"int"},{"name":"_PARTITION","type":"bytes"},` +
	`{"name":"_BUCKET","type":"int"},{"name":"_INDEX_TYPE","type":"string"},{"name":"_FILE_NAME","type":"string"},` +
	`{"name":"_FILE_SIZE","type":"long"},{"name":"_ROW_COUNT","type":"long"},{"name":"_DELETIONS_VECTORS_RANGES",` +
	`"type":["null",{"type":"array","items":["null",{"type":"record","name":"record__DELETIONS_VECTORS_RANGES",` +
	`"fields":[{"name":"f0","type":"string"},{"name":"f1","type":"int"},{"name":"f2","type":"int"}]}]}],"default":null}]}]`

func rawStats(min []byte, counts ...any) map[string]any {
	if counts == nil {
		counts = []any{}
	}
	return map[string]any{"_MIN_VALUES": min, "_MAX_VALUES": min, "_NULL_COUNTS": counts}
}

func rawFile(name string) map[string]any {
	return map[string]any{
		"_FILE_NAME": name, "_FILE_SIZE": int64(5), "_ROW_COUNT": int64(6),
		"_MIN_KEY": row(1), "_MAX_KEY": row(2),
		"_KEY_STATS": rawStats(row(1), int64(0)), "_VALUE_STATS": rawStats(row(3), nil, int64(4)),
		"_MIN_SEQUENCE_NUMBER": int64(7), "_MAX_SEQUENCE_NUMBER": int64(8), "_SCHEMA_ID": int64(9),
		"_LEVEL": int32(1), "_EXTRA_FILES": []string{"x.index"}, "_CREATION_TIME": int64(1700000000000),
		"_DELETE_ROW_COUNT": int64(2), "_EMBEDDED_FILE_INDEX": nil, "_FILE_SOURCE": int32(1),
	}
}

func rawEntry(version int32, kind int32, file map[string]any) map[string]any {
	return map[string]any{
		"_VERSION": version, "_KIND": kind, "_PARTITION": row(20), "_BUCKET": int32(4), "_TOTAL_BUCKETS": int32(16),
		"_FILE": file,
	}
}

func wantRawEntry(name string) manifest.ManifestEntry {
	return manifest.ManifestEntry{
		Kind: manifest.FileKindAdd, Partition: row(20), Bucket: 4, TotalBuckets: 16,
		File: manifest.DataFileMeta{
			FileName: name, FileSize: 5, RowCount: 6, MinKey: row(1), MaxKey: row(2),
			KeyStats:          manifest.SimpleStats{MinValues: row(1), MaxValues: row(1), NullCounts: []*int64{i64(0)}},
			ValueStats:        manifest.SimpleStats{MinValues: row(3), MaxValues: row(3), NullCounts: []*int64{nil, i64(4)}},
			MinSequenceNumber: 7, MaxSequenceNumber: 8, SchemaID: 9, Level: 1, ExtraFiles: []string{"x.index"},
			CreationTime: i64(1700000000000), DeleteRowCount: i64(2), FileSource: src(manifest.FileSourceCompact),
		},
	}
}

func TestReadOlderAndForeignManifests(t *testing.T) {
	pyFile := rawFile("py.parquet")
	pyFile["_VALUE_STATS_COLS"] = []string{"v"}
	pyFile["_EXTERNAL_PATH"], pyFile["_FIRST_ROW_ID"], pyFile["_WRITE_COLS"] = nil, nil, nil
	wantPy := wantRawEntry("py.parquet")
	wantPy.File.ValueStatsCols = []string{"v"}

	tests := []struct {
		name   string
		schema string
		record map[string]any
		want   manifest.ManifestEntry
	}{
		{"paimon 0.9, int schema id", manifest09Schema, rawEntry(2, 0, rawFile("old.orc")), wantRawEntry("old.orc")},
		{"pypaimon 1.4.2", pypaimonManifestSchema, rawEntry(2, 0, pyFile), wantPy},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, codec := range []string{"null", "snappy", "zstandard"} {
				got, err := manifest.ReadManifest(bytes.NewReader(writeRaw(t, tt.schema, codec, tt.record)))
				require.NoError(t, err)
				require.Equal(t, []manifest.ManifestEntry{tt.want}, got)
				// Fields the writer did not have are null.
				require.Nil(t, got[0].File.ExternalPath)
				require.Nil(t, got[0].File.FirstRowID)
				require.Nil(t, got[0].File.WriteCols)
			}
		})
	}
}

func TestReadPypaimonManifestList(t *testing.T) {
	rec := map[string]any{
		"_VERSION": int32(2), "_FILE_NAME": "manifest-py-0", "_FILE_SIZE": int64(10), "_NUM_ADDED_FILES": int64(3),
		"_NUM_DELETED_FILES": int64(0), "_PARTITION_STATS": rawStats(manifest.EmptyRow()), "_SCHEMA_ID": int64(0),
		"_MIN_ROW_ID": int64(0), "_MAX_ROW_ID": nil,
	}
	got, err := manifest.ReadManifestList(bytes.NewReader(writeRaw(t, pypaimonManifestListSchema, "zstandard", rec)))
	require.NoError(t, err)
	require.Equal(t, []manifest.ManifestFileMeta{{
		FileName: "manifest-py-0", FileSize: 10, NumAddedFiles: 3, PartitionStats: manifest.EmptyStats(), MinRowID: i64(0),
	}}, got)
}

func TestReadIndexManifest08(t *testing.T) {
	rec := map[string]any{
		"_VERSION": int32(1), "_KIND": int32(0), "_PARTITION": manifest.EmptyRow(), "_BUCKET": int32(1),
		"_INDEX_TYPE": "DELETION_VECTORS", "_FILE_NAME": "index-0", "_FILE_SIZE": int64(9), "_ROW_COUNT": int64(1),
		"_DELETIONS_VECTORS_RANGES": []any{map[string]any{"f0": "data-0.orc", "f1": int32(1), "f2": int32(20)}},
	}
	got, err := manifest.ReadIndexManifest(bytes.NewReader(writeRaw(t, index08Schema, "snappy", rec)))
	require.NoError(t, err)
	require.Equal(t, []manifest.IndexManifestEntry{{
		Kind: manifest.FileKindAdd, Partition: manifest.EmptyRow(), Bucket: 1,
		IndexFile: manifest.IndexFileMeta{
			IndexType: "DELETION_VECTORS", FileName: "index-0", FileSize: 9, RowCount: 1,
			DVRanges: []manifest.DeletionVectorMeta{{DataFileName: "data-0.orc", Offset: 1, Length: 20}},
		},
	}}, got)
}

func TestReadNullNullCounts(t *testing.T) {
	// Java never writes a null _NULL_COUNTS, but it is a legal value of the
	// schema and must stay distinct from an empty array.
	file := rawFile("f.parquet")
	file["_KEY_STATS"] = map[string]any{"_MIN_VALUES": row(), "_MAX_VALUES": row(), "_NULL_COUNTS": nil}
	got, err := manifest.ReadManifest(bytes.NewReader(writeRaw(t, manifest09Schema, "null", rawEntry(2, 1, file))))
	require.NoError(t, err)
	require.Nil(t, got[0].File.KeyStats.NullCounts)
	require.True(t, got[0].File.KeyStats.IsEmpty())
	require.NotNil(t, got[0].File.ValueStats.NullCounts)
}

func TestRejectVersionsAndBadValues(t *testing.T) {
	badSource := rawFile("f")
	badSource["_FILE_SOURCE"] = int32(7)
	tests := []struct {
		name    string
		record  map[string]any
		target  error
		message string
	}{
		{"version 1", rawEntry(1, 0, rawFile("f")), manifest.ErrUnsupportedVersion, "recreate the table"},
		{"version 3", rawEntry(3, 0, rawFile("f")), manifest.ErrUnsupportedVersion, "3"},
		{"version 0", rawEntry(0, 0, rawFile("f")), manifest.ErrUnsupportedVersion, "0"},
		{"kind 2", rawEntry(2, 2, rawFile("f")), manifest.ErrCorrupt, "_KIND"},
		{"kind out of byte range", rawEntry(2, 300, rawFile("f")), manifest.ErrCorrupt, "_KIND"},
		{"file source 7", rawEntry(2, 0, badSource), manifest.ErrCorrupt, "_FILE_SOURCE"},
		{"empty file name", rawEntry(2, 0, rawFile("")), manifest.ErrCorrupt, "_FILE"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := writeRaw(t, manifest09Schema, "null", rawEntry(2, 0, rawFile("ok")), tt.record)
			_, err := manifest.ReadManifest(bytes.NewReader(data))
			require.ErrorIs(t, err, tt.target)
			require.ErrorContains(t, err, tt.message)
			require.ErrorContains(t, err, "record 1")
		})
	}

	t.Run("manifest list version 1", func(t *testing.T) {
		rec := map[string]any{"_VERSION": int32(1), "_FILE_NAME": "m", "_FILE_SIZE": int64(1),
			"_NUM_ADDED_FILES": int64(0), "_NUM_DELETED_FILES": int64(0),
			"_PARTITION_STATS": rawStats(manifest.EmptyRow()), "_SCHEMA_ID": int64(0)}
		_, err := manifest.ReadManifestList(bytes.NewReader(writeRaw(t, pypaimonManifestListSchema, "null", rec)))
		require.ErrorIs(t, err, manifest.ErrUnsupportedVersion)
		require.ErrorContains(t, err, "recreate the table")
	})
	t.Run("index manifest version 2", func(t *testing.T) {
		rec := map[string]any{"_VERSION": int32(2), "_KIND": int32(0), "_PARTITION": manifest.EmptyRow(),
			"_BUCKET": int32(0), "_INDEX_TYPE": "HASH", "_FILE_NAME": "i", "_FILE_SIZE": int64(1), "_ROW_COUNT": int64(1)}
		_, err := manifest.ReadIndexManifest(bytes.NewReader(writeRaw(t, index08Schema, "null", rec)))
		require.ErrorIs(t, err, manifest.ErrUnsupportedVersion)
	})
	t.Run("null DV range", func(t *testing.T) {
		rec := map[string]any{"_VERSION": int32(1), "_KIND": int32(0), "_PARTITION": manifest.EmptyRow(),
			"_BUCKET": int32(0), "_INDEX_TYPE": "DELETION_VECTORS", "_FILE_NAME": "i", "_FILE_SIZE": int64(1),
			"_ROW_COUNT": int64(1), "_DELETIONS_VECTORS_RANGES": []any{nil}}
		_, err := manifest.ReadIndexManifest(bytes.NewReader(writeRaw(t, index08Schema, "null", rec)))
		require.ErrorIs(t, err, manifest.ErrCorrupt)
	})
}

func TestRejectIncompatibleSchema(t *testing.T) {
	// _FILE_NAME missing: a NOT NULL field without default.
	schema := strings.Replace(manifest09Schema, `{"name":"_FILE_NAME","type":"string"},`, "", 1)
	file := rawFile("x")
	delete(file, "_FILE_NAME")
	data := writeRaw(t, schema, "null", rawEntry(2, 0, file))
	_, err := manifest.ReadManifest(bytes.NewReader(data))
	require.ErrorIs(t, err, manifest.ErrCorrupt)
	require.ErrorIs(t, err, avro.ErrIncompatibleSchema)
}

func TestReadWrongFileType(t *testing.T) {
	// A manifest list is not a manifest: required fields are missing.
	data := writeManifestList(t, sampleMetas(), "zstd")
	_, err := manifest.ReadManifest(bytes.NewReader(data))
	require.ErrorIs(t, err, manifest.ErrCorrupt)
	_, err = manifest.ReadIndexManifest(bytes.NewReader(data))
	require.ErrorIs(t, err, manifest.ErrCorrupt)
}
