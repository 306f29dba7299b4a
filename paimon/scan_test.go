package paimon_test

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/fstest"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/paimon"
	"github.com/paimon-go/paimon-go/paimon/predicate"
)

const goldenRoot = "../testdata/golden"

// goldenTable opens a golden table through a CountingFS. The returned list
// holds every data file of the table (paths relative to the warehouse).
func goldenTable(t *testing.T, producer, scenario, table string) (*paimon.Table, *fstest.CountingFS, []string) {
	t.Helper()
	wh := filepath.Join(goldenRoot, producer, scenario, "warehouse")
	base, err := localfs.New(wh, nil)
	require.NoError(t, err)
	cfs := fstest.NewCountingFS(base)
	t.Cleanup(func() { cfs.Close() })
	dir := "interop.db/" + table
	tbl, err := paimon.OpenTable(context.Background(), cfs, dir, nil)
	require.NoError(t, err)
	var files []string
	require.NoError(t, filepath.WalkDir(filepath.Join(wh, dir), func(p string, d iofs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.Contains(p, "bucket-") {
			rel, _ := filepath.Rel(wh, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	}))
	require.NotEmpty(t, files)
	return tbl, cfs, files
}

func countRows(t *testing.T, scan *paimon.Scan) (int64, error) {
	t.Helper()
	var n int64
	for rec, err := range scan.Records(context.Background()) {
		if err != nil {
			return n, err
		}
		n += rec.NumRows()
		rec.Release()
	}
	return n, nil
}

func opened(cfs *fstest.CountingFS, files []string) []string {
	var out []string
	for _, f := range files {
		if cfs.Count(fstest.OpOpen, f) > 0 {
			out = append(out, f)
		}
	}
	return out
}

func TestScanPrunesPartitions(t *testing.T) {
	for _, tc := range []struct{ producer, scenario, table string }{
		{"java-1.4.2", "append-partitioned-avro", "append_partitioned_avro"},
		{"java-2.0.0", "append-partitioned-avro", "append_partitioned_avro"},
	} {
		t.Run(tc.producer+"/"+tc.scenario, func(t *testing.T) {
			tbl, cfs, files := goldenTable(t, tc.producer, tc.scenario, tc.table)
			day := int32(19783) // 2024-03-01
			mem := memcheck.New()
			defer mem.AssertSize(t, 0)
			n, err := countRows(t, tbl.NewScan(paimon.WithFilter(predicate.Equal("dt", day)), paimon.WithAllocator(mem)))
			require.NoError(t, err)
			require.Positive(t, n)
			got := opened(cfs, files)
			require.NotEmpty(t, got)
			for _, f := range got {
				require.Contains(t, f, "/dt=19783/", "opened a file of another partition")
			}
			var other int
			for _, f := range files {
				if !strings.Contains(f, "/dt=19783/") {
					other++
				}
			}
			require.Positive(t, other, "the table must have other partitions for this test to mean anything")
		})
	}
}

func TestScanPrunesByStatistics(t *testing.T) {
	tbl, cfs, files := goldenTable(t, "java-1.4.2", "append-unpartitioned", "append_unpartitioned")
	scan := tbl.NewScan(paimon.WithFilter(predicate.GreaterThan("id", int32(1_000_000))))
	plan, err := scan.Plan(context.Background())
	require.NoError(t, err)
	require.Empty(t, plan.Splits)
	require.Positive(t, plan.Stats.FilesPrunedByStats)
	require.Equal(t, plan.Stats.Files, plan.Stats.FilesPrunedByStats)
	n, err := countRows(t, scan)
	require.NoError(t, err)
	require.Zero(t, n)
	require.Empty(t, opened(cfs, files))

	// The same filter inside the range opens files.
	n, err = countRows(t, tbl.NewScan(paimon.WithFilter(predicate.GreaterThan("id", int32(0)))))
	require.NoError(t, err)
	require.Positive(t, n)
	require.NotEmpty(t, opened(cfs, files))
}

// copyGolden copies a golden warehouse so a test may damage it.
func copyGolden(t *testing.T, producer, scenario string) string {
	t.Helper()
	src := filepath.Join(goldenRoot, producer, scenario, "warehouse")
	dst := t.TempDir()
	require.NoError(t, os.CopyFS(dst, os.DirFS(src)))
	return dst
}

func openAt(t *testing.T, wh, table string) (*paimon.Table, fs.FS) {
	t.Helper()
	fsys, err := localfs.New(wh, nil)
	require.NoError(t, err)
	t.Cleanup(func() { fsys.Close() })
	tbl, err := paimon.OpenTable(context.Background(), fsys, "interop.db/"+table, nil)
	require.NoError(t, err)
	return tbl, fsys
}

func TestScanBadInput(t *testing.T) {
	ctx := context.Background()
	wh := filepath.Join(goldenRoot, "java-1.4.2", "append-unpartitioned", "warehouse")
	fsys, err := localfs.New(wh, nil)
	require.NoError(t, err)
	tbl, err := paimon.OpenTable(ctx, fsys, "interop.db/append_unpartitioned", nil)
	require.NoError(t, err)

	for _, tc := range []struct {
		name string
		opts []paimon.ScanOption
		want error
		text string
	}{
		{"missing snapshot", []paimon.ScanOption{paimon.WithSnapshotID(999)}, paimon.ErrSnapshotNotFound, "999"},
		{"missing tag", []paimon.ScanOption{paimon.WithTag("nope")}, paimon.ErrTagNotFound, "nope"},
		{"unknown column", []paimon.ScanOption{paimon.WithColumns("id", "nope")}, paimon.ErrColumnNotFound, "nope"},
		{"duplicate column", []paimon.ScanOption{paimon.WithColumns("id", "id")}, paimon.ErrInvalidScan, "id"},
		{"unknown filter column", []paimon.ScanOption{paimon.WithFilter(predicate.Equal("nope", 1))}, predicate.ErrUnknownField, "nope"},
		{"filter type mismatch", []paimon.ScanOption{paimon.WithFilter(predicate.Equal("name", 1.5))}, predicate.ErrTypeMismatch, "name"},
		{"two snapshots", []paimon.ScanOption{paimon.WithSnapshotID(1), paimon.WithTag("t")}, paimon.ErrInvalidScan, "at most one"},
		{"negative limit", []paimon.ScanOption{paimon.WithLimit(-1)}, paimon.ErrInvalidScan, "limit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			scan := tbl.NewScan(tc.opts...)
			_, err := scan.Plan(ctx)
			require.ErrorIs(t, err, tc.want)
			require.Contains(t, err.Error(), tc.text)
			_, err = countRows(t, scan)
			require.ErrorIs(t, err, tc.want)
			_, err = scan.ArrowSchema(ctx)
			require.ErrorIs(t, err, tc.want)
		})
	}

	t.Run("missing data file", func(t *testing.T) {
		wh := copyGolden(t, "java-1.4.2", "append-unpartitioned")
		tbl, _ := openAt(t, wh, "append_unpartitioned")
		plan, err := tbl.NewScan().Plan(ctx)
		require.NoError(t, err)
		victim := plan.Splits[0].Files[0].FileName
		require.NoError(t, os.Remove(filepath.Join(wh, "interop.db/append_unpartitioned", plan.Splits[0].BucketPath, victim)))
		_, err = countRows(t, tbl.NewScan())
		require.ErrorIs(t, err, iofs.ErrNotExist)
		require.Contains(t, err.Error(), victim)
	})

	t.Run("corrupt manifest", func(t *testing.T) {
		wh := copyGolden(t, "java-1.4.2", "append-unpartitioned")
		tbl, _ := openAt(t, wh, "append_unpartitioned")
		dir := filepath.Join(wh, "interop.db/append_unpartitioned/manifest")
		ents, err := os.ReadDir(dir)
		require.NoError(t, err)
		var victim string
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), "manifest-") && !strings.HasPrefix(e.Name(), "manifest-list-") {
				victim = e.Name()
				p := filepath.Join(dir, victim)
				b, err := os.ReadFile(p)
				require.NoError(t, err)
				require.NoError(t, os.WriteFile(p, b[:len(b)/2], 0o644))
			}
		}
		require.NotEmpty(t, victim)
		_, err = countRows(t, tbl.NewScan())
		require.ErrorIs(t, err, paimon.ErrCorrupt)
		var ce *paimon.CorruptError
		require.True(t, errors.As(err, &ce))
		require.Contains(t, ce.Path, "manifest-")
	})

	t.Run("corrupt data file", func(t *testing.T) {
		wh := copyGolden(t, "java-1.4.2", "append-unpartitioned")
		tbl, _ := openAt(t, wh, "append_unpartitioned")
		plan, err := tbl.NewScan().Plan(ctx)
		require.NoError(t, err)
		for _, sp := range plan.Splits {
			for _, f := range sp.Files {
				p := filepath.Join(wh, "interop.db/append_unpartitioned", sp.BucketPath, f.FileName)
				b, err := os.ReadFile(p)
				require.NoError(t, err)
				for i := len(b) / 3; i < len(b)/3+64 && i < len(b); i++ {
					b[i] ^= 0x5a
				}
				require.NoError(t, os.WriteFile(p, b, 0o644))
			}
		}
		_, err = countRows(t, tbl.NewScan())
		require.Error(t, err)
		require.ErrorIs(t, err, paimon.ErrCorrupt)
	})
}

