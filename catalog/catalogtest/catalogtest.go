// Package catalogtest is a conformance suite for catalog.Catalog
// implementations, in the spirit of testing/fstest: Run checks the read
// operations against a small warehouse written by WriteWarehouse.
package catalogtest

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/catalog"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/memfs"
	"github.com/paimon-go/paimon-go/internal/coreoptions"
	"github.com/paimon-go/paimon-go/paimon"
)

// databases are the databases WriteWarehouse creates, sorted (unexported:
// a mutable exported slice let one test change what the next expects).
var databases = []string{"db1", "db2"}

// Tables are the tables (main branch) WriteWarehouse creates, by database,
// sorted. db1 also holds a directory without schema files ("not_a_table")
// and db2 holds only such a directory; neither may be listed.
var Tables = map[string][]string{
	"db1": {"t_append", "t_late", "t_pk"},
	"db2": nil,
}

// Branch is the branch of db1.t_pk that WriteWarehouse creates; its schema
// has the extra column "branch_col".
const Branch = "b1"

// WriteWarehouse writes the suite's warehouse into directory dir of fsys
// (the layout of Java's FileSystemCatalog): schema files only, no data.
//
//	db1.db/t_append/schema/schema-0          columns id, name
//	db1.db/t_pk/schema/schema-0, schema-1    primary key id; schema-1 adds v2
//	db1.db/t_pk/branch/branch-b1/schema/schema-0   adds branch_col
//	db1.db/t_late/schema/schema-3            no schema-0 (expired schemas)
//	db1.db/not_a_table/data.txt              not a table
//	db2.db/junk/README                       db2 has no tables
//	nodb/t/schema/schema-0                   no ".db" suffix: not a database
//	file.db                                  a file, not a database
func WriteWarehouse(ctx context.Context, fsys fs.FS, dir string) error {
	type file struct {
		path string
		data func() ([]byte, error)
	}
	text := func(s string) func() ([]byte, error) { return func() ([]byte, error) { return []byte(s), nil } }
	sch := func(id int64, pk bool, extra ...string) func() ([]byte, error) {
		return func() ([]byte, error) { return schemaJSON(id, pk, extra...) }
	}
	files := []file{
		{"db1.db/t_append/schema/schema-0", sch(0, false)},
		{"db1.db/t_pk/schema/schema-0", sch(0, true)},
		{"db1.db/t_pk/schema/schema-1", sch(1, true, "v2")},
		{"db1.db/t_pk/branch/branch-" + Branch + "/schema/schema-0", sch(0, true, "branch_col")},
		{"db1.db/t_late/schema/schema-3", sch(3, false, "late")},
		{"db1.db/not_a_table/data.txt", text("not a table")},
		{"db2.db/junk/README", text("not a table either")},
		{"nodb/t/schema/schema-0", sch(0, false)},
		{"file.db", text("a file")},
	}
	for _, f := range files {
		b, err := f.data()
		if err != nil {
			return fmt.Errorf("catalogtest: %s: %w", f.path, err)
		}
		if err := fs.WriteFile(ctx, fsys, fs.Join(dir, f.path), b, nil); err != nil {
			return fmt.Errorf("catalogtest: %w", err)
		}
	}
	return nil
}

