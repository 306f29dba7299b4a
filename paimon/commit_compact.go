package paimon

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/snapshot"
)

// CompactIncrement is the compaction side of a CommitMessage (Java
// CompactIncrement): the data files a compaction replaced, the files it
// wrote in their place, and the index files (deletion vectors) it added and
// removed. A TableCommit publishes it in a COMPACT snapshot, after the
// APPEND snapshot of the message's new files, with Java's conflict checks:
// if another commit removed one of the Before files (another compaction,
// an overwrite) or changed its deletion vector, the compaction is refused
// with ErrCommitConflict and its files are removed; nothing is lost, since
// the Before files stay live.
type CompactIncrement struct {
	// Before are the live data files the compaction rewrote; they are
	// deleted from the table.
	Before []manifest.DataFileMeta `json:",omitempty"`
	// After are the files written in their place (FileSource COMPACT).
	After []manifest.DataFileMeta `json:",omitempty"`
	// NewIndexFiles and DeletedIndexFiles are index files of the
	// message's bucket the compaction added and removed: the deletion
	// vectors of Before files are dropped by rewriting the index files
	// that held them.
	NewIndexFiles     []manifest.IndexFileMeta `json:",omitempty"`
	DeletedIndexFiles []manifest.IndexFileMeta `json:",omitempty"`
	// Changelog are the changelog files the compaction wrote
	// (changelog-producer = lookup or full-compaction), committed in the
	// snapshot's changelog manifest list (Java
	// CompactIncrement.changelogFiles).
	Changelog []manifest.DataFileMeta `json:",omitempty"`
}

func (ci *CompactIncrement) empty() bool {
	return ci == nil || len(ci.Before)+len(ci.After)+len(ci.NewIndexFiles)+len(ci.DeletedIndexFiles)+len(ci.Changelog) == 0
}

// compactChanges are the entries of the COMPACT snapshot of msgs, in Java's
// order (ManifestEntryChanges.collect): per message the DELETE entries of
// Before, then the ADD entries of After, then its index DELETEs and ADDs.
func compactChanges(msgs []CommitMessage) commitChanges {
	var ch commitChanges
	for i := range msgs {
		m := &msgs[i]
		if m.Compact.empty() {
			continue
		}
		add := func(kind manifest.FileKind, files []manifest.DataFileMeta) {
			for _, f := range files {
				ch.files = append(ch.files, manifest.ManifestEntry{
					Kind: kind, Partition: m.Partition, Bucket: m.Bucket, TotalBuckets: m.TotalBuckets, File: f,
				})
			}
		}
		add(manifest.FileKindDelete, m.Compact.Before)
		add(manifest.FileKindAdd, m.Compact.After)
		for _, f := range m.Compact.Changelog {
			ch.changelog = append(ch.changelog, manifest.ManifestEntry{
				Kind: manifest.FileKindAdd, Partition: m.Partition, Bucket: m.Bucket, TotalBuckets: m.TotalBuckets, File: f,
			})
		}
		for _, f := range m.Compact.DeletedIndexFiles {
			ch.index = append(ch.index, manifest.IndexManifestEntry{Kind: manifest.FileKindDelete, Partition: m.Partition, Bucket: m.Bucket, IndexFile: f})
		}
		for _, f := range m.Compact.NewIndexFiles {
			ch.index = append(ch.index, manifest.IndexManifestEntry{Kind: manifest.FileKindAdd, Partition: m.Partition, Bucket: m.Bucket, IndexFile: f})
		}
	}
	return ch
}

