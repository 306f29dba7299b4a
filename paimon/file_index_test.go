package paimon_test

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/paimon"
	"github.com/paimon-go/paimon-go/paimon/predicate"
)

// fileIndexFilters are the filters of the file-index golden plans
// (interop/plans/file-index-*.json), by dump name.
var fileIndexFilters = map[string]*predicate.Predicate{
	"s-eq-q":      predicate.Equal("s", "q"),
	"s-eq-m":      predicate.Equal("s", "m"),
	"s-eq-y":      predicate.Equal("s", "y"),
	"c-eq-green":  predicate.Equal("c", "green"),
	"c-eq-purple": predicate.Equal("c", "purple"),
	"c-ne-blue":   predicate.NotEqual("c", "blue"),
	"c-null":      predicate.IsNull("c"),
	"c-not-null":  predicate.IsNotNull("c"),
	"c1-eq-5":     predicate.Equal("c1", int32(5)),
	"c1-eq-7":     predicate.Equal("c1", int32(7)),
	"c1-null":     predicate.IsNull("c1"),
	"id-ge-5":     predicate.GreaterOrEqual("id", int32(5)),
	// bsi on n (BIGINT, negative values too)
	"n-eq-20":  predicate.Equal("n", int64(20)),
	"n-eq-m20": predicate.Equal("n", int64(-20)),
	"n-eq-50":  predicate.Equal("n", int64(50)),
	"n-lt-m25": predicate.LessThan("n", int64(-25)),
	"n-gt-65":  predicate.GreaterThan("n", int64(65)),
	"n-le-m90": predicate.LessOrEqual("n", int64(-90)),
	"n-ge-75":  predicate.GreaterOrEqual("n", int64(75)),
	"n-ne-10":  predicate.NotEqual("n", int64(10)),
	"n-null":   predicate.IsNull("n"),
	// range-bitmap on r (INT)
	"r-eq-2":     predicate.Equal("r", int32(2)),
	"r-eq-50":    predicate.Equal("r", int32(50)),
	"r-eq-60":    predicate.Equal("r", int32(60)),
	"r-ge-99":    predicate.GreaterOrEqual("r", int32(99)),
	"r-gt-99":    predicate.GreaterThan("r", int32(99)),
	"r-lt-2":     predicate.LessThan("r", int32(2)),
	"r-le-3":     predicate.LessOrEqual("r", int32(3)),
	"r-ne-2":     predicate.NotEqual("r", int32(2)),
	"r-null":     predicate.IsNull("r"),
	"r-not-null": predicate.IsNotNull("r"),
	// the fifth file: 40 rows, dictionaries of several chunks
	// (file-index.range-bitmap.<col>.chunk-size), range-bitmap on s too
	"r-gt-77":   predicate.GreaterThan("r", int32(77)),
	"r-le-31":   predicate.LessOrEqual("r", int32(31)),
	"r-eq-64":   predicate.Equal("r", int32(64)),
	"r-eq-65":   predicate.Equal("r", int32(65)),
	"r-lt-0":    predicate.LessThan("r", int32(0)),
	"s-gt-x":    predicate.GreaterThan("s", "x"),
	"s-le-e05":  predicate.LessOrEqual("s", "e05"),
	"s-eq-e17":  predicate.Equal("s", "e17"),
	"s-eq-e175": predicate.Equal("s", "e175"),
	"s-lt-a":    predicate.LessThan("s", "a"),
	"n-eq-m143": predicate.Equal("n", int64(-143)),
	"n-eq-m144": predicate.Equal("n", int64(-144)),
	"n-gt-200":  predicate.GreaterThan("n", int64(200)),
	"n-lt-m150": predicate.LessThan("n", int64(-150)),
}

// TestFileIndexGolden reads Java's tables with a bloom-filter index (s),
// bitmap indexes (c: version 2, c1: version 1), a bit-sliced index (n, with
// negative values) and range-bitmap indexes (r, and s besides its bloom
// filter; the fifth file's dictionaries span several chunks), once
// embedded in the
// manifest and once in separate .index files, with the same five writes.
// The embedded table's plan must keep exactly the files Java's plan keeps
// (dump-<name>.files); the separate table's plan keeps what the statistics
// keep, as Java's does, and its read opens exactly the data files that the
// embedded twin plans (matched by their sequence numbers): the index is
// tested when the file is read (Java FileIndexEvaluator). Both return the
// same rows.
func TestFileIndexGolden(t *testing.T) {
	ctx := context.Background()
	for _, producer := range []string{"java-1.4.2", "java-2.0.0"} {
		emb, embFS, embFiles := goldenTable(t, producer, "file-index-embedded", "file_index_embedded")
		sep, sepFS, sepFiles := goldenTable(t, producer, "file-index-separate", "file_index_separate")
		seqOf := func(tbl *paimon.Table) map[string]int64 {
			plan, err := tbl.NewScan().Plan(ctx)
			require.NoError(t, err)
			m := map[string]int64{}
			for _, s := range plan.Splits {
				for _, f := range s.Files {
					m[f.FileName] = f.MinSequenceNumber
				}
			}
			require.Len(t, m, 5)
			return m
		}
		embSeq, sepSeq := seqOf(emb), seqOf(sep)
		prunedByIndex := 0
		for name, filter := range fileIndexFilters {
			t.Run(producer+"/"+name, func(t *testing.T) {
				plan, err := emb.NewScan(paimon.WithFilter(filter)).Plan(ctx)
				require.NoError(t, err)
				var planned []string
				var want []int64
				for _, s := range plan.Splits {
					for _, f := range s.Files {
						planned = append(planned, f.FileName)
						want = append(want, embSeq[f.FileName])
					}
				}
				prunedByIndex += plan.Stats.FilesPrunedByIndex
				raw, err := os.ReadFile(filepath.Join(goldenRoot, producer, "file-index-embedded", "dump-"+name+".files"))
				require.NoError(t, err)
				var java []string
				for _, l := range strings.Fields(string(raw)) {
					java = append(java, path.Base(l))
				}
				slices.Sort(planned)
				slices.Sort(java)
				require.Equal(t, java, planned, "files Java's plan keeps")

				embFS.Reset()
				nEmb, err := countRows(t, emb.NewScan(paimon.WithFilter(filter)))
				require.NoError(t, err)
				sepFS.Reset()
				nSep, err := countRows(t, sep.NewScan(paimon.WithFilter(filter)))
				require.NoError(t, err)
				require.Equal(t, nEmb, nSep)

				var got []int64
				for _, f := range opened(sepFS, sepFiles) {
					if strings.HasSuffix(f, ".parquet") {
						got = append(got, sepSeq[path.Base(f)])
					}
				}
				var embOpened int
				for _, f := range opened(embFS, embFiles) {
					if strings.HasSuffix(f, ".parquet") {
						embOpened++
					}
				}
				require.Equal(t, len(planned), embOpened, "embedded: data files read")
				slices.Sort(got)
				slices.Sort(want)
				require.Equal(t, want, got, "separate: data files read")
			})
		}
		require.Positive(t, prunedByIndex, "%s: no file pruned by an embedded index", producer)
	}
}
