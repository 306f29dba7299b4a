package filesystem_test

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/catalog"
	"github.com/paimon-go/paimon-go/catalog/catalogtest"
	"github.com/paimon-go/paimon-go/catalog/filesystem"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/fs/memfs"
	"github.com/paimon-go/paimon-go/paimon"
)

const golden = "../../testdata/golden/java-1.4.2/pk-dedup/warehouse"

func TestConformanceMemFS(t *testing.T) {
	catalogtest.Run(t, func(t *testing.T) catalog.Catalog {
		fsys := memfs.New(nil)
		require.NoError(t, catalogtest.WriteWarehouse(context.Background(), fsys, "wh"))
		return filesystem.New(fsys, "wh", nil)
	})
}

func TestConformanceMemFSRoot(t *testing.T) {
	catalogtest.Run(t, func(t *testing.T) catalog.Catalog {
		fsys := memfs.New(nil)
		require.NoError(t, catalogtest.WriteWarehouse(context.Background(), fsys, "."))
		return filesystem.New(fsys, ".", nil)
	})
}

func TestConformanceLocalFS(t *testing.T) {
	catalogtest.Run(t, func(t *testing.T) catalog.Catalog {
		fsys, err := localfs.New(t.TempDir(), nil)
		require.NoError(t, err)
		require.NoError(t, catalogtest.WriteWarehouse(context.Background(), fsys, "warehouse"))
		return filesystem.New(fsys, "warehouse", nil)
	})
}

var memSeq atomic.Int64

func TestConformanceOpenURI(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		uri  func(t *testing.T) string
	}{
		{"file", func(t *testing.T) string {
			dir := t.TempDir()
			fsys, err := localfs.New(dir, nil)
			require.NoError(t, err)
			require.NoError(t, catalogtest.WriteWarehouse(ctx, fsys, "wh"))
			return "file://" + filepath.ToSlash(filepath.Join(dir, "wh"))
		}},
		{"plain", func(t *testing.T) string {
			dir := t.TempDir()
			fsys, err := localfs.New(dir, nil)
			require.NoError(t, err)
			require.NoError(t, catalogtest.WriteWarehouse(ctx, fsys, "wh"))
			return filepath.Join(dir, "wh")
		}},
		{"mem", func(t *testing.T) string {
			host := fmt.Sprintf("catalog-test-%d", memSeq.Add(1))
			require.NoError(t, catalogtest.WriteWarehouse(ctx, memfs.Named(host), "a/wh"))
			return "mem://" + host + "/a/wh"
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			catalogtest.Run(t, func(t *testing.T) catalog.Catalog {
				c, err := catalog.Open(ctx, tt.uri(t), nil)
				require.NoError(t, err)
				return c
			})
		})
	}
}

func TestGoldenWarehouse(t *testing.T) {
	ctx := context.Background()
	abs, err := filepath.Abs(golden)
	require.NoError(t, err)
	fsys, err := localfs.New(abs, nil)
	require.NoError(t, err)
	byNew := filesystem.New(fsys, ".", nil)
	byOpen, err := catalog.Open(ctx, "file://"+filepath.ToSlash(abs), &catalog.Options{Metastore: "filesystem"})
	require.NoError(t, err)
	defer byOpen.Close()

	for name, c := range map[string]catalog.Catalog{"New": byNew, "Open": byOpen} {
		t.Run(name, func(t *testing.T) {
			var dbs []string
			for db, err := range c.ListDatabases(ctx) {
				require.NoError(t, err)
				dbs = append(dbs, db)
			}
			require.Equal(t, []string{"interop"}, dbs)

			var ids []paimon.Identifier
			for id, err := range c.ListTables(ctx, "interop") {
				require.NoError(t, err)
				ids = append(ids, id)
			}
			want := paimon.Identifier{Database: "interop", Table: "pk_dedup"}
			require.Equal(t, []paimon.Identifier{want}, ids)

			tbl, err := c.LoadTable(ctx, want)
			require.NoError(t, err)
			require.Equal(t, want, tbl.Identifier())
			require.NotEmpty(t, tbl.PrimaryKeys())
			require.True(t, strings.HasSuffix(tbl.Meta().Root(), "interop.db/pk_dedup"), tbl.Meta().Root())

			_, err = c.LoadTable(ctx, paimon.Identifier{Database: "interop", Table: "nope"})
			require.ErrorIs(t, err, catalog.ErrTableNotFound)
			require.ErrorIs(t, err, paimon.ErrTableNotFound)
			require.ErrorContains(t, err, "interop.nope")

			for _, err := range c.ListTables(ctx, "missing") {
				require.ErrorIs(t, err, catalog.ErrDatabaseNotFound)
				require.ErrorContains(t, err, "missing")
			}
		})
	}
}

