package paimon_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/memfs"
	"github.com/paimon-go/paimon-go/paimon"
)

// avroFieldName finds the field names in the writer schema of an Avro
// file's header: the bytes of every "name" member that names a field.
var avroFieldName = regexp.MustCompile(`"name":"(_[A-Z_]+)"`)

// TestSingleBitManifestKeyDamage (issue 24): one flipped bit in any field
// name of the writer schema a Java-written manifest list or manifest
// carries in its header never silently changes the rows a scan returns.
// Before the strict decoders a damaged name of an optional field (say
// _VALUE_STATS_COLS, _DELETE_ROW_COUNT or _MIN_PARTITION_STATS) was skipped
// as unknown and the field read as null. Damage to the values of an Avro
// file cannot be told in general (the format has no checksum); the data
// file's recorded size and row count are compared when it is read
// (TestReplacedDataFile).
func TestSingleBitManifestKeyDamage(t *testing.T) {
	ctx := context.Background()
	fsys := memfs.New(nil)
	src := filepath.Join(goldenRoot, "java-1.4.2", "append-partitioned-avro", "warehouse")
	require.NoError(t, filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		return fs.WriteFile(ctx, fsys, filepath.ToSlash(rel), b, nil)
	}))
	dir := "interop.db/append_partitioned_avro"
	want, err := scanValues(ctx, fsys, dir)
	require.NoError(t, err)
	require.NotEmpty(t, want)

	// The latest snapshot's delta manifest list and the manifests it names.
	snap, err := fs.ReadFile(ctx, fsys, dir+"/snapshot/snapshot-4")
	require.NoError(t, err)
	var s struct{ BaseManifestList, DeltaManifestList string }
	require.NoError(t, json.Unmarshal(snap, &s))
	files := []string{"manifest/" + s.BaseManifestList, "manifest/" + s.DeltaManifestList}
	for _, info := range mustReadDir(t, fsys, dir+"/manifest") {
		if strings.HasPrefix(info.Name, "manifest-") && !strings.HasPrefix(info.Name, "manifest-list-") {
			files = append(files, "manifest/"+info.Name)
			break
		}
	}
	for _, f := range files {
		path := dir + "/" + f
		orig, err := fs.ReadFile(ctx, fsys, path)
		require.NoError(t, err)
		// Only the writer schema in the header (the value of avro.schema).
		start := bytes.Index(orig, []byte("avro.schema"))
		require.Positive(t, start, f)
		start += bytes.IndexByte(orig[start:], '{')
		dec := json.NewDecoder(bytes.NewReader(orig[start:]))
		var raw json.RawMessage
		require.NoError(t, dec.Decode(&raw), f)
		end := start + int(dec.InputOffset())
		var names [][]int
		for _, m := range avroFieldName.FindAllSubmatchIndex(orig[start:end], -1) {
			names = append(names, []int{m[0] + start, m[1] + start, m[2] + start, m[3] + start})
		}
		require.NotEmpty(t, names, f)
		flips, refused := 0, 0
		for _, m := range names {
			for i := m[2] * 8; i < m[3]*8; i++ {
				b := slices.Clone(orig)
				b[i/8] ^= 1 << (i % 8)
				require.NoError(t, fs.WriteFile(ctx, fsys, path, b, nil))
				got, err := scanValues(ctx, fsys, dir)
				flips++
				if err != nil {
					require.ErrorIs(t, err, paimon.ErrCorrupt, "%s: bit %d of %q", f, i%8, orig[m[2]:m[3]])
					refused++
					continue
				}
				if !slices.Equal(want, got) {
					t.Errorf("%s: bit %d of byte %d (%q → %q) changed the rows silently: %d rows, want %d",
						f, i%8, i/8, orig[m[2]:m[3]], b[m[2]:m[3]], len(got), len(want))
				}
			}
		}
		require.NoError(t, fs.WriteFile(ctx, fsys, path, orig, nil))
		t.Logf("FIGURES: %s: %d field names, %d single-bit damages, %d refused, %d read the same rows",
			f, len(names), flips, refused, flips-refused)
	}
}

func mustReadDir(t *testing.T, fsys fs.FS, dir string) []fs.FileInfo {
	t.Helper()
	infos, err := fs.ReadDir(context.Background(), fsys, dir)
	require.NoError(t, err)
	return infos
}

// TestNoMaintenanceOnDamagedManifestList: a manifest list whose schema
// names an optional field with one damaged byte (_MIN_BUCKET, which read
// as null before the strict decoders and went unnoticed) stops expiration, orphan cleaning and
// a commit building on it with ErrCorrupt, before any file is written or
// removed.
func TestNoMaintenanceOnDamagedManifestList(t *testing.T) {
	ctx := context.Background()
	s := newStallTable(t, map[string]string{"snapshot.num-retained.max": "100", "snapshot.num-retained.min": "1", "snapshot.time-retained": "1 d"})
	s.commitN(s.committer("ingest"), 1, 4)
	snap, err := fs.ReadFile(ctx, s.fsys, "db.db/t/snapshot/snapshot-4")
	require.NoError(t, err)
	var meta struct{ BaseManifestList string }
	require.NoError(t, json.Unmarshal(snap, &meta))
	path := "db.db/t/manifest/" + meta.BaseManifestList
	b, err := fs.ReadFile(ctx, s.fsys, path)
	require.NoError(t, err)
	bad := bytes.Replace(b, []byte(`"_MIN_BUCKET"`), []byte(`"_MIN_BUCKEU"`), 1)
	require.NotEqual(t, b, bad)
	require.NoError(t, fs.WriteFile(ctx, s.fsys, path, bad, nil))
	before := listAll(t, s.fsys)
	long := func() time.Time { return time.Now().Add(30 * 24 * time.Hour) }

	_, err = s.tbl.ExpireSnapshots(ctx, &paimon.ExpireOptions{RetainMax: 1, CommitGrace: -1, Now: long})
	require.ErrorIs(t, err, paimon.ErrCorrupt, "expiration")
	_, err = s.tbl.RemoveOrphanFiles(ctx, &paimon.OrphanOptions{OlderThan: time.Nanosecond, Now: long})
	require.ErrorIs(t, err, paimon.ErrCorrupt, "orphan cleaning")
	require.Equal(t, before, listAll(t, s.fsys), "nothing removed or written")
	msgs, _ := s.prepare(1)
	withData := listAll(t, s.fsys)
	_, err = s.committer("ingest").Commit(ctx, 5, msgs)
	require.ErrorIs(t, err, paimon.ErrCorrupt, "commit")
	for _, f := range listAll(t, s.fsys) {
		if strings.Contains(f, "/commit-progress/") {
			// The committer's intent (its pending identifier) is written
			// before the base is read; it stays, harmless: the identifier
			// was not published, and the exactly-once check finds that.
			continue
		}
		require.Contains(t, withData, f, "the failed commit left a file")
	}
}
