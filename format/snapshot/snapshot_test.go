package snapshot_test

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/snapshot"
)

func ptr[T any](v T) *T { return &v }

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", path))
	require.NoError(t, err)
	return b
}

func TestDecodeFixtures(t *testing.T) {
	tests := []struct {
		file string
		want snapshot.Snapshot
	}{
		{
			file: "paimon-rust/snapshot-v3.json",
			want: snapshot.Snapshot{
				Version:               3,
				ID:                    2,
				SchemaID:              0,
				BaseManifestList:      "manifest-list-ea4b892d-edc8-4ee7-9eee-7068b83a947b-0",
				DeltaManifestList:     "manifest-list-ea4b892d-edc8-4ee7-9eee-7068b83a947b-1",
				ChangelogManifestList: ptr("manifest-list-ea4b892d-edc8-4ee7-9eee-7068b83a947b-2"),
				CommitUser:            "abbaac9e-4a17-43e3-b135-2269da263e3a",
				CommitIdentifier:      snapshot.BatchCommitIdentifier,
				CommitKind:            snapshot.CommitAppend,
				TimeMillis:            1724509030368,
				TotalRecordCount:      4,
				DeltaRecordCount:      2,
				ChangelogRecordCount:  ptr[int64](2),
				Statistics:            ptr("statistics_string"),
			},
		},
		{
			file: "paimon-rust/snapshot-v3-none-field.json",
			want: snapshot.Snapshot{
				Version:              3,
				ID:                   2,
				BaseManifestList:     "manifest-list-ea4b892d-edc8-4ee7-9eee-7068b83a947b-0",
				DeltaManifestList:    "manifest-list-ea4b892d-edc8-4ee7-9eee-7068b83a947b-1",
				CommitUser:           "abbaac9e-4a17-43e3-b135-2269da263e3a",
				CommitIdentifier:     math.MaxInt64,
				CommitKind:           snapshot.CommitAppend,
				TimeMillis:           1724509030368,
				TotalRecordCount:     4,
				DeltaRecordCount:     2,
				ChangelogRecordCount: ptr[int64](2),
			},
		},
		{
			file: "java/understand-files-snapshot-1.json",
			want: snapshot.Snapshot{
				Version:              3,
				ID:                   1,
				BaseManifestList:     "manifest-list-4ccc-c07f-4090-958c-cfe3ce3889e5-0",
				DeltaManifestList:    "manifest-list-4ccc-c07f-4090-958c-cfe3ce3889e5-1",
				CommitUser:           "7d758485-981d-4b1a-a0c6-d34c3eb254bf",
				CommitIdentifier:     math.MaxInt64,
				CommitKind:           snapshot.CommitAppend,
				TimeMillis:           1684155393354,
				TotalRecordCount:     1,
				DeltaRecordCount:     1,
				ChangelogRecordCount: ptr[int64](0),
				Watermark:            ptr[int64](math.MinInt64),
			},
		},
		{
			file: "java/understand-files-snapshot-2.json",
			want: snapshot.Snapshot{
				Version:              3,
				ID:                   4,
				BaseManifestList:     "manifest-list-9be16-82e7-4941-8b0a-7ce1c1d0fa6d-0",
				DeltaManifestList:    "manifest-list-9be16-82e7-4941-8b0a-7ce1c1d0fa6d-1",
				CommitUser:           "a3d951d5-aa0e-4071-a5d4-4c72a4233d48",
				CommitIdentifier:     math.MaxInt64,
				CommitKind:           snapshot.CommitCompact,
				TimeMillis:           1684163217960,
				TotalRecordCount:     2,
				DeltaRecordCount:     -16,
				ChangelogRecordCount: ptr[int64](0),
				Watermark:            ptr[int64](math.MinInt64),
			},
		},
		{
			file: "java/tagtest-snapshot.json",
			want: snapshot.Snapshot{
				Version:    3,
				CommitKind: snapshot.CommitAppend,
				TimeMillis: 1000,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			got, err := snapshot.Decode(readFile(t, tt.file))
			require.NoError(t, err)
			require.Equal(t, tt.want, *got)
		})
	}
}

