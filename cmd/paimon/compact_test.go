package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const compactSchema = `{
 "fields": [{"name": "id", "type": "INT NOT NULL"}, {"name": "s", "type": "STRING"}, {"name": "dt", "type": "STRING"}],
 "partitionKeys": ["dt"]
}`

// loadSmall loads n small CSV files, one commit each.
func loadSmall(t *testing.T, wh string, n int) {
	t.Helper()
	for i := range n {
		csv := fmt.Sprintf("id,s,dt\n%d,a%d,d1\n%d,b%d,d2\n", 2*i, i, 2*i+1, i)
		runOK(t, "load", "--warehouse", wh, "db.t", writeTemp(t, fmt.Sprintf("f%d.csv", i), csv))
	}
}

func TestCompactCommand(t *testing.T) {
	wh := newTable(t, compactSchema)
	loadSmall(t, wh, 6)
	want := scanLines(t, wh, "db.t")

	// Only partition d1.
	out := runOK(t, "compact", "--warehouse", wh, "db.t", "--where", "dt = 'd1'")
	require.Regexp(t, `^Compacted db.t in snapshot 7: rewrote 6 files \(.+\) into 1 \(.+\), 6 rows, in .+\.\n`+
		`Data files of the partitions matching --where: 6 \(.+\) before, 1 \(.+\) after.\n$`, out)
	require.Equal(t, want, scanLines(t, wh, "db.t"))

	var res compactJSON
	require.NoError(t, json.Unmarshal([]byte(runOK(t, "compact", "--warehouse", wh, "db.t", "--output", "json")), &res))
	require.Equal(t, int64(8), *res.Snapshot)
	require.Equal(t, 6, res.FilesRewritten)
	require.Equal(t, 2, res.FilesAfter)
	require.Equal(t, want, scanLines(t, wh, "db.t"))

	out = runOK(t, "compact", "--warehouse", wh, "db.t", "--full")
	require.Regexp(t, `^Nothing to compact in db.t. Data files: 2 \(.+\).\n$`, out)
	snaps := runOK(t, "snapshots", "--warehouse", wh, "db.t", "--output", "jsonl")
	require.Equal(t, 2, strings.Count(snaps, `"COMPACT"`))
}

func TestCompactCommandPrimaryKey(t *testing.T) {
	// Upserts into a primary-key table, one level-0 run per load; a full
	// compaction merges them into one run at the highest level.
	wh := newTable(t, `{"fields": [{"name": "id", "type": "INT NOT NULL"}, {"name": "s", "type": "STRING"}, {"name": "dt", "type": "STRING NOT NULL"}],
 "partitionKeys": ["dt"], "primaryKeys": ["dt", "id"], "options": {"bucket": "1"}}`)
	for i := range 4 {
		csv := fmt.Sprintf("id,s,dt\n%d,a%d,d1\n1,b%d,d1\n%d,c%d,d2\n", i, i, i, i, i)
		runOK(t, "load", "--warehouse", wh, "db.t", writeTemp(t, fmt.Sprintf("f%d.csv", i), csv))
	}
	want := scanLines(t, wh, "db.t")
	require.Len(t, want, 8)
	out := runOK(t, "compact", "--warehouse", wh, "db.t", "--full")
	require.Regexp(t, `^Compacted db.t in snapshot 5: rewrote 8 files \(.+\) into 2 \(.+\), 8 rows, in .+\.\n`, out)
	require.Equal(t, want, scanLines(t, wh, "db.t"))
	out = runOK(t, "compact", "--warehouse", wh, "db.t", "--full")
	require.Regexp(t, `^Nothing to compact in db.t. Data files: 2 \(.+\).\n$`, out)
}

func TestCompactCommandErrors(t *testing.T) {
	wh := newTable(t, compactSchema)
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"--where", "id = 1"}, 1, "partition columns only"},
		{[]string{"--where", "dt = "}, 2, "--where"},
		{[]string{"--workers", "0"}, 2, "--workers"},
		{[]string{"--output", "csv"}, 2, "--output"},
	} {
		r := runCmd(t, append([]string{"compact", "--warehouse", wh, "db.t"}, tc.args...)...)
		require.Equal(t, tc.code, r.code, "%v: %s", tc.args, r.stderr)
		require.Contains(t, r.stderr, tc.msg)
	}
	// A primary-key table whose changelog would come from compaction in a way not done here (changelog-producer
	// full-compaction with changelog-producer.row-deduplicate) is refused: compacting it without writing that changelog
	// would lose changes a streaming reader must see.
	pk := newTable(t, `{"fields": [{"name": "id", "type": "INT NOT NULL"}, {"name": "v", "type": "INT"}], "primaryKeys": ["id"], "options": {"bucket": "1", "changelog-producer": "full-compaction", "changelog-producer.row-deduplicate": "true"}}`)
	r := runCmd(t, "compact", "--warehouse", pk, "db.t")
	require.Equal(t, 1, r.code, r.stderr)
	require.Contains(t, r.stderr, "changelog-producer")
}
