package snapshot_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/snapshot"
)

// TestTagJavaBytes replays Java's TagTest (release-1.4.2) byte for byte.
func TestTagJavaBytes(t *testing.T) {
	base := snapshot.Snapshot{Version: 3, CommitKind: snapshot.CommitAppend, TimeMillis: 1000}

	t.Run("testFromJson: tag without retention is the snapshot JSON", func(t *testing.T) {
		want := readFile(t, "java/tagtest-snapshot.json")
		tag, err := snapshot.DecodeTag(want)
		require.NoError(t, err)
		require.Nil(t, tag.CreateTime)
		require.Nil(t, tag.TimeRetained)
		require.Equal(t, string(want), string(tag.Encode()))
	})

	t.Run("testFromSnapshotAndTagTtl", func(t *testing.T) {
		want := readFile(t, "java/tagtest-tag-ttl.json")
		created := time.Date(1969, 1, 1, 0, 0, 0, 123456789, time.UTC)
		retained := 5 * time.Second
		tag := snapshot.Tag{Snapshot: base, CreateTime: &created, TimeRetained: &retained}
		require.Equal(t, string(want), string(tag.Encode()))

		got, err := snapshot.DecodeTag(want)
		require.NoError(t, err)
		require.Equal(t, tag, *got)
		require.Equal(t, string(want), string(got.Encode()))

		// trimToSnapshot: the embedded snapshot encodes without the tag members.
		require.Equal(t, string(readFile(t, "java/tagtest-snapshot.json")), string(got.Snapshot.Encode()))
	})

	t.Run("Decode reads a tag file as a snapshot", func(t *testing.T) {
		s, err := snapshot.Decode(readFile(t, "java/tagtest-tag-ttl.json"))
		require.NoError(t, err)
		require.Equal(t, base, *s)
	})
}

func TestTagCreateTimeArray(t *testing.T) {
	tests := []struct {
		name string
		t    time.Time
		want string
	}{
		{"whole minute: five fields", time.Date(2024, 6, 25, 10, 30, 0, 0, time.UTC), "[ 2024, 6, 25, 10, 30 ]"},
		{"midnight", time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), "[ 2024, 1, 1, 0, 0 ]"},
		{"whole second: six fields", time.Date(2024, 6, 25, 10, 30, 45, 0, time.UTC), "[ 2024, 6, 25, 10, 30, 45 ]"},
		{"nanos with zero second", time.Date(2024, 6, 25, 10, 30, 0, 5, time.UTC), "[ 2024, 6, 25, 10, 30, 0, 5 ]"},
		{"all fields", time.Date(2024, 12, 31, 23, 59, 59, 999999999, time.UTC), "[ 2024, 12, 31, 23, 59, 59, 999999999 ]"},
		{"millis as nanos", time.Date(2024, 6, 25, 10, 30, 45, 123000000, time.UTC), "[ 2024, 6, 25, 10, 30, 45, 123000000 ]"},
		{"wall clock of the value's location", time.Date(2024, 6, 25, 10, 30, 0, 0, time.FixedZone("X", 8*3600)), "[ 2024, 6, 25, 10, 30 ]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tag := snapshot.Tag{Snapshot: snapshot.Snapshot{Version: 3}, CreateTime: &tt.t}
			enc := string(tag.Encode())
			require.Contains(t, enc, "\"tagCreateTime\" : "+tt.want+"\n}")

			got, err := snapshot.DecodeTag([]byte(enc))
			require.NoError(t, err)
			y, mo, d := tt.t.Date()
			want := time.Date(y, mo, d, tt.t.Hour(), tt.t.Minute(), tt.t.Second(), tt.t.Nanosecond(), time.UTC)
			require.Equal(t, want, *got.CreateTime)
		})
	}
}

func TestTagTimeRetained(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{0, "0.0"},
		{5 * time.Second, "5.000000000"},
		{24 * time.Hour, "86400.000000000"},
		{1500 * time.Millisecond, "1.500000000"},
		{time.Second + time.Nanosecond, "1.000000001"},
		{time.Microsecond, "0.000001000"},
		{500 * time.Microsecond, "0.000500000"},
		{time.Nanosecond, "1E-9"},
		{100 * time.Nanosecond, "1.00E-7"},
		{999 * time.Nanosecond, "9.99E-7"},
		{12 * time.Nanosecond, "1.2E-8"},
		{-1500 * time.Millisecond, "-1.500000000"},
		{-5 * time.Second, "-5.000000000"},
		{-time.Nanosecond, "-1E-9"},
		{time.Duration(1<<63 - 1), "9223372036.854775807"},
		{time.Duration(-1 << 63), "-9223372036.854775808"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			tag := snapshot.Tag{Snapshot: snapshot.Snapshot{Version: 3}, TimeRetained: &tt.d}
			enc := string(tag.Encode())
			require.Contains(t, enc, "\"tagTimeRetained\" : "+tt.want+"\n}")
			got, err := snapshot.DecodeTag([]byte(enc))
			require.NoError(t, err)
			require.Equal(t, tt.d, *got.TimeRetained)
		})
	}
}

