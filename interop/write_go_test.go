package interop_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/internal/testtable"
	"github.com/paimon-go/paimon-go/paimon"
)

// Our side of TestLiveWritesReadByJava: creating tables and committing rows
// with package paimon's writer and committer.

// wtCreate creates the table of spec in directory dir of fsys.
func wtCreate(ctx context.Context, t *testing.T, fsys fs.FS, dir string, spec *wtSpec) *paimon.Table {
	t.Helper()
	body := wtJSON(map[string]any{"fields": spec.fields, "partitionKeys": spec.partition, "primaryKeys": []string{},
		"options": spec.options, "comment": nil})
	s, err := schema.DecodeSchema([]byte(body))
	require.NoError(t, err, "schema of %s", spec.name)
	tbl, err := paimon.CreateTable(ctx, fsys, dir, s)
	require.NoError(t, err, "create %s", spec.name)
	return tbl
}

// wtSnap is what one of our commits is expected to have produced.
type wtSnap struct {
	id         int64
	kind       snapshot.CommitKind
	identifier int64
	total      int64              // rows in the table after the commit
	delta      int64              // rows added minus rows removed
	snap       *snapshot.Snapshot // the snapshot file, read back by baseline
}

// wtGoCommit commits rows (or drops partitions) with our writer and
// committer as commit c describes, and returns the snapshot it made. user
// is the commit user. rows are split into c.writes Write calls.
func wtGoCommit(ctx context.Context, t *testing.T, tbl *paimon.Table, user string, c wtCommit, rows []wtRow) int64 {
	t.Helper()
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	id := c.identifier
	if id == 0 {
		id = paimon.BatchCommitIdentifier
	}
	var msgs []paimon.CommitMessage
	if c.kind != "drop" {
		w, err := tbl.NewWriter(&paimon.WriterOptions{Allocator: mem})
		require.NoError(t, err)
		fields := tbl.Schema().Fields
		writes := max(c.writes, 1)
		for k := range writes {
			lo, hi := k*len(rows)/writes, (k+1)*len(rows)/writes
			vals := make([][]any, 0, hi-lo)
			for _, r := range rows[lo:hi] {
				vals = append(vals, r.writeVals())
			}
			rec, err := testtable.BuildRecord(mem, fields, vals)
			require.NoError(t, err)
			err = w.Write(ctx, rec)
			rec.Release()
			require.NoError(t, err, "write %d rows", hi-lo)
		}
		msgs, err = w.PrepareCommit(ctx)
		require.NoError(t, err)
		require.NoError(t, w.Close(ctx))
	}
	cm, err := tbl.NewCommit(&paimon.CommitOptions{User: user})
	require.NoError(t, err)
	var res *paimon.CommitResult
	switch c.kind {
	case "append":
		res, err = cm.Commit(ctx, id, msgs)
	case "overwrite":
		res, err = cm.Overwrite(ctx, id, c.partition, msgs)
	case "drop":
		res, err = cm.DropPartitions(ctx, id, c.drops)
	default:
		t.Fatalf("commit kind %q", c.kind)
	}
	require.NoError(t, err, "%s commit", c.kind)
	require.NotNil(t, res)
	require.NotNil(t, res.Snapshot, "%s commit made no snapshot", c.kind)
	return res.Snapshot.ID
}

// wtCheckTimestamp9Refused checks that our writer refuses TIMESTAMP(9)
// columns with ErrUnsupported in both formats (Java writes them as Parquet
// INT96, which pqarrow cannot write per column, and Java's Avro converter
// refuses them), which is why the all-types tables take the Avro plan's
// TIMESTAMP(6) columns. Once the writer learns them this fails, and the
// Parquet tables should take the Parquet plan's columns.
func wtCheckTimestamp9Refused(ctx context.Context, t *testing.T) {
	fsys, err := localfs.New(t.TempDir(), nil)
	require.NoError(t, err)
	for _, format := range []string{"parquet", "avro"} {
		spec := &wtSpec{name: "ts9_" + format, options: map[string]string{"bucket": "-1", "file.format": format},
			fields: []json.RawMessage{wtField(0, "t", "TIMESTAMP(9)")}}
		tbl := wtCreate(ctx, t, fsys, "r.db/"+spec.name, spec)
		w, err := tbl.NewWriter(nil)
		if err == nil {
			var rec arrow.RecordBatch
			rec, err = testtable.BuildRecord(nil, tbl.Schema().Fields, [][]any{{data.Timestamp{Millis: 1, NanoOfMilli: 7}}})
			require.NoError(t, err)
			err = w.Write(ctx, rec)
			rec.Release()
			require.NoError(t, w.Close(ctx))
		}
		require.ErrorIs(t, err, paimon.ErrUnsupported, "TIMESTAMP(9) in %s", format)
	}
}
