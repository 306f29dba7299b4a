package paimon_test

import (
	"context"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/paimon"
)

// TestBranchReadSplitsTravel plans the golden fallback- and primary-branch
// tables (Java FallbackReadFileStoreTable), ships the splits as bytes and
// reads them back with ReadSplits and NewReader: the rows must be the
// plan's, the other branch's splits carrying its name. A split of a branch
// the table does not read is refused.
func TestBranchReadSplitsTravel(t *testing.T) {
	ctx := context.Background()
	n := 0
	for _, sc := range goldenScenarios(t) {
		if !strings.HasSuffix(sc.dir, "fallback-branch") && !strings.HasSuffix(sc.dir, "primary-branch") {
			continue
		}
		n++
		tbl := sc.open(t)
		mem := memcheck.New()
		scan := tbl.NewScan(paimon.WithAllocator(mem))
		plan, err := scan.Plan(ctx)
		require.NoError(t, err)
		branches := map[string]bool{}
		var shipped []paimon.Split
		for _, sp := range plan.Splits {
			branches[sp.Branch] = true
			b, err := sp.MarshalBinary()
			require.NoError(t, err)
			var back paimon.Split
			require.NoError(t, back.UnmarshalBinary(b))
			shipped = append(shipped, back)
		}
		require.Len(t, branches, 2, "%s: splits of both branches", sc.dir)

		read := func(splits ...paimon.Split) []string {
			var out []string
			for rec, err := range scan.ReadSplits(ctx, splits...) {
				require.NoError(t, err)
				fields, err := schema.FromArrowSchema(rec.Schema())
				require.NoError(t, err)
				l, err := canon.BatchLines(fields, rec)
				require.NoError(t, err)
				out = append(out, l...)
				rec.Release()
			}
			sort.Strings(out)
			return out
		}
		var all []string
		for rec, err := range scan.Records(ctx) {
			require.NoError(t, err)
			fields, err := schema.FromArrowSchema(rec.Schema())
			require.NoError(t, err)
			l, err := canon.BatchLines(fields, rec)
			require.NoError(t, err)
			all = append(all, l...)
			rec.Release()
		}
		sort.Strings(all)
		require.Equal(t, readCanonFile(t, sc.dir+"/expected.jsonl"), all, sc.dir)
		require.Equal(t, all, read(shipped...), sc.dir)

		bad := shipped[len(shipped)-1]
		bad.Branch = "no-such-branch"
		for _, err := range scan.ReadSplits(ctx, bad) {
			require.ErrorIs(t, err, paimon.ErrInvalidScan)
			break
		}
		mem.AssertSize(t, 0)
	}
	require.Equal(t, 4, n, "golden fallback and primary branch tables")
}

func readCanonFile(t *testing.T, file string) []string {
	t.Helper()
	f, err := os.Open(file)
	require.NoError(t, err)
	defer f.Close()
	lines, err := canon.ReadLines(f)
	require.NoError(t, err)
	return lines
}
