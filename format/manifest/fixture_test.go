package manifest_test

import (
	"encoding/hex"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/internal/avro"
)

const (
	rustManifest     = "testdata/paimon-rust-2024/manifest-8ded1f09-fcda-489e-9167-582ac0f9f846-0"
	rustManifestList = "testdata/paimon-rust-2024/manifest-list-5c7399a0-46ae-4a5e-9c13-3ab07212cdb6-0"
)

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	require.NoError(t, err)
	return b
}

func TestReadRustFixtureManifest(t *testing.T) {
	f, err := os.Open(rustManifest)
	require.NoError(t, err)
	defer f.Close()
	entries, err := manifest.ReadManifest(f)
	require.NoError(t, err)
	require.Len(t, entries, 2)

	intOne := unhex(t, "00000001"+"0000000000000000"+"0100000000000000")
	// Key (STRING "1", INT 1): "1" inline with 0x80|1 in the slot's last byte.
	key := unhex(t, "00000002"+"0000000000000000"+"3100000000000081"+"0100000000000000")
	stats := manifest.SimpleStats{MinValues: key, MaxValues: key, NullCounts: []*int64{i64(1), i64(2)}}
	want := []manifest.ManifestEntry{
		{
			Kind: manifest.FileKindDelete, Partition: intOne, Bucket: 1, TotalBuckets: 10,
			File: manifest.DataFileMeta{
				FileName: "f1.parquet", FileSize: 10, RowCount: 100, MinKey: intOne, MaxKey: intOne,
				KeyStats: stats, ValueStats: stats, MinSequenceNumber: 1, MaxSequenceNumber: 100,
				SchemaID: 0, Level: 1, ExtraFiles: []string{}, CreationTime: i64(1725608755039),
				DeleteRowCount: i64(0),
			},
		},
		{
			Kind: manifest.FileKindAdd, Partition: intOne, Bucket: 2, TotalBuckets: 10,
			File: manifest.DataFileMeta{
				FileName: "f2.parquet", FileSize: 10, RowCount: 100, MinKey: intOne, MaxKey: intOne,
				KeyStats: stats, ValueStats: stats, MinSequenceNumber: 1, MaxSequenceNumber: 100,
				SchemaID: 0, Level: 1, ExtraFiles: []string{}, CreationTime: i64(1725608755039),
				DeleteRowCount: i64(1),
			},
		},
	}
	require.Equal(t, want, entries)

	// Fields that did not exist yet read as null, not as empty.
	for _, e := range entries {
		require.Nil(t, e.File.EmbeddedIndex)
		require.Nil(t, e.File.FileSource)
		require.Nil(t, e.File.ValueStatsCols)
		require.Nil(t, e.File.ExternalPath)
		require.Nil(t, e.File.FirstRowID)
		require.Nil(t, e.File.WriteCols)
	}

	// The stored creation time is the writer's wall clock.
	ct, ok := entries[0].File.CreationTimeIn(time.UTC)
	require.True(t, ok)
	require.Equal(t, time.Date(2024, 9, 6, 7, 45, 55, 39e6, time.UTC), ct)
}

func TestReadRustFixtureManifestList(t *testing.T) {
	f, err := os.Open(rustManifestList)
	require.NoError(t, err)
	defer f.Close()
	metas, err := manifest.ReadManifestList(f)
	require.NoError(t, err)

	// Partition (INT 1, STRING "1").
	part := unhex(t, "00000002"+"0000000000000000"+"0100000000000000"+"3100000000000081")
	stats := manifest.SimpleStats{MinValues: part, MaxValues: part, NullCounts: []*int64{i64(1), i64(2)}}
	want := []manifest.ManifestFileMeta{
		{FileName: "manifest-19d138df-233f-46f7-beb6-fadaf4741c0e", FileSize: 10, NumAddedFiles: 10,
			NumDeletedFiles: 10, PartitionStats: stats, SchemaID: 1},
		{FileName: "manifest-a703ee48-c411-413e-b84e-c03bdb179631", FileSize: 11, NumAddedFiles: 0,
			NumDeletedFiles: 10, PartitionStats: stats, SchemaID: 2},
	}
	require.Equal(t, want, metas)
}

// TestRustFixtureShape pins down what makes these files "old": the header
// says snappy and the top-level record is a nullable union.
func TestRustFixtureShape(t *testing.T) {
	for _, name := range []string{rustManifest, rustManifestList} {
		t.Run(name, func(t *testing.T) {
			f, err := os.Open(name)
			require.NoError(t, err)
			defer f.Close()
			r, err := avro.NewReader(f, avro.MustParseSchema(`{"type":"record","name":"record","namespace":"org.apache.paimon.avro.generated","fields":[{"name":"_VERSION","type":"int"}]}`))
			require.NoError(t, err)
			defer r.Close()
			require.Equal(t, "snappy", r.Codec())
			require.Contains(t, r.WriterSchema(), `["null",{"type":"record","name":"record","namespace":"org.apache.paimon.avro.generated"`)
		})
	}
}
