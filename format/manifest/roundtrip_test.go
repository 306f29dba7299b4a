package manifest_test

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/internal/avro"
)

var codecs = []struct{ compression, header string }{
	{"null", "null"},
	{"deflate", "deflate"},
	{"snappy", "snappy"},
	{"zstandard", "zstandard"},
	{"zstd", "zstandard"},
	{"", "zstandard"}, // Paimon's default manifest.compression
}

// header returns the codec and schema JSON in a container's header.
func header(t *testing.T, data []byte) (codec, schema string) {
	t.Helper()
	r, err := avro.NewReader(bytes.NewReader(data), avro.MustParseSchema(`{"type":"record","name":"record","namespace":"org.apache.paimon.avro.generated","fields":[{"name":"_VERSION","type":"int"}]}`))
	require.NoError(t, err)
	defer r.Close()
	return r.Codec(), r.WriterSchema()
}

func TestRoundTripManifest(t *testing.T) {
	for _, c := range codecs {
		t.Run(c.compression, func(t *testing.T) {
			data := writeManifest(t, sampleEntries(), c.compression)
			got, err := manifest.ReadManifest(bytes.NewReader(data))
			require.NoError(t, err)
			require.Equal(t, sampleEntries(), got)

			codec, schema := header(t, data)
			require.Equal(t, c.header, codec)
			require.Equal(t, javaManifestEntrySchema, schema)
		})
	}
}

func TestRoundTripManifestList(t *testing.T) {
	for _, c := range codecs {
		t.Run(c.compression, func(t *testing.T) {
			data := writeManifestList(t, sampleMetas(), c.compression)
			got, err := manifest.ReadManifestList(bytes.NewReader(data))
			require.NoError(t, err)
			require.Equal(t, sampleMetas(), got)

			codec, schema := header(t, data)
			require.Equal(t, c.header, codec)
			require.Equal(t, javaManifestFileMetaSchema, schema)
		})
	}
}

func TestRoundTripIndexManifest(t *testing.T) {
	for _, c := range codecs {
		t.Run(c.compression, func(t *testing.T) {
			data := writeIndexManifest(t, sampleIndexEntries(), c.compression)
			got, err := manifest.ReadIndexManifest(bytes.NewReader(data))
			require.NoError(t, err)
			require.Equal(t, sampleIndexEntries(), got)

			codec, schema := header(t, data)
			require.Equal(t, c.header, codec)
			require.Equal(t, javaIndexManifestEntrySchema, schema)
		})
	}
}

func TestRoundTripPreservesNullVersusEmpty(t *testing.T) {
	data := writeManifest(t, sampleEntries(), "null")
	got, err := manifest.ReadManifest(bytes.NewReader(data))
	require.NoError(t, err)
	sparse, empty := got[1].File, got[2].File
	tests := []struct {
		name        string
		null, empty any
	}{
		{"_VALUE_STATS_COLS", sparse.ValueStatsCols, empty.ValueStatsCols},
		{"_WRITE_COLS", sparse.WriteCols, empty.WriteCols},
		{"_EMBEDDED_FILE_INDEX", sparse.EmbeddedIndex, empty.EmbeddedIndex},
		{"_EXTERNAL_PATH", sparse.ExternalPath, empty.ExternalPath},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Nil(t, tt.null)
			require.NotNil(t, tt.empty)
		})
	}
	require.Equal(t, []*int64{nil, nil}, empty.ValueStats.NullCounts)
}

func TestWriteNilRequiredArrays(t *testing.T) {
	// _EXTRA_FILES is NOT NULL: a nil slice is written as an empty array.
	e := sparseEntry()
	e.File.ExtraFiles = nil
	got, err := manifest.ReadManifest(bytes.NewReader(writeManifest(t, []manifest.ManifestEntry{e}, "null")))
	require.NoError(t, err)
	require.Equal(t, []string{}, got[0].File.ExtraFiles)
}

func TestStreaming(t *testing.T) {
	var buf bytes.Buffer
	w, err := manifest.NewManifestWriter(&buf, nil)
	require.NoError(t, err)
	for i := range 3000 { // several blocks
		e := fullEntry()
		e.Bucket = int32(i)
		require.NoError(t, w.Write(e))
	}
	require.NoError(t, w.Close())

	r, err := manifest.NewManifestReader(bytes.NewReader(buf.Bytes()))
	require.NoError(t, err)
	defer r.Close()
	var prev manifest.ManifestEntry
	for i := 0; ; i++ {
		e, err := r.Next()
		if err == io.EOF {
			require.Equal(t, 3000, i)
			break
		}
		require.NoError(t, err)
		require.Equal(t, int32(i), e.Bucket)
		if i > 0 {
			// Earlier results must not be overwritten by later decodes.
			require.Equal(t, int32(i-1), prev.Bucket)
			require.Equal(t, fullEntry().File, prev.File)
		}
		prev = e
	}
	_, err = r.Next()
	require.Equal(t, io.EOF, err)
}

