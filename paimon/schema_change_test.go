package paimon_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/memfs"
	"github.com/paimon-go/paimon-go/paimon"
)

func ptr[T any](v T) *T { return &v }

func mustType(t *testing.T, s string) schema.DataType {
	t.Helper()
	dt, err := schema.ParseType(s)
	require.NoError(t, err)
	return dt
}

// alterFixture is a primary-key table partitioned by p, with a nested ROW,
// an ARRAY and a MAP column:
//
//	id INT NOT NULL (pk), p STRING (partition), v INT, s STRING,
//	r ROW<x INT, y STRING>, arr ARRAY<INT>, m MAP<STRING, ROW<q INT>>
func alterFixture(t *testing.T, opts map[string]string, snapshots bool) (fs.FS, string) {
	t.Helper()
	ctx := context.Background()
	b := schema.NewSchemaBuilder().
		Column("id", schema.IntType()).
		Column("p", schema.StringType()).
		Column("v", schema.IntType()).
		Column("s", schema.StringType()).
		Column("r", mustType(t, "ROW<x INT, y STRING>")).
		Column("arr", mustType(t, "ARRAY<INT>")).
		Column("m", mustType(t, "MAP<STRING, ROW<q INT>>")).
		PrimaryKey("id", "p").PartitionKeys("p").Option("bucket", "2").Options(opts)
	s, err := b.Build()
	require.NoError(t, err)
	fsys := memfs.New(nil)
	_, err = paimon.CreateTable(ctx, fsys, "t", s)
	require.NoError(t, err)
	if snapshots {
		require.NoError(t, fs.WriteFile(ctx, fsys, "t/snapshot/snapshot-1", []byte("{}"), nil))
	}
	return fsys, "t"
}

func names(fields []schema.DataField) []string {
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = f.Name
	}
	return out
}

// alterTable opens the table in directory path of fsys and alters it
// through Table.Alter, the one way to change a schema.
func alterTable(ctx context.Context, fsys fs.FS, path string, changes ...paimon.SchemaChange) (*schema.TableSchema, error) {
	tbl, err := paimon.OpenTable(ctx, fsys, path, nil)
	if err != nil {
		return nil, err
	}
	return tbl.Alter(ctx, changes...)
}

