package paimon_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/catalog"
	"github.com/paimon-go/paimon-go/catalog/filesystem"
	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/memfs"
	"github.com/paimon-go/paimon-go/paimon"
)

// Hostile input (issue 7): names that could leave the warehouse are
// refused, and partition values full of path syntax round-trip exactly and
// land in the directory Java names, inside the table directory.

var hostileNames = []string{"a/b", "..", ".", "../x", "x/..", "a\\b", "..hidden", "", "/abs", "new\nline", "tab\tname", "nul\x00", "del\x7f"}

func TestHostileNames(t *testing.T) {
	ctx := context.Background()
	fsys := memfs.New(nil)
	cat := filesystem.New(fsys, "wh", nil)
	require.NoError(t, cat.CreateDatabase(ctx, "db", false))
	s, err := schema.NewSchemaBuilder().Column("id", schema.BigIntType()).Build()
	require.NoError(t, err)
	refused := 0
	for _, name := range hostileNames {
		err := cat.CreateDatabase(ctx, name, false)
		require.ErrorIs(t, err, catalog.ErrInvalidIdentifier, "database %q", name)
		for _, id := range []paimon.Identifier{{Database: name, Table: "t"}, {Database: "db", Table: name}} {
			err := cat.CreateTable(ctx, id, s, false)
			require.ErrorIs(t, err, catalog.ErrInvalidIdentifier, "create %+v", id)
			_, err = cat.LoadTable(ctx, id)
			require.ErrorIs(t, err, catalog.ErrInvalidIdentifier, "load %+v", id)
			refused += 3
		}
		// By path, names that are not clean relative paths are refused too.
		if name != "" && !fs.ValidName("wh/db.db/"+name) {
			_, err := paimon.CreateTable(ctx, fsys, "wh/db.db/"+name, s)
			require.ErrorIs(t, err, fs.ErrInvalidName, "path %q", name)
			_, err = paimon.OpenTable(ctx, fsys, "wh/db.db/"+name, nil)
			require.Error(t, err)
			refused += 2
		}
	}
	// Nothing was created but the database directory.
	require.Empty(t, relListAll(t, fsys))
	root, err := fs.ReadDir(ctx, fsys, ".")
	require.NoError(t, err)
	require.Len(t, root, 1)
	require.Equal(t, "wh", root[0].Name)
	relFigures(t, "hostile names %d, operations refused %d", len(hostileNames), refused)
}

// javaPartitionDir is the directory Java 1.4.2 gives a STRING partition
// value that is valid UTF-8, written out independently of
// internal/partpath: a whitespace-only value becomes the default partition
// name, and PartitionPathUtils.escapePathName writes each char below 0x80
// that is a control character or one of "#%'*/:=?\{}[]^ as %XX. (Values
// that are not UTF-8 are decoded by BinaryString.toString first; see
// nonUTF8Values.)
func javaPartitionDir(s string) string {
	if strings.TrimFunc(s, func(r rune) bool { return strings.ContainsRune(" \t\n\v\f\r\x1c\x1d\x1e\x1f", r) }) == "" {
		return "dt=__DEFAULT_PARTITION__"
	}
	var sb strings.Builder
	sb.WriteString("dt=")
	for _, r := range s {
		if r < 0x80 && (r < ' ' || r == 0x7f || strings.ContainsRune("\"#%'*/:=?\\{}[]^", r)) {
			fmt.Fprintf(&sb, "%%%02X", r)
		} else {
			sb.WriteRune(r)
		}
	}
	return sb.String()
}

var hostileValues = []string{
	"a/b", "a=b", "100%", "%2F", "#x", "line\nbreak", "tab\there", "with space", " ", "\n",
	"..", "../../escape", "/abs", "a\\b", "?*:[]{}^'\"", "é/ü", "日本", "\x7f", "\x01",
}

// nonUTF8Values are valid Go strings but not UTF-8, with the text Java
// renders them as: BinaryString.toString decodes them with new String(bytes,
// UTF_8), which gives one U+FFFD per malformed sequence (the texts were
// printed by OpenJDK 17 and 25). The last three differ from Go's one U+FFFD
// per invalid byte: a sequence cut short, a surrogate, a cut 4-byte one.
var nonUTF8Values = []struct{ value, java string }{
	{"bad\xffbyte", "bad\ufffdbyte"},
	{"\xfe", "\ufffd"},
	{"a/\xe2\x82", "a/\ufffd"},
	{"s\xed\xa0\x80=", "s\ufffd="},
	{"\xf0\x9f\x98 x", "\ufffd x"},
}