// TestEncodeJavaBytes checks byte-exact output against strings Java produced.
func TestEncodeJavaBytes(t *testing.T) {
	want := readFile(t, "java/tagtest-snapshot.json")

	t.Run("hand-built", func(t *testing.T) {
		s := snapshot.Snapshot{
			Version:    snapshot.CurrentVersion,
			CommitKind: snapshot.CommitAppend,
			TimeMillis: 1000,
		}
		require.Equal(t, string(want), string(s.Encode()))
	})
	t.Run("zero version means current", func(t *testing.T) {
		s := snapshot.Snapshot{CommitKind: snapshot.CommitAppend, TimeMillis: 1000}
		require.Equal(t, string(want), string(s.Encode()))
	})
	t.Run("decoded", func(t *testing.T) {
		s, err := snapshot.Decode(want)
		require.NoError(t, err)
		require.Equal(t, string(want), string(s.Encode()))
	})
}

// fullSnapshot sets every member, including the Paimon 2.0 ones; its expected
// JSON lists them in the order of the 2.0 @JsonCreator.
func fullSnapshot() snapshot.Snapshot {
	return snapshot.Snapshot{
		Version:                   3,
		UUID:                      ptr("6f7c1c52-3a43-4c2e-9d7c-0d6e9b7b0a11"),
		ID:                        7,
		SchemaID:                  2,
		BaseManifestList:          "manifest-list-a-0",
		BaseManifestListSize:      ptr[int64](1111),
		DeltaManifestList:         "manifest-list-a-1",
		DeltaManifestListSize:     ptr[int64](2222),
		ChangelogManifestList:     ptr("manifest-list-a-2"),
		ChangelogManifestListSize: ptr[int64](3333),
		IndexManifest:             ptr("index-manifest-b-0"),
		CommitUser:                "user-1",
		CommitIdentifier:          snapshot.BatchCommitIdentifier,
		CommitKind:                snapshot.CommitOverwrite,
		TimeMillis:                1700000000000,
		TotalRecordCount:          100,
		DeltaRecordCount:          -10,
		ChangelogRecordCount:      ptr[int64](5),
		Watermark:                 ptr[int64](math.MinInt64),
		Statistics:                ptr("stat-c-0"),
		Properties:                map[string]string{"a": "1", "b": "2"},
		NextRowID:                 ptr[int64](900),
		Operation:                 ptr(snapshot.OperationOverwrite),
	}
}

const fullSnapshotJSON = `{
  "version" : 3,
  "uuid" : "6f7c1c52-3a43-4c2e-9d7c-0d6e9b7b0a11",
  "id" : 7,
  "schemaId" : 2,
  "baseManifestList" : "manifest-list-a-0",
  "baseManifestListSize" : 1111,
  "deltaManifestList" : "manifest-list-a-1",
  "deltaManifestListSize" : 2222,
  "changelogManifestList" : "manifest-list-a-2",
  "changelogManifestListSize" : 3333,
  "indexManifest" : "index-manifest-b-0",
  "commitUser" : "user-1",
  "commitIdentifier" : 9223372036854775807,
  "commitKind" : "OVERWRITE",
  "timeMillis" : 1700000000000,
  "totalRecordCount" : 100,
  "deltaRecordCount" : -10,
  "changelogRecordCount" : 5,
  "watermark" : -9223372036854775808,
  "statistics" : "stat-c-0",
  "properties" : {
    "a" : "1",
    "b" : "2"
  },
  "nextRowId" : 900,
  "operation" : "OVERWRITE"
}`

