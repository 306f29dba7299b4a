package paimon_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/memfs"
	"github.com/paimon-go/paimon-go/paimon"
)

func fieldIDs(fields []schema.DataField) map[string]int {
	ids := map[string]int{}
	var walk func(prefix string, fs []schema.DataField)
	walk = func(prefix string, fs []schema.DataField) {
		for _, f := range fs {
			ids[prefix+f.Name] = f.ID
			walk(prefix+f.Name+".", f.Type.Fields)
		}
	}
	walk("", fields)
	return ids
}

func TestDecodeSchemaCreates(t *testing.T) {
	tests := []struct {
		name    string
		json    string
		wantIDs map[string]int
		check   func(t *testing.T, s *schema.Schema)
		wantErr string
	}{
		{
			name: "plan form with ids and null comment",
			json: `{"fields":[{"id":0,"name":"k","type":"STRING NOT NULL"},{"id":5,"name":"n","type":"INT"}],
				"partitionKeys":[],"primaryKeys":[],"options":{"bucket":"3","bucket-key":"k"},"comment":null}`,
			wantIDs: map[string]int{"k": 0, "n": 5},
			check: func(t *testing.T, s *schema.Schema) {
				require.Nil(t, s.Comment)
				require.Equal(t, map[string]string{"bucket": "3", "bucket-key": "k"}, s.Options)
			},
		},
		{
			name: "ids assigned like Java's builder, nested rows after their column",
			json: `{"fields":[{"name":"a","type":"INT"},
				{"name":"b","type":{"type":"ROW","fields":[{"name":"x","type":"INT"},
					{"name":"y","type":{"type":"ROW","fields":[{"name":"p","type":"INT"}]}}]}},
				{"name":"c","type":"STRING","description":"the c"}]}`,
			wantIDs: map[string]int{"a": 0, "b": 1, "b.x": 2, "b.y.p": 3, "b.y": 4, "c": 5},
			check: func(t *testing.T, s *schema.Schema) {
				require.Equal(t, "the c", *s.Fields[2].Description)
				require.Empty(t, s.PrimaryKeys)
			},
		},
		{
			name:    "key options move into the key lists, primary-key columns become NOT NULL",
			json:    `{"fields":[{"id":0,"name":"id","type":"INT"},{"id":1,"name":"p","type":"STRING"}],"options":{"primary-key":" id , p","partition":"p","bucket":2,"x":true}}`,
			wantIDs: map[string]int{"id": 0, "p": 1},
			check: func(t *testing.T, s *schema.Schema) {
				require.Equal(t, []string{"id", "p"}, s.PrimaryKeys)
				require.Equal(t, []string{"p"}, s.PartitionKeys)
				require.Equal(t, map[string]string{"bucket": "2", "x": "true"}, s.Options)
				require.False(t, s.Fields[0].Type.Nullable)
			},
		},
		{name: "some ids only", json: `{"fields":[{"id":0,"name":"a","type":"INT"},{"name":"b","type":"INT"}]}`, wantErr: "some fields have ids"},
		{name: "not JSON", json: `{"fields":`, wantErr: "not valid JSON"},
		{name: "not an object", json: `[1]`, wantErr: "not a JSON object"},
		{name: "bad type", json: `{"fields":[{"id":0,"name":"a","type":"INTEGRAL"}]}`, wantErr: "INTEGRAL"},
		{name: "option object value", json: `{"fields":[{"id":0,"name":"a","type":"INT"}],"options":{"a":{}}}`, wantErr: "option \"a\""},
		{name: "primary key twice", json: `{"fields":[{"id":0,"name":"a","type":"INT"}],"primaryKeys":["a"],"options":{"primary-key":"a"}}`, wantErr: "primary-key"},
		{name: "unknown partition column", json: `{"fields":[{"id":0,"name":"a","type":"INT"}],"partitionKeys":["z"]}`, wantErr: "not a column"},
		{name: "duplicate column", json: `{"fields":[{"id":0,"name":"a","type":"INT"},{"id":1,"name":"a","type":"INT"}]}`, wantErr: "not unique"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := schema.DecodeSchema([]byte(tt.json))
			if tt.wantErr != "" {
				require.ErrorIs(t, err, schema.ErrInvalidSchema)
				require.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.wantIDs, fieldIDs(s.Fields))
			if tt.check != nil {
				tt.check(t, s)
			}
		})
	}
}