func TestDecodeTagMembers(t *testing.T) {
	tests := []struct {
		name     string
		create   string
		retained string
		wantC    *time.Time
		wantR    *time.Duration
	}{
		{"nulls", `null`, `null`, nil, nil},
		{"empty array is null", `[]`, `5`, nil, ptr(5 * time.Second)},
		{"integer seconds", `[2024,1,2,3,4]`, `86400`, ptr(time.Date(2024, 1, 2, 3, 4, 0, 0, time.UTC)), ptr(24 * time.Hour)},
		{"python float", `[2024,1,2,3,4,5]`, `5.0`, ptr(time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)), ptr(5 * time.Second)},
		{"python small float", `[2024,1,2]`, `0.0005`, ptr(time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC)), ptr(500 * time.Microsecond)},
		{"exponent", `[2024,1,2,3]`, `1e-05`, ptr(time.Date(2024, 1, 2, 3, 0, 0, 0, time.UTC)), ptr(10 * time.Microsecond)},
		{"big exponent", `[-5,1,1,0,0]`, `1.5E+3`, ptr(time.Date(-5, 1, 1, 0, 0, 0, 0, time.UTC)), ptr(1500 * time.Second)},
		{"sub-nanosecond truncated", `"2024-02-29T10:20"`, `1.0000000019`, ptr(time.Date(2024, 2, 29, 10, 20, 0, 0, time.UTC)), ptr(time.Second + time.Nanosecond)},
		{"negative truncated toward zero", `"2024-02-29T10:20:30.5"`, `-0.0000000019`, ptr(time.Date(2024, 2, 29, 10, 20, 30, 500000000, time.UTC)), ptr(-time.Nanosecond)},
		{"tiny is zero", `null`, `1e-999999999999`, nil, ptr(time.Duration(0))},
		{"negative zero", `null`, `-0.0`, nil, ptr(time.Duration(0))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := `{"version":3,"id":1,"schemaId":0,"baseManifestList":"b","deltaManifestList":"d","commitUser":"u","commitIdentifier":1,"commitKind":"APPEND","timeMillis":1,"totalRecordCount":1,"deltaRecordCount":1,"tagCreateTime":` + tt.create + `,"tagTimeRetained":` + tt.retained + `}`
			tag, err := snapshot.DecodeTag([]byte(in))
			require.NoError(t, err)
			require.Equal(t, tt.wantC, tag.CreateTime)
			require.Equal(t, tt.wantR, tag.TimeRetained)
		})
	}
}

func TestDecodeTagErrors(t *testing.T) {
	tests := []struct{ name, member string }{
		{"february 30", `"tagCreateTime":[2023,2,30,0,0]`},
		{"february 29 non leap", `"tagCreateTime":[2023,2,29,0,0]`},
		{"month 13", `"tagCreateTime":[2023,13,1,0,0]`},
		{"day 0", `"tagCreateTime":[2023,1,0,0,0]`},
		{"hour 24", `"tagCreateTime":[2023,1,1,24,0]`},
		{"minute 60", `"tagCreateTime":[2023,1,1,0,60]`},
		{"second 60", `"tagCreateTime":[2023,1,1,0,0,60]`},
		{"nanos 1e9", `"tagCreateTime":[2023,1,1,0,0,0,1000000000]`},
		{"negative nanos", `"tagCreateTime":[2023,1,1,0,0,0,-1]`},
		{"year too large", `"tagCreateTime":[1000000000,1,1,0,0]`},
		{"too many fields", `"tagCreateTime":[2023,1,1,0,0,0,0,0]`},
		{"too few fields", `"tagCreateTime":[2023,1]`},
		{"string element", `"tagCreateTime":["2023",1,1,0,0]`},
		{"float element", `"tagCreateTime":[2023.5,1,1,0,0]`},
		{"null element", `"tagCreateTime":[2023,null,1,0,0]`},
		{"object", `"tagCreateTime":{}`},
		{"bad string", `"tagCreateTime":"yesterday"`},
		{"retained string", `"tagTimeRetained":"PT5S"`},
		{"retained overflow", `"tagTimeRetained":9223372037`},
		{"retained huge exponent", `"tagTimeRetained":1e999999999999`},
		{"retained array", `"tagTimeRetained":[5]`},
		{"retained bool", `"tagTimeRetained":true`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := snapshot.DecodeTag([]byte(`{"version":3,` + tt.member + `}`))
			require.ErrorIs(t, err, snapshot.ErrCorrupt)
		})
	}
	t.Run("future version", func(t *testing.T) {
		_, err := snapshot.DecodeTag([]byte(`{"version":4}`))
		require.ErrorIs(t, err, snapshot.ErrUnsupportedVersion)
	})
	t.Run("not an object", func(t *testing.T) {
		_, err := snapshot.DecodeTag([]byte(`"tag"`))
		require.ErrorIs(t, err, snapshot.ErrCorrupt)
	})
}

func TestTagFullRoundTrip(t *testing.T) {
	created := time.Date(2025, 3, 4, 5, 6, 7, 8, time.UTC)
	retained := 36 * time.Hour
	tag := snapshot.Tag{Snapshot: fullSnapshot(), CreateTime: &created, TimeRetained: &retained}
	enc := string(tag.Encode())
	// Tag members follow the 2.0 snapshot members, as in Tag's @JsonCreator.
	require.True(t, strings.HasSuffix(enc, `  "operation" : "OVERWRITE",
  "tagCreateTime" : [ 2025, 3, 4, 5, 6, 7, 8 ],
  "tagTimeRetained" : 129600.000000000
}`), enc)
	got, err := snapshot.DecodeTag([]byte(enc))
	require.NoError(t, err)
	require.Equal(t, tag, *got)
}