func TestRoundTrip(t *testing.T) {
	v142 := fullSnapshot()
	v142.UUID, v142.Operation = nil, nil
	minimal := snapshot.Snapshot{Version: 3, ID: 1, CommitUser: "u", CommitKind: snapshot.CommitAppend}
	emptyProps := minimal
	emptyProps.Properties = map[string]string{}

	tests := []struct {
		name string
		s    snapshot.Snapshot
	}{
		{"full 2.0", fullSnapshot()},
		{"full 1.4.2", v142},
		{"minimal", minimal},
		{"empty properties", emptyProps},
		{"version 2", snapshot.Snapshot{Version: 2, ID: 3, CommitKind: snapshot.CommitCompact}},
		{"legacy", snapshot.Snapshot{Version: snapshot.VersionLegacy, ID: 3, CommitKind: snapshot.CommitAnalyze}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			enc := tt.s.Encode()
			got, err := snapshot.Decode(enc)
			require.NoError(t, err)
			require.Equal(t, tt.s, *got)
			require.Equal(t, string(enc), string(got.Encode()))
		})
	}

	t.Run("full golden", func(t *testing.T) {
		s := fullSnapshot()
		require.Equal(t, fullSnapshotJSON, string(s.Encode()))
	})
	t.Run("1.4.2 golden has no 2.0 members", func(t *testing.T) {
		got := string(v142.Encode())
		require.NotContains(t, got, "uuid")
		require.NotContains(t, got, "operation")
		require.Equal(t, strings.Count(fullSnapshotJSON, "\n")-2, strings.Count(got, "\n"))
	})
	t.Run("empty properties written as braces", func(t *testing.T) {
		require.Contains(t, string(emptyProps.Encode()), "\"properties\" : { }\n}")
	})
}

func TestPropertiesOrder(t *testing.T) {
	in := `{
  "version" : 3,
  "id" : 1,
  "schemaId" : 0,
  "baseManifestList" : "b",
  "deltaManifestList" : "d",
  "commitUser" : "u",
  "commitIdentifier" : 1,
  "commitKind" : "APPEND",
  "timeMillis" : 1,
  "totalRecordCount" : 0,
  "deltaRecordCount" : 0,
  "properties" : {
    "zeta" : "1",
    "alpha" : "2",
    "mid" : "3"
  },
  "nextRowId" : 0
}`
	s, err := snapshot.Decode([]byte(in))
	require.NoError(t, err)
	require.Equal(t, map[string]string{"zeta": "1", "alpha": "2", "mid": "3"}, s.Properties)
	require.Equal(t, in, string(s.Encode()), "document order survives a round trip")

	s.Properties["beta"] = "4"
	delete(s.Properties, "alpha")
	want := strings.Replace(in, `    "alpha" : "2",
    "mid" : "3"`, `    "mid" : "3",
    "beta" : "4"`, 1)
	require.Equal(t, want, string(s.Encode()), "new keys go last, sorted")
}

func TestUnknownMembers(t *testing.T) {
	in := `{"version":3,"id":5,"ID":99,"iD_x":98,"futureField":{"nested":[1,2,{"x":null}]},
	"schemaId":1,"logOffsets":{"0":10,"1":20},"commitKind":"COMPACT","somethingElse":"x",
	"baseManifestList":"b","deltaManifestList":"d","commitUser":"u","commitIdentifier":3,
	"timeMillis":4,"totalRecordCount":5,"deltaRecordCount":6}`
	s, err := snapshot.Decode([]byte(in))
	require.NoError(t, err)
	require.Equal(t, snapshot.Snapshot{
		Version: 3, ID: 5, SchemaID: 1, CommitKind: snapshot.CommitCompact,
		BaseManifestList: "b", DeltaManifestList: "d", CommitUser: "u",
		CommitIdentifier: 3, TimeMillis: 4, TotalRecordCount: 5, DeltaRecordCount: 6,
	}, *s, "keys match case-sensitively; unknown members are ignored")
}