func TestWriteRejectsInvalid(t *testing.T) {
	badKind := fullEntry()
	badKind.Kind = 5
	badSource := fullEntry()
	badSource.File.FileSource = src(9)
	noName := fullEntry()
	noName.File.FileName = ""
	nullCounts := fullEntry()
	nullCounts.File.ValueStats.NullCounts = nil
	noPartition := fullEntry()
	noPartition.Partition = nil
	shortKey := fullEntry()
	shortKey.File.MaxKey = []byte{0, 0}
	tests := map[string]manifest.ManifestEntry{
		"kind": badKind, "source": badSource, "name": noName,
		"null _NULL_COUNTS": nullCounts, "nil partition": noPartition, "short key": shortKey,
	}
	for name, e := range tests {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			w, err := manifest.NewManifestWriter(&buf, nil)
			require.NoError(t, err)
			require.ErrorIs(t, w.Write(e), manifest.ErrInvalid)
			// The writer stays usable after a rejected record.
			require.NoError(t, w.Write(fullEntry()))
			require.NoError(t, w.Close())
			got, err := manifest.ReadManifest(&buf)
			require.NoError(t, err)
			require.Len(t, got, 1)
		})
	}

	err := manifest.WriteManifestList(io.Discard, []manifest.ManifestFileMeta{{}}, nil)
	require.ErrorIs(t, err, manifest.ErrInvalid)
	err = manifest.WriteManifestList(io.Discard, []manifest.ManifestFileMeta{{FileName: "m"}}, nil)
	require.ErrorIs(t, err, manifest.ErrInvalid)
	err = manifest.WriteIndexManifest(io.Discard, []manifest.IndexManifestEntry{{Kind: 2, IndexFile: manifest.IndexFileMeta{FileName: "x"}}}, nil)
	require.ErrorIs(t, err, manifest.ErrInvalid)
}

