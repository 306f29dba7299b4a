package paimon

import (
	"context"
	"fmt"
	"sync"

	"github.com/paimon-go/paimon-go/format/index"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/internal/datafile"
)

// compactDVs holds the deletion vectors of an append table's latest
// snapshot, for the compaction that applies and drops them: where each
// data file's vector lives (Java AppendDeleteFileMaintainer for
// unaware-bucket tables, BucketedDvMaintainer for fixed buckets), and the
// index files that the compaction rewrites.
type compactDVs struct {
	meta    *TableMeta
	bucketd bool  // fixed buckets: one index file per bucket
	target  int64 // deletion-vector.index-file.target-size

	// loc maps partition/bucket/data file to the vector's location.
	loc map[dvFileKey]dvLoc
	// byBucket lists the DELETION_VECTORS index entries of each
	// partition/bucket.
	byBucket map[bucketKey][]*manifest.IndexManifestEntry

	names *datafile.FileNames // index-<uuid>-<n>, one uuid per compaction
	// mu guards loc and byBucket, which a writer's compactions update.
	mu sync.RWMutex
}

type bucketKey struct {
	partition string
	bucket    int32
}

type dvFileKey struct {
	bucketKey
	file string
}

type dvLoc struct {
	entry *manifest.IndexManifestEntry
	r     manifest.DeletionVectorMeta
}

// newCompactDVs indexes the DELETION_VECTORS entries of an index manifest.
func newCompactDVs(meta *TableMeta, entries []manifest.IndexManifestEntry, bucketed bool, target int64) *compactDVs {
	d := &compactDVs{
		meta: meta, bucketd: bucketed, target: target,
		loc: map[dvFileKey]dvLoc{}, byBucket: map[bucketKey][]*manifest.IndexManifestEntry{},
		names: datafile.NewFileNames(),
	}
	for i := range entries {
		e := &entries[i]
		if e.Kind != manifest.FileKindAdd || e.IndexFile.IndexType != manifest.IndexTypeDeletionVectors {
			continue
		}
		bk := bucketKey{string(e.Partition), e.Bucket}
		d.byBucket[bk] = append(d.byBucket[bk], e)
		for _, r := range e.IndexFile.DVRanges {
			d.loc[dvFileKey{bk, r.DataFileName}] = dvLoc{entry: e, r: r}
		}
	}
	return d
}

// info is the planner's view of one bucket's vectors.
func (d *compactDVs) info(bk bucketKey) dvInfo {
	return func(name string) (string, int64) {
		d.mu.RLock()
		l, ok := d.loc[dvFileKey{bk, name}]
		d.mu.RUnlock()
		if !ok {
			return "", -1
		}
		card := int64(-1)
		if l.r.Cardinality != nil {
			card = *l.r.Cardinality
		}
		return l.entry.IndexFile.FileName, card
	}
}

// deletionFile locates a data file's vector for a Split; nil when it has
// none.
func (d *compactDVs) deletionFile(bk bucketKey, name string) *DeletionFile {
	d.mu.RLock()
	l, ok := d.loc[dvFileKey{bk, name}]
	d.mu.RUnlock()
	if !ok {
		return nil
	}
	card := int64(-1)
	if l.r.Cardinality != nil {
		card = *l.r.Cardinality
	}
	return &DeletionFile{Path: indexDir + "/" + l.entry.IndexFile.FileName, Offset: int64(l.r.Offset), Length: int64(l.r.Length), Cardinality: card}
}

// drop computes the index changes after the files of one task were
// compacted away: their vectors are removed. Unaware-bucket tables rewrite
// each index file that held one of them with the vectors of the other
// files (AppendDeleteFileMaintainer.persist: DELETE of the old file, ADD of
// the new ones, none when nothing is left); fixed-bucket tables write the
// bucket's one index file anew, possibly empty (BucketedDvMaintainer
// .writeDeletionVectorsIndex: an ADD that replaces the bucket's file).
// written collects the paths of the index files written, for cleanup.
func (d *compactDVs) drop(ctx context.Context, bk bucketKey, files []*manifest.DataFileMeta, written *[]string) (added, deleted []manifest.IndexFileMeta, err error) {
	removed := map[string]bool{}
	touched := map[*manifest.IndexManifestEntry]bool{}
	var entries []*manifest.IndexManifestEntry
	d.mu.RLock()
	for _, f := range files {
		if l, ok := d.loc[dvFileKey{bk, f.FileName}]; ok {
			removed[f.FileName] = true
			touched[l.entry] = true
		}
	}
	for _, e := range d.byBucket[bk] {
		if d.bucketd || touched[e] {
			entries = append(entries, e)
		}
	}
	d.mu.RUnlock()
	if len(removed) == 0 {
		return nil, nil, nil
	}
	var keep []index.NamedDV
	for _, e := range entries {
		mine, err := d.keptVectors(ctx, e, removed)
		if err != nil {
			return nil, nil, err
		}
		if d.bucketd {
			keep = append(keep, mine...)
			continue
		}
		deleted = append(deleted, e.IndexFile)
		files, err := index.WriteRolling(mine, d.target)
		if err != nil {
			return nil, nil, err
		}
		for _, f := range files {
			meta, err := d.write(ctx, f.Data, f.Metas, written)
			if err != nil {
				return nil, nil, err
			}
			added = append(added, meta)
		}
	}
	if d.bucketd {
		meta, err := d.writeBucket(ctx, bk, keep, written)
		if err != nil {
			return nil, nil, err
		}
		added = append(added, meta)
	}
	return added, deleted, nil
}

