package interop_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/internal/interop"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/internal/testtable"
	"github.com/paimon-go/paimon-go/paimon"
)

// TestLiveVariantWritesReadByJava writes VARIANT columns with our Parquet
// writer (Java's unshredded layout: value id 0, metadata id 1) and checks
// that Java 1.4.2 and 2.0.0 read every value as they read the values they
// wrote themselves (issue 16). The values are the ones Java wrote into the
// golden variant and variant-shredded tables (objects, arrays, long and
// short strings, decimals, doubles, JSON null and SQL NULL), read by our
// reader and written again by our writer into new tables; Java's dump of
// each new table must equal the golden expected.jsonl, and so must ours.
func TestLiveVariantWritesReadByJava(t *testing.T) {
	runners := interop.RequireJava(t)
	ctx := context.Background()
	var sources []goldenCase
	for _, c := range goldenCases(t) {
		if c.sc.Producer == "java-1.4.2" && (c.sc.Name == "variant" || c.sc.Name == "variant-shredded") {
			sources = append(sources, c)
		}
	}
	require.Len(t, sources, 2)
	for _, rn := range runners {
		rn.Timeout = 5 * time.Minute
		t.Run(rn.Name(), func(t *testing.T) {
			wh := t.TempDir()
			out := t.TempDir()
			fsys, err := localfs.New(wh, nil)
			require.NoError(t, err)
			defer fsys.Close()
			var items []interop.BatchItem
			want := map[string][]string{}
			for _, c := range sources {
				src := openGoldenTable(t, c)
				name := "w_" + map[string]string{"variant": "plain", "variant-shredded": "shredded"}[c.sc.Name]
				ts := &schema.TableSchema{Version: 3, Fields: src.Schema().Fields, HighestFieldID: src.Schema().HighestFieldID,
					Options: map[string]string{"file.format": "parquet"}}
				_, err := testtable.Create(ctx, fsys, "vdb.db/"+name, ts)
				require.NoError(t, err)
				dst, err := paimon.OpenTable(ctx, fsys, "vdb.db/"+name, nil)
				require.NoError(t, err)
				copyRows(ctx, t, src, dst)
				want[name] = readCanon(t, filepath.Join(c.dir, "expected.jsonl"))
				got, _ := goScan(ctx, t, dst)
				require.Empty(t, canon.Compare(want[name], got), "our read of our %s", name)
				items = append(items, interop.BatchItem{Out: filepath.Join(out, name+".jsonl"), Args: interop.DumpArgs(wh, "vdb."+name, interop.DumpOptions{})})
			}
			require.NoError(t, rn.Batch(ctx, items))
			for name, w := range want {
				require.Empty(t, canon.Compare(w, readCanon(t, filepath.Join(out, name+".jsonl"))), "Java's read of our %s", name)
			}
		})
	}
}

// copyRows writes every row of src's latest snapshot into dst in one
// commit, batch by batch as our reader returns them.
func copyRows(ctx context.Context, t *testing.T, src, dst *paimon.Table) {
	t.Helper()
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	w, err := dst.NewWriter(&paimon.WriterOptions{Allocator: mem})
	require.NoError(t, err)
	for rec, err := range src.NewScan(paimon.WithAllocator(mem)).Records(ctx) {
		require.NoError(t, err)
		err = w.Write(ctx, rec)
		rec.Release()
		require.NoError(t, err)
	}
	msgs, err := w.PrepareCommit(ctx)
	require.NoError(t, err)
	require.NoError(t, w.Close(ctx))
	c, err := dst.NewCommit(nil)
	require.NoError(t, err)
	_, err = c.Commit(ctx, paimon.BatchCommitIdentifier, msgs)
	require.NoError(t, err)
}
