package filesystem_test

import (
	"context"
	"encoding/json"
	"os"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/catalog"
	"github.com/paimon-go/paimon-go/catalog/filesystem"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/fs/memfs"
	"github.com/paimon-go/paimon-go/paimon"
)

func ddlCatalogs(t *testing.T) map[string]*filesystem.Catalog {
	local, err := localfs.New(t.TempDir(), nil)
	require.NoError(t, err)
	return map[string]*filesystem.Catalog{
		"memfs":   filesystem.New(memfs.New(nil), "wh", nil),
		"root":    filesystem.New(memfs.New(nil), ".", nil),
		"localfs": filesystem.New(local, "warehouse", nil),
	}
}

func simpleSchema(t *testing.T, opts map[string]string) *schema.Schema {
	t.Helper()
	s, err := schema.NewSchemaBuilder().
		Column("id", schema.IntType()).
		Column("v", schema.StringType()).
		PrimaryKey("id").Option("bucket", "1").Options(opts).Build()
	require.NoError(t, err)
	return s
}

func listDBs(t *testing.T, c catalog.Catalog) []string {
	t.Helper()
	var out []string
	for db, err := range c.ListDatabases(context.Background()) {
		require.NoError(t, err)
		out = append(out, db)
	}
	return out
}

func listTables(t *testing.T, c catalog.Catalog, db string) []string {
	t.Helper()
	var out []string
	for id, err := range c.ListTables(context.Background(), db) {
		require.NoError(t, err)
		out = append(out, id.Table)
	}
	return out
}

func TestDDLLifecycle(t *testing.T) {
	ctx := context.Background()
	for name, c := range ddlCatalogs(t) {
		t.Run(name, func(t *testing.T) {
			id := paimon.Identifier{Database: "db", Table: "t"}
			require.ErrorIs(t, c.CreateTable(ctx, id, simpleSchema(t, nil), false), catalog.ErrDatabaseNotFound)

			require.NoError(t, c.CreateDatabase(ctx, "db", false))
			require.ErrorIs(t, c.CreateDatabase(ctx, "db", false), catalog.ErrDatabaseExists)
			require.NoError(t, c.CreateDatabase(ctx, "db", true))
			require.NoError(t, c.CreateDatabase(ctx, "empty", false))
			require.Equal(t, []string{"db", "empty"}, listDBs(t, c))
			require.Empty(t, listTables(t, c, "db"))

			require.NoError(t, c.CreateTable(ctx, id, simpleSchema(t, nil), false))
			err := c.CreateTable(ctx, id, simpleSchema(t, nil), false)
			require.ErrorIs(t, err, catalog.ErrTableExists)
			require.ErrorIs(t, err, paimon.ErrTableExists)
			require.NoError(t, c.CreateTable(ctx, id, simpleSchema(t, map[string]string{"bucket": "7"}), true))
			require.Equal(t, []string{"t"}, listTables(t, c, "db"))
			tbl, err := c.LoadTable(ctx, id)
			require.NoError(t, err)
			require.Equal(t, "1", tbl.Options()["bucket"], "ignoreIfExists leaves the table alone")

			changes := []paimon.SchemaChange{paimon.AddColumn{FieldNames: []string{"w"}, Type: schema.DoubleType()},
				paimon.SetOption{Key: "bucket", Value: "2"}}
			require.NoError(t, c.AlterTable(ctx, id, changes, false))
			tbl, err = c.LoadTable(ctx, id)
			require.NoError(t, err)
			require.Equal(t, int64(1), tbl.Schema().ID)
			require.Equal(t, []string{"id", "v", "w"}, tbl.Schema().FieldNames())
			require.Equal(t, "2", tbl.Options()["bucket"])
			err = c.AlterTable(ctx, id, []paimon.SchemaChange{paimon.DropColumn{FieldNames: []string{"id"}}}, false)
			require.ErrorIs(t, err, paimon.ErrSchemaChangeRefused)

			missing := paimon.Identifier{Database: "db", Table: "nope"}
			require.ErrorIs(t, c.AlterTable(ctx, missing, changes, false), catalog.ErrTableNotFound)
			require.NoError(t, c.AlterTable(ctx, missing, changes, true))
			require.ErrorIs(t, c.DropTable(ctx, missing, false), catalog.ErrTableNotFound)
			require.NoError(t, c.DropTable(ctx, missing, true))

			err = c.DropDatabase(ctx, "db", false, false)
			require.ErrorIs(t, err, catalog.ErrDatabaseNotEmpty)
			require.NoError(t, c.DropDatabase(ctx, "empty", false, false))
			require.ErrorIs(t, c.DropDatabase(ctx, "empty", false, false), catalog.ErrDatabaseNotFound)
			require.NoError(t, c.DropDatabase(ctx, "empty", true, false))

			require.NoError(t, c.DropTable(ctx, id, false))
			_, err = c.LoadTable(ctx, id)
			require.ErrorIs(t, err, catalog.ErrTableNotFound)
			require.Empty(t, listTables(t, c, "db"))
			require.NoError(t, c.DropDatabase(ctx, "db", false, false), "no table left")
			require.Empty(t, listDBs(t, c))

			require.NoError(t, c.CreateDatabase(ctx, "db", false))
			require.NoError(t, c.CreateTable(ctx, id, simpleSchema(t, nil), false))
			require.NoError(t, c.DropDatabase(ctx, "db", false, true), "cascade")
			require.Empty(t, listDBs(t, c))
		})
	}
}

