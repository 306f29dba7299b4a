package fileindex

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
)

// TestJavaIndexesRewriteIdentically writes, for each write of the golden
// plan file-index-separate, the bsi index of n and the range-bitmap
// indexes of r (chunk-size 16b) and s (chunk-size 24b, several chunks in
// the last file) and requires the bytes of each index Java 1.4.2 and 2.0.0
// wrote into the separate .index files: every Java index equals ours for
// one write, and every write is matched in each Java version's table.
func TestJavaIndexesRewriteIdentically(t *testing.T) {
	raw, err := os.ReadFile("../../interop/plans/file-index-separate.json")
	require.NoError(t, err)
	var plan struct {
		Ops []struct {
			Op   string           `json:"op"`
			Rows []map[string]any `json:"rows"`
		} `json:"ops"`
	}
	require.NoError(t, json.Unmarshal(raw, &plan))
	cols := []struct {
		name, typ string
		t         schema.DataType
		opts      map[string]string
		conv      func(float64) any
	}{
		{"n", "bsi", schema.BigIntType(), nil, func(f float64) any { return int64(f) }},
		{"r", "range-bitmap", schema.IntType(), map[string]string{"chunk-size": "16"}, func(f float64) any { return int32(f) }},
		{"s", "range-bitmap", schema.StringType(), map[string]string{"chunk-size": "24"}, nil},
	}
	// ours[w][c]: our bytes of column c for write w.
	var ours [][][]byte
	for _, op := range plan.Ops {
		if op.Op != "write" {
			continue
		}
		var per [][]byte
		for _, c := range cols {
			w, err := NewColumnWriter(c.typ, c.t, c.opts)
			require.NoError(t, err)
			require.NotNil(t, w)
			for _, r := range op.Rows {
				v := r[c.name]
				if f, ok := v.(float64); ok {
					v = c.conv(f)
				}
				w.Add(v)
			}
			per = append(per, w.Bytes())
		}
		ours = append(ours, per)
	}
	require.Len(t, ours, 5)
	for _, version := range []string{"java-1.4.2", "java-2.0.0"} {
		files, err := filepath.Glob("../../testdata/golden/" + version + "/file-index-separate/warehouse/*/*/bucket-0/*.index")
		require.NoError(t, err)
		require.Len(t, files, len(ours), version)
		matched := map[int]bool{}
		for _, file := range files {
			b, err := os.ReadFile(file)
			require.NoError(t, err)
			f, err := Parse(b)
			require.NoError(t, err)
			var java [][]byte
			for _, c := range cols {
				pos, ok := f.columns[c.name][c.typ]
				require.True(t, ok, "%s: no %s index on %s", file, c.typ, c.name)
				java = append(java, f.data[pos[0]:pos[0]+pos[1]])
			}
			found := -1
			for w, per := range ours {
				same := true
				for i := range cols {
					same = same && bytes.Equal(per[i], java[i])
				}
				if same {
					found = w
				}
			}
			if found < 0 {
				// Report the closest write column by column.
				for w, per := range ours {
					for i, c := range cols {
						if len(per[i]) == len(java[i]) || w == len(ours)-1 {
							t.Logf("write %d %s %s: ours %x", w, c.name, c.typ, per[i])
							t.Logf("write %d %s %s: java %x", w, c.name, c.typ, java[i])
						}
					}
				}
				t.Fatalf("%s: no write whose indexes are Java's bytes", file)
			}
			matched[found] = true
		}
		require.Len(t, matched, len(ours), version)
	}
}
