package paimon

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/fs"
)

// statisticsDir holds the statistics files snapshots name
// (FileStorePathFactory.STATISTICS_PATH).
const statisticsDir = "statistics"

// expirer carries the state of one ExpireSnapshots call: it plays the
// roles of Java's ExpireSnapshotsImpl, SnapshotDeletion and
// FileDeletionBase together.
type expirer struct {
	meta    *TableMeta
	fsys    fs.FS
	cfg     *expireConfig
	res     *ExpireResult
	pather  *partitionPather
	dataDir string // data-file.path-directory

	partDirs map[string]string // serialized partition -> "k=v/.../" ("" unpartitioned)
	// deletionBuckets records the buckets data or changelog files were
	// deleted from, for cleanEmptyDirectories.
	deletionBuckets map[string]map[int32]struct{}

	// The data files of the tag last used to protect data files
	// (FileDeletionBase.cachedTag / cachedTagDataFiles).
	cachedTag      int64
	cachedTagFiles map[dataFileKey]struct{}

	guard *expireGuard

	// dry is non-nil in a dry run (ExpireOptions.DryRun): the files that
	// would be deleted. A path in it counts as already gone, as it would
	// be after a real removal.
	dry   map[string]struct{}
	dryMu sync.Mutex
}

// dataFileKey identifies a data file the way Java's tag skipper does
// (FileDeletionBase.containsDataFile): partition, bucket and file name.
type dataFileKey struct {
	partition string
	bucket    int32
	name      string
}

func keyOf(e *manifest.ManifestEntry) dataFileKey {
	return dataFileKey{partition: string(e.Partition), bucket: e.Bucket, name: e.File.FileName}
}

func newExpirer(t *Table, cfg *expireConfig) (*expirer, error) {
	pather, err := newPartitionPather(t.schema)
	if err != nil {
		return nil, err
	}
	return &expirer{
		meta:            t.meta,
		fsys:            t.meta.fsys,
		cfg:             cfg,
		res:             &ExpireResult{},
		pather:          pather,
		dataDir:         strings.Trim(t.schema.Options[optDataFilePathDir], "/"),
		partDirs:        map[string]string{},
		deletionBuckets: map[string]map[int32]struct{}{},
	}, nil
}

// partitionDir renders a serialized partition as its relative directory
// with a trailing slash ("" for an unpartitioned table).
func (e *expirer) partitionDir(partition []byte) (string, error) {
	if d, ok := e.partDirs[string(partition)]; ok {
		return d, nil
	}
	values, err := e.pather.values(partition)
	if err != nil {
		return "", fmt.Errorf("%w: partition of a manifest entry: %w", ErrCorrupt, err)
	}
	d, err := e.pather.path(values)
	if err != nil {
		return "", err
	}
	e.partDirs[string(partition)] = d
	return d, nil
}

// dataRel prefixes a path relative to the data root with
// data-file.path-directory and the table root.
func (e *expirer) dataRel(rel string) string {
	if e.dataDir != "" {
		rel = e.dataDir + "/" + rel
	}
	return e.meta.Path(rel)
}

// bucketDir is Java FileStorePathFactory.bucketPath.
func (e *expirer) bucketDir(partition []byte, bucket int32) (string, error) {
	pd, err := e.partitionDir(partition)
	if err != nil {
		return "", err
	}
	name := "bucket-" + strconv.Itoa(int(bucket))
	if bucket == -2 {
		name = "bucket-postpone"
	}
	return e.dataRel(pd + name), nil
}

// entryPaths returns where a data or changelog file and its extra files
// live (DataFilePathFactory.toPath and toAlignedPath). external is true for
// a file stored under an external path, which this library cannot reach.
func (e *expirer) entryPaths(en *manifest.ManifestEntry, withExtra bool) (paths []string, external bool, err error) {
	if p := en.File.ExternalPath; p != nil && *p != "" {
		n := 1
		if withExtra {
			n += len(en.File.ExtraFiles)
		}
		return make([]string, n), true, nil
	}
	dir, err := e.bucketDir(en.Partition, en.Bucket)
	if err != nil {
		return nil, false, err
	}
	paths = append(paths, dir+"/"+en.File.FileName)
	if withExtra {
		for _, x := range en.File.ExtraFiles {
			paths = append(paths, dir+"/"+x)
		}
	}
	return paths, false, nil
}

// indexFilePath is Java IndexFileHandler.filePath: index/<name>, or the
// bucket directory with index-file-in-data-file-dir.
func (e *expirer) indexFilePath(en *manifest.IndexManifestEntry) (string, bool, error) {
	f := &en.IndexFile
	if f.ExternalPath != nil && *f.ExternalPath != "" {
		return "", true, nil
	}
	if e.cfg.indexInDataDir {
		dir, err := e.bucketDir(en.Partition, en.Bucket)
		if err != nil {
			return "", false, err
		}
		return dir + "/" + f.FileName, false, nil
	}
	return e.meta.IndexPath(f.FileName), false, nil
}

