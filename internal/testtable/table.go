package testtable

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/internal/coreoptions"
	"github.com/paimon-go/paimon-go/internal/datafile"
)

// Table options read for metadata files (Java CoreOptions).
const (
	optManifestCompression = coreoptions.ManifestCompression
	optZstdLevel           = coreoptions.FileCompressionZstdLevel
)

// Table is an append-only table being written. Create one with Create, then
// add snapshots with Commit. A Table is not safe for concurrent use, and
// assumes nobody else commits to the same table meanwhile.
type Table struct {
	fsys        fs.FS
	dir         string
	schema      *schema.TableSchema
	arrowSchema *arrow.Schema
	part        *partitioner
	buckets     int
	manifestOps *manifest.WriteOptions
	mem         memory.Allocator
	now         func() time.Time
	commitUser  string

	// metaUUID names this writer's manifests and manifest lists
	// (FileStorePathFactory keeps one uuid and a counter per kind).
	metaUUID                 string
	manifestCount, listCount int
	dataNames                map[string]*datafile.FileNames // per partition/bucket directory
	bucketSeq                map[string]int64               // next sequence number per bucket of fixed-bucket tables
	latest                   *snapshot.Snapshot
	manifests                []manifest.ManifestFileMeta // base + delta manifests of latest
}

