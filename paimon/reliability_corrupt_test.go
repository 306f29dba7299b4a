package paimon_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	iofs "io/fs"
	"iter"
	"math/rand/v2"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/memfs"
	"github.com/paimon-go/paimon-go/paimon"
)

// Corruption tests (issue 7): every kind of table file is truncated,
// bit-flipped, removed or given a future format version, and the table is
// opened and read. A read must either return exactly the original rows or
// fail with a typed error (paimon.ErrCorrupt, io/fs.ErrNotExist, or a
// missing snapshot or schema) that names the damaged file or the missing
// one it led to; it must never panic. Rows that differ without an error
// ("silent") are counted per file kind and allowed only where the format
// has no checksum to notice them (see RELIABILITY.md). Random cases use a
// seed that is logged; PAIMON_CORRUPT_SEED replays one, PAIMON_CORRUPT_FLIPS
// sets the bit-flip cases per file kind (default 200).

// overlayFS shows one file of a table with other content, or hides it,
// without copying the table.
type overlayFS struct {
	fs.FS
	name    string
	data    []byte
	missing bool
}

func (o *overlayFS) Open(ctx context.Context, name string) (fs.File, error) {
	if name != o.name {
		return o.FS.Open(ctx, name)
	}
	if o.missing {
		return nil, fs.NotExist("open", name, nil)
	}
	return &bytesFile{bytes.NewReader(o.data)}, nil
}

func (o *overlayFS) Stat(ctx context.Context, name string) (fs.FileInfo, error) {
	if name != o.name {
		return o.FS.Stat(ctx, name)
	}
	if o.missing {
		return fs.FileInfo{}, fs.NotExist("stat", name, nil)
	}
	fi, err := o.FS.Stat(ctx, name)
	fi.Size = int64(len(o.data))
	return fi, err
}

func (o *overlayFS) List(ctx context.Context, dir string) iter.Seq2[fs.FileInfo, error] {
	return func(yield func(fs.FileInfo, error) bool) {
		for fi, err := range o.FS.List(ctx, dir) {
			if err == nil && o.missing && dir+"/"+fi.Name == o.name {
				continue
			}
			if err == nil && dir+"/"+fi.Name == o.name {
				fi.Size = int64(len(o.data))
			}
			if !yield(fi, err) {
				return
			}
		}
	}
}

type bytesFile struct{ *bytes.Reader }

func (bytesFile) Close() error { return nil }

// corruptTable is a source table and the files of each kind to damage.
type corruptTable struct {
	name string
	fsys fs.FS
	dir  string
	// snap is the snapshot read (0: the latest).
	snap int64
	rows []string
	// prevRows are the rows of the snapshot before the latest: what the
	// table holds when the latest snapshot file is gone.
	prevRows []string
	files    map[string]string // kind -> path
}

func (ct *corruptTable) scanOpts() []paimon.ScanOption {
	if ct.snap > 0 {
		return []paimon.ScanOption{paimon.WithSnapshotID(ct.snap)}
	}
	return nil
}