func TestLegacyVersions(t *testing.T) {
	t.Run("version 1 (Paimon <= 0.2)", func(t *testing.T) {
		// The shape of flink-table-store 0.2 Snapshot: no version, no record
		// counts, commitIdentifier a string, logOffsets keyed by bucket.
		in := `{
  "id" : 3,
  "schemaId" : 0,
  "baseManifestList" : "manifest-list-x-4",
  "deltaManifestList" : "manifest-list-x-5",
  "commitUser" : "c0ffee",
  "commitIdentifier" : "42",
  "commitKind" : "APPEND",
  "timeMillis" : 1650000000000,
  "logOffsets" : {
    "0" : 17
  }
}`
		s, err := snapshot.Decode([]byte(in))
		require.NoError(t, err)
		require.Equal(t, snapshot.Snapshot{
			Version: snapshot.VersionLegacy, ID: 3,
			BaseManifestList: "manifest-list-x-4", DeltaManifestList: "manifest-list-x-5",
			CommitUser: "c0ffee", CommitIdentifier: 42, CommitKind: snapshot.CommitAppend,
			TimeMillis: 1650000000000,
		}, *s)
	})
	t.Run("version 2 (Paimon 0.3)", func(t *testing.T) {
		in := `{"version":2,"id":9,"schemaId":1,"baseManifestList":"b","deltaManifestList":"d",
		"changelogManifestList":"c","commitUser":"u","commitIdentifier":7,"commitKind":"OVERWRITE",
		"timeMillis":1,"logOffsets":{}}`
		s, err := snapshot.Decode([]byte(in))
		require.NoError(t, err)
		require.Equal(t, int32(2), s.Version)
		require.Equal(t, "c", *s.ChangelogManifestList)
		require.Zero(t, s.TotalRecordCount)
		require.Nil(t, s.ChangelogRecordCount)
	})
	t.Run("version 0 written by Java re-serialising a legacy file", func(t *testing.T) {
		s, err := snapshot.Decode([]byte(`{"version":0,"id":1,"schemaId":0,"baseManifestList":"b","deltaManifestList":"d","commitUser":"u","commitIdentifier":1,"commitKind":"APPEND","timeMillis":1}`))
		require.NoError(t, err)
		require.Equal(t, int32(0), s.Version)
	})
	t.Run("trailing white space is fine", func(t *testing.T) {
		s, err := snapshot.Decode([]byte("{\"id\":1,\"schemaId\":0,\"baseManifestList\":\"b\",\"deltaManifestList\":\"d\",\"commitUser\":\"u\",\"commitIdentifier\":1,\"commitKind\":\"APPEND\",\"timeMillis\":1}\n\t "))
		require.NoError(t, err)
		require.Equal(t, int64(1), s.ID)
	})
	t.Run("null version is legacy", func(t *testing.T) {
		s, err := snapshot.Decode([]byte(`{"version":null,"id":1,"schemaId":0,"baseManifestList":"b","deltaManifestList":"d","commitUser":"u","commitIdentifier":1,"commitKind":"APPEND","timeMillis":1}`))
		require.NoError(t, err)
		require.Equal(t, snapshot.VersionLegacy, s.Version)
	})
}

