package paimon_test

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/internal/testtable"
	"github.com/paimon-go/paimon-go/paimon"
)

// Helpers of the reliability tests (issue 7): they return errors instead of
// failing the test, because they also run on file systems that fail on
// purpose.

// relCreate creates an append table of writeFields at dir.
func relCreate(t *testing.T, fsys fs.FS, dir string, partitioned bool, opts map[string]string) {
	t.Helper()
	ts := &schema.TableSchema{Version: 3, Fields: writeFields, HighestFieldID: 3, Options: map[string]string{}}
	if partitioned {
		ts.PartitionKeys = []string{"dt"}
	}
	for k, v := range opts {
		ts.Options[k] = v
	}
	_, err := testtable.Create(context.Background(), fsys, dir, ts)
	require.NoError(t, err)
}

// relCreatePK creates the unpartitioned primary-key table id -> (dt, name,
// score).
func relCreatePK(t *testing.T, fsys fs.FS, dir string, opts map[string]string) {
	t.Helper()
	b := schema.NewSchemaBuilder()
	for _, f := range writeFields {
		b.Column(f.Name, f.Type)
	}
	b.PrimaryKey("id")
	for k, v := range opts {
		b.Option(k, v)
	}
	s, err := b.Build()
	require.NoError(t, err)
	_, err = paimon.CreateTable(context.Background(), fsys, dir, s)
	require.NoError(t, err)
}

// relWrite opens the table, writes rows and commits them with the user and
// identifier, as one process would.
func relWrite(ctx context.Context, fsys fs.FS, dir, user string, identifier int64, rows [][]any) (*paimon.CommitResult, error) {
	return relWriteWith(ctx, fsys, dir, user, rows, func(c *paimon.TableCommit, msgs []paimon.CommitMessage) (*paimon.CommitResult, error) {
		return c.Commit(ctx, identifier, msgs)
	})
}

// relWriteWith writes rows in batches of 40 and hands the messages to
// commit.
func relWriteWith(ctx context.Context, fsys fs.FS, dir, user string, rows [][]any,
	commit func(*paimon.TableCommit, []paimon.CommitMessage) (*paimon.CommitResult, error)) (*paimon.CommitResult, error) {
	tbl, err := paimon.OpenTable(ctx, fsys, dir, nil)
	if err != nil {
		return nil, err
	}
	w, err := tbl.NewWriter(nil)
	if err != nil {
		return nil, err
	}
	defer w.Close(ctx)
	for i := 0; i < len(rows); i += 40 {
		rec, err := testtable.BuildRecord(memcheck.New(), writeFields, rows[i:min(i+40, len(rows))])
		if err != nil {
			return nil, err
		}
		err = w.Write(ctx, rec)
		rec.Release()
		if err != nil {
			return nil, err
		}
	}
	msgs, err := w.PrepareCommit(ctx)
	if err != nil {
		return nil, err
	}
	c, err := tbl.NewCommit(&paimon.CommitOptions{User: user, MinRetryWait: time.Millisecond, MaxRetryWait: time.Millisecond})
	if err != nil {
		return nil, err
	}
	return commit(c, msgs)
}

// relWritePK is one process's write into a primary-key table of
// writeFields: it upserts rows and deletes the keys dels (key-only batches)
// in batches of 40, then commits with the user and identifier.
func relWritePK(ctx context.Context, fsys fs.FS, dir, user string, identifier int64, upserts [][]any, dels []int64) (*paimon.CommitResult, error) {
	tbl, err := paimon.OpenTable(ctx, fsys, dir, nil)
	if err != nil {
		return nil, err
	}
	w, err := tbl.NewWriter(&paimon.WriterOptions{CommitUser: user})
	if err != nil {
		return nil, err
	}
	defer w.Close(ctx)
	for i := 0; i < len(upserts); i += 40 {
		rec, err := testtable.BuildRecord(memcheck.New(), writeFields, upserts[i:min(i+40, len(upserts))])
		if err != nil {
			return nil, err
		}
		err = w.Upsert(ctx, rec)
		rec.Release()
		if err != nil {
			return nil, err
		}
	}
	keyOnly := writeFields[1:2]
	for i := 0; i < len(dels); i += 40 {
		var rows [][]any
		for _, k := range dels[i:min(i+40, len(dels))] {
			rows = append(rows, []any{k})
		}
		rec, err := testtable.BuildRecord(memcheck.New(), keyOnly, rows)
		if err != nil {
			return nil, err
		}
		err = w.Delete(ctx, rec)
		rec.Release()
		if err != nil {
			return nil, err
		}
	}
	msgs, err := w.PrepareCommit(ctx)
	if err != nil {
		return nil, err
	}
	c, err := tbl.NewCommit(&paimon.CommitOptions{User: user, MinRetryWait: time.Millisecond, MaxRetryWait: time.Millisecond})
	if err != nil {
		return nil, err
	}
	return c.Commit(ctx, identifier, msgs)
}

