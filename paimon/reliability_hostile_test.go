package paimon_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/catalog"
	"github.com/paimon-go/paimon-go/catalog/filesystem"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/memfs"
	"github.com/paimon-go/paimon-go/paimon"
)

// Hostile input (issue 7): names that could leave the warehouse are
// refused, and partition values full of path syntax round-trip exactly and
// land in the directory Java names, inside the table directory.

var hostileNames = []string{"a/b", "..", ".", "../x", "x/..", "a\\b", "..hidden", "", "/abs"}

func TestHostileNames(t *testing.T) {
	ctx := context.Background()
	fsys := memfs.New(nil)
	cat := filesystem.New(fsys, "wh", nil)
	require.NoError(t, cat.CreateDatabase(ctx, "db", false))
	s, err := paimon.NewSchemaBuilder().Column("id", schema.BigIntType()).Build()
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
// value, written out independently of internal/partpath: BinaryString
// decodes the bytes as UTF-8 with one U+FFFD per malformed byte
// (BinaryString.decodeUTF8 falling back to new String(bytes, UTF_8)), a
// whitespace-only value becomes the default partition name, and
// PartitionPathUtils.escapePathName writes each char below 0x80 that is a
// control character or one of "#%'*/:=?\{}[]^ as %XX.
func javaPartitionDir(v string) string {
	var decoded strings.Builder
	for i := 0; i < len(v); {
		r, n := utf8.DecodeRuneInString(v[i:])
		decoded.WriteRune(r) // RuneError (U+FFFD) for a malformed byte
		i += n
	}
	s := decoded.String()
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

// nonUTF8Values are valid Go strings but not UTF-8.
var nonUTF8Values = []string{"bad\xffbyte", "\xfe"}

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
			gotDirs := map[string]bool{}
			for _, p := range relListAll(t, fsys) {
				require.True(t, strings.HasPrefix(p, dir+"/"), "file %q outside the table", p)
				rel := strings.TrimPrefix(p, dir+"/")
				if strings.HasPrefix(rel, "dt=") {
					gotDirs[rel[:strings.Index(rel, "/")]] = true
				}
			}
			require.Equal(t, want, gotDirs)
			relFigures(t, "partition values %d, rows round-tripped %d, directories as Java names them %d", len(hostileValues), len(got), len(gotDirs))

			// Non-UTF-8 values: Java writes them under a directory with
			// U+FFFD; this library refuses them (F6) without writing
			// anything outside the table.
			for i, v := range nonUTF8Values {
				row := [][]any{{v, int64(100 + i), "x", 1.0}}
				_, err := relWrite(ctx, fsys, dir, "u", paimon.BatchCommitIdentifier, row)
				if os.Getenv("PAIMON_RELIABILITY_STRICT") == "" && err != nil {
					require.ErrorContains(t, err, "not a valid fs name", "F6")
					continue
				}
				require.NoError(t, err, "%q", v)
				got, err := relRows(ctx, fsys, dir)
				require.NoError(t, err)
				require.Contains(t, got, relRender(t, row)[0])
				_, err = fsys.Stat(ctx, dir+"/"+javaPartitionDir(v))
				require.NoError(t, err, "Java's directory for %q", v)
			}
			for _, p := range relListAll(t, fsys) {
				require.True(t, strings.HasPrefix(p, dir+"/"), "file %q outside the table", p)
			}
		})
	}
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