func TestPaimon20Members(t *testing.T) {
	in := `{"version":3,"uuid":"u-1","id":1,"schemaId":0,"baseManifestList":"b",
	"deltaManifestList":"d","commitUser":"u","commitIdentifier":1,"commitKind":"APPEND",
	"timeMillis":1,"totalRecordCount":1,"deltaRecordCount":1,"nextRowId":3,"operation":"MERGE"}`
	s, err := snapshot.Decode([]byte(in))
	require.NoError(t, err)
	require.Equal(t, "u-1", *s.UUID)
	require.Equal(t, snapshot.OperationMerge, *s.Operation)
	enc := string(s.Encode())
	require.True(t, strings.HasPrefix(enc, "{\n  \"version\" : 3,\n  \"uuid\" : \"u-1\",\n  \"id\" : 1,"), enc)
	require.True(t, strings.HasSuffix(enc, "\"nextRowId\" : 3,\n  \"operation\" : \"MERGE\"\n}"), enc)

	t.Run("unknown operation kept", func(t *testing.T) {
		s, err := snapshot.Decode([]byte(`{"version":3,"id":1,"schemaId":0,"baseManifestList":"b","deltaManifestList":"d","commitUser":"u","commitIdentifier":1,"commitKind":"APPEND","timeMillis":1,"totalRecordCount":1,"deltaRecordCount":1,"operation":"COPY_INTO"}`))
		require.NoError(t, err)
		require.Equal(t, snapshot.Operation("COPY_INTO"), *s.Operation)
	})
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want error
	}{
		{"empty", ``, snapshot.ErrCorrupt},
		{"not json", `hello`, snapshot.ErrCorrupt},
		{"truncated", `{"version":3,"id":1`, snapshot.ErrCorrupt},
		{"null document", `null`, snapshot.ErrCorrupt},
		{"array document", `[1]`, snapshot.ErrCorrupt},
		{"trailing data", `{"id":1} {"id":2}`, snapshot.ErrCorrupt},
		{"trailing garbage", `{"id":1} x`, snapshot.ErrCorrupt},
		{"trailing comma", `{"id":1,}`, snapshot.ErrCorrupt},
		{"duplicate-free garbage inside", `{"id":1 "x":2}`, snapshot.ErrCorrupt},
		{"id not a number", `{"id":"x"}`, snapshot.ErrCorrupt},
		{"id fraction", `{"id":1.5}`, snapshot.ErrCorrupt},
		{"id overflow", `{"id":9223372036854775808}`, snapshot.ErrCorrupt},
		{"version overflow", `{"version":2147483648}`, snapshot.ErrCorrupt},
		{"negative version", `{"version":-1}`, snapshot.ErrCorrupt},
		{"commit kind unknown", `{"commitKind":"MERGE"}`, snapshot.ErrCorrupt},
		{"commit kind number", `{"commitKind":1}`, snapshot.ErrCorrupt},
		{"properties array", `{"properties":[]}`, snapshot.ErrCorrupt},
		{"properties value object", `{"properties":{"a":{}}}`, snapshot.ErrCorrupt},
		{"string member number", `{"commitUser":5}`, snapshot.ErrCorrupt},
		{"future version", `{"version":4,"id":1}`, snapshot.ErrUnsupportedVersion},
		{"far future version", `{"version":100}`, snapshot.ErrUnsupportedVersion},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := snapshot.Decode([]byte(tt.in))
			require.ErrorIs(t, err, tt.want)
		})
	}
}

func TestStringEscaping(t *testing.T) {
	s := snapshot.Snapshot{
		Version:    3,
		CommitUser: "q\"b\\s/\b\t\n\f\r\x01\x1f\x7f é 中 \U0001F600",
		CommitKind: snapshot.CommitAppend,
		Properties: map[string]string{"k\"": "\u2028"},
	}
	enc := string(s.Encode())
	require.Contains(t, enc, `"commitUser" : "q\"b\\s/\b\t\n\f\r\u0001\u001F`+"\x7f é 中 \U0001F600\"")
	require.Contains(t, enc, "\"k\\\"\" : \"\u2028\"")
	got, err := snapshot.Decode([]byte(enc))
	require.NoError(t, err)
	require.Equal(t, s, *got)

	t.Run("invalid UTF-8 becomes U+FFFD", func(t *testing.T) {
		s := snapshot.Snapshot{CommitUser: "a\xffb"}
		require.Contains(t, string(s.Encode()), "\"a\uFFFDb\"")
	})
}

func TestCommitKind(t *testing.T) {
	for _, k := range []snapshot.CommitKind{snapshot.CommitAppend, snapshot.CommitCompact, snapshot.CommitOverwrite, snapshot.CommitAnalyze} {
		require.True(t, k.Valid(), k)
	}
	require.False(t, snapshot.CommitKind("append").Valid())
	require.False(t, snapshot.CommitKind("").Valid())
	require.Equal(t, int64(math.MaxInt64), snapshot.BatchCommitIdentifier)
}