// Create starts a new table in directory dir of fsys: it validates sch and
// writes it as schema/schema-<sch.ID> (create-if-absent, so an existing
// table is never overwritten). The table must be append-only (no primary
// key) whose data files internal/datafile can write (file.format parquet,
// the default, or avro).
func Create(ctx context.Context, fsys fs.FS, dir string, sch *schema.TableSchema) (*Table, error) {
	if err := sch.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	if len(sch.PrimaryKeys) > 0 {
		return nil, fmt.Errorf("%w: primary-key tables (only append tables are written)", ErrUnsupported)
	}
	if err := datafile.Validate(sch); err != nil {
		return nil, fromDatafile(err)
	}
	t := &Table{
		fsys:       fsys,
		dir:        dir,
		schema:     sch.Clone(),
		mem:        memory.DefaultAllocator,
		now:        time.Now,
		commitUser: datafile.NewUUID(),
		metaUUID:   datafile.NewUUID(),
		dataNames:  map[string]*datafile.FileNames{},
		bucketSeq:  map[string]int64{},
	}
	var err error
	if t.arrowSchema, err = schema.ToArrowSchema(t.schema.Fields); err != nil {
		return nil, err
	}
	if t.part, err = newPartitioner(t.schema); err != nil {
		return nil, err
	}
	if t.buckets, err = t.schema.Bucket(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	if t.buckets == 0 || t.buckets < -1 {
		return nil, fmt.Errorf("%w: bucket = %d (append tables take -1 or a positive count)", ErrUnsupported, t.buckets)
	}
	t.manifestOps = &manifest.WriteOptions{Compression: t.schema.Options[optManifestCompression]}
	if v, ok := t.schema.Options[optZstdLevel]; ok {
		if t.manifestOps.ZstdLevel, err = strconv.Atoi(v); err != nil {
			return nil, fmt.Errorf("%w: option %s=%q", ErrInvalid, optZstdLevel, v)
		}
	}
	body, err := t.schema.Encode()
	if err != nil {
		return nil, err
	}
	p := t.path("schema", "schema-"+strconv.FormatInt(t.schema.ID, 10))
	if err := fs.WriteFile(ctx, fsys, p, body, &fs.CreateOptions{IfNotExist: true}); err != nil {
		return nil, fmt.Errorf("testtable: create table: %w", err)
	}
	return t, nil
}

// Schema returns the table's schema. Do not modify it.
func (t *Table) Schema() *schema.TableSchema { return t.schema }

// ArrowSchema returns the Arrow schema of the batches a DataFile carries
// (schema.ToArrowSchema of the columns, with Parquet field ids).
func (t *Table) ArrowSchema() *arrow.Schema { return t.arrowSchema }

// Dir returns the table directory, relative to the file system root.
func (t *Table) Dir() string { return t.dir }

// Latest returns the last snapshot committed, or nil before the first commit.
func (t *Table) Latest() *snapshot.Snapshot { return t.latest }

// SetAllocator sets the allocator Parquet writing uses (default
// memory.DefaultAllocator).
func (t *Table) SetAllocator(mem memory.Allocator) { t.mem = mem }

// SetClock sets the clock that stamps snapshots (timeMillis) and data files
// (_CREATION_TIME); the default is time.Now.
func (t *Table) SetClock(now func() time.Time) { t.now = now }

func (t *Table) path(elem ...string) string {
	p := t.dir
	for _, e := range elem {
		p = fs.Join(p, e)
	}
	return p
}

func (t *Table) checkBucket(b int) error {
	if t.buckets == -1 {
		if b != 0 {
			return fmt.Errorf("%w: bucket %d in a bucket-unaware table (use 0)", ErrInvalid, b)
		}
		return nil
	}
	if b < 0 || b >= t.buckets {
		return fmt.Errorf("%w: bucket %d outside 0..%d", ErrInvalid, b, t.buckets-1)
	}
	return nil
}

// CommitResult describes what a Commit wrote.
type CommitResult struct {
	// Snapshot is the new snapshot.
	Snapshot *snapshot.Snapshot
	// Manifest is the new manifest's entry in the delta manifest list.
	Manifest manifest.ManifestFileMeta
	// Entries are the manifest's ADD entries, one per DataFile, in order.
	Entries []manifest.ManifestEntry
	// Paths are the data files written, relative to the file system root,
	// in the order of Entries.
	Paths []string
}

// Commit writes every DataFile as one Parquet file, then one manifest
// holding them, the manifest lists and snapshot-N, like one APPEND commit of
// Java's FileStoreCommitImpl (batch mode: commitIdentifier Long.MAX_VALUE).
//
// Sequence numbers follow Java's append writers: in a bucket-unaware table
// every partition's rows of one commit are numbered from 0 (Java's unaware
// writers never restore), in a fixed-bucket table they continue from the
// bucket's previous files.
func (t *Table) Commit(ctx context.Context, files ...DataFile) (*CommitResult, error) {
	if len(files) == 0 {
		return nil, fmt.Errorf("%w: a commit needs at least one data file", ErrInvalid)
	}
	res := &CommitResult{}
	// Next sequence number per partition and bucket; fixed-bucket tables
	// start from the table's, and keep this commit's only once published.
	nextSeq := map[string]int64{}
	partitions := make([][]any, 0, len(files))
	var delta int64
	for i, f := range files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		part, err := t.part.row(f.Partition)
		if err != nil {
			return nil, fmt.Errorf("data file %d: %w", i, err)
		}
		key := string(part) + "/" + strconv.Itoa(f.Bucket)
		seq, ok := nextSeq[key]
		if !ok && t.buckets > 0 {
			seq = t.bucketSeq[key]
		}
		w, err := t.writeDataFile(ctx, f, seq)
		if err != nil {
			return nil, fmt.Errorf("data file %d: %w", i, err)
		}
		nextSeq[key] = w.entry.File.MaxSequenceNumber + 1
		res.Entries = append(res.Entries, w.entry)
		res.Paths = append(res.Paths, w.path)
		partitions = append(partitions, w.part)
		delta += w.entry.File.RowCount
	}

	meta, err := t.writeManifest(ctx, res.Entries, partitions)
	if err != nil {
		return nil, err
	}
	res.Manifest = meta
	baseName, baseSize, err := t.writeManifestList(ctx, t.manifests)
	if err != nil {
		return nil, err
	}
	deltaName, deltaSize, err := t.writeManifestList(ctx, []manifest.ManifestFileMeta{meta})
	if err != nil {
		return nil, err
	}

	id, total, nextRowID := snapshot.FirstSnapshotID, int64(0), int64(0)
	if t.latest != nil {
		id, total = t.latest.ID+1, t.latest.TotalRecordCount
		if t.latest.NextRowID != nil {
			nextRowID = *t.latest.NextRowID
		}
	}
	snap := &snapshot.Snapshot{
		Version:               snapshot.CurrentVersion,
		ID:                    id,
		SchemaID:              t.schema.ID,
		BaseManifestList:      baseName,
		BaseManifestListSize:  &baseSize,
		DeltaManifestList:     deltaName,
		DeltaManifestListSize: &deltaSize,
		CommitUser:            t.commitUser,
		CommitIdentifier:      snapshot.BatchCommitIdentifier,
		CommitKind:            snapshot.CommitAppend,
		TimeMillis:            t.now().UnixMilli(),
		TotalRecordCount:      total + delta,
		DeltaRecordCount:      delta,
		NextRowID:             &nextRowID,
	}
	if err := t.publish(ctx, snap); err != nil {
		return nil, err
	}
	t.latest = snap
	t.manifests = append(t.manifests, meta)
	if t.buckets > 0 {
		for k, v := range nextSeq {
			t.bucketSeq[k] = v
		}
	}
	res.Snapshot = snap
	return res, nil
}