// keptVectors reads the vectors of an index file's entry but those of the
// removed data files, in the file's order.
func (d *compactDVs) keptVectors(ctx context.Context, e *manifest.IndexManifestEntry, removed map[string]bool) ([]index.NamedDV, error) {
	dvs, err := d.meta.ReadDeletionVectors(ctx, e.IndexFile)
	if err != nil {
		return nil, err
	}
	var kept []index.NamedDV
	for _, r := range e.IndexFile.DVRanges {
		if removed[r.DataFileName] {
			continue
		}
		dv, ok := dvs[r.DataFileName]
		if !ok {
			return nil, corrupt(d.meta.IndexPath(e.IndexFile.FileName), fmt.Errorf("no deletion vector of %s", r.DataFileName))
		}
		kept = append(kept, index.NamedDV{DataFile: r.DataFileName, DV: dv})
	}
	return kept, nil
}

// writeBucket writes the vectors of a fixed bucket as its one new index
// file and makes it the bucket's (Java BucketedDvMaintainer
// .writeDeletionVectorsIndex).
func (d *compactDVs) writeBucket(ctx context.Context, bk bucketKey, dvs []index.NamedDV, written *[]string) (manifest.IndexFileMeta, error) {
	w := index.NewDVWriter()
	for _, v := range dvs {
		if err := w.Write(v.DataFile, v.DV); err != nil {
			return manifest.IndexFileMeta{}, err
		}
	}
	meta, err := d.write(ctx, w.Bytes(), w.Metas(), written)
	if err != nil {
		return manifest.IndexFileMeta{}, err
	}
	d.replaceBucket(bk, meta)
	return meta, nil
}

// replaceBucket makes a fixed bucket's new index file the one later
// compactions of the same writer start from.
func (d *compactDVs) replaceBucket(bk bucketKey, f manifest.IndexFileMeta) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, e := range d.byBucket[bk] {
		for _, r := range e.IndexFile.DVRanges {
			delete(d.loc, dvFileKey{bk, r.DataFileName})
		}
	}
	e := &manifest.IndexManifestEntry{Kind: manifest.FileKindAdd, Partition: []byte(bk.partition), Bucket: bk.bucket, IndexFile: f}
	d.byBucket[bk] = []*manifest.IndexManifestEntry{e}
	for _, r := range f.DVRanges {
		d.loc[dvFileKey{bk, r.DataFileName}] = dvLoc{entry: e, r: r}
	}
}

// resetBucket replaces what d knows of one bucket's vectors with the
// DELETION_VECTORS entries of an index manifest (a writer re-syncing the
// bucket with the latest snapshot).
func (d *compactDVs) resetBucket(bk bucketKey, entries []manifest.IndexManifestEntry) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, e := range d.byBucket[bk] {
		for _, r := range e.IndexFile.DVRanges {
			delete(d.loc, dvFileKey{bk, r.DataFileName})
		}
	}
	delete(d.byBucket, bk)
	for i := range entries {
		e := &entries[i]
		if e.Kind != manifest.FileKindAdd || e.IndexFile.IndexType != manifest.IndexTypeDeletionVectors ||
			e.Bucket != bk.bucket || string(e.Partition) != bk.partition {
			continue
		}
		d.byBucket[bk] = append(d.byBucket[bk], e)
		for _, r := range e.IndexFile.DVRanges {
			d.loc[dvFileKey{bk, r.DataFileName}] = dvLoc{entry: e, r: r}
		}
	}
}

// write stores one index file and describes it (Java
// DeletionVectorsIndexFile / DeletionFileWriter.result).
func (d *compactDVs) write(ctx context.Context, data []byte, metas []index.DVMeta, written *[]string) (manifest.IndexFileMeta, error) {
	name := d.names.Next("index-", "")
	p := d.meta.IndexPath(name)
	*written = append(*written, p)
	if err := fs.WriteFile(ctx, d.meta.fsys, p, data, &fs.CreateOptions{IfNotExist: true}); err != nil {
		return manifest.IndexFileMeta{}, fmt.Errorf("paimon: write %s: %w", p, err)
	}
	ranges := make([]manifest.DeletionVectorMeta, len(metas))
	for i, m := range metas {
		ranges[i] = manifest.DeletionVectorMeta{DataFileName: m.DataFile, Offset: m.Offset, Length: m.Length, Cardinality: m.Cardinality}
	}
	return manifest.IndexFileMeta{
		IndexType: manifest.IndexTypeDeletionVectors, FileName: name, FileSize: int64(len(data)),
		RowCount: int64(len(metas)), DVRanges: ranges,
	}, nil
}