func TestSchemaBuilder(t *testing.T) {
	ctx := context.Background()
	inner := schema.RowType(schema.NewField(99, "p", schema.IntType()))
	s, err := schema.NewSchemaBuilder().
		Column("a", schema.IntType()).
		Column("b", schema.RowType(schema.NewField(7, "x", schema.IntType()), schema.NewField(7, "y", inner))).
		ColumnWithDescription("c", schema.StringType(), "cc").
		PrimaryKey("a").
		Option("bucket", "2").
		Options(map[string]string{"file.format": "orc"}).
		Comment("tbl").
		Build()
	require.NoError(t, err)
	require.Equal(t, map[string]int{"a": 0, "b": 1, "b.x": 2, "b.y.p": 3, "b.y": 4, "c": 5}, fieldIDs(s.Fields))
	require.False(t, s.Fields[0].Type.Nullable, "primary-key column NOT NULL")
	tbl, err := paimon.CreateTable(ctx, memfs.New(nil), "db.db/t", s)
	require.NoError(t, err)
	ts := tbl.Schema()
	require.Equal(t, 5, ts.HighestFieldID)
	require.Equal(t, "tbl", *ts.Comment)
	require.Equal(t, map[string]string{"bucket": "2", "file.format": "orc"}, ts.Options)
	require.Equal(t, []string{"a"}, tbl.PrimaryKeys())

	// AssignFieldIDs numbers a literal the same way.
	lit := schema.AssignFieldIDs([]schema.DataField{{Name: "a", Type: schema.IntType()}, {Name: "b", Type: inner}})
	require.Equal(t, map[string]int{"a": 0, "b": 1, "b.p": 2}, fieldIDs(lit))
}

func TestCreateTableWritesSchemaZero(t *testing.T) {
	ctx := context.Background()
	fsys := memfs.New(nil)
	s := &schema.Schema{
		Fields:  []schema.DataField{schema.NewField(0, "id", schema.IntType()), schema.NewField(1, "v", schema.StringType())},
		Options: map[string]string{"primary-key": "id", "bucket": "1"},
	}
	tbl, err := paimon.CreateTable(ctx, fsys, "wh/db.db/t", s)
	require.NoError(t, err)
	require.Equal(t, []string{"id"}, tbl.PrimaryKeys())
	require.NotContains(t, tbl.Options(), "primary-key")
	require.Nil(t, s.PrimaryKeys, "the caller's schema is left alone")

	// The file decodes to the returned schema and OpenTable sees it.
	opened, err := paimon.OpenTable(ctx, fsys, "wh/db.db/t", nil)
	require.NoError(t, err)
	require.Equal(t, tbl.Schema().Fields, opened.Schema().Fields)
	require.Equal(t, tbl.Schema().TimeMillis, opened.Schema().TimeMillis)
	require.False(t, opened.Schema().Fields[0].Type.Nullable)

	_, err = paimon.CreateTable(ctx, fsys, "wh/db.db/t", s)
	require.ErrorIs(t, err, paimon.ErrTableExists)

	// Any schema file makes the directory a table (Java lists them all).
	require.NoError(t, fs.WriteFile(ctx, fsys, "wh/db.db/u/schema/schema-3", []byte("x"), nil))
	_, err = paimon.CreateTable(ctx, fsys, "wh/db.db/u", s)
	require.ErrorIs(t, err, paimon.ErrTableExists)

	_, err = paimon.CreateTable(ctx, fsys, "wh/db.db/v", nil)
	require.ErrorIs(t, err, paimon.ErrInvalidSchema)
}

func TestCreateTableConcurrent(t *testing.T) {
	ctx := context.Background()
	fsys := memfs.New(nil)
	const writers = 8
	errs := make([]error, writers)
	var wg sync.WaitGroup
	for i := range writers {
		wg.Go(func() {
			s, err := schema.NewSchemaBuilder().Column(fmt.Sprintf("c%d", i), schema.IntType()).Build()
			if err == nil {
				_, err = paimon.CreateTable(ctx, fsys, "t", s)
			}
			errs[i] = err
		})
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		if err == nil {
			won++
		} else {
			require.ErrorIs(t, err, paimon.ErrTableExists)
		}
	}
	require.Equal(t, 1, won)
}