// relRows reads the latest snapshot (or the one opts select) as sorted
// canonical rows. It never fails the test: read errors are returned.
func relRows(ctx context.Context, fsys fs.FS, dir string, opts ...paimon.ScanOption) (rows []string, err error) {
	tbl, err := paimon.OpenTable(ctx, fsys, dir, nil)
	if err != nil {
		return nil, err
	}
	fields := tbl.Schema().Fields
	for rec, err := range tbl.NewScan(opts...).Records(ctx) {
		if err != nil {
			return nil, err
		}
		for r := 0; r < int(rec.NumRows()); r++ {
			vals := make([]any, len(fields))
			for c := range fields {
				v, err := parquet.ArrowValue(rec.Column(c), r, fields[c].Type)
				if err != nil {
					rec.Release()
					return nil, err
				}
				vals[c] = v
			}
			b, err := canon.EncodeRow(fields, vals)
			if err != nil {
				rec.Release()
				return nil, err
			}
			rows = append(rows, string(b))
		}
		rec.Release()
	}
	sort.Strings(rows)
	return rows, nil
}

// relRender renders rows of writeFields like relRows.
func relRender(t *testing.T, rows ...[][]any) []string {
	t.Helper()
	var all [][]any
	for _, r := range rows {
		all = append(all, r...)
	}
	if len(all) == 0 {
		return nil
	}
	return render(t, all)
}

// relCopy copies every file below dir of src into dst (same names).
func relCopy(t *testing.T, src fs.FS, dir string, dst fs.FS) {
	t.Helper()
	ctx := context.Background()
	for p := range expListFiles(t, src, dir) {
		b, err := fs.ReadFile(ctx, src, p)
		require.NoError(t, err)
		require.NoError(t, fs.WriteFile(ctx, dst, p, b, nil))
	}
}

// relIsMetadata reports files RemoveOrphanFiles keeps by design although no
// snapshot names them: schemas, hints, tags and branch metadata, consumers,
// commit-progress records.
func relIsMetadata(dir, p string) bool {
	rel := strings.TrimPrefix(p, dir+"/")
	for strings.HasPrefix(rel, "branch/branch-") {
		_, rel, _ = strings.Cut(strings.TrimPrefix(rel, "branch/"), "/")
	}
	switch {
	case strings.HasPrefix(rel, "schema/schema-"), strings.HasPrefix(rel, "tag/tag-"),
		strings.HasPrefix(rel, "consumer/"), strings.HasPrefix(rel, "commit-progress/user-"),
		rel == "snapshot/LATEST", rel == "snapshot/EARLIEST",
		strings.HasPrefix(rel, "snapshot/snapshot-"):
		return true
	}
	return false
}

// relCheckClean verifies that every file below dir is referenced by a
// snapshot or tag, or is metadata, and that every referenced file exists
// (the walker fails the test on a missing one).
func relCheckClean(t *testing.T, fsys fs.FS, dir string) {
	t.Helper()
	files := expListFiles(t, fsys, dir)
	refs := newRefWalker(t, fsys, dir, files).refs()
	var stray []string
	for p := range files {
		if !refs[p] && !relIsMetadata(dir, p) {
			stray = append(stray, p)
		}
	}
	sort.Strings(stray)
	require.Empty(t, stray, "unreferenced files left after orphan cleaning")
}

// relClean removes every orphan, however young (a crashed process has no
// file in flight).
func relClean(ctx context.Context, fsys fs.FS, dir string) (*paimon.OrphanResult, error) {
	tbl, err := paimon.OpenTable(ctx, fsys, dir, nil)
	if err != nil {
		return nil, err
	}
	return tbl.RemoveOrphanFiles(ctx, &paimon.OrphanOptions{Now: func() time.Time { return time.Now().Add(48 * time.Hour) }})
}

// relTyped reports errors a reader may return for damaged tables: a typed
// corruption, a missing file, or a missing snapshot or schema.
func relTyped(err error) bool {
	return errors.Is(err, paimon.ErrCorrupt) || errors.Is(err, fs.ErrInvalidName) ||
		errors.Is(err, paimon.ErrSnapshotNotFound) || errors.Is(err, paimon.ErrSchemaNotFound) ||
		errors.Is(err, iofs.ErrNotExist) ||
		// A damaged option value in a schema file.
		errors.Is(err, paimon.ErrInvalidOption)
}

// relFigures prints a line of figures RELIABILITY.md quotes.
func relFigures(t *testing.T, format string, args ...any) {
	t.Helper()
	t.Logf("FIGURES %s: %s", t.Name(), fmt.Sprintf(format, args...))
}

func sortStrings(s []string) { sort.Strings(s) }

func errorsIs(err, target error) bool { return errors.Is(err, target) }