func corruptTables(t *testing.T) []*corruptTable {
	ctx := context.Background()
	var out []*corruptTable
	lib := func(name string, partitioned bool, opts map[string]string) {
		fsys := memfs.New(nil)
		relCreate(t, fsys, relDir, partitioned, opts)
		for i, r := range [][][]any{rowsOf(0, 120, 3), rowsOf(120, 200, 3)} {
			_, err := relWrite(ctx, fsys, relDir, "u", int64(i+1), r)
			require.NoError(t, err)
		}
		out = append(out, &corruptTable{name: name, fsys: fsys, dir: relDir})
	}
	lib("lib-parquet", true, nil)
	lib("lib-avro-fixed-bucket", false, map[string]string{"bucket": "2", "bucket-key": "id", "file.format": "avro"})
	// Snapshot 8 of the deletion-vector table is one whose splits carry
	// deletion vectors.
	for _, g := range []struct {
		name string
		snap int64
	}{{"java-1.4.2/pk-deletion-vectors", 8}, {"java-1.4.2/append-partitioned-avro", 0}} {
		fsys, dir := expGoldenMemFS(t, g.name)
		out = append(out, &corruptTable{name: g.name, fsys: fsys, dir: dir, snap: g.snap})
	}
	for _, ct := range out {
		rows, err := relRows(ctx, ct.fsys, ct.dir, ct.scanOpts()...)
		require.NoError(t, err)
		require.NotEmpty(t, rows)
		ct.rows = rows
		ct.files = corruptTargets(t, ct.fsys, ct.dir, ct.snap)
		if ct.snap == 0 {
			id := latestIDAt(t, ct.fsys, ct.dir)
			ct.prevRows, err = relRows(ctx, ct.fsys, ct.dir, paimon.WithSnapshotID(id-1))
			require.NoError(t, err)
		}
	}
	return out
}

func latestIDAt(t *testing.T, fsys fs.FS, dir string) int64 {
	t.Helper()
	tbl, err := paimon.OpenTable(context.Background(), fsys, dir, nil)
	require.NoError(t, err)
	id, ok, err := tbl.Meta().LatestSnapshotID(context.Background())
	require.NoError(t, err)
	require.True(t, ok)
	return id
}

// corruptTargets finds one file of each kind snapshot id (0: the latest)
// reads.
func corruptTargets(t *testing.T, fsys fs.FS, dir string, id int64) map[string]string {
	ctx := context.Background()
	tbl, err := paimon.OpenTable(ctx, fsys, dir, nil)
	require.NoError(t, err)
	m := tbl.Meta()
	if id == 0 {
		id = latestIDAt(t, fsys, dir)
	}
	s, err := m.ReadSnapshot(ctx, id)
	require.NoError(t, err)
	out := map[string]string{
		"snapshot":      m.SnapshotPath(id),
		"schema":        m.SchemaPath(tbl.Schema().ID),
		"manifest-list": m.ManifestPath(s.DeltaManifestList),
	}
	metas, err := m.ReadManifestList(ctx, s.DeltaManifestList)
	require.NoError(t, err)
	require.NotEmpty(t, metas)
	out["manifest"] = m.ManifestPath(metas[0].FileName)
	if s.IndexManifest != nil {
		out["index-manifest"] = m.ManifestPath(*s.IndexManifest)
	}
	// The data and deletion-vector files: those the plan reads, one per
	// format.
	plan, err := tbl.NewScan(paimon.WithSnapshotID(id)).Plan(ctx)
	require.NoError(t, err)
	for _, sp := range plan.Splits {
		for i, f := range sp.Files {
			if len(sp.DeletionFiles) > i && sp.DeletionFiles[i] != nil {
				out["dv-index"] = m.Path(sp.DeletionFiles[i].Path)
			}
			kind := "data-" + f.FileName[strings.LastIndex(f.FileName, ".")+1:]
			if _, ok := out[kind]; !ok {
				out[kind] = m.Path(sp.BucketPath, f.FileName)
			}
		}
	}
	return out
}

// corruptOutcome classifies one read of a damaged table.
type corruptOutcome int

const (
	outcomeSame   corruptOutcome = iota // the original rows
	outcomeTyped                        // a typed error naming a file
	outcomeSilent                       // other rows, no error
)