// TestCreateTableValidation: definitions Java's SchemaValidation refuses
// are refused before anything is written.
func TestCreateTableValidation(t *testing.T) {
	cols := `[{"id":0,"name":"id","type":"INT NOT NULL"},{"id":1,"name":"p","type":"STRING"},
		{"id":2,"name":"v","type":"BIGINT"},{"id":3,"name":"arr","type":{"type":"ARRAY","element":"INT"}},
		{"id":4,"name":"ts","type":"TIMESTAMP(3)"}]`
	def := func(pk, part, opts string) string {
		return fmt.Sprintf(`{"fields":%s,"primaryKeys":%s,"partitionKeys":%s,"options":%s}`, cols, pk, part, opts)
	}
	pk := `["id"]`
	tests := []struct {
		name    string
		json    string
		wantErr string // "" means accepted
	}{
		{"append, defaults", def(`[]`, `[]`, `{}`), ""},
		{"primary key, fixed bucket", def(pk, `[]`, `{"bucket":"2"}`), ""},
		{"primary key, postpone bucket", def(pk, `[]`, `{"bucket":"-2"}`), ""},
		{"append fixed bucket with bucket-key", def(`[]`, `[]`, `{"bucket":"4","bucket-key":"v"}`), ""},
		{"partial-update with sequence group", def(pk, `[]`, `{"merge-engine":"partial-update","fields.ts.sequence-group":"v"}`), ""},
		{"aggregation with known functions", def(pk, `[]`, `{"merge-engine":"aggregation","fields.v.aggregate-function":"sum"}`), ""},
		{"enum values are case-insensitive", def(pk, `[]`, `{"merge-engine":"First-Row","changelog-producer":"LOOKUP","file.format":"ORC"}`), ""},
		{"bucket-key without fixed bucket", def(`[]`, `[]`, `{"bucket-key":"v"}`), "bucket-key"},
		{"fixed bucket append without bucket-key", def(`[]`, `[]`, `{"bucket":"3"}`), "bucket-key"},
		{"zero buckets", def(pk, `[]`, `{"bucket":"0"}`), "greater than 0"},
		{"postpone bucket without primary key", def(`[]`, `[]`, `{"bucket":"-2","bucket-key":"v"}`), "greater than 0"},
		{"bucket not a number", def(pk, `[]`, `{"bucket":"two"}`), "bucket"},
		{"bucket-key on an array", def(`[]`, `[]`, `{"bucket":"2","bucket-key":"arr"}`), "nested type"},
		{"bucket-key outside the primary key", def(pk, `[]`, `{"bucket":"2","bucket-key":"v"}`), "primary key"},
		{"unknown merge engine", def(pk, `[]`, `{"merge-engine":"dedup"}`), "merge-engine"},
		{"unknown changelog producer", def(pk, `[]`, `{"changelog-producer":"always"}`), "changelog-producer"},
		{"changelog producer without primary key", def(`[]`, `[]`, `{"changelog-producer":"input"}`), "without primary keys"},
		{"unknown file format", def(`[]`, `[]`, `{"file.format":"xls"}`), "file format"},
		{"unknown scan mode", def(`[]`, `[]`, `{"scan.mode":"sometimes"}`), "scan.mode"},
		{"scan options conflict", def(`[]`, `[]`, `{"scan.mode":"latest","scan.snapshot-id":"3"}`), "scan.snapshot-id"},
		{"two startup positions", def(`[]`, `[]`, `{"scan.snapshot-id":"3","scan.tag-name":"t"}`), "only one key"},
		{"boolean option not a boolean", def(pk, `[]`, `{"deletion-vectors.enabled":"yes"}`), "true or false"},
		{"array primary key", def(`["arr"]`, `[]`, `{}`), "primary key"},
		{"array partition key", def(`[]`, `["arr"]`, `{}`), "partition"},
		{"upsert key with primary key", def(pk, `[]`, `{"upsert-key":"v"}`), "upsert-key"},
		{"sequence field not a column", def(pk, `[]`, `{"sequence.field":"zz"}`), "sequence field"},
		{"sequence field on first-row", def(pk, `[]`, `{"sequence.field":"ts","merge-engine":"first-row"}`), "first-row"},
		{"sequence field in a cross-partition update", def(pk, `["p"]`, `{"sequence.field":"ts"}`), "cross partition"},
		{"fields option on an unknown column", def(pk, `[]`, `{"fields.zz.ignore-retract":"true"}`), "zz"},
		{"unknown aggregate function", def(pk, `[]`, `{"merge-engine":"aggregation","fields.v.aggregate-function":"median"}`), "median"},
		{"sequence group on an unknown column", def(pk, `[]`, `{"merge-engine":"partial-update","fields.zz.sequence-group":"v"}`), "zz"},
		{"column in two sequence groups", def(pk, `[]`, `{"merge-engine":"partial-update","fields.ts.sequence-group":"v","fields.p.sequence-group":"v"}`), "multiple groups"},
		{"partial-update delete options conflict", def(pk, `[]`, `{"merge-engine":"partial-update","ignore-delete":"true","partial-update.remove-record-on-delete":"true"}`), "conflicting"},
		{"retention minimum zero", def(`[]`, `[]`, `{"snapshot.num-retained.min":"0"}`), "at least 1"},
		{"retention minimum above maximum", def(`[]`, `[]`, `{"snapshot.num-retained.min":"5","snapshot.num-retained.max":"4"}`), "larger"},
		{"changelog retention follows snapshot maximum", def(pk, `[]`, `{"snapshot.num-retained.min":"2","snapshot.num-retained.max":"4","changelog.num-retained.min":"5"}`), "changelog.num-retained.min"},
		{"system column name", `{"fields":[{"id":0,"name":"_SEQUENCE_NUMBER","type":"INT"}]}`, "_SEQUENCE_NUMBER"},
		{"key prefix column name", `{"fields":[{"id":0,"name":"_KEY_id","type":"INT"}]}`, "_KEY_"},
		{"partition expiration without partition", def(`[]`, `[]`, `{"partition.expiration-time":"1 d"}`), "non-partitioned"},
		{"record-level time field of a string", def(pk, `[]`, `{"record-level.time-field":"p"}`), "record level time field"},
		{"rowkind field not a column", def(pk, `[]`, `{"rowkind.field":"kind"}`), "rowkind"},
		{"first-row with full-compaction changelog", def(pk, `[]`, `{"merge-engine":"first-row","changelog-producer":"full-compaction"}`), "first-row"},
		{"deletion vectors on first-row", def(pk, `[]`, `{"merge-engine":"first-row","deletion-vectors.enabled":"true"}`), "deletion vectors"},
		{"deletion vectors with full-compaction changelog", def(pk, `[]`, `{"deletion-vectors.enabled":"true","changelog-producer":"full-compaction"}`), "deletion vectors"},
		{"row tracking with primary key", def(pk, `[]`, `{"row-tracking.enabled":"true"}`), "row tracking"},
		{"data evolution without row tracking", def(`[]`, `[]`, `{"data-evolution.enabled":"true"}`), "row-tracking"},
		{"blob column without data evolution", `{"fields":[{"id":0,"name":"a","type":"INT"},{"id":1,"name":"b","type":"BLOB"}]}`, "BLOB"},
		{"streaming read overwrite on append", def(`[]`, `[]`, `{"streaming-read-overwrite":"true"}`), "overwrite"},
		{"sequence number read on append", def(`[]`, `[]`, `{"table-read.sequence-number.enabled":"true"}`), "non-primary-key"},
		{"fallback branch that does not exist", def(`[]`, `[]`, `{"scan.fallback-branch":"b1"}`), "branch"},
	}
	ctx := context.Background()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := schema.DecodeSchema([]byte(tt.json))
			require.NoError(t, err)
			fsys := memfs.New(nil)
			_, err = paimon.CreateTable(ctx, fsys, "t", s)
			if tt.wantErr == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, paimon.ErrInvalidSchema)
			require.ErrorContains(t, err, tt.wantErr)
			ok, err := fs.Exists(ctx, fsys, "t/schema/schema-0")
			require.NoError(t, err)
			require.False(t, ok, "nothing written")
			require.False(t, errors.Is(err, paimon.ErrTableExists))
		})
	}
}
