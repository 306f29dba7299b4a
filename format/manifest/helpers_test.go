package manifest_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/manifest"
)

func i32(v int32) *int32   { return &v }
func i64(v int64) *int64   { return &v }
func str(v string) *string { return &v }
func src(v manifest.FileSource) *manifest.FileSource {
	return &v
}

// row builds a serialized BinaryRow of INT fields (enough for tests; this
// package treats rows as opaque bytes).
func row(vals ...int32) []byte {
	n := len(vals)
	nullBytes := ((n + 63 + 8) / 64) * 8
	b := make([]byte, 4+nullBytes+8*n)
	b[3] = byte(n)
	for i, v := range vals {
		off := 4 + nullBytes + 8*i
		b[off], b[off+1], b[off+2], b[off+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
	}
	return b
}

// fullEntry has every field set, including the nullable ones.
func fullEntry() manifest.ManifestEntry {
	return manifest.ManifestEntry{
		Kind:         manifest.FileKindAdd,
		Partition:    row(20240514),
		Bucket:       3,
		TotalBuckets: 8,
		File: manifest.DataFileMeta{
			FileName:          "data-7f6c1f9e-1d1b-4a3e-9a6b-0c7a1f0e2d11-0.parquet",
			FileSize:          1 << 31, // beyond int32
			RowCount:          1000,
			MinKey:            row(1),
			MaxKey:            row(999),
			KeyStats:          manifest.SimpleStats{MinValues: row(1), MaxValues: row(999), NullCounts: []*int64{i64(0)}},
			ValueStats:        manifest.SimpleStats{MinValues: row(1, 2), MaxValues: row(3, 4), NullCounts: []*int64{i64(5), nil}},
			MinSequenceNumber: 0,
			MaxSequenceNumber: 999,
			SchemaID:          2,
			Level:             5,
			ExtraFiles:        []string{"data-x.index"},
			CreationTime:      i64(1725608755039),
			DeleteRowCount:    i64(7),
			EmbeddedIndex:     []byte{0xde, 0xad},
			FileSource:        src(manifest.FileSourceCompact),
			ValueStatsCols:    []string{"a", "b"},
			ExternalPath:      str("s3://bucket/ext/data-x.parquet"),
			FirstRowID:        i64(1 << 40),
			WriteCols:         []string{"a"},
		},
	}
}

// sparseEntry has every nullable field null and every array empty.
func sparseEntry() manifest.ManifestEntry {
	return manifest.ManifestEntry{
		Kind:         manifest.FileKindDelete,
		Partition:    manifest.EmptyRow(),
		Bucket:       0,
		TotalBuckets: -1,
		File: manifest.DataFileMeta{
			FileName:   "data-0.orc",
			MinKey:     manifest.EmptyRow(),
			MaxKey:     manifest.EmptyRow(),
			KeyStats:   manifest.EmptyStats(),
			ValueStats: manifest.EmptyStats(),
			ExtraFiles: []string{},
		},
	}
}

// emptyNullableEntry has the nullable arrays and bytes present but empty,
// which must stay distinct from null.
func emptyNullableEntry() manifest.ManifestEntry {
	e := sparseEntry()
	e.Kind = manifest.FileKindAdd
	e.File.FileName = "data-1.avro"
	e.File.EmbeddedIndex = []byte{}
	e.File.ValueStatsCols = []string{}
	e.File.WriteCols = []string{}
	e.File.ExternalPath = str("")
	e.File.ValueStats.NullCounts = []*int64{nil, nil}
	e.File.FileSource = src(manifest.FileSourceAppend)
	e.File.CreationTime = i64(0)
	return e
}

func sampleEntries() []manifest.ManifestEntry {
	return []manifest.ManifestEntry{fullEntry(), sparseEntry(), emptyNullableEntry()}
}

func sampleMetas() []manifest.ManifestFileMeta {
	return []manifest.ManifestFileMeta{
		{
			FileName: "manifest-1c2f-0", FileSize: 4096, NumAddedFiles: 10, NumDeletedFiles: 2,
			PartitionStats: manifest.SimpleStats{MinValues: row(1), MaxValues: row(9), NullCounts: []*int64{i64(0)}},
			SchemaID:       3, MinBucket: i32(0), MaxBucket: i32(7), MinLevel: i32(0), MaxLevel: i32(5),
			MinRowID: i64(0), MaxRowID: i64(1 << 33),
		},
		{FileName: "manifest-2d3e-1", FileSize: 1, PartitionStats: manifest.EmptyStats()},
		{FileName: "manifest-3e4f-2", FileSize: 7, PartitionStats: manifest.SimpleStats{
			MinValues: row(3), MaxValues: row(3), NullCounts: []*int64{nil}}},
	}
}

func sampleIndexEntries() []manifest.IndexManifestEntry {
	return []manifest.IndexManifestEntry{
		{
			Kind: manifest.FileKindAdd, Partition: row(1), Bucket: 2,
			IndexFile: manifest.IndexFileMeta{
				IndexType: manifest.IndexTypeDeletionVectors, FileName: "index-5f1c-0", FileSize: 300, RowCount: 2,
				DVRanges: []manifest.DeletionVectorMeta{
					{DataFileName: "data-a.parquet", Offset: 1, Length: 100, Cardinality: i64(12)},
					{DataFileName: "data-b.parquet", Offset: 105, Length: 80},
				},
				ExternalPath: str("oss://b/index-5f1c-0"),
			},
		},
		{
			Kind: manifest.FileKindAdd, Partition: manifest.EmptyRow(), Bucket: 0,
			IndexFile: manifest.IndexFileMeta{IndexType: manifest.IndexTypeHash, FileName: "index-hash-1", FileSize: 8, RowCount: 2},
		},
		{
			Kind: manifest.FileKindDelete, Partition: manifest.EmptyRow(),
			IndexFile: manifest.IndexFileMeta{
				IndexType: "btree", FileName: "index-g-2", DVRanges: []manifest.DeletionVectorMeta{},
				GlobalIndex: &manifest.GlobalIndexMeta{RowRangeStart: 0, RowRangeEnd: 99, IndexFieldID: 4,
					ExtraFieldIDs: []int32{5, 6}, IndexMeta: []byte{1}},
			},
		},
		{
			Kind: manifest.FileKindAdd, Partition: manifest.EmptyRow(),
			IndexFile: manifest.IndexFileMeta{
				IndexType: "bitmap", FileName: "index-g-3",
				GlobalIndex: &manifest.GlobalIndexMeta{RowRangeStart: 100, RowRangeEnd: 199, ExtraFieldIDs: []int32{}, IndexMeta: []byte{}},
			},
		},
	}
}

func writeManifest(t testing.TB, entries []manifest.ManifestEntry, compression string) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, manifest.WriteManifest(&buf, entries, &manifest.WriteOptions{Compression: compression}))
	return buf.Bytes()
}

func writeManifestList(t testing.TB, metas []manifest.ManifestFileMeta, compression string) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, manifest.WriteManifestList(&buf, metas, &manifest.WriteOptions{Compression: compression}))
	return buf.Bytes()
}

func writeIndexManifest(t testing.TB, entries []manifest.IndexManifestEntry, compression string) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, manifest.WriteIndexManifest(&buf, entries, &manifest.WriteOptions{Compression: compression}))
	return buf.Bytes()
}