func TestAlterTable(t *testing.T) {
	tests := []struct {
		name      string
		opts      map[string]string
		snapshots bool
		changes   []paimon.SchemaChange
		check     func(t *testing.T, ts *schema.TableSchema)
	}{
		{
			name: "add columns at positions",
			changes: []paimon.SchemaChange{
				paimon.AddColumn{FieldNames: []string{"first"}, Type: schema.IntType(), Move: &paimon.ColumnMove{Type: paimon.MoveFirst}},
				paimon.AddColumn{FieldNames: []string{"after_v"}, Type: schema.IntType(), Move: &paimon.ColumnMove{Type: paimon.MoveAfter, ReferenceFieldName: "v"}},
				paimon.AddColumn{FieldNames: []string{"before_s"}, Type: schema.IntType(), Description: ptr("bs"), Move: &paimon.ColumnMove{Type: paimon.MoveBefore, ReferenceFieldName: "s"}},
				paimon.AddColumn{FieldNames: []string{"last"}, Type: mustType(t, "ROW<a INT, b ROW<c INT>>")},
			},
			check: func(t *testing.T, ts *schema.TableSchema) {
				require.Equal(t, []string{"first", "id", "p", "v", "after_v", "before_s", "s", "r", "arr", "m", "last"}, names(ts.Fields))
				// fixture ids: id=0 p=1 v=2 s=3 r=4 x=5 y=6 arr=7 m=8 q=9
				require.Equal(t, 10, ts.Fields[0].ID)
				require.Equal(t, "bs", *ts.Fields[5].Description)
				last := ts.Fields[10]
				require.Equal(t, 13, last.ID)
				require.Equal(t, map[string]int{"last": 13, "last.a": 14, "last.b": 16, "last.b.c": 15}, fieldIDs([]schema.DataField{last}))
				require.Equal(t, 16, ts.HighestFieldID)
			},
		},
		{
			name:    "add column before the partition columns",
			opts:    map[string]string{"add-column-before-partition": "true"},
			changes: []paimon.SchemaChange{paimon.AddColumn{FieldNames: []string{"n"}, Type: schema.IntType()}},
			check: func(t *testing.T, ts *schema.TableSchema) {
				require.Equal(t, []string{"id", "n", "p", "v", "s", "r", "arr", "m"}, names(ts.Fields))
			},
		},
		{
			name: "nested fields",
			changes: []paimon.SchemaChange{
				paimon.AddColumn{FieldNames: []string{"r", "z"}, Type: schema.BigIntType()},
				paimon.RenameColumn{FieldNames: []string{"r", "x"}, NewName: "x2"},
				paimon.DropColumn{FieldNames: []string{"r", "y"}},
				paimon.UpdateColumnType{FieldNames: []string{"arr", "element"}, Type: schema.BigIntType()},
				paimon.AddColumn{FieldNames: []string{"m", "value", "w"}, Type: schema.StringType()},
				paimon.UpdateColumnComment{FieldNames: []string{"m", "value", "q"}, Comment: ptr("q!")},
			},
			check: func(t *testing.T, ts *schema.TableSchema) {
				r, _ := ts.FieldByName("r")
				require.Equal(t, "ROW<`x2` INT, `z` BIGINT>", r.Type.String())
				require.Equal(t, 10, r.Type.Fields[1].ID)
				arr, _ := ts.FieldByName("arr")
				require.Equal(t, "ARRAY<BIGINT>", arr.Type.String())
				m, _ := ts.FieldByName("m")
				require.Equal(t, []string{"q", "w"}, names(m.Type.Value.Fields))
				require.Equal(t, "q!", *m.Type.Value.Fields[0].Description)
			},
		},
		{
			name: "types, comments, positions",
			opts: map[string]string{"alter-column-null-to-not-null.disabled": "false"},
			changes: []paimon.SchemaChange{
				paimon.UpdateColumnType{FieldNames: []string{"v"}, Type: schema.BigIntType().NotNull(), KeepNullability: true},
				paimon.UpdateColumnType{FieldNames: []string{"s"}, Type: schema.IntType()},
				paimon.UpdateColumnNullability{FieldNames: []string{"s"}, Nullable: false},
				paimon.UpdateColumnComment{FieldNames: []string{"v"}, Comment: ptr("vee")},
				paimon.UpdateComment{Comment: ptr("table")},
				paimon.UpdateColumnPosition{Move: paimon.ColumnMove{Type: paimon.MoveFirst, FieldName: "s"}},
				paimon.UpdateColumnPosition{Move: paimon.ColumnMove{Type: paimon.MoveAfter, FieldName: "id", ReferenceFieldName: "m"}},
				paimon.UpdateColumnPosition{Move: paimon.ColumnMove{Type: paimon.MoveBefore, FieldName: "arr", ReferenceFieldName: "p"}},
			},
			check: func(t *testing.T, ts *schema.TableSchema) {
				require.Equal(t, []string{"s", "arr", "p", "v", "r", "m", "id"}, names(ts.Fields))
				v, _ := ts.FieldByName("v")
				require.Equal(t, "BIGINT", v.Type.String(), "nullability kept")
				require.Equal(t, "vee", *v.Description)
				s, _ := ts.FieldByName("s")
				require.Equal(t, "INT NOT NULL", s.Type.String())
				require.Equal(t, "table", *ts.Comment)
			},
		},
		{
			name: "options, renames follow into keys and options",
			opts: map[string]string{"merge-engine": "aggregation", "fields.v.aggregate-function": "sum",
				"sequence.field": "s", "fields.s.sequence-group": "v"},
			snapshots: true,
			changes: []paimon.SchemaChange{
				paimon.RenameColumn{FieldNames: []string{"v"}, NewName: "v2"},
				paimon.RenameColumn{FieldNames: []string{"s"}, NewName: "s2"},
				paimon.RenameColumn{FieldNames: []string{"id"}, NewName: "key"},
				paimon.SetOption{Key: "snapshot.num-retained.max", Value: "100"},
				paimon.SetOption{Key: "bucket", Value: "4"},
				paimon.RemoveOption{Key: "no-such-option"},
			},
			check: func(t *testing.T, ts *schema.TableSchema) {
				require.Equal(t, []string{"key", "p"}, ts.PrimaryKeys)
				require.Equal(t, map[string]string{"bucket": "4", "merge-engine": "aggregation",
					"fields.v2.aggregate-function": "sum", "sequence.field": "s2", "fields.s2.sequence-group": "v2",
					"snapshot.num-retained.max": "100"}, ts.Options)
			},
		},
		{
			name:    "immutable options change freely before the first snapshot",
			changes: []paimon.SchemaChange{paimon.SetOption{Key: "merge-engine", Value: "first-row"}, paimon.RemoveOption{Key: "bucket"}},
			check: func(t *testing.T, ts *schema.TableSchema) {
				require.Equal(t, map[string]string{"merge-engine": "first-row"}, ts.Options)
			},
		},
		{
			name: "drop primary key before the first snapshot",
			// Java checks drops against the schema before the changes: the
			// old key column stays, NOT NULL.
			changes: []paimon.SchemaChange{paimon.RemoveOption{Key: "bucket"}, paimon.DropPrimaryKey{}, &paimon.DropColumn{FieldNames: []string{"v"}}},
			check: func(t *testing.T, ts *schema.TableSchema) {
				require.Empty(t, ts.PrimaryKeys)
				require.Equal(t, []string{"id", "p", "s", "r", "arr", "m"}, names(ts.Fields))
				require.False(t, ts.Fields[0].Type.Nullable)
				require.Equal(t, 9, ts.HighestFieldID, "dropped ids stay used")
			},
		},
	}
	ctx := context.Background()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys, path := alterFixture(t, tt.opts, tt.snapshots)
			ts, err := alterTable(ctx, fsys, path, tt.changes...)
			require.NoError(t, err)
			require.Equal(t, int64(1), ts.ID)
			tt.check(t, ts)
			latest, err := paimon.NewTableMeta(fsys, path).LatestSchema(ctx)
			require.NoError(t, err)
			require.Equal(t, ts.Fields, latest.Fields, "the file holds the returned schema")
			require.Equal(t, ts.Options, latest.Options)
		})
	}
}

