package paimon_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/memfs"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/paimon"
)

// TestSingleBitMetadataDamage (issue 24): one flipped bit anywhere in a
// Java-written snapshot, schema, tag or hint file never silently changes
// the rows a scan returns: the scan fails, or returns the same rows (a
// damaged timestamp, say, changes nothing read). Rows are compared as
// values; a damaged column name is not a changed row.
//
// Every bit of every file is flipped (about 17 s); PAIMON_DAMAGE_STRIDE=n
// flips every n-th bit only, for a quick look:
//
//	PAIMON_DAMAGE_STRIDE=7 go test -run TestSingleBitMetadataDamage ./paimon
func TestSingleBitMetadataDamage(t *testing.T) {
	stride := 1
	if v := os.Getenv("PAIMON_DAMAGE_STRIDE"); v != "" {
		n, err := strconv.Atoi(v)
		require.NoError(t, err)
		stride = n
	}
	cases := []struct {
		producer, scenario, table string
		files                     []string // relative to the table
		tag                       string   // scan this tag (tag files)
	}{
		{"java-1.4.2", "pk-deletion-vectors", "pk_deletion_vectors",
			[]string{"snapshot/snapshot-9", "schema/schema-0", "snapshot/LATEST", "snapshot/EARLIEST"}, ""},
		{"java-1.4.2", "append-partitioned-avro", "append_partitioned_avro",
			[]string{"snapshot/snapshot-4", "schema/schema-0"}, ""},
		{"java-1.4.2", "tag-expire", "tag_expire", []string{"tag/tag-t1"}, "t1"},
		{"java-2.0.0", "tag-expire", "tag_expire", []string{"tag/tag-t2"}, "t2"},
	}
	for _, tc := range cases {
		t.Run(tc.producer+"/"+tc.scenario, func(t *testing.T) {
			ctx := context.Background()
			fsys := memfs.New(nil)
			src := filepath.Join(goldenRoot, tc.producer, tc.scenario, "warehouse")
			require.NoError(t, filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				b, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				rel, _ := filepath.Rel(src, p)
				return fs.WriteFile(ctx, fsys, filepath.ToSlash(rel), b, nil)
			}))
			dir := "interop.db/" + tc.table
			var opts []paimon.ScanOption
			if tc.tag != "" {
				opts = append(opts, paimon.WithTag(tc.tag))
			}
			want, err := scanValues(ctx, fsys, dir, opts...)
			require.NoError(t, err)
			require.NotEmpty(t, want)
			for _, f := range tc.files {
				path := dir + "/" + f
				orig, err := fs.ReadFile(ctx, fsys, path)
				require.NoError(t, err)
				flips, refused := 0, 0
				step := stride
				if len(orig) < 64 {
					step = 1 // hints: every bit
				}
				for i := 0; i < len(orig)*8; i += step {
					b := slices.Clone(orig)
					b[i/8] ^= 1 << (i % 8)
					require.NoError(t, fs.WriteFile(ctx, fsys, path, b, nil))
					got, err := scanValues(ctx, fsys, dir, opts...)
					flips++
					if err != nil {
						refused++
						continue
					}
					if !slices.Equal(want, got) {
						t.Errorf("%s: bit %d of byte %d (%q → %q) changed the rows silently: %d rows, want %d",
							f, i%8, i/8, context8(orig, i/8), context8(b, i/8), len(got), len(want))
					}
				}
				require.NoError(t, fs.WriteFile(ctx, fsys, path, orig, nil))
				t.Logf("FIGURES: %s: %d single-bit damages, %d refused, %d read the same rows", f, flips, refused, flips-refused)
			}
		})
	}
}

// context8 shows the bytes around byte i.
func context8(b []byte, i int) string {
	return string(b[max(0, i-8):min(len(b), i+8)])
}

// scanValues opens the table and scans it as sorted canonical rows.
func scanValues(ctx context.Context, fsys fs.FS, dir string, opts ...paimon.ScanOption) (_ []string, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
			panic(r)
		}
	}()
	tbl, err := paimon.OpenTable(ctx, fsys, dir, nil)
	if err != nil {
		return nil, err
	}
	mem := memcheck.New()
	var out []string
	for rec, err := range tbl.NewScan(append(opts, paimon.WithAllocator(mem))...).Records(ctx) {
		if err != nil {
			return nil, err
		}
		// Values only: a damaged column name is not a changed row.
		fields := slices.Clone(tbl.Schema().Fields)
		for i := range fields {
			fields[i].Name = fmt.Sprintf("c%d", i)
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
			out = append(out, string(b))
		}
		rec.Release()
	}
	slices.Sort(out)
	return out, nil
}

// TestNoMaintenanceOnDamagedMetadata (issue 24, failure 4): a snapshot
// whose "deltaManifestList" key was damaged into "deltaManifestLisu" is
// refused by a commit building on it, by expiration and by orphan
// cleaning, before any file is written or removed.
func TestNoMaintenanceOnDamagedMetadata(t *testing.T) {
	ctx := context.Background()
	for _, damaged := range []int64{2, 4} { // an expiring one, the latest
		t.Run(fmt.Sprintf("snapshot-%d", damaged), func(t *testing.T) {
			s := newStallTable(t, map[string]string{"snapshot.num-retained.max": "100", "snapshot.num-retained.min": "1", "snapshot.time-retained": "1 d"})
			s.commitN(s.committer("ingest"), 1, 4)
			path := fmt.Sprintf("db.db/t/snapshot/snapshot-%d", damaged)
			b, err := fs.ReadFile(ctx, s.fsys, path)
			require.NoError(t, err)
			bad := strings.Replace(string(b), `"deltaManifestList"`, `"deltaManifestLisu"`, 1)
			require.NotEqual(t, string(b), bad)
			require.NoError(t, fs.WriteFile(ctx, s.fsys, path, []byte(bad), nil))
			before := listAll(t, s.fsys)
			long := func() time.Time { return time.Now().Add(30 * 24 * time.Hour) }

			_, err = s.tbl.ExpireSnapshots(ctx, &paimon.ExpireOptions{RetainMax: 1, CommitGrace: -1, Now: long})
			require.ErrorIs(t, err, paimon.ErrCorrupt, "expiration")
			_, err = s.tbl.RemoveOrphanFiles(ctx, &paimon.OrphanOptions{OlderThan: time.Nanosecond, Now: long})
			require.ErrorIs(t, err, paimon.ErrCorrupt, "orphan cleaning")
			require.Equal(t, before, listAll(t, s.fsys), "nothing removed or written")
			if damaged == 4 {
				msgs, _ := s.prepare(1)
				withData := listAll(t, s.fsys)
				_, err = s.committer("ingest").Commit(ctx, 5, msgs)
				require.ErrorIs(t, err, paimon.ErrCorrupt, "commit")
				after := listAll(t, s.fsys)
				for _, f := range after {
					require.Contains(t, withData, f, "the failed commit left a file")
				}
			}
		})
	}
}

func listAll(t *testing.T, fsys fs.FS) []string {
	var out []string
	var walk func(dir string)
	walk = func(dir string) {
		entries, err := fs.ReadDir(context.Background(), fsys, dir)
		require.NoError(t, err)
		for _, e := range entries {
			p := e.Name
			if dir != "." {
				p = dir + "/" + e.Name
			}
			if e.IsDir {
				walk(p)
			} else {
				out = append(out, p)
			}
		}
	}
	walk(".")
	return out
}