// checkCompactMessages checks the compaction side of the messages against
// the latest schema: the files a compaction wrote must be of that schema
// (the files it replaced may be older).
func checkCompactMessages(msgs []CommitMessage, schemaID int64) error {
	for i := range msgs {
		m := &msgs[i]
		if m.Compact == nil {
			continue
		}
		for _, f := range m.Compact.After {
			if f.SchemaID != schemaID && !containsFile(m.Compact.Before, f.FileName) {
				return fmt.Errorf("%w: compacted file %s was written with schema %d, the latest schema is %d",
					ErrSchemaChanged, f.FileName, f.SchemaID, schemaID)
			}
		}
		for _, f := range m.Compact.Changelog {
			if f.SchemaID != schemaID {
				return fmt.Errorf("%w: changelog file %s was written with schema %d, the latest schema is %d",
					ErrSchemaChanged, f.FileName, f.SchemaID, schemaID)
			}
		}
		for _, f := range m.Compact.NewIndexFiles {
			if f.ExternalPath != nil {
				return fmt.Errorf("%w: message %d: index file %s has an external path", ErrInvalidCommitMessage, i, f.FileName)
			}
		}
	}
	return nil
}

func containsFile(files []manifest.DataFileMeta, name string) bool {
	for i := range files {
		if files[i].FileName == name {
			return true
		}
	}
	return false
}

// commitCompaction publishes the compaction side of msgs in a COMPACT
// snapshot with conflict detection (Java FileStoreCommitImpl.commit, second
// part). On a failure known not to have published, the compaction's own
// files are removed (never the Before files, nor the messages' new files,
// which an APPEND snapshot may already hold).
func (c *TableCommit) commitCompaction(ctx context.Context, identifier int64, msgs []CommitMessage) (*CommitResult, error) {
	ch := compactChanges(msgs)
	provider := func(context.Context, *snapshot.Snapshot) (commitChanges, error) { return ch, nil }
	res, err := c.tryCommit(ctx, provider, identifier, snapshot.CommitCompact, true)
	if err != nil {
		var unknown *unknownOutcomeError
		if !errors.As(err, &unknown) {
			if aerr := c.abortCompaction(context.WithoutCancel(ctx), msgs); aerr != nil {
				err = errors.Join(err, aerr)
			}
		}
		return nil, err
	}
	return res, nil
}

// abortCompaction removes the files a compaction wrote: After files that
// are not also Before files (a file moved to another level keeps its name)
// and the index files it added.
func (c *TableCommit) abortCompaction(ctx context.Context, msgs []CommitMessage) error {
	var errs []error
	remove := func(p string) {
		if err := c.meta.fsys.Remove(ctx, p); err != nil && !errors.Is(err, iofs.ErrNotExist) {
			errs = append(errs, fmt.Errorf("paimon: remove %s: %w", p, err))
		}
	}
	for i := range msgs {
		m := &msgs[i]
		if m.Compact.empty() {
			continue
		}
		dir, err := c.bucketDir(m.Partition, m.Bucket)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, f := range m.Compact.After {
			if !containsFile(m.Compact.Before, f.FileName) {
				remove(c.meta.Path(dir, f.FileName))
				for _, x := range f.ExtraFiles { // its separate file index
					remove(c.meta.Path(dir, x))
				}
			}
		}
		for _, f := range m.Compact.NewIndexFiles {
			remove(c.meta.IndexPath(f.FileName))
		}
		for _, f := range m.Compact.Changelog {
			remove(c.meta.Path(dir, f.FileName))
		}
	}
	return errors.Join(errs...)
}

// indexKey identifies the index file a bucketed table keeps per bucket and
// index type (Java IndexManifestFileHandler.BucketIdentifier).
type indexKey struct {
	partition string
	bucket    int32
	indexType string
}