func TestAlterTableRefused(t *testing.T) {
	tests := []struct {
		name      string
		opts      map[string]string
		snapshots bool
		change    paimon.SchemaChange
		want      error
		msg       string
	}{
		{"drop primary key column", nil, false, paimon.DropColumn{FieldNames: []string{"id"}}, paimon.ErrSchemaChangeRefused, "primary key"},
		{"drop partition column", nil, false, paimon.DropColumn{FieldNames: []string{"p"}}, paimon.ErrSchemaChangeRefused, "partition key"},
		{"drop missing column", nil, false, paimon.DropColumn{FieldNames: []string{"zz"}}, paimon.ErrColumnNotFound, "zz"},
		{"drop missing nested column", nil, false, paimon.DropColumn{FieldNames: []string{"r", "zz"}}, paimon.ErrColumnNotFound, "r.zz"},
		{"drop through missing parent", nil, false, paimon.DropColumn{FieldNames: []string{"zz", "x"}}, paimon.ErrColumnNotFound, "zz"},
		{"drop the last nested field", nil, false, paimon.DropColumn{FieldNames: []string{"m", "value", "q"}}, paimon.ErrSchemaChangeRefused, "all fields"},
		{"rename partition column", nil, false, paimon.RenameColumn{FieldNames: []string{"p"}, NewName: "p2"}, paimon.ErrSchemaChangeRefused, "partition"},
		{"rename onto an existing column", nil, false, paimon.RenameColumn{FieldNames: []string{"v"}, NewName: "s"}, paimon.ErrColumnExists, "s"},
		{"rename missing column", nil, false, paimon.RenameColumn{FieldNames: []string{"zz"}, NewName: "y"}, paimon.ErrColumnNotFound, "zz"},
		{"add existing column", nil, false, paimon.AddColumn{FieldNames: []string{"v"}, Type: schema.IntType()}, paimon.ErrColumnExists, "v"},
		{"add existing nested field", nil, false, paimon.AddColumn{FieldNames: []string{"r", "x"}, Type: schema.IntType()}, paimon.ErrColumnExists, "r.x"},
		{"add NOT NULL column", nil, false, paimon.AddColumn{FieldNames: []string{"n"}, Type: schema.IntType().NotNull()}, paimon.ErrSchemaChangeRefused, "NOT NULL"},
		{"add after missing column", nil, false, paimon.AddColumn{FieldNames: []string{"n"}, Type: schema.IntType(),
			Move: &paimon.ColumnMove{Type: paimon.MoveAfter, ReferenceFieldName: "zz"}}, paimon.ErrColumnNotFound, "zz"},
		{"add invalid type", nil, false, paimon.AddColumn{FieldNames: []string{"n"}, Type: schema.DecimalType(50, 2)}, paimon.ErrSchemaChangeRefused, "DECIMAL"},
		{"add with empty path", nil, false, paimon.AddColumn{Type: schema.IntType()}, paimon.ErrSchemaChangeRefused, "empty column path"},
		{"retype primary key", nil, false, paimon.UpdateColumnType{FieldNames: []string{"id"}, Type: schema.BigIntType()}, paimon.ErrSchemaChangeRefused, "primary key"},
		{"retype partition column", nil, false, paimon.UpdateColumnType{FieldNames: []string{"p"}, Type: schema.IntType()}, paimon.ErrSchemaChangeRefused, "partition"},
		{"retype to an incompatible type", nil, false, paimon.UpdateColumnType{FieldNames: []string{"v"}, Type: schema.DateType()}, paimon.ErrSchemaChangeRefused, "cannot be converted"},
		{"retype whole array", nil, false, paimon.UpdateColumnType{FieldNames: []string{"arr"}, Type: mustType(t, "ARRAY<BIGINT>")}, paimon.ErrSchemaChangeRefused, "cannot be converted"},
		{"explicit cast disabled", map[string]string{"disable-explicit-type-casting": "true"}, false,
			paimon.UpdateColumnType{FieldNames: []string{"s"}, Type: schema.IntType()}, paimon.ErrSchemaChangeRefused, "cannot be converted"},
		{"retype to NOT NULL", nil, false, paimon.UpdateColumnType{FieldNames: []string{"v"}, Type: schema.BigIntType().NotNull()}, paimon.ErrSchemaChangeRefused, "NOT NULL"},
		{"nullable to NOT NULL", nil, false, paimon.UpdateColumnNullability{FieldNames: []string{"v"}}, paimon.ErrSchemaChangeRefused, "NOT NULL"},
		{"primary key nullable", nil, false, paimon.UpdateColumnNullability{FieldNames: []string{"id"}, Nullable: true}, paimon.ErrSchemaChangeRefused, "primary key"},
		{"move relative to itself", nil, false, paimon.UpdateColumnPosition{Move: paimon.ColumnMove{Type: paimon.MoveFirst, FieldName: "id"}}, paimon.ErrSchemaChangeRefused, "itself"},
		{"move missing column", nil, false, paimon.UpdateColumnPosition{Move: paimon.ColumnMove{Type: paimon.MoveLast, FieldName: "zz"}}, paimon.ErrColumnNotFound, "zz"},
		{"immutable option after a snapshot", nil, true, paimon.SetOption{Key: "merge-engine", Value: "first-row"}, paimon.ErrSchemaChangeRefused, "merge-engine"},
		{"remove immutable option after a snapshot", map[string]string{"rowkind.field": "s"}, true, paimon.RemoveOption{Key: "rowkind.field"}, paimon.ErrSchemaChangeRefused, "rowkind.field"},
		{"bucket to -1 after a snapshot", nil, true, paimon.SetOption{Key: "bucket", Value: "-1"}, paimon.ErrSchemaChangeRefused, "bucket to -1"},
		{"reset bucket after a snapshot", nil, true, paimon.RemoveOption{Key: "bucket"}, paimon.ErrSchemaChangeRefused, "reset bucket"},
		{"deletion vectors after a snapshot", nil, true, paimon.SetOption{Key: "deletion-vectors.enabled", Value: "true"}, paimon.ErrSchemaChangeRefused, "deletion vectors"},
		{"ignore-delete back to false", map[string]string{"ignore-delete": "true"}, true, paimon.SetOption{Key: "ignore-delete", Value: "false"}, paimon.ErrSchemaChangeRefused, "ignore-delete"},
		{"drop primary key after a snapshot", nil, true, paimon.DropPrimaryKey{}, paimon.ErrSchemaChangeRefused, "non-empty"},
		{"result fails validation", nil, false, paimon.SetOption{Key: "merge-engine", Value: "nope"}, paimon.ErrInvalidSchema, "merge-engine"},
		{"result has a bad bucket key", nil, false, paimon.SetOption{Key: "bucket-key", Value: "v"}, paimon.ErrInvalidSchema, "bucket key"},
		{"key option clashes with key list", nil, false, paimon.SetOption{Key: "primary-key", Value: "v"}, paimon.ErrInvalidSchema, "primary-key"},
		{"nil change", nil, false, nil, paimon.ErrSchemaChangeRefused, "nil change"},
		{"nil pointer change", nil, false, (*paimon.SetOption)(nil), paimon.ErrSchemaChangeRefused, "nil change"},
	}
	ctx := context.Background()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys, path := alterFixture(t, tt.opts, tt.snapshots)
			_, err := alterTable(ctx, fsys, path, tt.change)
			require.ErrorIs(t, err, tt.want)
			require.ErrorContains(t, err, tt.msg)
			ids, err := paimon.NewTableMeta(fsys, path).SchemaIDs(ctx)
			require.NoError(t, err)
			require.Equal(t, []int64{0}, ids, "nothing written")
		})
	}

	t.Run("missing table", func(t *testing.T) {
		_, err := alterTable(ctx, memfs.New(nil), "nope", paimon.SetOption{Key: "a", Value: "b"})
		require.ErrorIs(t, err, paimon.ErrTableNotFound)
	})
	t.Run("all columns dropped", func(t *testing.T) {
		fsys := memfs.New(nil)
		s, err := schema.NewSchemaBuilder().Column("only", schema.IntType()).Build()
		require.NoError(t, err)
		_, err = paimon.CreateTable(ctx, fsys, "t", s)
		require.NoError(t, err)
		_, err = alterTable(ctx, fsys, "t", paimon.DropColumn{FieldNames: []string{"only"}})
		require.ErrorIs(t, err, paimon.ErrSchemaChangeRefused)
	})
}

