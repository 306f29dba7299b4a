package paimon

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/snapshot"
)

// This file is the one place that answers "which data files are live in
// snapshot S" (Java's FileStoreScan, AbstractFileStoreScan and
// ManifestsReader): planning, commit conflict checks and overwrites,
// expiration, orphan cleaning, the writer's sequence restore and the system
// tables all read manifests through it, and every merge of manifest
// entries goes through mergeEntries or fileScan.merged below.

// fileScan reads the data files of a snapshot: its data manifest lists,
// minus the manifests keepManifest rejects, read by a bounded pool of
// workers (through the manifest cache when there is one, cancelled with
// the context), the entries keepEntry rejects dropped, then merged in
// manifest order so that each DELETE entry cancels the ADD before it.
//
// A fileScan is a small value; build it with newFileScan and set the
// filters before use. It is safe for concurrent use once set up.
type fileScan struct {
	meta  *TableMeta
	cache *manifestCache // nil: every manifest is read from its file
	// workers bounds the concurrent manifest reads; 0 means
	// min(2*GOMAXPROCS, 16) (Java: scan.manifest.parallelism, default the
	// processor count).
	workers int
	// keepManifest prunes whole manifests by their metadata (Java
	// ManifestsReader's partition filter on the partition statistics);
	// nil keeps all.
	keepManifest func(*manifest.ManifestFileMeta) bool
	// keepEntry drops entries before merging (Java's entry row filter:
	// partition and bucket, which an ADD and its DELETE share, so dropping
	// both keeps the merge exact); nil keeps all.
	keepEntry func(*manifest.ManifestEntry) (bool, error)
}

func newFileScan(meta *TableMeta, cache *manifestCache) *fileScan {
	return &fileScan{meta: meta, cache: cache}
}

// scannedFiles is what a scan read: the snapshot's data manifests, those
// read, and their entries (shared with the manifest cache: read only).
type scannedFiles struct {
	snapshotID int64
	meta       *TableMeta
	// all are the snapshot's data manifests, base then delta; read are
	// those keepManifest kept, and entries[i] the entries of read[i] that
	// keepEntry kept.
	all, read []manifest.ManifestFileMeta
	entries   [][]manifest.ManifestEntry
}

// scan reads the data manifests of s and their entries.
func (fs *fileScan) scan(ctx context.Context, s *snapshot.Snapshot) (*scannedFiles, error) {
	all, err := fs.meta.DataManifests(ctx, s)
	if err != nil {
		return nil, err
	}
	read := all
	if fs.keepManifest != nil {
		read = all[:0:0]
		for i := range all {
			if fs.keepManifest(&all[i]) {
				read = append(read, all[i])
			}
		}
	}
	entries, err := fs.readManifests(ctx, read)
	if err != nil {
		return nil, err
	}
	return &scannedFiles{snapshotID: s.ID, meta: fs.meta, all: all, read: read, entries: entries}, nil
}

// total is the number of entries read.
func (r *scannedFiles) total() int {
	n := 0
	for _, es := range r.entries {
		n += len(es)
	}
	return n
}

// merged merges the entries by reference, in manifest order (Java
// FileEntry.mergeEntries): the ADD entries still live and the DELETE
// entries whose ADD was not among those read. The decoded manifests stay
// the only copy of each entry. A file added twice (by one manifest, or by
// two lists naming the same manifest) makes the metadata contradict
// itself: ErrCorrupt naming the manifest.
func (r *scannedFiles) merged() ([]*manifest.ManifestEntry, error) {
	var m manifest.RefMerger
	m.Grow(r.total())
	for i, es := range r.entries {
		if err := m.Add(es); err != nil {
			return nil, corrupt(r.meta.ManifestPath(r.read[i].FileName),
				fmt.Errorf("merging the manifests of snapshot %d: %w", r.snapshotID, err))
		}
	}
	return m.Result(), nil
}

// live is merged without the DELETE entries: the data files of the
// snapshot (Java FileStoreScan.plan with ScanMode.ALL).
func (r *scannedFiles) live() ([]*manifest.ManifestEntry, error) {
	merged, err := r.merged()
	if err != nil {
		return nil, err
	}
	out := merged[:0]
	for _, e := range merged {
		if e.Kind == manifest.FileKindAdd {
			out = append(out, e)
		}
	}
	return out, nil
}

// liveEntries returns copies of the live entries of s, which the caller
// may modify.
func (fs *fileScan) liveEntries(ctx context.Context, s *snapshot.Snapshot) ([]manifest.ManifestEntry, error) {
	r, err := fs.scan(ctx, s)
	if err != nil {
		return nil, err
	}
	live, err := r.live()
	if err != nil {
		return nil, err
	}
	out := make([]manifest.ManifestEntry, len(live))
	for i, e := range live {
		out[i] = *e
	}
	return out, nil
}

