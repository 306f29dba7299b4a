package paimon_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/internal/goldensrc"
	"github.com/paimon-go/paimon-go/paimon"
)

// TestBlobDescriptorFieldRefusals reads the golden blob-descriptor-field
// tables of Java 1.4.2 and 2.0.0 (the BLOB column pic holds descriptors in
// the Parquet files): without a BlobOpener a scan returning pic is refused
// before any row and the other columns read; an opener that cannot reach a
// descriptor's object fails the scan naming the object; with
// fs.OpenFileURI the bytes come back (the golden tests compare them with
// Java's rows).
func TestBlobDescriptorFieldRefusals(t *testing.T) {
	require.NoError(t, goldensrc.Restore(filepath.Join(goldenRoot, "..", "..")))
	ctx := context.Background()
	for _, producer := range []string{"java-1.4.2", "java-2.0.0"} {
		t.Run(producer, func(t *testing.T) {
			fsys, err := localfs.New(filepath.Join(goldenRoot, producer, "blob-descriptor-field", "warehouse"), nil)
			require.NoError(t, err)
			open := func(opener paimon.BlobOpener) *paimon.Table {
				tbl, err := paimon.OpenTable(ctx, fsys, "interop.db/blob_descriptor_field", &paimon.TableOptions{BlobOpener: opener})
				require.NoError(t, err)
				return tbl
			}
			rows := func(scan *paimon.Scan) (int64, error) {
				var n int64
				for rec, err := range scan.Records(ctx) {
					if err != nil {
						return n, err
					}
					n += rec.NumRows()
					rec.Release()
				}
				return n, nil
			}

			tbl := open(nil)
			for _, cols := range [][]string{{"id", "name", "pic"}, {"pic"}, {"id", "pic"}} {
				n, err := rows(tbl.NewScan(paimon.WithColumns(cols...)))
				require.ErrorIs(t, err, paimon.ErrUnsupported, "columns %v", cols)
				require.ErrorContains(t, err, "BLOB column pic")
				require.Zero(t, n)
			}
			n, err := rows(tbl.NewScan())
			require.ErrorIs(t, err, paimon.ErrUnsupported, "all columns")
			require.Zero(t, n)
			n, err = rows(tbl.NewScan(paimon.WithColumns("id", "name")))
			require.NoError(t, err)
			require.Equal(t, int64(5), n)

			unreachable := errors.New("outside every file system here")
			n, err = rows(open(func(ctx context.Context, uri string) (fs.File, error) { return nil, unreachable }).NewScan(paimon.WithColumns("pic")))
			require.ErrorIs(t, err, unreachable)
			require.ErrorContains(t, err, goldensrc.Dir)
			require.Zero(t, n)

			n, err = rows(open(fs.OpenFileURI).NewScan(paimon.WithColumns("pic"), paimon.WithLimit(2)))
			require.NoError(t, err)
			require.Equal(t, int64(2), n)
		})
	}
}
