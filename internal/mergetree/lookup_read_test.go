package mergetree_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/mergefunc"
	"github.com/paimon-go/paimon-go/internal/mergetree"
)

// TestReadLookupHighLevel reads a bucket as a lookup compaction leaves it
// (Java LookupMergeTreeCompactRewriter): key 1 was folded into level 4 with
// the value looked up at level 5, which was not rewritten, and has a newer
// level-0 version; key 2 has level 5 and its folded level-4 version; key 3
// only level 5. With LookupHighLevel a sum over the versions counts level 0
// and the lowest level above it only, as Java's LookupMergeFunction does;
// without, every level is summed (a plain merge-tree table).
func TestReadLookupHighLevel(t *testing.T) {
	I := data.Insert
	ts := buildSchema(t, schema.NewSchemaBuilder().
		Column("k", schema.IntType()).Column("v", schema.IntType()).PrimaryKey("k"))
	levels := []struct {
		level int32
		rows  []kv
	}{
		{5, []kv{row(1, I, 1, int32(10)), row(2, I, 2, int32(7)), row(3, I, 3, int32(1))}},
		{4, []kv{row(4, I, 1, int32(15)), row(5, I, 2, int32(9))}},
		{0, []kv{row(6, I, 1, int32(5))}},
	}
	sum := factory(func() mergefunc.Function { return &sumFunc{field: 1} })
	for _, tc := range []struct {
		lookup bool
		want   []string
	}{
		{true, []string{`{"k":1,"v":20}`, `{"k":2,"v":9}`, `{"k":3,"v":1}`}},
		{false, []string{`{"k":1,"v":30}`, `{"k":2,"v":16}`, `{"k":3,"v":1}`}},
	} {
		mem := checked(t)
		m := newMemTable(ts)
		var files []manifest.DataFileMeta
		for i, l := range levels {
			f := m.addFile(t, mem, string(rune('a'+i)), l.rows, 2)
			f.Level = l.level
			files = append(files, f)
		}
		got, err := readAll(t, files, m.open, &mergetree.Options{Schema: ts, Merge: sum, Allocator: mem, LookupHighLevel: tc.lookup})
		m.release()
		require.NoError(t, err)
		require.Equal(t, tc.want, got, "LookupHighLevel=%v", tc.lookup)
	}
}