// combineIndexEntries applies the index changes of a commit to the index
// entries of the previous snapshot as Java's IndexManifestFileHandler does:
// deletion vectors of unaware-bucket tables are combined by file name (each
// data file in at most one of them); deletion vectors and HASH indexes of
// bucketed tables by (partition, bucket, type), an added file replacing the
// bucket's previous one; other (global) indexes by file name.
func combineIndexEntries(prev, changes []manifest.IndexManifestEntry, unawareBucket bool) ([]manifest.IndexManifestEntry, error) {
	byName := func(e *manifest.IndexManifestEntry) bool {
		switch e.IndexFile.IndexType {
		case manifest.IndexTypeDeletionVectors:
			return unawareBucket
		case manifest.IndexTypeHash:
			return false
		}
		return true
	}
	out := make([]manifest.IndexManifestEntry, 0, len(prev)+len(changes))
	names := map[string]int{}      // file name -> position in out, for by-name types
	buckets := map[indexKey]int{}  // bucket key -> position in out, for bucketed types
	dvFiles := map[string]string{} // unaware deletion vectors: data file -> index file
	dead := map[int]bool{}
	for i := range prev {
		e := &prev[i]
		if byName(e) {
			names[e.IndexFile.FileName] = len(out)
			if e.IndexFile.IndexType == manifest.IndexTypeDeletionVectors {
				for _, r := range e.IndexFile.DVRanges {
					dvFiles[r.DataFileName] = e.IndexFile.FileName
				}
			}
		} else {
			buckets[indexKey{string(e.Partition), e.Bucket, e.IndexFile.IndexType}] = len(out)
		}
		out = append(out, *e)
	}
	// Deletions first, so that a bucket's new file is not removed by the
	// deletion of its old one.
	for i := range changes {
		e := &changes[i]
		if e.Kind != manifest.FileKindDelete {
			continue
		}
		if byName(e) {
			pos, ok := names[e.IndexFile.FileName]
			if !ok {
				return nil, fmt.Errorf("%w: index file %s to delete is not in the latest snapshot", ErrCommitConflict, e.IndexFile.FileName)
			}
			delete(names, e.IndexFile.FileName)
			dead[pos] = true
			for _, r := range e.IndexFile.DVRanges {
				delete(dvFiles, r.DataFileName)
			}
			continue
		}
		k := indexKey{string(e.Partition), e.Bucket, e.IndexFile.IndexType}
		if pos, ok := buckets[k]; ok {
			dead[pos] = true
			delete(buckets, k)
		}
	}
	for i := range changes {
		e := &changes[i]
		if e.Kind != manifest.FileKindAdd {
			continue
		}
		if byName(e) {
			if _, ok := names[e.IndexFile.FileName]; ok {
				return nil, fmt.Errorf("%w: index file %s is added twice", ErrCommitConflict, e.IndexFile.FileName)
			}
			if e.IndexFile.IndexType == manifest.IndexTypeDeletionVectors {
				for _, r := range e.IndexFile.DVRanges {
					if other, ok := dvFiles[r.DataFileName]; ok {
						return nil, fmt.Errorf("%w: data file %s would have deletion vectors in index files %s and %s",
							ErrCommitConflict, r.DataFileName, other, e.IndexFile.FileName)
					}
					dvFiles[r.DataFileName] = e.IndexFile.FileName
				}
			}
			names[e.IndexFile.FileName] = len(out)
		} else {
			k := indexKey{string(e.Partition), e.Bucket, e.IndexFile.IndexType}
			if pos, ok := buckets[k]; ok {
				dead[pos] = true
			}
			buckets[k] = len(out)
		}
		out = append(out, *e)
	}
	kept := out[:0]
	for i := range out {
		if !dead[i] {
			out[i].Kind = manifest.FileKindAdd
			kept = append(kept, out[i])
		}
	}
	return kept, nil
}