// Populate creates the suite's databases, tables and branch through a
// catalog's DDL, for catalogs whose metadata lives in a server rather
// than in warehouse files (a REST catalog): the same names, columns,
// primary keys and schema ids as WriteWarehouse. The directories that are
// not tables have no DDL counterpart; Run's checks for them then reduce to
// "not found". createBranch creates a branch of a table from its latest
// schema.
func Populate(ctx context.Context, c catalog.Catalog, createBranch func(ctx context.Context, id paimon.Identifier, branch string) error) error {
	ddl, ok := c.(catalog.DDL)
	if !ok {
		return fmt.Errorf("catalogtest: %T has no DDL", c)
	}
	for _, db := range databases {
		if err := ddl.CreateDatabase(ctx, db, false); err != nil {
			return fmt.Errorf("catalogtest: %w", err)
		}
	}
	base := func(pk bool, extra ...string) *schema.Schema {
		b := schema.NewSchemaBuilder().Column("id", schema.IntType().NotNull()).Column("name", schema.StringType())
		for _, col := range extra {
			b.Column(col, schema.BigIntType())
		}
		if pk {
			b.PrimaryKey("id")
		}
		s, err := b.Build()
		if err != nil {
			panic(err) // a fixed, valid schema
		}
		return s
	}
	add := func(col string) paimon.SchemaChange {
		return paimon.AddColumn{FieldNames: []string{col}, Type: schema.BigIntType()}
	}
	id := func(table, branch string) paimon.Identifier {
		return paimon.Identifier{Database: "db1", Table: table, Branch: branch}
	}
	steps := []func() error{
		func() error { return ddl.CreateTable(ctx, id("t_append", ""), base(false), false) },
		func() error { return ddl.CreateTable(ctx, id("t_pk", ""), base(true), false) },
		// The branch starts from schema-0 and gets its own column.
		func() error { return createBranch(ctx, id("t_pk", ""), Branch) },
		func() error {
			return ddl.AlterTable(ctx, id("t_pk", Branch), []paimon.SchemaChange{add("branch_col")}, false)
		},
		func() error { return ddl.AlterTable(ctx, id("t_pk", ""), []paimon.SchemaChange{add("v2")}, false) },
		// t_late reaches schema-3 with the columns of WriteWarehouse's.
		func() error { return ddl.CreateTable(ctx, id("t_late", ""), base(false, "x"), false) },
		func() error { return ddl.AlterTable(ctx, id("t_late", ""), []paimon.SchemaChange{add("late")}, false) },
		func() error {
			return ddl.AlterTable(ctx, id("t_late", ""), []paimon.SchemaChange{paimon.DropColumn{FieldNames: []string{"x"}}}, false)
		},
		func() error {
			return ddl.AlterTable(ctx, id("t_late", ""), []paimon.SchemaChange{paimon.SetOption{Key: "k", Value: "v"}}, false)
		},
	}
	for i, step := range steps {
		if err := step(); err != nil {
			return fmt.Errorf("catalogtest: populate step %d: %w", i, err)
		}
	}
	return nil
}

// schemaJSON encodes a table schema with columns id, name and extra.
func schemaJSON(id int64, pk bool, extra ...string) ([]byte, error) {
	b := schema.NewSchemaBuilder().
		Column("id", schema.IntType().NotNull()).
		Column("name", schema.StringType())
	for _, c := range extra {
		b.Column(c, schema.BigIntType())
	}
	if pk {
		b.PrimaryKey("id")
	}
	s, err := b.Build()
	if err != nil {
		return nil, err
	}
	ts, err := schema.NewTableSchema(id, s, 0)
	if err != nil {
		return nil, err
	}
	return ts.Encode()
}