func TestWriteUnknownCompression(t *testing.T) {
	for _, c := range []string{"none", "lz4", "bzip2"} {
		err := manifest.WriteManifest(io.Discard, nil, &manifest.WriteOptions{Compression: c})
		require.Error(t, err, c)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteIOError(t *testing.T) {
	err := manifest.WriteManifest(failWriter{}, sampleEntries(), nil)
	require.ErrorContains(t, err, "disk full")
}

func TestEmptyFiles(t *testing.T) {
	got, err := manifest.ReadManifest(bytes.NewReader(writeManifest(t, nil, "zstd")))
	require.NoError(t, err)
	require.Empty(t, got)
}

// The schemas Java Paimon 1.4.2 writes (paimon-format.md §4.6), repeated here
// so that a change to the package constants cannot go unnoticed.
const (
	javaManifestEntrySchema      = `{"type":"record","name":"record","namespace":"org.apache.paimon.avro.generated","fields":[{"name":"_VERSION","type":"int"},{"name":"_KIND","type":"int"},{"name":"_PARTITION","type":"bytes"},{"name":"_BUCKET","type":"int"},{"name":"_TOTAL_BUCKETS","type":"int"},{"name":"_FILE","type":{"type":"record","name":"record__FILE","fields":[{"name":"_FILE_NAME","type":"string"},{"name":"_FILE_SIZE","type":"long"},{"name":"_ROW_COUNT","type":"long"},{"name":"_MIN_KEY","type":"bytes"},{"name":"_MAX_KEY","type":"bytes"},{"name":"_KEY_STATS","type":{"type":"record","name":"record__FILE__KEY_STATS","fields":[{"name":"_MIN_VALUES","type":"bytes"},{"name":"_MAX_VALUES","type":"bytes"},{"name":"_NULL_COUNTS","type":["null",{"type":"array","items":["null","long"]}],"default":null}]}},{"name":"_VALUE_STATS","type":{"type":"record","name":"record__FILE__VALUE_STATS","fields":[{"name":"_MIN_VALUES","type":"bytes"},{"name":"_MAX_VALUES","type":"bytes"},{"name":"_NULL_COUNTS","type":["null",{"type":"array","items":["null","long"]}],"default":null}]}},{"name":"_MIN_SEQUENCE_NUMBER","type":"long"},{"name":"_MAX_SEQUENCE_NUMBER","type":"long"},{"name":"_SCHEMA_ID","type":"long"},{"name":"_LEVEL","type":"int"},{"name":"_EXTRA_FILES","type":{"type":"array","items":"string"}},{"name":"_CREATION_TIME","type":["null",{"type":"long","logicalType":"timestamp-millis"}],"default":null},{"name":"_DELETE_ROW_COUNT","type":["null","long"],"default":null},{"name":"_EMBEDDED_FILE_INDEX","type":["null","bytes"],"default":null},{"name":"_FILE_SOURCE","type":["null","int"],"default":null},{"name":"_VALUE_STATS_COLS","type":["null",{"type":"array","items":"string"}],"default":null},{"name":"_EXTERNAL_PATH","type":["null","string"],"default":null},{"name":"_FIRST_ROW_ID","type":["null","long"],"default":null},{"name":"_WRITE_COLS","type":["null",{"type":"array","items":"string"}],"default":null}]}}]}`
	javaManifestFileMetaSchema   = `{"type":"record","name":"record","namespace":"org.apache.paimon.avro.generated","fields":[{"name":"_VERSION","type":"int"},{"name":"_FILE_NAME","type":"string"},{"name":"_FILE_SIZE","type":"long"},{"name":"_NUM_ADDED_FILES","type":"long"},{"name":"_NUM_DELETED_FILES","type":"long"},{"name":"_PARTITION_STATS","type":{"type":"record","name":"record__PARTITION_STATS","fields":[{"name":"_MIN_VALUES","type":"bytes"},{"name":"_MAX_VALUES","type":"bytes"},{"name":"_NULL_COUNTS","type":["null",{"type":"array","items":["null","long"]}],"default":null}]}},{"name":"_SCHEMA_ID","type":"long"},{"name":"_MIN_BUCKET","type":["null","int"],"default":null},{"name":"_MAX_BUCKET","type":["null","int"],"default":null},{"name":"_MIN_LEVEL","type":["null","int"],"default":null},{"name":"_MAX_LEVEL","type":["null","int"],"default":null},{"name":"_MIN_ROW_ID","type":["null","long"],"default":null},{"name":"_MAX_ROW_ID","type":["null","long"],"default":null}]}`
	javaIndexManifestEntrySchema = `{"type":"record","name":"record","namespace":"org.apache.paimon.avro.generated","fields":[{"name":"_VERSION","type":"int"},{"name":"_KIND","type":"int"},{"name":"_PARTITION","type":"bytes"},{"name":"_BUCKET","type":"int"},{"name":"_INDEX_TYPE","type":"string"},{"name":"_FILE_NAME","type":"string"},{"name":"_FILE_SIZE","type":"long"},{"name":"_ROW_COUNT","type":"long"},{"name":"_DELETIONS_VECTORS_RANGES","type":["null",{"type":"array","items":["null",{"type":"record","name":"record__DELETIONS_VECTORS_RANGES","fields":[{"name":"f0","type":"string"},{"name":"f1","type":"int"},{"name":"f2","type":"int"},{"name":"_CARDINALITY","type":["null","long"],"default":null}]}]}],"default":null},{"name":"_EXTERNAL_PATH","type":["null","string"],"default":null},{"name":"_GLOBAL_INDEX","type":["null",{"type":"record","name":"record__GLOBAL_INDEX","fields":[{"name":"_ROW_RANGE_START","type":"long"},{"name":"_ROW_RANGE_END","type":"long"},{"name":"_INDEX_FIELD_ID","type":"int"},{"name":"_EXTRA_FIELD_IDS","type":["null",{"type":"array","items":"int"}],"default":null},{"name":"_INDEX_META","type":["null","bytes"],"default":null}]}],"default":null}]}`
)

func TestZstdLevels(t *testing.T) {
	for _, level := range []int{0, 1, 3, 9, 19, -5} {
		var buf bytes.Buffer
		opts := &manifest.WriteOptions{Compression: "zstd", ZstdLevel: level}
		require.NoError(t, manifest.WriteManifest(&buf, sampleEntries(), opts), level)
		got, err := manifest.ReadManifest(&buf)
		require.NoError(t, err, level)
		require.Equal(t, sampleEntries(), got, level)
	}
}

type failingReader struct{ err error }

func (f failingReader) Read([]byte) (int, error) { return 0, f.err }

func TestReadIOErrorIsNotCorruption(t *testing.T) {
	boom := errors.New("connection reset")
	_, err := manifest.ReadManifest(failingReader{boom})
	require.ErrorIs(t, err, boom)
	require.NotErrorIs(t, err, manifest.ErrCorrupt)

	// Also in the middle of the file.
	data := writeManifest(t, sampleEntries(), "null")
	r := io.MultiReader(bytes.NewReader(data[:len(data)/2]), failingReader{boom})
	_, err = manifest.ReadManifest(r)
	require.ErrorIs(t, err, boom)
	require.NotErrorIs(t, err, manifest.ErrCorrupt)
}

func TestConcurrentReadsAndWrites(t *testing.T) {
	files := map[string][]byte{}
	for _, c := range codecs {
		files[c.compression] = writeManifest(t, sampleEntries(), c.compression)
	}
	done := make(chan error)
	for range 8 {
		go func() {
			var err error
			for c, data := range files {
				var got []manifest.ManifestEntry
				if got, err = manifest.ReadManifest(bytes.NewReader(data)); err != nil {
					break
				}
				if len(got) != 3 {
					err = errors.New("short read")
					break
				}
				var buf bytes.Buffer
				if err = manifest.WriteManifest(&buf, got, &manifest.WriteOptions{Compression: c}); err != nil {
					break
				}
			}
			done <- err
		}()
	}
	for range 8 {
		require.NoError(t, <-done)
	}
}
