package paimon

import (
	"math"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/snapshot"
)

func TestParseJavaDuration(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
		bad  bool
	}{
		{in: "1 h", want: time.Hour},
		{in: "1h", want: time.Hour},
		{in: "30 min", want: 30 * time.Minute},
		{in: "30m", want: 30 * time.Minute},
		{in: "2 days", want: 48 * time.Hour},
		{in: "1d", want: 24 * time.Hour},
		{in: " 10 S ", want: 10 * time.Second},
		{in: "5 secs", want: 5 * time.Second},
		{in: "500", want: 500 * time.Millisecond},
		{in: "7 ms", want: 7 * time.Millisecond},
		{in: "3µs", want: 3 * time.Microsecond},
		{in: "4 nanos", want: 4},
		{in: "", bad: true},
		{in: "h", bad: true},
		{in: "-1 h", bad: true},
		{in: "1 fortnight", bad: true},
		{in: "1.5 h", bad: true},
		{in: "999999999999 d", bad: true},
	} {
		got, err := ParseDuration(tc.in)
		if tc.bad {
			require.Error(t, err, tc.in)
			continue
		}
		require.NoError(t, err, tc.in)
		require.Equal(t, tc.want, got, tc.in)
	}
}

func TestResolveExpireConfig(t *testing.T) {
	now := time.UnixMilli(10 * 3_600_000)
	clock := func() time.Time { return now }
	for _, tc := range []struct {
		name    string
		table   map[string]string
		opts    ExpireOptions
		want    expireConfig
		wantErr bool
	}{
		{name: "java defaults", opts: ExpireOptions{Now: clock}, want: expireConfig{
			retainMin: 10, retainMax: math.MaxInt32, maxDeletes: 50, olderThanMillis: 9 * 3_600_000}},
		{name: "table options", table: map[string]string{
			"snapshot.num-retained.min": "3", "snapshot.num-retained.max": " 7 ", "snapshot.time-retained": "2 h",
			"snapshot.expire.limit": "5", "snapshot.expire.clean-empty-directories": "TRUE",
			"consumer.changelog-only": "true", "index-file-in-data-file-dir": "true"},
			opts: ExpireOptions{Now: clock},
			want: expireConfig{retainMin: 3, retainMax: 7, maxDeletes: 5, olderThanMillis: 8 * 3_600_000,
				cleanEmptyDirs: true, consumerChangelogOnly: true, indexInDataDir: true}},
		{name: "explicit options win", table: map[string]string{
			"snapshot.num-retained.min": "3", "snapshot.clean-empty-directories": "true"},
			opts: ExpireOptions{RetainMin: 1, RetainMax: 2, OlderThan: time.Minute, MaxDeletes: 9,
				CleanEmptyDirectories: new(bool), Now: clock},
			want: expireConfig{retainMin: 1, retainMax: 2, maxDeletes: 9, olderThanMillis: now.UnixMilli() - 60_000}},
		{name: "no time protection", opts: ExpireOptions{OlderThan: -1, CommitGrace: -1},
			want: expireConfig{retainMin: 10, retainMax: math.MaxInt32, maxDeletes: 50, olderThanMillis: math.MaxInt64,
				graceCutoffMillis: math.MaxInt64}},
		{name: "commit grace", opts: ExpireOptions{CommitGrace: 5 * time.Minute, Now: clock},
			want: expireConfig{retainMin: 10, retainMax: math.MaxInt32, maxDeletes: 50, olderThanMillis: 9 * 3_600_000,
				graceCutoffMillis: now.UnixMilli() - 300_000}},
		{name: "changelog longer than snapshots", table: map[string]string{"changelog.num-retained.min": "11"},
			opts: ExpireOptions{Now: clock}, want: expireConfig{retainMin: 10, retainMax: math.MaxInt32, maxDeletes: 50,
				olderThanMillis: 9 * 3_600_000, changelogDecoupled: true}},
		{name: "changelog equal to explicit snapshots", table: map[string]string{"changelog.num-retained.max": "5"},
			opts: ExpireOptions{RetainMin: 1, RetainMax: 5, Now: clock}, want: expireConfig{retainMin: 1, retainMax: 5,
				maxDeletes: 50, olderThanMillis: 9 * 3_600_000}},
		// Java accepts a limit of 0: nothing expires.
		{name: "limit 0 in table", table: map[string]string{"snapshot.expire.limit": "0"}, opts: ExpireOptions{Now: clock},
			want: expireConfig{retainMin: 10, retainMax: math.MaxInt32, olderThanMillis: 9 * 3_600_000}},
		{name: "int overflow", table: map[string]string{"snapshot.num-retained.max": "3000000000"}, wantErr: true},
		{name: "not an int", table: map[string]string{"snapshot.num-retained.min": "ten"}, wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := tc.opts
			got, err := resolveExpireConfig(tc.table, &opts)
			if tc.wantErr {
				require.ErrorIs(t, err, ErrInvalidExpireOptions)
				return
			}
			require.NoError(t, err)
			got.now = nil
			want := tc.want
			want.threads = runtime.GOMAXPROCS(0)
			if want.graceCutoffMillis == 0 {
				want.graceCutoffMillis = now.UnixMilli() - DefaultCommitGrace.Milliseconds()
			}
			require.Equal(t, want, *got)
		})
	}
}

func TestFindSkippingTags(t *testing.T) {
	tags := []*snapshot.Snapshot{{ID: 2}, {ID: 5}, {ID: 8}}
	ids := func(ss []*snapshot.Snapshot) []int64 {
		var out []int64
		for _, s := range ss {
			out = append(out, s.ID)
		}
		return out
	}
	for _, tc := range []struct {
		begin, end int64
		want       []int64
	}{
		{1, 2, nil},              // no tag before the end
		{1, 3, []int64{2}},       // no tag at or before begin: from the first
		{3, 6, []int64{2, 5}},    // the tag before begin protects what begin still holds
		{5, 8, []int64{5}},       // a tag at begin, none at the end
		{6, 20, []int64{5, 8}},   // right up to the last tag before the end
		{9, 10, []int64{8}},      // only the one before begin
		{2, 9, []int64{2, 5, 8}}, // all
	} {
		require.Equal(t, tc.want, ids(findSkippingTags(tags, tc.begin, tc.end)), "[%d, %d)", tc.begin, tc.end)
	}
}
