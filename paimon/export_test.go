package paimon

import (
	"context"
	"fmt"

	"github.com/paimon-go/paimon-go/format/index"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/internal/datafile"
)

// SetCommitHook makes c call hook at the points of each commit attempt:
// "base" (the latest snapshot was read), "publish" (the snapshot is about
// to be created) and "verify" (it was created, not yet verified), with the
// snapshot id the attempt aims at. Tests pause commits there.
func SetCommitHook(c *TableCommit, hook func(ctx context.Context, point string, id int64)) {
	c.hook = func(ctx context.Context, p hookPoint, id int64) { hook(ctx, string(p), id) }
}

// WriterHeld is what an append writer's open files (its Budget) and its
// files being finished in the background (its Finisher) hold by the
// writer's own accounting.
func WriterHeld(w *TableWriter) int64 {
	var n int64
	if w.budget != nil {
		n += w.budget.Held()
	}
	if w.finisher != nil {
		n += w.finisher.Held()
	}
	return n
}

// MarkDeleted deletes the rows of an unpartitioned append table whose
// column col matches by deletion vectors, the way Java's DELETE on an
// append table with deletion-vectors.enabled does (Spark, through
// AppendDeleteFileMaintainer / BucketedDvMaintainer): one new index file
// per bucket holding the vectors, committed in an OVERWRITE snapshot.
// This library writes no such vectors itself; the crash matrix compacts
// tables holding them. Buckets that already have vectors are refused (Java
// would merge them into a rewritten index file).
func MarkDeleted(ctx context.Context, tbl *Table, col int, match func(v any) bool) error {
	if len(tbl.schema.PartitionKeys) > 0 || len(tbl.schema.PrimaryKeys) > 0 {
		return fmt.Errorf("MarkDeleted: unpartitioned append tables only")
	}
	s, err := latestSnapshotOf(ctx, tbl.meta)
	if err != nil {
		return err
	}
	if s.IndexManifest != nil {
		return fmt.Errorf("MarkDeleted: the table already has index files")
	}
	live, err := liveEntries(ctx, tbl.meta, nil, s, nil)
	if err != nil {
		return err
	}
	field := tbl.schema.Fields[col]
	writers := map[int32]*index.DVWriter{}
	var buckets []int32
	for _, e := range live {
		sp := Split{SnapshotID: s.ID, Partition: manifest.EmptyRow(), Bucket: e.Bucket, TotalBuckets: e.TotalBuckets,
			BucketPath: fmt.Sprintf("bucket-%d", e.Bucket), Files: []manifest.DataFileMeta{e.File}, RawConvertible: true}
		dv := index.NewDeletionVector()
		pos, marked := int64(0), false
		for rec, err := range tbl.NewScan().ReadSplits(ctx, sp) {
			if err != nil {
				return err
			}
			for r := 0; r < int(rec.NumRows()); r++ {
				v, err := parquet.ArrowValue(rec.Column(col), r, field.Type)
				if err != nil {
					rec.Release()
					return err
				}
				if match(v) {
					if err := dv.Add(pos); err != nil {
						rec.Release()
						return err
					}
					marked = true
				}
				pos++
			}
			rec.Release()
		}
		if !marked {
			continue
		}
		w := writers[e.Bucket]
		if w == nil {
			w = index.NewDVWriter()
			writers[e.Bucket] = w
			buckets = append(buckets, e.Bucket)
		}
		if err := w.Write(e.File.FileName, dv); err != nil {
			return err
		}
	}
	var ch commitChanges
	dvs := &compactDVs{meta: tbl.meta, names: datafile.NewFileNames()}
	var written []string
	for _, b := range buckets {
		w := writers[b]
		meta, err := dvs.write(ctx, w.Bytes(), w.Metas(), &written)
		if err != nil {
			return err
		}
		ch.index = append(ch.index, manifest.IndexManifestEntry{Kind: manifest.FileKindAdd, Partition: manifest.EmptyRow(), Bucket: b, IndexFile: meta})
	}
	c, err := tbl.NewCommit(nil)
	if err != nil {
		return err
	}
	provider := func(context.Context, *snapshot.Snapshot) (commitChanges, error) { return ch, nil }
	_, err = c.tryCommit(ctx, provider, BatchCommitIdentifier, snapshot.CommitOverwrite, true)
	return err
}

// SetSplitFailedHook makes ordered parallel reads call hook with the index
// of a failed split once they have recorded its failure; the returned
// function removes it. Set it before a read starts.
func SetSplitFailedHook(hook func(i int)) (restore func()) {
	splitFailed = hook
	return func() { splitFailed = nil }
}