func TestDDLRefused(t *testing.T) {
	ctx := context.Background()
	c := filesystem.New(memfs.New(nil), "wh", nil)
	require.NoError(t, c.CreateDatabase(ctx, "db", false))
	tbl := func(name string) paimon.Identifier { return paimon.Identifier{Database: "db", Table: name} }
	s := simpleSchema(t, nil)
	tests := []struct {
		name string
		do   func() error
		want error
	}{
		{"system database", func() error { return c.CreateDatabase(ctx, "sys", false) }, catalog.ErrInvalidIdentifier},
		{"drop system database", func() error { return c.DropDatabase(ctx, "sys", true, true) }, catalog.ErrInvalidIdentifier},
		{"database with separator", func() error { return c.CreateDatabase(ctx, "a/b", false) }, catalog.ErrInvalidIdentifier},
		{"database dot dot", func() error { return c.CreateDatabase(ctx, "..", false) }, catalog.ErrInvalidIdentifier},
		{"empty database", func() error { return c.CreateDatabase(ctx, "", false) }, catalog.ErrInvalidIdentifier},
		{"table in system database", func() error {
			return c.CreateTable(ctx, paimon.Identifier{Database: "sys", Table: "t"}, s, false)
		}, catalog.ErrInvalidIdentifier},
		{"system table", func() error { return c.CreateTable(ctx, tbl("t$snapshots"), s, false) }, catalog.ErrInvalidIdentifier},
		{"branch", func() error { return c.CreateTable(ctx, tbl("t$branch_b1"), s, false) }, catalog.ErrInvalidIdentifier},
		{"branch field", func() error {
			return c.CreateTable(ctx, paimon.Identifier{Database: "db", Table: "t", Branch: "b1"}, s, false)
		}, catalog.ErrInvalidIdentifier},
		{"table with separator", func() error { return c.CreateTable(ctx, tbl("../x"), s, false) }, catalog.ErrInvalidIdentifier},
		{"drop system table", func() error { return c.DropTable(ctx, tbl("t$files"), true) }, catalog.ErrInvalidIdentifier},
		{"drop branch", func() error { return c.DropTable(ctx, tbl("t$branch_b1"), true) }, catalog.ErrInvalidIdentifier},
		{"alter system table", func() error { return c.AlterTable(ctx, tbl("t$options"), nil, true) }, catalog.ErrInvalidIdentifier},
		{"path option", func() error {
			return c.CreateTable(ctx, tbl("t"), simpleSchema(t, map[string]string{"path": "/x"}), false)
		}, paimon.ErrUnsupported},
		{"format table", func() error {
			return c.CreateTable(ctx, tbl("t"), simpleSchema(t, map[string]string{"type": "format-table"}), false)
		}, paimon.ErrUnsupported},
		{"unknown table type", func() error {
			return c.CreateTable(ctx, tbl("t"), simpleSchema(t, map[string]string{"type": "view"}), false)
		}, paimon.ErrInvalidSchema},
		{"auto-create", func() error {
			return c.CreateTable(ctx, tbl("t"), simpleSchema(t, map[string]string{"auto-create": "true"}), false)
		}, paimon.ErrInvalidSchema},
		{"invalid schema", func() error {
			return c.CreateTable(ctx, tbl("t"), simpleSchema(t, map[string]string{"merge-engine": "x"}), false)
		}, paimon.ErrInvalidSchema},
		{"nil schema", func() error { return c.CreateTable(ctx, tbl("t"), nil, false) }, paimon.ErrInvalidSchema},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.ErrorIs(t, tt.do(), tt.want)
		})
	}
	require.Empty(t, listTables(t, c, "db"), "nothing created")
}