// Run checks the read operations of the catalogs newCatalog returns.
// newCatalog must return a catalog whose warehouse holds exactly what
// WriteWarehouse writes; Run closes it when the test ends.
func Run(t *testing.T, newCatalog func(t *testing.T) catalog.Catalog) {
	ctx := context.Background()
	open := func(t *testing.T) catalog.Catalog {
		t.Helper()
		c := newCatalog(t)
		t.Cleanup(func() { require.NoError(t, c.Close()) })
		return c
	}

	t.Run("ListDatabases", func(t *testing.T) {
		c := open(t)
		var got []string
		for db, err := range c.ListDatabases(ctx) {
			require.NoError(t, err)
			got = append(got, db)
		}
		require.ElementsMatch(t, databases, got)
	})

	t.Run("ListDatabasesBreak", func(t *testing.T) {
		c := open(t)
		n := 0
		for _, err := range c.ListDatabases(ctx) {
			require.NoError(t, err)
			n++
			break
		}
		require.Equal(t, 1, n)
	})

	t.Run("ListTables", func(t *testing.T) {
		c := open(t)
		for _, db := range databases {
			t.Run(db, func(t *testing.T) {
				var got []string
				for id, err := range c.ListTables(ctx, db) {
					require.NoError(t, err)
					require.Equal(t, db, id.Database)
					require.Empty(t, id.Branch)
					got = append(got, id.Table)
				}
				require.ElementsMatch(t, Tables[db], got)
			})
		}
	})

	t.Run("ListTablesMissingDatabase", func(t *testing.T) {
		c := open(t)
		for _, db := range []string{"nope", "nodb", "file"} {
			var errs []error
			for _, err := range c.ListTables(ctx, db) {
				errs = append(errs, err)
			}
			require.Len(t, errs, 1, db)
			require.ErrorIs(t, errs[0], catalog.ErrDatabaseNotFound)
			require.Contains(t, errs[0].Error(), db)
		}
	})

	t.Run("LoadTable", func(t *testing.T) {
		c := open(t)
		tests := []struct {
			id      paimon.Identifier
			columns []string
			pk      []string
		}{
			{paimon.Identifier{Database: "db1", Table: "t_append"}, []string{"id", "name"}, nil},
			{paimon.Identifier{Database: "db1", Table: "t_pk"}, []string{"id", "name", "v2"}, []string{"id"}},
			{paimon.Identifier{Database: "db1", Table: "t_late"}, []string{"id", "name", "late"}, nil},
			{paimon.Identifier{Database: "db1", Table: "t_pk", Branch: Branch}, []string{"id", "name", "branch_col"}, []string{"id"}},
			{paimon.Identifier{Database: "db1", Table: "t_pk", Branch: "main"}, []string{"id", "name", "v2"}, []string{"id"}},
			{paimon.Identifier{Database: "db1", Table: "t_pk$branch_" + Branch}, []string{"id", "name", "branch_col"}, []string{"id"}},
		}
		for _, tt := range tests {
			t.Run(tt.id.String(), func(t *testing.T) {
				tbl, err := c.LoadTable(ctx, tt.id)
				require.NoError(t, err)
				var cols []string
				for _, f := range tbl.Schema().Fields {
					cols = append(cols, f.Name)
				}
				require.Equal(t, tt.columns, cols)
				require.Equal(t, len(tt.pk), len(tbl.PrimaryKeys()))
				require.Equal(t, "db1", tbl.Identifier().Database)
			})
		}
	})

	t.Run("LoadTableNotFound", func(t *testing.T) {
		c := open(t)
		for _, id := range []paimon.Identifier{
			{Database: "db1", Table: "missing"},
			{Database: "db1", Table: "not_a_table"},
			{Database: "nope", Table: "t_append"},
			{Database: "nodb", Table: "t"},
			{Database: "db1", Table: "t_pk", Branch: "no_such_branch"},
		} {
			_, err := c.LoadTable(ctx, id)
			require.ErrorIs(t, err, catalog.ErrTableNotFound, id.String())
			require.ErrorIs(t, err, paimon.ErrTableNotFound, id.String())
			require.Contains(t, err.Error(), id.Table)
		}
	})

	t.Run("LoadTableInvalidName", func(t *testing.T) {
		c := open(t)
		for _, id := range []paimon.Identifier{
			{Database: "", Table: "t_append"},
			{Database: "db1", Table: ""},
			{Database: "db1", Table: "../db1.db/t_append"},
			{Database: "..", Table: "t_append"},
			{Database: "db1/x", Table: "t_append"},
			{Database: "db1", Table: "t_pk", Branch: "../b"},
		} {
			_, err := c.LoadTable(ctx, id)
			require.ErrorIs(t, err, catalog.ErrInvalidIdentifier, id.String())
		}
	})

	t.Run("LoadSystemTable", func(t *testing.T) {
		c := open(t)
		for _, name := range []string{"t_pk$snapshots", "t_pk$branch_" + Branch + "$files"} {
			_, err := c.LoadTable(ctx, paimon.Identifier{Database: "db1", Table: name})
			require.ErrorIs(t, err, paimon.ErrUnsupported, name)
			require.ErrorContains(t, err, name)
		}
	})
}