// writeManifest writes one manifest file (ManifestFile.ManifestEntryWriter)
// and returns its manifest-list entry.
func (t *Table) writeManifest(ctx context.Context, entries []manifest.ManifestEntry, partitions [][]any) (manifest.ManifestFileMeta, error) {
	var buf bytes.Buffer
	if err := manifest.WriteManifest(&buf, entries, t.manifestOps); err != nil {
		return manifest.ManifestFileMeta{}, fmt.Errorf("testtable: manifest: %w", err)
	}
	name := "manifest-" + t.metaUUID + "-" + strconv.Itoa(t.manifestCount)
	t.manifestCount++
	if err := fs.WriteFile(ctx, t.fsys, t.path("manifest", name), buf.Bytes(), nil); err != nil {
		return manifest.ManifestFileMeta{}, err
	}
	pstats, err := datafile.PartitionStats(t.part.types, partitions)
	if err != nil {
		return manifest.ManifestFileMeta{}, err
	}
	meta := manifest.ManifestFileMeta{
		FileName:       name,
		FileSize:       int64(buf.Len()),
		NumAddedFiles:  int64(len(entries)),
		PartitionStats: pstats,
		SchemaID:       t.schema.ID,
	}
	minB, maxB, minL, maxL := entries[0].Bucket, entries[0].Bucket, entries[0].File.Level, entries[0].File.Level
	for _, e := range entries[1:] {
		minB, maxB = min(minB, e.Bucket), max(maxB, e.Bucket)
		minL, maxL = min(minL, e.File.Level), max(maxL, e.File.Level)
		meta.SchemaID = max(meta.SchemaID, e.File.SchemaID)
	}
	meta.MinBucket, meta.MaxBucket, meta.MinLevel, meta.MaxLevel = &minB, &maxB, &minL, &maxL
	return meta, nil
}

// writeManifestList writes a manifest list and returns its name and size.
func (t *Table) writeManifestList(ctx context.Context, metas []manifest.ManifestFileMeta) (string, int64, error) {
	var buf bytes.Buffer
	if err := manifest.WriteManifestList(&buf, metas, t.manifestOps); err != nil {
		return "", 0, fmt.Errorf("testtable: manifest list: %w", err)
	}
	name := "manifest-list-" + t.metaUUID + "-" + strconv.Itoa(t.listCount)
	t.listCount++
	if err := fs.WriteFile(ctx, t.fsys, t.path("manifest", name), buf.Bytes(), nil); err != nil {
		return "", 0, err
	}
	return name, int64(buf.Len()), nil
}

// publish creates snapshot-<id> if it does not exist yet (the atomic step of
// Java's RenamingSnapshotCommit), then writes the LATEST hint and, for the
// first snapshot, EARLIEST.
func (t *Table) publish(ctx context.Context, s *snapshot.Snapshot) error {
	p := t.path("snapshot", "snapshot-"+strconv.FormatInt(s.ID, 10))
	err := fs.WriteFile(ctx, t.fsys, p, s.Encode(), &fs.CreateOptions{IfNotExist: true})
	if errors.Is(err, iofs.ErrExist) {
		return fmt.Errorf("testtable: snapshot %d was committed by someone else: %w", s.ID, err)
	}
	if err != nil {
		return err
	}
	if s.ID == snapshot.FirstSnapshotID {
		if err := fs.WriteFile(ctx, t.fsys, t.path("snapshot", snapshot.EarliestHint), snapshot.FormatHint(s.ID), nil); err != nil {
			return err
		}
	}
	return fs.WriteFile(ctx, t.fsys, t.path("snapshot", snapshot.LatestHint), snapshot.FormatHint(s.ID), nil)
}
