package paimon

import (
	"context"
	"fmt"

	"github.com/paimon-go/paimon-go/format/index"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/fs"
)

// indexFilePath resolves where an index file lives. Files written with an
// external path (data-file.external-paths) are outside the table directory
// and not reachable through the table's file system yet.
func (m *TableMeta) indexFilePath(f manifest.IndexFileMeta) (string, error) {
	if f.ExternalPath != nil {
		return "", fmt.Errorf("%w: index file %s has external path %s", ErrUnsupported, f.FileName, *f.ExternalPath)
	}
	return m.IndexPath(f.FileName), nil
}

// ReadDeletionVectors reads the deletion vectors of one DELETION_VECTORS index
// file, keyed by data file name (Java DeletionVectorsIndexFile).
func (m *TableMeta) ReadDeletionVectors(ctx context.Context, f manifest.IndexFileMeta) (map[string]*index.DeletionVector, error) {
	if f.IndexType != manifest.IndexTypeDeletionVectors {
		return nil, fmt.Errorf("paimon: index file %s has type %s, not %s", f.FileName, f.IndexType, manifest.IndexTypeDeletionVectors)
	}
	p, err := m.indexFilePath(f)
	if err != nil {
		return nil, err
	}
	file, err := m.fsys.Open(ctx, p)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	metas := make([]index.DVMeta, len(f.DVRanges))
	for i, r := range f.DVRanges {
		metas[i] = index.DVMeta{DataFile: r.DataFileName, Offset: r.Offset, Length: r.Length, Cardinality: r.Cardinality}
	}
	dvs, err := index.ReadAll(ctx, file, metas, nil)
	if err != nil {
		return nil, corrupt(p, err)
	}
	return dvs, nil
}

// ReadHashIndex reads the key hashes of one dynamic-bucket HASH index file
// (Java HashIndexFile).
func (m *TableMeta) ReadHashIndex(ctx context.Context, f manifest.IndexFileMeta) ([]int32, error) {
	if f.IndexType != manifest.IndexTypeHash {
		return nil, fmt.Errorf("paimon: index file %s has type %s, not %s", f.FileName, f.IndexType, manifest.IndexTypeHash)
	}
	p, err := m.indexFilePath(f)
	if err != nil {
		return nil, err
	}
	b, err := fs.ReadFile(ctx, m.fsys, p)
	if err != nil {
		return nil, err
	}
	hashes, err := index.DecodeHashIndex(b)
	if err != nil {
		return nil, corrupt(p, err)
	}
	return hashes, nil
}