// readDamaged opens and reads the table through the overlay and classifies
// the result; an untyped error or one naming no file fails the test.
func readDamaged(t *testing.T, ct *corruptTable, o *overlayFS, label string, want []string) corruptOutcome {
	t.Helper()
	ctx := context.Background()
	var rows []string
	var err error
	func() {
		defer func() {
			if p := recover(); p != nil {
				t.Fatalf("%s: panic: %v", label, p)
			}
		}()
		rows, err = relRows(ctx, o, ct.dir, ct.scanOpts()...)
	}()
	if err == nil {
		if equalRows(want, rows) {
			return outcomeSame
		}
		return outcomeSilent
	}
	if !relTyped(err) {
		t.Errorf("%s: untyped error: %v", label, err)
		return outcomeTyped
	}
	base := o.name[strings.LastIndex(o.name, "/")+1:]
	switch {
	case strings.Contains(err.Error(), base):
		namedSelf.Add(1)
	case isMissing(err) || strings.Contains(err.Error(), ct.dir+"/"):
		// A damaged reference to another file, or a mismatch between
		// two files that blames the other one.
		namedOther.Add(1)
	default:
		t.Errorf("%s: the error names no file: %v", label, err)
	}
	return outcomeTyped
}

var namedSelf, namedOther atomic.Int64

func isMissing(err error) bool {
	return errorsIs(err, iofs.ErrNotExist) || errorsIs(err, paimon.ErrSnapshotNotFound) || errorsIs(err, paimon.ErrSchemaNotFound)
}

// corruptSeed returns the seed of the random cases.
func corruptSeed(t *testing.T) uint64 {
	if s := os.Getenv("PAIMON_CORRUPT_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		require.NoError(t, err)
		return v
	}
	return uint64(time.Now().UnixNano())
}

func corruptFlips(t *testing.T) int {
	if s := os.Getenv("PAIMON_CORRUPT_FLIPS"); s != "" {
		v, err := strconv.Atoi(s)
		require.NoError(t, err)
		return v
	}
	if relRace {
		return 40
	}
	return 200
}

// silentAllowed lists the file kinds whose bytes carry no checksum a reader
// could verify, so a flipped bit can change values without any error:
// Paimon's JSON metadata, Avro files with the null or zstd codec (zstd
// frames written without checksums), and Parquet pages (Paimon writes no
// page CRC). Values silently changed there are the format's limit, not the
// reader's. Truncation, removal and version changes must never be silent.
var silentAllowed = map[string]bool{
	"snapshot": true, "schema": true, "manifest-list": true, "manifest": true,
	"index-manifest": true, "dv-index": true, "data-parquet": true, "data-avro": true,
}

