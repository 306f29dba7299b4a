package datafile_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/memfs"
	"github.com/paimon-go/paimon-go/internal/datafile"
	"github.com/paimon-go/paimon-go/internal/memcheck"
)

// fakeMember holds held bytes until released; releases are logged.
type fakeMember struct {
	name   string
	held   int64
	keep   int64 // what a Release leaves behind
	fail   error
	logged *[]string
}

func (m *fakeMember) HeldBytes() int64 { return m.held }

func (m *fakeMember) Release(context.Context) error {
	*m.logged = append(*m.logged, m.name)
	if m.fail != nil {
		return m.fail
	}
	m.held = m.keep
	return nil
}

func TestBudgetReleasesLeastRecentlyUsed(t *testing.T) {
	ctx := context.Background()
	var log []string
	b := datafile.NewBudget(100)
	mk := func(name string, held int64) *fakeMember {
		return &fakeMember{name: name, held: held, logged: &log}
	}
	a, c, d := mk("a", 40), mk("c", 40), mk("d", 10)
	b.Update(a)
	b.Update(c)
	b.Update(d)
	require.NoError(t, b.Enforce(ctx))
	require.Empty(t, log, "90 bytes fit in 100")
	a.held = 50 // a wrote again: now the most recently used
	b.Update(a)
	c.held = 45
	b.Update(c) // order: d, a, c; total 105
	require.NoError(t, b.Enforce(ctx))
	require.Equal(t, []string{"d"}, log, "the least recently used member goes first, and only until it fits")
	require.Equal(t, int64(95), b.Held())

	// A member that gives back nothing is asked once per Enforce.
	log = nil
	e := mk("e", 30)
	e.keep = 30
	b.Update(e) // order: a, c, e; total 125
	a.keep = 50
	c.keep = 45
	require.NoError(t, b.Enforce(ctx))
	require.Equal(t, []string{"a", "c", "e"}, log)
	require.Equal(t, int64(125), b.Held(), "over the limit, but every member was asked")

	// Forget and members holding nothing leave the accounting.
	b.Forget(a)
	b.Forget(a)
	c.held = 0
	b.Update(c)
	require.Equal(t, int64(30), b.Held())

	// A failing Release is reported and the member forgotten.
	log = nil
	boom := errors.New("boom")
	f := mk("f", 200)
	f.fail = boom
	b.Update(f)
	require.ErrorIs(t, b.Enforce(ctx), boom)
	require.Equal(t, []string{"e", "f"}, log)
	require.Equal(t, int64(30), b.Held(), "e keeps its 30 bytes, f is gone")

	require.Equal(t, datafile.DefaultMemoryBudget, datafile.NewBudget(0).Limit())
}

// TestBudgetRollsOpenFiles writes one row to each of 300 writers sharing a
// small budget: files are finished early instead of staying open, no row
// is lost, and the open files never hold more than the budget.
func TestBudgetRollsOpenFiles(t *testing.T) {
	ctx := context.Background()
	ts := tableSchema(t, nil, col("id", schema.BigIntType()), col("name", schema.StringType()), col("v", schema.DoubleType()))
	fsys := memfs.New(nil)
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	const limit = 1 << 20
	budget := datafile.NewBudget(limit)
	const writers = 300
	ws := make([]*datafile.Writer, writers)
	for i := range ws {
		w, err := datafile.NewWriter(datafile.Options{FS: fsys, Dir: fmt.Sprintf("t/p=%d/bucket-0", i), Schema: ts, Allocator: mem, Budget: budget})
		require.NoError(t, err)
		ws[i] = w
	}
	maxHeld := int64(0)
	for round := range 3 {
		for i, w := range ws {
			rec := record(t, nil, ts.Fields, [][]any{{int64(round*writers + i), fmt.Sprintf("row %d/%d", round, i), float64(i)}})
			require.NoError(t, w.Write(ctx, rec))
			maxHeld = max(maxHeld, budget.Held())
		}
	}
	require.LessOrEqual(t, maxHeld, int64(limit))
	files, rows := 0, 0
	for i, w := range ws {
		metas, err := w.Close(ctx)
		require.NoError(t, err)
		require.Len(t, metas, 3, "writer %d: each row was finished in a file of its own", i)
		for _, m := range metas {
			got := readRows(t, fsys, fmt.Sprintf("t/p=%d/bucket-0/%s", i, m.FileName), ts.Fields)
			require.Len(t, got, int(m.RowCount))
			rows += len(got)
			files++
		}
		for k, m := range metas {
			require.Equal(t, int64(k), m.MinSequenceNumber, "sequence numbers go on across early rolls")
		}
	}
	require.Equal(t, 3*writers, rows)
	require.Equal(t, int64(0), budget.Held())
	t.Logf("%d files for %d rows over %d writers", files, rows, writers)
}

// TestBudgetCutsRowGroups writes 200,000 rows into one writer whose budget
// is smaller than the data: the file is not rolled, its row groups are cut
// at half of the writer's share instead, and the rows read back
// in order. (The encoder estimates are scaled down so that a small input
// shows it.)
func TestBudgetCutsRowGroups(t *testing.T) {
	defer datafile.SetParquetEstimates(64<<10, 64<<10)()
	ctx := context.Background()
	ts := tableSchema(t, nil, col("id", schema.BigIntType()), col("name", schema.StringType()))
	fsys := memfs.New(nil)
	const limit = 2 << 20
	budget := datafile.NewBudget(limit)
	w, err := datafile.NewWriter(datafile.Options{FS: fsys, Dir: "t/bucket-0", Schema: ts, Budget: budget})
	require.NoError(t, err)
	const batches = 200
	for k := range batches {
		rows := make([][]any, 1000)
		for i := range rows {
			n := int64(k*1000 + i)
			rows[i] = []any{n, fmt.Sprintf("name %d %x", n, n*2654435761)}
		}
		require.NoError(t, w.Write(ctx, record(t, nil, ts.Fields, rows)))
	}
	metas, err := w.Close(ctx)
	require.NoError(t, err)
	require.Len(t, metas, 1, "the file was not rolled")
	path := "t/bucket-0/" + metas[0].FileName
	got := readRows(t, fsys, path, ts.Fields)
	require.Len(t, got, batches*1000)
	for i, r := range got {
		if r[0] != int64(i) {
			require.Equal(t, int64(i), r[0], "row %d", i)
		}
	}
	raw, err := fs.ReadFile(ctx, fsys, path)
	require.NoError(t, err)
	r, err := parquet.Open(ctx, bytes.NewReader(raw), int64(len(raw)), nil)
	require.NoError(t, err)
	require.Greater(t, r.NumRowGroups(), 1)
	t.Logf("%d bytes in %d row groups", len(raw), r.NumRowGroups())
}
