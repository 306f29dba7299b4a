package manifest_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/manifest"
)

var javaCodecs = []string{"zstd", "snappy", "deflate", "null"}

// javaOne is BinaryRow.singleColumn(1), serialized with its arity.
var javaOne = []byte{0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0}

func javaStats() manifest.SimpleStats {
	return manifest.SimpleStats{MinValues: javaOne, MaxValues: javaOne, NullCounts: []*int64{i64(5), nil}}
}

func openFixture(t *testing.T, name string) *os.File {
	t.Helper()
	f, err := os.Open("testdata/java-1.4.2/" + name)
	require.NoError(t, err)
	t.Cleanup(func() { f.Close() })
	return f
}

func TestReadJavaManifest(t *testing.T) {
	empty := manifest.EmptyRow()
	want := []manifest.ManifestEntry{
		{
			Kind: manifest.FileKindAdd, Partition: javaOne, Bucket: 3, TotalBuckets: 8,
			File: manifest.DataFileMeta{
				FileName: "data-full.parquet", FileSize: 1 << 31, RowCount: 1000, MinKey: javaOne, MaxKey: javaOne,
				KeyStats: javaStats(), ValueStats: javaStats(), MinSequenceNumber: 0, MaxSequenceNumber: 999,
				SchemaID: 2, Level: 5, ExtraFiles: []string{"data-x.index"}, CreationTime: i64(1725608755039),
				DeleteRowCount: i64(7), EmbeddedIndex: []byte{1, 2}, FileSource: src(manifest.FileSourceCompact),
				ValueStatsCols: []string{"a", "b"}, ExternalPath: str("s3://b/x"), FirstRowID: i64(1 << 40),
				WriteCols: []string{"a"},
			},
		},
		{
			Kind: manifest.FileKindDelete, Partition: empty, Bucket: 0, TotalBuckets: -1,
			File: manifest.DataFileMeta{
				FileName: "data-sparse.orc", FileSize: 10, RowCount: 1, MinKey: empty, MaxKey: empty,
				KeyStats: manifest.EmptyStats(), ValueStats: manifest.EmptyStats(), ExtraFiles: []string{},
			},
		},
		{
			Kind: manifest.FileKindAdd, Partition: empty, Bucket: 0, TotalBuckets: -1,
			File: manifest.DataFileMeta{
				FileName: "data-empties.avro", FileSize: 10, RowCount: 1, MinKey: empty, MaxKey: empty,
				KeyStats: manifest.EmptyStats(), ValueStats: manifest.EmptyStats(), ExtraFiles: []string{},
				CreationTime: i64(0), DeleteRowCount: i64(0), EmbeddedIndex: []byte{},
				FileSource: src(manifest.FileSourceAppend), ValueStatsCols: []string{}, ExternalPath: str(""),
				FirstRowID: i64(0), WriteCols: []string{},
			},
		},
	}
	for _, c := range javaCodecs {
		t.Run(c, func(t *testing.T) {
			got, err := manifest.ReadManifest(openFixture(t, "manifest-"+c))
			require.NoError(t, err)
			require.Equal(t, want, got)
			for _, e := range got {
				require.True(t, e.File.KeyStats.IsEmpty() == (e.File.FileName != "data-full.parquet"))
			}
		})
	}
}

func TestReadJavaManifestList(t *testing.T) {
	want := []manifest.ManifestFileMeta{
		{
			FileName: "manifest-a-0", FileSize: 4096, NumAddedFiles: 10, NumDeletedFiles: 2,
			PartitionStats: javaStats(), SchemaID: 3, MinBucket: i32(0), MaxBucket: i32(7), MinLevel: i32(0),
			MaxLevel: i32(5), MinRowID: i64(0), MaxRowID: i64(1 << 33),
		},
		{FileName: "manifest-b-1", FileSize: 1, PartitionStats: manifest.EmptyStats()},
	}
	for _, c := range javaCodecs {
		t.Run(c, func(t *testing.T) {
			got, err := manifest.ReadManifestList(openFixture(t, "list-"+c))
			require.NoError(t, err)
			require.Equal(t, want, got)
		})
	}
}

func TestReadJavaIndexManifest(t *testing.T) {
	empty := manifest.EmptyRow()
	want := []manifest.IndexManifestEntry{
		{
			Kind: manifest.FileKindAdd, Partition: javaOne, Bucket: 2,
			IndexFile: manifest.IndexFileMeta{
				IndexType: manifest.IndexTypeDeletionVectors, FileName: "index-dv-0", FileSize: 300, RowCount: 2,
				DVRanges: []manifest.DeletionVectorMeta{
					{DataFileName: "data-a.parquet", Offset: 1, Length: 100, Cardinality: i64(12)},
					{DataFileName: "data-b.parquet", Offset: 105, Length: 80},
				},
				ExternalPath: str("oss://b/i"),
			},
		},
		{
			Kind: manifest.FileKindAdd, Partition: empty,
			IndexFile: manifest.IndexFileMeta{IndexType: manifest.IndexTypeHash, FileName: "index-hash-1", FileSize: 8, RowCount: 2},
		},
		{
			Kind: manifest.FileKindAdd, Partition: empty,
			IndexFile: manifest.IndexFileMeta{
				IndexType: "btree", FileName: "index-g-2", FileSize: 8, RowCount: 2,
				GlobalIndex: &manifest.GlobalIndexMeta{RowRangeStart: 0, RowRangeEnd: 99, IndexFieldID: 4,
					ExtraFieldIDs: []int32{5, 6}, IndexMeta: []byte{1}},
			},
		},
	}
	for _, c := range javaCodecs {
		t.Run(c, func(t *testing.T) {
			got, err := manifest.ReadIndexManifest(openFixture(t, "index-"+c))
			require.NoError(t, err)
			require.Equal(t, want, got)
		})
	}
}

// TestJavaHeaderSchemas checks that our writer schemas are byte-identical to
// the ones Java wrote into the fixtures.
func TestJavaHeaderSchemas(t *testing.T) {
	for kind, want := range map[string]string{
		"manifest": javaManifestEntrySchema,
		"list":     javaManifestFileMetaSchema,
		"index":    javaIndexManifestEntrySchema,
	} {
		t.Run(kind, func(t *testing.T) {
			data, err := os.ReadFile("testdata/java-1.4.2/" + kind + "-zstd")
			require.NoError(t, err)
			codec, schema := header(t, data)
			require.Equal(t, "zstandard", codec)
			require.Equal(t, want, schema)
		})
	}
}