func TestCorruptFiles(t *testing.T) {
	seed := corruptSeed(t)
	flips := corruptFlips(t)
	t.Logf("seed %d (replay with PAIMON_CORRUPT_SEED=%d)", seed, seed)
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	tables := corruptTables(t)

	// How many source tables have each kind: the flips of a kind are
	// spread over them.
	holders := map[string]int{}
	for _, ct := range tables {
		for kind := range ct.files {
			holders[kind]++
		}
	}
	type tally struct{ cases, same, typed, silent int }
	byKind := map[string]*tally{}
	indexManifestCuts := 0
	count := func(kind string, o corruptOutcome, structural bool, label string) {
		tl := byKind[kind]
		if tl == nil {
			tl = &tally{}
			byKind[kind] = tl
		}
		tl.cases++
		switch o {
		case outcomeSame:
			tl.same++
		case outcomeTyped:
			tl.typed++
		case outcomeSilent:
			tl.silent++
			if kind == "index-manifest" && strings.Contains(label, "block boundary") {
				// A format limit: nothing records an index manifest's
				// size, and an empty one is valid (RELIABILITY.md, F5).
				indexManifestCuts++
				return
			}
			if structural || !silentAllowed[kind] {
				t.Errorf("%s: wrong rows without an error", label)
			}
		}
	}
	for _, ct := range tables {
		for kind, p := range ct.files {
			orig, err := fs.ReadFile(context.Background(), ct.fsys, p)
			require.NoError(t, err)
			label := func(what string) string { return fmt.Sprintf("%s %s %s: %s", ct.name, kind, p, what) }
			o := &overlayFS{FS: ct.fsys, name: p, missing: true}
			want := ct.rows
			if kind == "snapshot" && ct.snap == 0 {
				want = ct.prevRows // the previous snapshot is the latest now
			}
			count(kind, readDamaged(t, ct, o, label("missing"), want), true, label("missing"))
			cuts := []int{0, 1, len(orig) / 2, len(orig) - 1}
			for range 4 {
				cuts = append(cuts, rng.IntN(len(orig)))
			}
			if strings.HasPrefix(kind, "manifest") || kind == "index-manifest" || kind == "data-avro" {
				cuts = append(cuts, avroBlockEnds(orig)...)
			}
			blockEnds := map[int]bool{}
			for _, n := range avroBlockEnds(orig) {
				blockEnds[n] = true
			}
			for _, n := range cuts {
				o := &overlayFS{FS: ct.fsys, name: p, data: orig[:n]}
				l := label(fmt.Sprintf("truncated to %d of %d bytes", n, len(orig)))
				if blockEnds[n] && kind != "data-avro" {
					l += " (at an Avro block boundary)"
				}
				count(kind, readDamaged(t, ct, o, l, ct.rows), true, l)
			}
			for range (flips + holders[kind] - 1) / holders[kind] {
				data := bytes.Clone(orig)
				pos := rng.IntN(len(data))
				bit := byte(1) << rng.IntN(8)
				data[pos] ^= bit
				o := &overlayFS{FS: ct.fsys, name: p, data: data}
				l := label(fmt.Sprintf("bit %#02x of byte %d flipped", bit, pos))
				count(kind, readDamaged(t, ct, o, l, ct.rows), false, l)
			}
		}
	}
	total := 0
	for _, kind := range sortedKindKeys(byKind) {
		tl := byKind[kind]
		total += tl.cases
		relFigures(t, "%s: corrupt inputs %d, same rows %d, typed errors %d, silent changes %d", kind, tl.cases, tl.same, tl.typed, tl.silent)
	}
	relFigures(t, "corrupt inputs %d over %d tables, seed %d, panics 0, errors naming the damaged file %d, naming the file it led to %d, silent index-manifest cuts at a block boundary (format limit) %d",
		total, len(tables), seed, namedSelf.Load(), namedOther.Load(), indexManifestCuts)
}

func sortedKindKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sortStrings(out)
	return out
}

// TestCorruptFutureVersions gives the snapshot, a manifest list and a
// manifest format version 99: reads refuse them with a typed error naming
// the file instead of guessing.
func TestCorruptFutureVersions(t *testing.T) {
	ctx := context.Background()
	for _, ct := range corruptTables(t) {
		t.Run(ct.name, func(t *testing.T) {
			snap, err := fs.ReadFile(ctx, ct.fsys, ct.files["snapshot"])
			require.NoError(t, err)
			re := regexp.MustCompile(`"version"\s*:\s*\d+`)
			require.True(t, re.Match(snap))
			future := re.ReplaceAll(snap, []byte(`"version" : 99`))
			o := &overlayFS{FS: ct.fsys, name: ct.files["snapshot"], data: future}
			_, err = relRows(ctx, o, ct.dir, ct.scanOpts()...)
			require.ErrorIs(t, err, paimon.ErrCorrupt)
			require.ErrorContains(t, err, ct.files["snapshot"])
			require.ErrorContains(t, err, "99")

			for _, kind := range []string{"manifest-list", "manifest"} {
				p := ct.files[kind]
				data := avroVersion99(t, ct.fsys, p, kind)
				o := &overlayFS{FS: ct.fsys, name: p, data: data}
				_, err = relRows(ctx, o, ct.dir, ct.scanOpts()...)
				require.ErrorIs(t, err, paimon.ErrCorrupt, kind)
				require.ErrorIs(t, err, manifest.ErrUnsupportedVersion, kind)
				require.ErrorContains(t, err, p)
			}
		})
	}
}