func (e *expirer) recordBucket(en *manifest.ManifestEntry) {
	b := e.deletionBuckets[string(en.Partition)]
	if b == nil {
		b = map[int32]struct{}{}
		e.deletionBuckets[string(en.Partition)] = b
	}
	b[en.Bucket] = struct{}{}
}

// tolerable reports read failures Java's FileDeletionBase shrugs off: the
// file is gone (an earlier run was interrupted after deleting it) or cannot
// be decoded. Other failures (I/O, cancellation) abort the expiration,
// which is safe at any point and finished by the next run.
func tolerable(err error) bool {
	return errors.Is(err, iofs.ErrNotExist) || errors.Is(err, ErrCorrupt)
}

// tryReadManifestList is FileDeletionBase.tryReadManifestList. The list's
// length is checked against the size its snapshot records, so a list cut at
// an Avro block boundary counts as unreadable (its files are then left for
// RemoveOrphanFiles) instead of yielding part of its manifests.
func (e *expirer) tryReadManifestList(ctx context.Context, ref manifestListRef) ([]manifest.ManifestFileMeta, error) {
	if ref.name == "" {
		return nil, nil
	}
	metas, err := e.meta.readManifestList(ctx, ref)
	if tolerable(err) {
		return nil, nil
	}
	return metas, err
}

// removeAll deletes files concurrently (file-operation.thread-num workers,
// like Java's FileDeletionBase.deleteFiles) and returns how many existed.
// Missing files are not an error; the first other failure is returned after
// the in-flight removals finish.
func (e *expirer) removeAll(ctx context.Context, paths []string) (int, error) {
	if len(paths) == 0 {
		return 0, nil
	}
	slices.Sort(paths)
	paths = slices.Compact(paths)
	if e.dry != nil {
		n := 0
		for _, p := range paths {
			k, err := e.removeOne(ctx, p)
			if err != nil {
				return n, err
			}
			n += k
		}
		return n, nil
	}
	var (
		mu       sync.Mutex
		removed  int
		firstErr error
		wg       sync.WaitGroup
	)
	work := make(chan string)
	for range min(e.cfg.threads, len(paths)) {
		wg.Go(func() {
			for p := range work {
				err := e.fsys.Remove(ctx, p)
				mu.Lock()
				switch {
				case err == nil:
					removed++
				case errors.Is(err, iofs.ErrNotExist):
				case firstErr == nil:
					firstErr = fmt.Errorf("remove %s: %w", p, err)
				}
				mu.Unlock()
			}
		})
	}
	for _, p := range paths {
		mu.Lock()
		stop := firstErr != nil
		mu.Unlock()
		if stop || ctx.Err() != nil {
			break
		}
		work <- p
	}
	close(work)
	wg.Wait()
	if firstErr == nil {
		firstErr = ctx.Err()
	}
	return removed, firstErr
}

// removeOne deletes one file; a missing file is not an error.
func (e *expirer) removeOne(ctx context.Context, p string) (int, error) {
	if e.dry != nil {
		return e.dryRemove(ctx, p)
	}
	err := e.fsys.Remove(ctx, p)
	switch {
	case err == nil:
		return 1, nil
	case errors.Is(err, iofs.ErrNotExist):
		return 0, nil
	}
	return 0, fmt.Errorf("remove %s: %w", p, err)
}

// dryRemove is removeOne in a dry run: it records p when the file exists
// and was not recorded before.
func (e *expirer) dryRemove(ctx context.Context, p string) (int, error) {
	e.dryMu.Lock()
	_, seen := e.dry[p]
	e.dryMu.Unlock()
	if seen {
		return 0, nil
	}
	ok, err := fs.Exists(ctx, e.fsys, p)
	if err != nil {
		return 0, fmt.Errorf("stat %s: %w", p, err)
	}
	if !ok {
		return 0, nil
	}
	e.dryMu.Lock()
	defer e.dryMu.Unlock()
	if _, seen := e.dry[p]; seen {
		return 0, nil
	}
	e.dry[p] = struct{}{}
	return 1, nil
}

// writeEarliestHint replaces snapshot/EARLIEST (HintFileUtils.commitHint).
func (e *expirer) writeEarliestHint(ctx context.Context, id int64) error {
	if e.dry != nil {
		return nil
	}
	if err := fs.WriteFile(ctx, e.fsys, e.meta.branchPath(snapshotDir, earliestHint), snapshot.FormatHint(id), hintOptions); err != nil {
		return err
	}
	e.res.EarliestHint = id
	return nil
}