// readManifests reads manifest files concurrently and returns their
// entries in manifest order (the order matters for merging), filtered by
// keepEntry. The first failure stops the other reads and is returned.
func (fs *fileScan) readManifests(ctx context.Context, metas []manifest.ManifestFileMeta) ([][]manifest.ManifestEntry, error) {
	out, errs, err := fs.readEach(ctx, metas, nil)
	if err != nil {
		return nil, err
	}
	for _, e := range errs {
		if e != nil {
			return nil, e
		}
	}
	return out, nil
}

// readEach reads manifest files concurrently, as readManifests does, but a
// failure tolerate accepts does not stop the others: that manifest's
// entries are nil and its error is in errs at its index. The error
// returned is the first failure tolerate does not accept (or the
// context's).
func (fs *fileScan) readEach(ctx context.Context, metas []manifest.ManifestFileMeta, tolerate func(error) bool) (lists [][]manifest.ManifestEntry, errs []error, err error) {
	lists = make([][]manifest.ManifestEntry, len(metas))
	errs = make([]error, len(metas))
	if len(metas) == 0 {
		return lists, errs, nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	workers := fs.workers
	if workers <= 0 {
		workers = min(runtime.GOMAXPROCS(0)*2, 16)
	}
	workers = min(workers, len(metas))
	next := make(chan int)
	// The first failure is the one to report: the others may only be the
	// cancellation it caused.
	var firstErr error
	var errOnce sync.Once
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range next {
				es, err := fs.readOne(ctx, &metas[i])
				switch {
				case err == nil:
					lists[i] = es
				case tolerate != nil && tolerate(err):
					errs[i] = err
				default:
					errOnce.Do(func() { firstErr = err; cancel() })
				}
			}
		})
	}
feed:
	for i := range metas {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		return nil, nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	return lists, errs, nil
}

// readOne reads one manifest through the cache and applies keepEntry. A
// filtered manifest is a fresh slice; an unfiltered one may be the cache's.
func (fs *fileScan) readOne(ctx context.Context, mf *manifest.ManifestFileMeta) ([]manifest.ManifestEntry, error) {
	var es []manifest.ManifestEntry
	var err error
	if fs.cache != nil {
		es, err = fs.cache.get(ctx, fs.meta, mf)
	} else {
		es, err = fs.meta.ReadListedManifest(ctx, mf)
	}
	if err != nil || fs.keepEntry == nil {
		return es, err
	}
	kept := make([]manifest.ManifestEntry, 0, len(es))
	for i := range es {
		ok, err := fs.keepEntry(&es[i])
		if err != nil {
			return nil, err
		}
		if ok {
			kept = append(kept, es[i])
		}
	}
	return kept, nil
}

// mergeEntries merges entry lists in order, by value (Java
// FileEntry.mergeEntries): conflict detection merges a commit's changes
// onto the live files, manifest compaction the entries of the manifests
// it rewrites. On failure it returns the index of the list whose entry did
// not merge, so that the caller can say which side contradicts the other.
func mergeEntries(lists ...[]manifest.ManifestEntry) (merged []manifest.ManifestEntry, failed int, err error) {
	var m manifest.Merger
	for i, es := range lists {
		if err := m.Add(es...); err != nil {
			return nil, i, err
		}
	}
	return m.Result(), -1, nil
}

// LiveFilesOptions narrows TableMeta.LiveFiles. The zero value (or nil)
// lists every live file.
type LiveFilesOptions struct {
	// Partition keeps the files of the partitions it accepts, given the
	// serialized partition row; nil keeps all.
	Partition func(partition []byte) (bool, error)
	// Bucket keeps the files of the buckets it accepts; nil keeps all.
	Bucket func(bucket int32) bool
	// Workers bounds the concurrent manifest reads; 0 means
	// min(2*GOMAXPROCS, 16).
	Workers int
}

// LiveFiles returns the data files of snapshot s: the ADD entries of its
// base and delta manifests left after merging the DELETE entries into
// them, in Java's order (Java FileStoreScan.plan over all files). The
// manifests are read concurrently; a cancelled ctx stops them. The entries
// are copies the caller owns.
func (m *TableMeta) LiveFiles(ctx context.Context, s *snapshot.Snapshot, opts *LiveFilesOptions) ([]manifest.ManifestEntry, error) {
	fs := newFileScan(m, nil)
	if opts != nil {
		fs.workers = opts.Workers
		part, bucket := opts.Partition, opts.Bucket
		if part != nil || bucket != nil {
			fs.keepEntry = func(e *manifest.ManifestEntry) (bool, error) {
				if bucket != nil && !bucket(e.Bucket) {
					return false, nil
				}
				if part == nil {
					return true, nil
				}
				return part(e.Partition)
			}
		}
	}
	return fs.liveEntries(ctx, s)
}