// checkDeletionVectorConflicts is Java ConflictDetection's deletion-vector
// check of unaware-bucket tables (buildBaseEntriesWithDV and
// buildDeltaEntriesWithDV): a data file is identified together with the
// index file holding its deletion vector, so a commit that deletes a file,
// or moves its deletion vector, must have seen the deletion vector the
// latest snapshot has for it. Otherwise a concurrent DELETE that marked rows
// of the file would be undone.
func checkDeletionVectorConflicts(latestIndex []manifest.IndexManifestEntry, live map[string]bool, ch commitChanges) error {
	current := map[string]string{} // data file -> index file holding its vector
	for _, e := range latestIndex {
		if e.Kind != manifest.FileKindAdd || e.IndexFile.IndexType != manifest.IndexTypeDeletionVectors {
			continue
		}
		for _, r := range e.IndexFile.DVRanges {
			current[r.DataFileName] = e.IndexFile.FileName
		}
	}
	seen := map[string]string{} // data file -> index file the commit removes it from
	touched := map[string]bool{}
	for _, e := range ch.index {
		if e.IndexFile.IndexType != manifest.IndexTypeDeletionVectors {
			continue
		}
		for _, r := range e.IndexFile.DVRanges {
			touched[r.DataFileName] = true
			if e.Kind == manifest.FileKindDelete {
				seen[r.DataFileName] = e.IndexFile.FileName
			}
		}
	}
	deleted := map[string]bool{}
	for i := range ch.files {
		if ch.files[i].Kind == manifest.FileKindDelete {
			deleted[ch.files[i].File.FileName] = true
		}
	}
	for name := range touched {
		if !deleted[name] && !live[name] {
			return fmt.Errorf("%w: deletion vector of data file %s, which is no longer in the latest snapshot", ErrCommitConflict, name)
		}
	}
	for name := range deleted {
		touched[name] = true
	}
	for name := range touched {
		if cur, want := current[name], seen[name]; cur != want {
			return fmt.Errorf("%w: the deletion vector of data file %s changed (now in index file %q, the commit expected %q)",
				ErrCommitConflict, name, cur, want)
		}
	}
	return nil
}

func hasCompaction(msgs []CommitMessage) bool {
	for i := range msgs {
		if !msgs[i].Compact.empty() {
			return true
		}
	}
	return false
}

// unawareBucket reports whether the table is an append table without
// buckets (Java BucketMode.BUCKET_UNAWARE).
func (c *TableCommit) unawareBucket() bool {
	return len(c.t.schema.PrimaryKeys) == 0 && c.t.schema.Options[optBucket] == "-1"
}

// commitCompactionAfter publishes the compaction side of msgs after the
// APPEND snapshot res (nil when the messages had no new files). When the
// APPEND snapshot landed and the compaction did not, the commit succeeded:
// the result of the APPEND snapshot is returned with CompactErr set (the
// compaction's files are removed; its Before files stay live).
func (c *TableCommit) commitCompactionAfter(ctx context.Context, identifier int64, msgs []CommitMessage, res *CommitResult) (*CommitResult, error) {
	cres, err := c.commitCompaction(ctx, identifier, msgs)
	if err != nil {
		if res != nil {
			res.CompactErr = fmt.Errorf("paimon: snapshot %d with the new files was committed, but their compaction was not: %w", res.Snapshot.ID, err)
			return res, nil
		}
		return nil, err
	}
	if res == nil {
		return cres, nil
	}
	cres.Attempts += res.Attempts
	cres.Published = append(res.Published, cres.Published...)
	return cres, nil
}

// checkDeletionVectors runs checkDeletionVectorConflicts against latest.
func (c *TableCommit) checkDeletionVectors(ctx context.Context, latest *snapshot.Snapshot, base []manifest.ManifestEntry, ch commitChanges) error {
	hasDelete := len(ch.index) > 0
	for i := range ch.files {
		hasDelete = hasDelete || ch.files[i].Kind == manifest.FileKindDelete
	}
	if !hasDelete {
		return nil
	}
	var idx []manifest.IndexManifestEntry
	if latest.IndexManifest != nil && *latest.IndexManifest != "" {
		var err error
		if idx, err = c.meta.ReadIndexManifest(ctx, *latest.IndexManifest); err != nil {
			return err
		}
	}
	live := make(map[string]bool, len(base))
	for i := range base {
		live[base[i].File.FileName] = true
	}
	return checkDeletionVectorConflicts(idx, live, ch)
}