// schemaServer is a fakePublisher whose catalog also commits schema changes
// (paimon.CatalogSchemas), as a REST catalog's server does: it applies them
// through Table.Alter on its own file-system view of the table.
type schemaServer struct {
	fakePublisher
	changes [][]paimon.SchemaChange
}

func (p *schemaServer) AlterSchema(ctx context.Context, branch string, changes []paimon.SchemaChange) error {
	p.changes = append(p.changes, changes)
	tbl, err := paimon.OpenTable(ctx, p.fsys, p.dir, &paimon.TableOptions{Branch: branch})
	if err != nil {
		return err
	}
	_, err = tbl.Alter(ctx, changes...)
	return err
}

// TestAlterThroughCatalog: Table.Alter of a table whose catalog commits
// schema changes checks them as on the file system, hands accepted ones to
// the catalog and reads the new schema back.
func TestAlterThroughCatalog(t *testing.T) {
	ctx := context.Background()
	fsys := memfs.New(nil)
	s, err := schema.NewSchemaBuilder().Column("id", schema.IntType().NotNull()).Column("v", schema.StringType()).
		PrimaryKey("id").Build()
	require.NoError(t, err)
	_, err = paimon.CreateTable(ctx, fsys, "db.db/t", s)
	require.NoError(t, err)
	srv := &schemaServer{fakePublisher: fakePublisher{fsys: fsys, dir: "db.db/t"}}
	tbl := openPublished(t, fsys, srv)

	_, err = tbl.Alter(ctx, paimon.DropColumn{FieldNames: []string{"id"}})
	require.ErrorIs(t, err, paimon.ErrSchemaChangeRefused)
	require.Empty(t, srv.changes, "a refused change never reaches the catalog")

	add := paimon.AddColumn{FieldNames: []string{"w"}, Type: schema.BigIntType()}
	ts, err := tbl.Alter(ctx, add)
	require.NoError(t, err)
	require.Len(t, srv.changes, 1)
	require.Equal(t, int64(1), ts.ID)
	require.Equal(t, []string{"id", "v", "w"}, ts.FieldNames())
	require.Equal(t, int64(0), tbl.Schema().ID, "the table keeps the schema it was opened with")

	plain := openPublished(t, fsys, &fakePublisher{fsys: fsys, dir: "db.db/t"})
	_, err = plain.Alter(ctx, paimon.AddColumn{FieldNames: []string{"x"}, Type: schema.BigIntType()})
	require.ErrorIs(t, err, paimon.ErrUnsupported)
}