// RunDDL checks the DDL of the catalogs newCatalog returns (which must
// implement catalog.DDL): creating, altering and dropping a database
// "ddl_db" and its tables, and the errors for names that exist or do not.
// It leaves the catalog as it found it.
func RunDDL(t *testing.T, newCatalog func(t *testing.T) catalog.Catalog) {
	ctx := context.Background()
	c := newCatalog(t)
	t.Cleanup(func() { require.NoError(t, c.Close()) })
	ddl, ok := c.(catalog.DDL)
	require.True(t, ok, "%T has no DDL", c)
	const db = "ddl_db"
	id := paimon.Identifier{Database: db, Table: "t"}
	s, err := schema.NewSchemaBuilder().Column("id", schema.IntType().NotNull()).Column("name", schema.StringType()).Build()
	require.NoError(t, err)
	columns := func(id paimon.Identifier) []string {
		tbl, err := c.LoadTable(ctx, id)
		require.NoError(t, err)
		return tbl.Schema().FieldNames()
	}

	t.Run("CreateDatabase", func(t *testing.T) {
		require.NoError(t, ddl.CreateDatabase(ctx, db, false))
		require.ErrorIs(t, ddl.CreateDatabase(ctx, db, false), catalog.ErrDatabaseExists)
		require.NoError(t, ddl.CreateDatabase(ctx, db, true))
		require.ErrorIs(t, ddl.CreateDatabase(ctx, catalog.SystemDatabase, false), catalog.ErrInvalidIdentifier)
		var dbs []string
		for d, err := range c.ListDatabases(ctx) {
			require.NoError(t, err)
			dbs = append(dbs, d)
		}
		require.Contains(t, dbs, db)
	})
	t.Run("CreateTable", func(t *testing.T) {
		err := ddl.CreateTable(ctx, paimon.Identifier{Database: "ddl_missing", Table: "t"}, s, false)
		require.ErrorIs(t, err, catalog.ErrDatabaseNotFound)
		require.NoError(t, ddl.CreateTable(ctx, id, s, false))
		err = ddl.CreateTable(ctx, id, s, false)
		require.ErrorIs(t, err, catalog.ErrTableExists)
		require.ErrorIs(t, err, paimon.ErrTableExists)
		require.NoError(t, ddl.CreateTable(ctx, id, s, true))
		require.ErrorIs(t, ddl.CreateTable(ctx, paimon.Identifier{Database: db, Table: "t$snapshots"}, s, false), catalog.ErrInvalidIdentifier)
		require.Equal(t, []string{"id", "name"}, columns(id))
	})
	t.Run("AlterTable", func(t *testing.T) {
		add := []paimon.SchemaChange{paimon.AddColumn{FieldNames: []string{"extra"}, Type: schema.BigIntType()}}
		require.NoError(t, ddl.AlterTable(ctx, id, add, false))
		require.Equal(t, []string{"id", "name", "extra"}, columns(id))
		missing := paimon.Identifier{Database: db, Table: "missing"}
		require.ErrorIs(t, ddl.AlterTable(ctx, missing, add, false), catalog.ErrTableNotFound)
		require.NoError(t, ddl.AlterTable(ctx, missing, add, true))
		drop := []paimon.SchemaChange{paimon.DropColumn{FieldNames: []string{"no_such_column"}}}
		require.Error(t, ddl.AlterTable(ctx, id, drop, false))
		require.Equal(t, []string{"id", "name", "extra"}, columns(id))
	})
	t.Run("SchemaPaths", func(t *testing.T) { schemaPaths(t, c, ddl, db) })
	t.Run("DropDatabaseNotEmpty", func(t *testing.T) {
		require.ErrorIs(t, ddl.DropDatabase(ctx, db, false, false), catalog.ErrDatabaseNotEmpty)
	})
	t.Run("DropTable", func(t *testing.T) {
		require.NoError(t, ddl.DropTable(ctx, id, false))
		_, err := c.LoadTable(ctx, id)
		require.ErrorIs(t, err, catalog.ErrTableNotFound)
		require.ErrorIs(t, ddl.DropTable(ctx, id, false), catalog.ErrTableNotFound)
		require.NoError(t, ddl.DropTable(ctx, id, true))
	})
	t.Run("DropDatabase", func(t *testing.T) {
		require.NoError(t, ddl.DropDatabase(ctx, db, false, false))
		for d, err := range c.ListDatabases(ctx) {
			require.NoError(t, err)
			require.NotEqual(t, db, d)
		}
		require.ErrorIs(t, ddl.DropDatabase(ctx, db, false, false), catalog.ErrDatabaseNotFound)
		require.NoError(t, ddl.DropDatabase(ctx, db, true, false))
	})
}

// timeMillis matches the creation time of a schema file, the one member
// that differs between two creations of the same schema.
var timeMillis = regexp.MustCompile(`"timeMillis" : [0-9]+`)

// schemaFile returns the latest schema file of the table, timeMillis zeroed.
func schemaFile(t *testing.T, tbl *paimon.Table) string {
	t.Helper()
	meta := tbl.Meta()
	data, err := fs.ReadFile(context.Background(), meta.FS(), meta.SchemaPath(tbl.Schema().ID))
	require.NoError(t, err)
	return timeMillis.ReplaceAllString(string(data), `"timeMillis" : 0`)
}