func TestHostilePartitionValues(t *testing.T) {
	for _, be := range crashBackends {
		t.Run(be.name, func(t *testing.T) {
			ctx := context.Background()
			fsys := be.new(t)
			const dir = "t"
			relCreate(t, fsys, dir, true, nil)
			var rows [][]any
			for i, v := range hostileValues {
				rows = append(rows, []any{v, int64(i), fmt.Sprintf("n%d", i), float64(i)})
			}
			_, err := relWrite(ctx, fsys, dir, "u", 1, rows)
			require.NoError(t, err)
			got, err := relRows(ctx, fsys, dir)
			require.NoError(t, err)
			require.Equal(t, relRender(t, rows), got, "values round-trip exactly")

			// Every file is in the table directory, data files in the
			// directory Java names.
			want := map[string]bool{}
			for _, v := range hostileValues {
				want[javaPartitionDir(v)] = true
			}
			gotDirs := relPartitionDirs(t, fsys, dir)
			require.Equal(t, want, gotDirs)
			relFigures(t, "partition values %d, rows round-tripped %d, directories as Java names them %d", len(hostileValues), len(got), len(gotDirs))

			// Non-UTF-8 values: written under the directory Java names
			// (its decoding of the bytes, escaped), while the rows keep
			// the original bytes.
			for i, nv := range nonUTF8Values {
				row := [][]any{{nv.value, int64(100 + i), "x", 1.0}}
				_, err := relWrite(ctx, fsys, dir, "u", paimon.BatchCommitIdentifier, row)
				require.NoError(t, err, "%q", nv.value)
				_, err = fsys.Stat(ctx, dir+"/"+javaPartitionDir(nv.java))
				require.NoError(t, err, "Java's directory for %q", nv.value)
				want[javaPartitionDir(nv.java)] = true
			}
			require.Equal(t, want, relPartitionDirs(t, fsys, dir), "no other directory")
			byID := relPartitionBytes(t, fsys, dir)
			require.Len(t, byID, len(hostileValues)+len(nonUTF8Values))
			for i, nv := range nonUTF8Values {
				require.Equal(t, []byte(nv.value), []byte(byID[int64(100+i)]), "partition value read back")
			}
			for i, v := range hostileValues {
				require.Equal(t, []byte(v), []byte(byID[int64(i)]), "partition value read back")
			}
			relFigures(t, "non-UTF-8 partition values %d, written under Java's directory and read back byte for byte %d", len(nonUTF8Values), len(nonUTF8Values))
		})
	}
}

// relPartitionDirs lists the partition directories holding files, and
// checks that every file of the file system is inside the table.
func relPartitionDirs(t *testing.T, fsys fs.FS, dir string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for _, p := range relListAll(t, fsys) {
		require.True(t, strings.HasPrefix(p, dir+"/"), "file %q outside the table", p)
		rel := strings.TrimPrefix(p, dir+"/")
		if strings.HasPrefix(rel, "dt=") {
			out[rel[:strings.Index(rel, "/")]] = true
		}
	}
	return out
}

// relPartitionBytes reads the table and returns each row's dt value by id,
// as the raw bytes the reader returns (the canonical rendering would turn
// bytes that are not UTF-8 into U+FFFD).
func relPartitionBytes(t *testing.T, fsys fs.FS, dir string) map[int64]string {
	t.Helper()
	ctx := context.Background()
	tbl, err := paimon.OpenTable(ctx, fsys, dir, nil)
	require.NoError(t, err)
	fields := tbl.Schema().Fields
	require.Equal(t, "dt", fields[0].Name)
	require.Equal(t, "id", fields[1].Name)
	out := map[int64]string{}
	for rec, err := range tbl.NewScan().Records(ctx) {
		require.NoError(t, err)
		for r := 0; r < int(rec.NumRows()); r++ {
			dt, err := parquet.ArrowValue(rec.Column(0), r, fields[0].Type)
			require.NoError(t, err)
			id, err := parquet.ArrowValue(rec.Column(1), r, fields[1].Type)
			require.NoError(t, err)
			out[id.(int64)] = dt.(string)
		}
		rec.Release()
	}
	return out
}

// relListAll lists every file of the file system, from its root.
func relListAll(t *testing.T, fsys fs.FS) []string {
	t.Helper()
	var out []string
	var walk func(d string)
	walk = func(d string) {
		entries, err := fs.ReadDir(context.Background(), fsys, d)
		require.NoError(t, err)
		for _, fi := range entries {
			p := fi.Name
			if d != "." {
				p = d + "/" + fi.Name
			}
			if fi.IsDir {
				walk(p)
			} else {
				out = append(out, p)
			}
		}
	}
	walk(".")
	return out
}