func TestScanLimitAndSplitsRoundTrip(t *testing.T) {
	ctx := context.Background()
	tbl, _, _ := goldenTable(t, "java-1.4.2", "append-unpartitioned", "append_unpartitioned")
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	total, err := countRows(t, tbl.NewScan(paimon.WithAllocator(mem)))
	require.NoError(t, err)
	require.Positive(t, total)
	for _, limit := range []int64{1, 2, total, total + 5} {
		n, err := countRows(t, tbl.NewScan(paimon.WithLimit(limit), paimon.WithBatchSize(1), paimon.WithAllocator(mem)))
		require.NoError(t, err)
		require.Equal(t, min(limit, total), n)
	}

	scan := tbl.NewScan(paimon.WithAllocator(mem))
	plan, err := scan.Plan(ctx)
	require.NoError(t, err)
	var splits []paimon.Split
	for _, sp := range plan.Splits {
		b, err := sp.MarshalBinary()
		require.NoError(t, err)
		var back paimon.Split
		require.NoError(t, back.UnmarshalBinary(b))
		require.Equal(t, sp, back)
		splits = append(splits, back)
	}
	var n int64
	for rec, err := range scan.ReadSplits(ctx, splits...) {
		require.NoError(t, err)
		n += rec.NumRows()
		rec.Release()
	}
	require.Equal(t, total, n)

	rdr, err := scan.NewReader(ctx, splits...)
	require.NoError(t, err)
	n = 0
	for rdr.Next() {
		n += rdr.RecordBatch().NumRows()
	}
	require.NoError(t, rdr.Err())
	rdr.Release()
	require.Equal(t, total, n)

	var bad paimon.Split
	require.ErrorIs(t, bad.UnmarshalBinary([]byte("nope")), paimon.ErrInvalidSplit)
	require.ErrorIs(t, bad.UnmarshalBinary([]byte("PGSP\x01{")), paimon.ErrInvalidSplit)
}

