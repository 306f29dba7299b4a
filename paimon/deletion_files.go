package paimon

import (
	"context"
	"fmt"

	"github.com/paimon-go/paimon-go/format/manifest"
)

// attachDeletionFiles sets the deletion files of each split from the
// snapshot's index manifest: every live DELETION_VECTORS index file of the
// split's partition and bucket that holds a vector for one of its data files
// (Java SnapshotReaderImpl with DeletionVectorIndexFileMaintainer).
func (st *scanState) attachDeletionFiles(ctx context.Context, meta *TableMeta, splits []Split) error {
	if st.snapshot == nil || st.snapshot.IndexManifest == nil || *st.snapshot.IndexManifest == "" || len(splits) == 0 {
		return nil
	}
	entries, err := meta.ReadIndexManifest(ctx, *st.snapshot.IndexManifest)
	if err != nil {
		return err
	}
	manifestPath := meta.ManifestPath(*st.snapshot.IndexManifest)
	type key struct {
		partition string
		bucket    int32
	}
	type loc struct {
		file string
		r    manifest.DeletionVectorMeta
	}
	byBucket := map[key]map[string]loc{}
	for _, e := range entries {
		if e.Kind != manifest.FileKindAdd || e.IndexFile.IndexType != manifest.IndexTypeDeletionVectors {
			continue
		}
		k := key{string(e.Partition), e.Bucket}
		m := byBucket[k]
		if m == nil {
			m = map[string]loc{}
			byBucket[k] = m
		}
		for _, r := range e.IndexFile.DVRanges {
			// A range that cannot lie in the index file as the entry
			// describes it is the index manifest's fault; an index
			// file shorter than recorded is found when it is read.
			if r.Offset < 0 || r.Length < 0 || (e.IndexFile.FileSize > 0 && int64(r.Offset)+int64(r.Length) > e.IndexFile.FileSize) {
				return corrupt(manifestPath, fmt.Errorf("deletion vector of %s at %d+%d in index file %s of %d bytes",
					r.DataFileName, r.Offset, r.Length, e.IndexFile.FileName, e.IndexFile.FileSize))
			}
			m[r.DataFileName] = loc{file: e.IndexFile.FileName, r: r}
		}
	}
	for i := range splits {
		sp := &splits[i]
		m := byBucket[key{string(sp.Partition), sp.Bucket}]
		if len(m) == 0 {
			continue
		}
		var dfs []*DeletionFile
		for j, f := range sp.Files {
			l, ok := m[f.FileName]
			if !ok {
				continue
			}
			if dfs == nil {
				dfs = make([]*DeletionFile, len(sp.Files))
			}
			card := int64(-1)
			if l.r.Cardinality != nil {
				card = *l.r.Cardinality
			}
			dfs[j] = &DeletionFile{Path: indexDir + "/" + l.file, Offset: int64(l.r.Offset), Length: int64(l.r.Length), Cardinality: card}
		}
		sp.DeletionFiles = dfs
	}
	return nil
}