// avroVersion99 rewrites a manifest or manifest list without compression
// and sets the _VERSION of its first record to 99 (the first field of every
// record; zigzag 99 takes two bytes, so the block size grows by one).
func avroVersion99(t *testing.T, fsys fs.FS, p, kind string) []byte {
	t.Helper()
	b, err := fs.ReadFile(context.Background(), fsys, p)
	require.NoError(t, err)
	var buf bytes.Buffer
	opts := &manifest.WriteOptions{Compression: "null"}
	if kind == "manifest" {
		entries, err := manifest.ReadManifest(bytes.NewReader(b))
		require.NoError(t, err)
		require.NoError(t, manifest.WriteManifest(&buf, entries, opts))
	} else {
		metas, err := manifest.ReadManifestList(bytes.NewReader(b))
		require.NoError(t, err)
		require.NoError(t, manifest.WriteManifestList(&buf, metas, opts))
	}
	data := buf.Bytes()
	sync := data[len(data)-16:]
	hdrEnd := bytes.Index(data, sync) + 16
	count, n1 := binary.Varint(data[hdrEnd:])
	size, n2 := binary.Varint(data[hdrEnd+n1:])
	recStart := hdrEnd + n1 + n2
	require.Equal(t, byte(4), data[recStart], "_VERSION 2 starts the first record")
	var out []byte
	out = append(out, data[:hdrEnd]...)
	out = binary.AppendVarint(out, count)
	out = binary.AppendVarint(out, size+1)
	out = binary.AppendVarint(out, 99)
	out = append(out, data[recStart+1:]...)
	return out
}

// TestCorruptTotalBuckets rewrites a manifest of a table with two buckets
// as if its files were written for five: reads return the rows or a typed
// error, before and after another commit (APPEND commits do not compare
// bucket counts, see RELIABILITY.md).
func TestCorruptTotalBuckets(t *testing.T) {
	ctx := context.Background()
	fsys := memfs.New(nil)
	relCreate(t, fsys, relDir, false, map[string]string{"bucket": "2", "bucket-key": "id"})
	_, err := relWrite(ctx, fsys, relDir, "u", 1, rowsOf(0, 100, 3))
	require.NoError(t, err)
	want, err := relRows(ctx, fsys, relDir)
	require.NoError(t, err)
	files := corruptTargets(t, fsys, relDir, 0)
	b, err := fs.ReadFile(ctx, fsys, files["manifest"])
	require.NoError(t, err)
	entries, err := manifest.ReadManifest(bytes.NewReader(b))
	require.NoError(t, err)
	for i := range entries {
		entries[i].TotalBuckets = 5
	}
	var buf bytes.Buffer
	require.NoError(t, manifest.WriteManifest(&buf, entries, nil))
	require.NoError(t, fs.WriteFile(ctx, fsys, files["manifest"], buf.Bytes(), nil))

	rows, err := relRows(ctx, fsys, relDir)
	if err != nil {
		require.True(t, relTyped(err), "%v", err)
		require.ErrorContains(t, err, files["manifest"])
	} else {
		require.Equal(t, want, rows)
	}
	if _, err := relWrite(ctx, fsys, relDir, "u", 2, rowsOf(100, 110, 3)); err == nil {
		rows, err := relRows(ctx, fsys, relDir)
		if err != nil {
			require.True(t, relTyped(err), "%v", err)
		} else {
			require.Equal(t, relRender(t, rowsOf(0, 110, 3)), rows)
		}
	} else {
		require.True(t, relTyped(err) || errorsIs(err, paimon.ErrCommitConflict), "%v", err)
	}
}

// avroBlockEnds returns the offsets right after each sync marker of an Avro
// container but the last: cutting there leaves a valid, shorter container.
func avroBlockEnds(data []byte) []int {
	if len(data) < 16 {
		return nil
	}
	sync := data[len(data)-16:]
	var out []int
	for off := 0; ; {
		i := bytes.Index(data[off:], sync)
		if i < 0 || off+i+16 >= len(data) {
			return out
		}
		off += i + 16
		out = append(out, off)
	}
}