// TestDDLBranchAlter: AlterTable follows the identifier's branch and leaves
// the main branch alone.
func TestDDLBranchAlter(t *testing.T) {
	ctx := context.Background()
	fsys := memfs.New(nil)
	c := filesystem.New(fsys, "wh", nil)
	require.NoError(t, c.CreateDatabase(ctx, "db", false))
	id := paimon.Identifier{Database: "db", Table: "t"}
	require.NoError(t, c.CreateTable(ctx, id, simpleSchema(t, nil), false))
	schema0, err := fs.ReadFile(ctx, fsys, "wh/db.db/t/schema/schema-0")
	require.NoError(t, err)
	require.NoError(t, fs.WriteFile(ctx, fsys, "wh/db.db/t/branch/branch-b1/schema/schema-0", schema0, nil))

	add := []paimon.SchemaChange{paimon.AddColumn{FieldNames: []string{"b"}, Type: schema.IntType()}}
	require.NoError(t, c.AlterTable(ctx, paimon.Identifier{Database: "db", Table: "t$branch_b1"}, add, false))
	branch, err := c.LoadTable(ctx, paimon.Identifier{Database: "db", Table: "t", Branch: "b1"})
	require.NoError(t, err)
	require.Equal(t, []string{"id", "v", "b"}, branch.Schema().FieldNames())
	main, err := c.LoadTable(ctx, id)
	require.NoError(t, err)
	require.Equal(t, int64(0), main.Schema().ID)
	err = c.AlterTable(ctx, paimon.Identifier{Database: "db", Table: "t", Branch: "b2"}, add, false)
	require.ErrorIs(t, err, catalog.ErrTableNotFound)
}

// TestDDLMatchesJava: a table created through the catalog from an interop
// plan lands where Java's FileSystemCatalog put it, with the same bytes.
func TestDDLMatchesJava(t *testing.T) {
	ctx := context.Background()
	data, err := os.ReadFile("../../interop/plans/append-fixed-bucket.json")
	require.NoError(t, err)
	var plan struct {
		DB     string          `json:"db"`
		Table  string          `json:"table"`
		Schema json.RawMessage `json:"schema"`
	}
	require.NoError(t, json.Unmarshal(data, &plan))
	s, err := schema.DecodeSchema(plan.Schema)
	require.NoError(t, err)
	fsys := memfs.New(nil)
	c := filesystem.New(fsys, "warehouse", nil)
	require.NoError(t, c.CreateDatabase(ctx, plan.DB, true))
	require.NoError(t, c.CreateTable(ctx, paimon.Identifier{Database: plan.DB, Table: plan.Table}, s, false))
	rel := plan.DB + ".db/" + plan.Table + "/schema/schema-0"
	got, err := fs.ReadFile(ctx, fsys, "warehouse/"+rel)
	require.NoError(t, err)
	want, err := os.ReadFile("../../testdata/golden/java-1.4.2/append-fixed-bucket/warehouse/" + rel)
	require.NoError(t, err)
	tm := regexp.MustCompile(`"timeMillis" : \d+`)
	require.Equal(t, string(tm.ReplaceAll(want, nil)), string(tm.ReplaceAll(got, nil)))
}