// schemaPaths checks that one table definition made through each public
// way (schema.NewSchemaBuilder, schema.DecodeSchema, a schema.Schema
// literal) creates the same schema file through the catalog as
// paimon.CreateTable writes on a file system, and that the same changes
// give the same next schema file through the catalog's AlterTable, through
// Table.Alter of the table the catalog loads and through Table.Alter on a
// file system.
func schemaPaths(t *testing.T, c catalog.Catalog, ddl catalog.DDL, db string) {
	ctx := context.Background()
	desc, comment := "the key", "made three ways"
	opts := map[string]string{
		coreoptions.Bucket: "2", coreoptions.FileFormat: "parquet", coreoptions.SnapshotNumRetainedMin: "5",
		coreoptions.ManifestTargetFileSize: "4 mb", coreoptions.ChangelogProducer: "input",
	}
	nested := schema.RowType(schema.NewField(0, "x", schema.IntType()), schema.NewField(0, "y", schema.StringType()))
	built, err := schema.NewSchemaBuilder().
		ColumnWithDescription("id", schema.IntType().NotNull(), desc).
		Column("p", schema.StringType()).
		Column("name", schema.StringType()).
		Column("nested", nested).
		PartitionKeys("p").
		PrimaryKey("id", "p").
		Options(opts).
		Comment(comment).
		Build()
	require.NoError(t, err)
	decoded, err := schema.DecodeSchema([]byte(`{"fields":[
		{"name":"id","type":"INT NOT NULL","description":"the key"},{"name":"p","type":"STRING"},
		{"name":"name","type":"STRING"},
		{"name":"nested","type":{"type":"ROW","fields":[{"name":"x","type":"INT"},{"name":"y","type":"STRING"}]}}],
		"partitionKeys":["p"],"primaryKeys":["id","p"],
		"options":{"bucket":"2","changelog-producer":"input","file.format":"parquet",
			"manifest.target-file-size":"4 mb","snapshot.num-retained.min":"5"},
		"comment":"made three ways"}`))
	require.NoError(t, err)
	literal := &schema.Schema{
		Fields: schema.AssignFieldIDs([]schema.DataField{
			schema.NewField(0, "id", schema.IntType()).WithDescription(desc),
			schema.NewField(0, "p", schema.StringType()),
			schema.NewField(0, "name", schema.StringType()),
			schema.NewField(0, "nested", nested),
		}),
		PartitionKeys: []string{"p"},
		PrimaryKeys:   []string{"id", "p"},
		Options:       opts,
		Comment:       &comment,
	}

	// The reference: the library on a file system.
	ref, err := paimon.CreateTable(ctx, memfs.New(nil), "ref", built)
	require.NoError(t, err)
	want := schemaFile(t, ref)

	id := func(name string) paimon.Identifier { return paimon.Identifier{Database: db, Table: name} }
	defs := map[string]*schema.Schema{"built": built, "decoded": decoded, "literal": literal}
	for _, name := range []string{"built", "decoded", "literal"} {
		require.NoError(t, ddl.CreateTable(ctx, id(name), defs[name], false), name)
		tbl, err := c.LoadTable(ctx, id(name))
		require.NoError(t, err, name)
		require.Equal(t, want, schemaFile(t, tbl), "%s: schema-0", name)
	}

	changes := []paimon.SchemaChange{
		paimon.AddColumn{FieldNames: []string{"extra"}, Type: schema.BigIntType()},
		paimon.SetOption{Key: coreoptions.SnapshotNumRetainedMax, Value: "20"},
		paimon.RemoveOption{Key: coreoptions.ManifestTargetFileSize},
		paimon.RenameColumn{FieldNames: []string{"name"}, NewName: "label"},
		paimon.UpdateComment{Comment: &desc},
	}
	next, err := ref.Alter(ctx, changes...)
	require.NoError(t, err)
	require.Equal(t, int64(1), next.ID)
	ref, err = paimon.OpenTable(ctx, ref.Meta().FS(), "ref", nil)
	require.NoError(t, err)
	want = schemaFile(t, ref)

	require.NoError(t, ddl.AlterTable(ctx, id("built"), changes, false))
	tbl, err := c.LoadTable(ctx, id("decoded"))
	require.NoError(t, err)
	got, err := tbl.Alter(ctx, changes...)
	require.NoError(t, err)
	require.Equal(t, int64(1), got.ID)
	for _, name := range []string{"built", "decoded"} {
		tbl, err := c.LoadTable(ctx, id(name))
		require.NoError(t, err, name)
		require.Equal(t, want, schemaFile(t, tbl), "%s: schema-1", name)
	}
	for _, name := range []string{"built", "decoded", "literal"} {
		require.NoError(t, ddl.DropTable(ctx, id(name), false), name)
	}
}