// TestNonTableDirectory checks that a directory without schema files in a
// database is neither listed nor loadable, and that a directory holding an
// empty schema directory does not count either.
func TestNonTableDirectory(t *testing.T) {
	ctx := context.Background()
	fsys := memfs.New(nil)
	require.NoError(t, catalogtest.WriteWarehouse(ctx, fsys, "."))
	require.NoError(t, fs.MkdirAll(ctx, fsys, "db1.db/empty/schema"))
	require.NoError(t, fs.WriteFile(ctx, fsys, "db1.db/junk/schema/schema-x", []byte("{}"), nil))
	c := filesystem.New(fsys, ".", nil)
	var got []string
	for id, err := range c.ListTables(ctx, "db1") {
		require.NoError(t, err)
		got = append(got, id.Table)
	}
	require.Equal(t, catalogtest.Tables["db1"], got)
	for _, name := range []string{"empty", "junk", "not_a_table"} {
		_, err := c.LoadTable(ctx, paimon.Identifier{Database: "db1", Table: name})
		require.ErrorIs(t, err, catalog.ErrTableNotFound, name)
	}
}

func TestPaths(t *testing.T) {
	c := filesystem.New(memfs.New(nil), "wh/", nil)
	require.Equal(t, "wh", c.Warehouse())
	require.Equal(t, "wh/sales.db", c.DatabasePath("sales"))
	require.Equal(t, "wh/sales.db/orders", c.TablePath(paimon.Identifier{Database: "sales", Table: "orders", Branch: "b"}))
	root := filesystem.New(memfs.New(nil), "", nil)
	require.Equal(t, "sales.db/orders", root.TablePath(paimon.Identifier{Database: "sales", Table: "orders"}))
}

func TestInvalidWarehouse(t *testing.T) {
	ctx := context.Background()
	c := filesystem.New(memfs.New(nil), "../x", nil)
	for _, err := range c.ListDatabases(ctx) {
		require.ErrorIs(t, err, fs.ErrInvalidName)
	}
	_, err := c.LoadTable(ctx, paimon.Identifier{Database: "a", Table: "b"})
	require.ErrorIs(t, err, fs.ErrInvalidName)
}

// closeCounter records Close calls so ownership can be checked.
type closeCounter struct {
	fs.FS
	closed int
}

func (c *closeCounter) Close() error { c.closed++; return nil }

func TestCloseOwnership(t *testing.T) {
	fsys := &closeCounter{FS: memfs.New(nil)}
	require.NoError(t, filesystem.New(fsys, ".", nil).Close())
	require.Zero(t, fsys.closed, "New must not take ownership of the FS")
}

func TestOpenOwnsFS(t *testing.T) {
	ctx := context.Background()
	fsys := &closeCounter{FS: memfs.New(nil)}
	fs.Register("closetest", func(context.Context, *url.URL) (fs.FS, string, error) { return fsys, "wh", nil })
	c, err := catalog.Open(ctx, "closetest://x/wh", nil)
	require.NoError(t, err)
	require.NoError(t, c.Close())
	require.Equal(t, 1, fsys.closed, "a catalog made by Open owns its FS")

	_, err = catalog.Open(ctx, "closetest://x/wh", &catalog.Options{Metastore: "nosuch"})
	require.ErrorIs(t, err, catalog.ErrNoMetastore)
}

// TestConformanceDDL runs the catalog DDL suite the REST catalog also
// passes against Java's server.
func TestConformanceDDL(t *testing.T) {
	fsys, err := localfs.New(t.TempDir(), nil)
	require.NoError(t, err)
	catalogtest.RunDDL(t, func(t *testing.T) catalog.Catalog { return filesystem.New(fsys, ".", nil) })
}