func TestScanBreakReleases(t *testing.T) {
	tbl, _, _ := goldenTable(t, "java-1.4.2", "all-types-parquet", "all_types_parquet")
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	for rec, err := range tbl.NewScan(paimon.WithAllocator(mem), paimon.WithBatchSize(1)).Records(context.Background()) {
		require.NoError(t, err)
		rec.Release()
		break
	}
}

var _ = data.Decimal{}

func TestScanTimeTravelByTimestamp(t *testing.T) {
	ctx := context.Background()
	tbl, _, _ := goldenTable(t, "java-1.4.2", "schema-evolution-append", "schema_evolution_append")
	ids, err := tbl.Meta().SnapshotIDs(ctx)
	require.NoError(t, err)
	require.Greater(t, len(ids), 1)
	for _, id := range ids {
		snap, err := tbl.Meta().ReadSnapshot(ctx, id)
		require.NoError(t, err)
		plan, err := tbl.NewScan(paimon.WithTimestamp(time.UnixMilli(snap.TimeMillis))).Plan(ctx)
		require.NoError(t, err)
		require.Equal(t, id, plan.SnapshotID)
		require.Equal(t, snap.SchemaID, plan.SchemaID, "time travel reads with the snapshot's schema")
		sch, err := tbl.NewScan(paimon.WithSnapshotID(id)).ArrowSchema(ctx)
		require.NoError(t, err)
		old, err := tbl.Meta().ReadSchema(ctx, snap.SchemaID)
		require.NoError(t, err)
		require.Equal(t, len(old.Fields), sch.NumFields())
	}
	first, err := tbl.Meta().ReadSnapshot(ctx, ids[0])
	require.NoError(t, err)
	plan, err := tbl.NewScan(paimon.WithTimestamp(time.UnixMilli(first.TimeMillis - 1))).Plan(ctx)
	require.NoError(t, err)
	require.Zero(t, plan.SnapshotID)
	require.Empty(t, plan.Splits)
}

func TestScanPrunesBuckets(t *testing.T) {
	tbl, cfs, files := goldenTable(t, "java-1.4.2", "append-fixed-bucket", "append_fixed_bucket")
	n, err := tbl.Schema().Bucket()
	require.NoError(t, err)
	require.Greater(t, n, 1)
	key := tbl.Schema().BucketKeys()[0]
	f, ok := tbl.Schema().FieldByName(key)
	require.True(t, ok)
	t.Logf("bucket key %s %s, %d buckets", key, f.Type, n)
	ctx := context.Background()
	full, err := tbl.NewScan().Plan(ctx)
	require.NoError(t, err)
	var lit any
	switch f.Type.Root.String() {
	case "INT":
		lit = int32(1)
	case "BIGINT":
		lit = int64(1)
	case "VARCHAR":
		lit = "a"
	default:
		t.Fatalf("unexpected bucket key type %s", f.Type)
	}
	plan, err := tbl.NewScan(paimon.WithFilter(predicate.Equal(key, lit))).Plan(ctx)
	require.NoError(t, err)
	require.Positive(t, plan.Stats.FilesPrunedByBucket, "an equality on the bucket key selects one bucket")
	for _, sp := range plan.Splits {
		require.Equal(t, plan.Splits[0].Bucket, sp.Bucket)
	}
	require.Less(t, len(plan.Splits), len(full.Splits)+1)
	_, err = countRows(t, tbl.NewScan(paimon.WithFilter(predicate.Equal(key, lit))))
	require.NoError(t, err)
	for _, p := range opened(cfs, files) {
		require.Contains(t, p, fmt.Sprintf("/bucket-%d/", plan.Splits[0].Bucket))
	}
}
