package mergetree_test

import (
	"fmt"
	"testing"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/internal/mergetree"
)

// FuzzRead builds a bucket from arbitrary bytes, keys in any order (a
// corrupt sorted run), invalid row kinds and duplicate sequence numbers
// included, and reads it: Read must end with rows or an error, never panic
// or leak a batch.
func FuzzRead(f *testing.F) {
	f.Add([]byte{1, 0, 1, 2, 0, 2, 0xff, 1, 3, 3, 5, 2, 4}, byte(2), false)
	f.Add([]byte{9, 1, 1, 3, 0, 2, 0xff, 3, 4, 3, 0xff, 1, 0, 7}, byte(1), true)
	f.Add([]byte{0, 0, 0, 0, 0, 0}, byte(3), false)
	f.Fuzz(runFuzzRead)
}

func runFuzzRead(t *testing.T, raw []byte, batch byte, keep bool) {
	{
		mem := memcheck.New()
		defer mem.AssertSize(t, 0)
		ts := kvTable(t)
		m := newMemTable(ts)
		defer m.release()
		var files []manifest.DataFileMeta
		var rows []kv
		flush := func() {
			if len(rows) > 0 {
				files = append(files, m.addFile(t, mem, fmt.Sprintf("f%d", len(files)), rows, 1+int(batch%8)))
				rows = nil
			}
		}
		for len(raw) >= 3 {
			if raw[0] == 0xff {
				flush()
				raw = raw[1:]
				continue
			}
			rows = append(rows, kv{seq: int64(raw[2]), kind: data.RowKind(raw[1] % 5), values: []any{int32(int8(raw[0])), "v"}})
			raw = raw[3:]
		}
		flush()
		_, _ = readAll(t, files, m.open, &mergetree.Options{Schema: ts, Merge: dedupFactory(), KeepDeletes: keep, BatchSize: 1 + int(batch%5), Allocator: mem})
	}
}
