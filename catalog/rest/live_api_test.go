package rest_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/catalog"
	"github.com/paimon-go/paimon-go/catalog/rest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/internal/interop"
	"github.com/paimon-go/paimon-go/paimon"
)

// TestLiveCatalogAPI runs the requests the conformance suite does not
// make against Java's RESTCatalogServer: database listing over several
// pages (the server answers 100 names a page), database properties,
// renames, every schema change the server applies, tags and branches,
// each with the errors the server answers.
func TestLiveCatalogAPI(t *testing.T) {
	srv := interop.StartRESTServer(t, interop.RESTServerOptions{Auth: "bear:" + liveToken})
	ctx := context.Background()
	c := openLive(t, srv, nil)

	t.Run("DatabasePages", func(t *testing.T) {
		var want []string
		for i := range 130 {
			name := fmt.Sprintf("p%03d", i)
			require.NoError(t, c.CreateDatabase(ctx, name, false))
			want = append(want, name)
		}
		var got []string
		for d, err := range c.ListDatabases(ctx) {
			require.NoError(t, err)
			got = append(got, d)
		}
		slices.Sort(got)
		require.Equal(t, want, got, "all pages, each name once")
	})

	t.Run("DatabaseProperties", func(t *testing.T) {
		require.NoError(t, c.CreateDatabaseWithOptions(ctx, "props", map[string]string{"a": "1", "b": "2"}, false))
		d, err := c.GetDatabase(ctx, "props")
		require.NoError(t, err)
		require.Equal(t, "props", d.Name)
		require.Equal(t, "1", d.Options["a"])
		require.NoError(t, c.AlterDatabase(ctx, "props", map[string]string{"a": "10", "c": "3"}, []string{"b"}, false))
		d, err = c.GetDatabase(ctx, "props")
		require.NoError(t, err)
		require.Equal(t, "10", d.Options["a"])
		require.Equal(t, "3", d.Options["c"])
		require.NotContains(t, d.Options, "b")
		_, err = c.GetDatabase(ctx, "no_such_db")
		require.ErrorIs(t, err, catalog.ErrDatabaseNotFound)
		require.ErrorIs(t, c.AlterDatabase(ctx, "no_such_db", map[string]string{"a": "1"}, nil, false), catalog.ErrDatabaseNotFound)
		require.NoError(t, c.AlterDatabase(ctx, "no_such_db", map[string]string{"a": "1"}, nil, true))
		require.ErrorIs(t, c.CreateDatabase(ctx, "props", false), catalog.ErrDatabaseExists)
	})

	require.NoError(t, c.CreateDatabase(ctx, "db", false))
	id := func(name string) paimon.Identifier { return paimon.Identifier{Database: "db", Table: name} }

	t.Run("RenameTable", func(t *testing.T) {
		require.NoError(t, c.CreateTable(ctx, id("r1"), liveSchema(t), false))
		require.NoError(t, c.CreateTable(ctx, id("other"), liveSchema(t), false))
		tbl, err := c.LoadTable(ctx, id("r1"))
		require.NoError(t, err)
		goWrite(t, tbl, "go", 1, liveRows(0, 6))
		before, err := c.GetTable(ctx, id("r1"))
		require.NoError(t, err)
		require.NoError(t, c.RenameTable(ctx, id("r1"), id("r2"), false))
		_, err = c.LoadTable(ctx, id("r1"))
		require.ErrorIs(t, err, catalog.ErrTableNotFound)
		// The server keeps the table's metadata under the new name. (Java's
		// test server also moves the table's directory but keeps the old
		// path in that metadata, so the data is not read here: a client
		// reads where the server says, and Java's RESTCatalog would fail
		// the same way.)
		after, err := c.GetTable(ctx, id("r2"))
		require.NoError(t, err)
		require.Equal(t, before.ID, after.ID)
		require.Equal(t, before.SchemaID, after.SchemaID)
		var names []string
		for n, err := range c.ListTables(ctx, "db") {
			require.NoError(t, err)
			names = append(names, n.Table)
		}
		require.Contains(t, names, "r2")
		require.NotContains(t, names, "r1")
		require.ErrorIs(t, c.RenameTable(ctx, id("r1"), id("r3"), false), catalog.ErrTableNotFound)
		require.NoError(t, c.RenameTable(ctx, id("r1"), id("r3"), true))
		require.ErrorIs(t, c.RenameTable(ctx, id("r2"), id("other"), false), catalog.ErrTableExists)
	})

	t.Run("SchemaChanges", func(t *testing.T) {
		// The same changes applied by the server and by this library to
		// a file-system table give the same schema.
		desc, comment := "the label", "table comment"
		changes := []paimon.SchemaChange{
			paimon.SetOption{Key: "snapshot.num-retained.min", Value: "3"},
			paimon.SetOption{Key: "manifest.target-file-size", Value: "4 mb"},
			paimon.RemoveOption{Key: "manifest.target-file-size"},
			paimon.UpdateComment{Comment: &comment},
			paimon.AddColumn{FieldNames: []string{"extra"}, Type: schema.IntType(), Move: &paimon.ColumnMove{Type: paimon.MoveAfter, ReferenceFieldName: "id"}},
			paimon.AddColumn{FieldNames: []string{"tail"}, Type: schema.StringType(), Description: &desc},
			paimon.RenameColumn{FieldNames: []string{"name"}, NewName: "label"},
			paimon.UpdateColumnType{FieldNames: []string{"extra"}, Type: schema.BigIntType()},
			paimon.UpdateColumnComment{FieldNames: []string{"label"}, Comment: &desc},
			paimon.UpdateColumnNullability{FieldNames: []string{"tail"}, Nullable: true},
			paimon.UpdateColumnPosition{Move: paimon.ColumnMove{Type: paimon.MoveFirst, FieldName: "label"}},
			paimon.DropColumn{FieldNames: []string{"tail"}},
		}
		require.NoError(t, c.CreateTable(ctx, id("alter"), liveSchema(t), false))
		require.NoError(t, c.AlterTable(ctx, id("alter"), changes, false))
		tbl, err := c.LoadTable(ctx, id("alter"))
		require.NoError(t, err)
		got := tbl.Schema()

		local, err := localfs.New(t.TempDir(), nil)
		require.NoError(t, err)
		defer local.Close()
		localTbl, err := paimon.CreateTable(ctx, local, "t", liveSchema(t))
		require.NoError(t, err)
		want, err := localTbl.Alter(ctx, changes...)
		require.NoError(t, err)
		require.Equal(t, want.Fields, got.Fields)
		require.Equal(t, want.HighestFieldID, got.HighestFieldID)
		require.Equal(t, want.PartitionKeys, got.PartitionKeys)
		require.Equal(t, want.Comment, got.Comment)
		require.Equal(t, "3", got.Options["snapshot.num-retained.min"])
		require.NotContains(t, got.Options, "manifest.target-file-size")
		for k, v := range want.Options {
			require.Equal(t, v, got.Options[k], "option %s", k)
		}

		// Table.Alter checks the changes before they go to the server, so
		// the refusals are those of the filesystem catalog; nothing
		// changes.
		err = c.AlterTable(ctx, id("alter"), []paimon.SchemaChange{paimon.RenameColumn{FieldNames: []string{"label"}, NewName: "id"}}, false)
		require.ErrorIs(t, err, paimon.ErrColumnExists)
		err = c.AlterTable(ctx, id("alter"), []paimon.SchemaChange{paimon.DropColumn{FieldNames: []string{"dt"}}}, false)
		require.ErrorIs(t, err, paimon.ErrSchemaChangeRefused)
		tbl, err = c.LoadTable(ctx, id("alter"))
		require.NoError(t, err)
		require.Equal(t, got.ID, tbl.Schema().ID)
	})

	t.Run("Tags", func(t *testing.T) {
		require.NoError(t, c.CreateTable(ctx, id("tagged"), liveSchema(t), false))
		tbl, err := c.LoadTable(ctx, id("tagged"))
		require.NoError(t, err)
		goWrite(t, tbl, "go", 1, liveRows(0, 3))
		goWrite(t, tbl, "go", 2, liveRows(3, 6))
		require.NoError(t, c.CreateTag(ctx, id("tagged"), "first", 1, ""))
		require.NoError(t, c.CreateTag(ctx, id("tagged"), "latest", 0, "1 d"))
		tg, err := c.GetTag(ctx, id("tagged"), "first")
		require.NoError(t, err)
		require.Equal(t, int64(1), tg.Snapshot.ID)
		tg, err = c.GetTag(ctx, id("tagged"), "latest")
		require.NoError(t, err)
		require.Equal(t, int64(2), tg.Snapshot.ID)
		var names []string
		for n, err := range c.ListTags(ctx, id("tagged")) {
			require.NoError(t, err)
			names = append(names, n)
		}
		slices.Sort(names)
		require.Equal(t, []string{"first", "latest"}, names)
		require.ErrorIs(t, c.CreateTag(ctx, id("tagged"), "first", 2, ""), paimon.ErrTagExists)
		require.ErrorIs(t, c.CreateTag(ctx, id("tagged"), "nine", 9, ""), paimon.ErrSnapshotNotFound)

		// The tag is on the table's file system too: a time-travel read.
		tagged, err := tbl.Meta().ReadTag(ctx, "first")
		require.NoError(t, err)
		require.Equal(t, int64(1), tagged.Snapshot.ID)

		require.NoError(t, c.DeleteTag(ctx, id("tagged"), "first"))
		_, err = c.GetTag(ctx, id("tagged"), "first")
		require.ErrorIs(t, err, paimon.ErrTagNotFound)
		require.ErrorIs(t, c.DeleteTag(ctx, id("tagged"), "first"), paimon.ErrTagNotFound)
	})

	t.Run("Branches", func(t *testing.T) {
		require.NoError(t, c.CreateTable(ctx, id("branched"), liveSchema(t), false))
		tbl, err := c.LoadTable(ctx, id("branched"))
		require.NoError(t, err)
		goWrite(t, tbl, "go", 1, liveRows(0, 4))
		require.NoError(t, c.CreateTag(ctx, id("branched"), "t1", 1, ""))
		require.NoError(t, c.CreateBranch(ctx, id("branched"), "empty", ""))
		require.NoError(t, c.CreateBranch(ctx, id("branched"), "fromtag", "t1"))
		got, err := c.ListBranches(ctx, id("branched"))
		require.NoError(t, err)
		slices.Sort(got)
		require.Equal(t, []string{"empty", "fromtag"}, got)
		require.ErrorIs(t, c.CreateBranch(ctx, id("branched"), "empty", ""), rest.ErrBranchExists)
		require.ErrorIs(t, c.CreateBranch(ctx, id("branched"), "bad", "no_such_tag"), paimon.ErrTagNotFound)

		// The branch made from the tag has its rows; a commit to the
		// branch goes through the server and leaves main alone.
		bt, err := c.LoadTable(ctx, paimon.Identifier{Database: "db", Table: "branched", Branch: "fromtag"})
		require.NoError(t, err)
		require.Equal(t, canonLines(t, liveRows(0, 4)), goRead(t, bt))
		goWrite(t, bt, "go-b", 1, liveRows(4, 7))
		require.Equal(t, canonLines(t, liveRows(0, 7)), goRead(t, bt))
		s, _, err := c.LatestSnapshot(ctx, paimon.Identifier{Database: "db", Table: "branched", Branch: "fromtag"})
		require.NoError(t, err)
		require.Equal(t, int64(2), s.ID)
		require.Equal(t, canonLines(t, liveRows(0, 4)), goRead(t, tbl))

		require.NoError(t, c.DropBranch(ctx, id("branched"), "empty"))
		require.ErrorIs(t, c.DropBranch(ctx, id("branched"), "empty"), rest.ErrBranchNotFound)
		got, err = c.ListBranches(ctx, id("branched"))
		require.NoError(t, err)
		require.Equal(t, []string{"fromtag"}, got)

		// The table's own branch operations go to the server (Java
		// CatalogBranchManager).
		require.NoError(t, tbl.CreateBranch(ctx, "viatable", &paimon.CreateBranchOptions{Tag: "t1"}))
		got, err = c.ListBranches(ctx, id("branched"))
		require.NoError(t, err)
		slices.Sort(got)
		require.Equal(t, []string{"fromtag", "viatable"}, got)
		require.ErrorIs(t, tbl.CreateBranch(ctx, "viatable", nil), paimon.ErrBranchExists)
		require.ErrorIs(t, tbl.CreateBranch(ctx, "atsnap", &paimon.CreateBranchOptions{SnapshotID: 1}), paimon.ErrUnsupported)
		require.NoError(t, tbl.DropBranch(ctx, "viatable"))
		require.ErrorIs(t, tbl.DropBranch(ctx, "viatable"), paimon.ErrBranchNotFound)
		require.ErrorIs(t, tbl.FastForward(ctx, "nosuch"), paimon.ErrBranchNotFound)
		require.NoError(t, tbl.FastForward(ctx, "fromtag"))
		s, _, err = c.LatestSnapshot(ctx, id("branched"))
		require.NoError(t, err)
		require.Equal(t, int64(2), s.ID, "main continues as the branch")
		main, err := c.LoadTable(ctx, id("branched"))
		require.NoError(t, err)
		require.Equal(t, canonLines(t, liveRows(0, 7)), goRead(t, main))
	})
}
