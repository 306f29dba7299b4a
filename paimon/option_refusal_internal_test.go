package paimon

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/internal/coreoptions"
	"github.com/stretchr/testify/require"
)

// refusedValue returns a value of o that coreoptions.Check refuses for op
// (the registry is the oracle; the candidates only cover the value kinds),
// and the key to set it under (a dynamic family's pattern with a name put
// in). ok is false when the option accepts every candidate.
func refusedValue(o *coreoptions.Option, op coreoptions.Op, pk bool) (key, value string, ok bool) {
	key = strings.NewReplacer("*", "v", "#", "x").Replace(o.Key)
	var candidates []string
	switch o.Type {
	case coreoptions.KindBoolean:
		candidates = []string{"true", "false"}
	case coreoptions.KindEnum:
		candidates = o.Values
	case coreoptions.KindInteger, coreoptions.KindLong:
		candidates = []string{"7", "-1", "0", "1", "1000"}
	case coreoptions.KindFloat, coreoptions.KindDouble:
		candidates = []string{"0.5", "2", "0"}
	case coreoptions.KindDuration:
		candidates = []string{"7 s", "0 s"}
	case coreoptions.KindMemorySize:
		candidates = []string{"7 mb", "1 b"}
	case coreoptions.KindMap:
		candidates = []string{"a:b"}
	default:
		candidates = []string{"x", "none", "true", "parquet"}
	}
	for _, c := range candidates {
		if err := coreoptions.Check(map[string]string{key: c}, op, pk); errors.Is(err, coreoptions.ErrUnsupported) {
			return key, c, true
		}
	}
	return key, "", false
}

// copyGolden copies a golden warehouse so that a write that is not refused
// cannot touch the repository's files.
func copyGolden(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	require.NoError(t, os.CopyFS(dst, os.DirFS(src)))
	return dst
}

// withOption returns a copy of tbl whose schema sets key = value, as a
// table Java created with that option would be.
func withOption(tbl *Table, key, value string) *Table {
	ts := *tbl.schema
	ts.Options = maps.Clone(ts.Options)
	if ts.Options == nil {
		ts.Options = map[string]string{}
	}
	ts.Options[key] = value
	out := *tbl
	out.schema = &ts
	return &out
}

// TestRefusedOptionsBeforeAnyRow: for every option the registry refuses on
// read or on write (every Refused rule, and every Implemented rule limited
// to some values), a table (Java-written golden table, append or primary
// key as the option concerns) that sets it to a refused value fails with
// ErrUnsupported naming the option: on read at planning and when splits
// planned before are read, before the first batch; on write when the
// writer, the commit or the compaction is created, before any row is
// accepted. The same operations succeed on the table without the option,
// so a refusal for another reason does not count.
func TestRefusedOptionsBeforeAnyRow(t *testing.T) {
	ctx := context.Background()
	open := func(t *testing.T, scenario, table string) *Table {
		wh := copyGolden(t, filepath.Join("..", "testdata", "golden", "java-1.4.2", scenario, "warehouse"))
		fsys, err := localfs.New(wh, nil)
		require.NoError(t, err)
		tbl, err := OpenTable(ctx, fsys, "interop.db/"+table, nil)
		require.NoError(t, err)
		return tbl
	}
	appendTbl := open(t, "append-fixed-bucket", "append_fixed_bucket")
	pkTbl := open(t, "pk-dedup", "pk_dedup")

	// Baselines: the operations the refusals are checked on work without
	// the option (writes only on the append table: primary-key writes are
	// another lane's and may be refused for their own reasons).
	for _, tbl := range []*Table{appendTbl, pkTbl} {
		plan, err := tbl.NewScan().Plan(ctx)
		require.NoError(t, err)
		require.NotEmpty(t, plan.Splits)
	}
	w, err := appendTbl.NewWriter(nil)
	require.NoError(t, err)
	require.NoError(t, w.Close(ctx))
	_, err = appendTbl.NewCommit(nil)
	require.NoError(t, err)

	expectRefusal := func(t *testing.T, err error, key, value string) {
		t.Helper()
		require.Error(t, err)
		require.ErrorIs(t, err, ErrUnsupported)
		require.Contains(t, err.Error(), fmt.Sprintf("option %s = %q", key, value))
	}
	checked := map[coreoptions.Op]int{}
	for _, o := range coreoptions.All() {
		for _, op := range []coreoptions.Op{coreoptions.Read, coreoptions.Write} {
			r := o.Rule(op)
			if r.Class != coreoptions.Refused && (r.Class != coreoptions.Implemented || r.Allow == nil) {
				continue
			}
			pk := o.Tables == coreoptions.PrimaryKeyTables
			key, value, ok := refusedValue(o, op, pk)
			if !ok {
				t.Errorf("%s (%s on %s): no candidate value is refused; extend refusedValue", o.Key, r.Class, op)
				continue
			}
			base := appendTbl
			if pk {
				base = pkTbl
			}
			checked[op]++
			t.Run(fmt.Sprintf("%s/%s=%s", op, key, value), func(t *testing.T) {
				tbl := withOption(base, key, value)
				if op == coreoptions.Read {
					_, err := tbl.NewScan().Plan(ctx)
					expectRefusal(t, err, key, value)
					// Splits planned before the option appeared.
					plan, err := base.NewScan().Plan(ctx)
					require.NoError(t, err)
					for rec, err := range tbl.NewScan().ReadSplits(ctx, plan.Splits...) {
						if rec != nil {
							rec.Release()
							t.Fatal("a batch before the refusal")
						}
						expectRefusal(t, err, key, value)
						break
					}
					return
				}
				_, err := tbl.NewWriter(nil)
				expectRefusal(t, err, key, value)
				_, err = tbl.NewCommit(nil)
				expectRefusal(t, err, key, value)
				_, err = tbl.Compact(ctx, nil)
				expectRefusal(t, err, key, value)
			})
		}
	}
	t.Logf("refusals checked: %d on read, %d on write", checked[coreoptions.Read], checked[coreoptions.Write])
	require.NotZero(t, checked[coreoptions.Read])
	require.NotZero(t, checked[coreoptions.Write])
}

// TestMalformedOptionValues: a table whose schema sets an option this
// library reads to a value that does not parse as Java's type is refused
// on read and on write with ErrInvalidOption naming the key and the value,
// rather than read with the option's default (a boolean "yes" or "1" used
// to fall back to false).
func TestMalformedOptionValues(t *testing.T) {
	ctx := context.Background()
	wh := copyGolden(t, filepath.Join("..", "testdata", "golden", "java-1.4.2", "append-fixed-bucket", "warehouse"))
	fsys, err := localfs.New(wh, nil)
	require.NoError(t, err)
	base, err := OpenTable(ctx, fsys, "interop.db/append_fixed_bucket", nil)
	require.NoError(t, err)
	for _, c := range []struct{ key, value string }{
		{coreoptions.FileIndexReadEnabled, "yes"},
		{coreoptions.DeletionVectorsEnabled, "1"},
		{coreoptions.SourceSplitTargetSize, "big"},
		{coreoptions.WriteOnly, "maybe"},
	} {
		tbl := withOption(base, c.key, c.value)
		_, err := tbl.NewScan().Plan(ctx)
		require.ErrorIs(t, err, ErrInvalidOption, "%s=%s", c.key, c.value)
		require.Contains(t, err.Error(), c.key)
		require.Contains(t, err.Error(), c.value)
		_, err = tbl.NewWriter(nil)
		require.ErrorIs(t, err, ErrInvalidOption, "%s=%s", c.key, c.value)
	}
}
