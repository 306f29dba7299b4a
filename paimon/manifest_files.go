package paimon

import (
	"bytes"
	"context"
	"fmt"
	"strconv"

	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/internal/coreoptions"
	"github.com/paimon-go/paimon-go/internal/datafile"
)

// Options for manifest files (Java CoreOptions).
const (
	optManifestCompression     = coreoptions.ManifestCompression
	optManifestTargetSize      = coreoptions.ManifestTargetFileSize
	optManifestMergeMinCount   = coreoptions.ManifestMergeMinCount
	optManifestFullCompaction  = coreoptions.ManifestFullCompactionFileSize
	optFileCompressionZstdLvl  = coreoptions.FileCompressionZstdLevel
	defaultManifestTargetSize  = 8 << 20
	defaultManifestMergeMin    = 30
	defaultManifestFullCompact = 16 << 20
)

// metaWriter writes the manifests, manifest lists and index manifests of one
// committer. Like Java's FileStorePathFactory it names them
// "<kind>-<uuid>-<n>" with one uuid per committer and a counter per kind,
// and it remembers what it wrote so that a failed attempt can remove it.
type metaWriter struct {
	meta       *TableMeta
	uuid       string
	opts       *manifest.WriteOptions
	targetSize int64
	partTypes  []schema.DataType

	manifests, lists, indexes int
	written                   []string // paths written since the last reset
}

func newMetaWriter(meta *TableMeta, ts *schema.TableSchema) (*metaWriter, error) {
	opts := tableOptions(ts.Options)
	w := &metaWriter{
		meta: meta,
		uuid: datafile.NewUUID(),
		opts: &manifest.WriteOptions{Compression: ts.Options[optManifestCompression]},
	}
	if v, ok := ts.Options[optFileCompressionZstdLvl]; ok {
		n, err := strconv.Atoi(v)
		if err != nil {
			return nil, fmt.Errorf("%w: table option %s=%q", ErrInvalidOption, optFileCompressionZstdLvl, v)
		}
		w.opts.ZstdLevel = n
	}
	var err error
	if w.targetSize, err = opts.memory(optManifestTargetSize, defaultManifestTargetSize); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidOption, err)
	}
	for _, f := range ts.PartitionFields() {
		w.partTypes = append(w.partTypes, f.Type)
	}
	return w, nil
}

// reset forgets the files written so far (they are now referenced by a
// published snapshot) and returns them.
func (w *metaWriter) reset() []string {
	out := w.written
	w.written = nil
	return out
}

// removeWritten deletes every file written since the last reset: they
// belong to an attempt whose snapshot was not published.
func (w *metaWriter) removeWritten(ctx context.Context) {
	for _, p := range w.reset() {
		_ = w.meta.fsys.Remove(ctx, p)
	}
}

// put writes one file. Its path is recorded whatever the outcome: a Close
// that reports an error may still have published the file (a lost
// acknowledgement), and removing a file that does not exist is harmless,
// as Java's SingleFileWriter.abort deletes its path in any case.
func (w *metaWriter) put(ctx context.Context, name string, body []byte) error {
	p := w.meta.ManifestPath(name)
	w.written = append(w.written, p)
	if err := fs.WriteFile(ctx, w.meta.fsys, p, body, nil); err != nil {
		return fmt.Errorf("paimon: write %s: %w", p, err)
	}
	return nil
}

// writeManifests writes entries into manifest files rolled at
// manifest.target-file-size (Java ManifestFile.write) and returns their
// manifest-list records. No entries write no file. schemaID is used for
// the record of a manifest without entries (never happens here) and is
// otherwise the largest schema id of the entries, as Java records it.
func (w *metaWriter) writeManifests(ctx context.Context, entries []manifest.ManifestEntry) ([]manifest.ManifestFileMeta, error) {
	if len(entries) == 0 {
		return nil, nil
	}
	var buf bytes.Buffer
	if err := manifest.WriteManifest(&buf, entries, w.opts); err != nil {
		return nil, fmt.Errorf("paimon: encode manifest: %w", err)
	}
	// Java rolls while writing; we encode once and, when the result is
	// over the target, split the entries evenly into as many files as the
	// target size needs.
	parts := 1
	if int64(buf.Len()) > w.targetSize && w.targetSize > 0 {
		parts = int((int64(buf.Len()) + w.targetSize - 1) / w.targetSize)
		parts = min(parts, len(entries))
	}
	var out []manifest.ManifestFileMeta
	for p := 0; p < parts; p++ {
		chunk := entries[p*len(entries)/parts : (p+1)*len(entries)/parts]
		body := buf.Bytes()
		if parts > 1 {
			var b bytes.Buffer
			if err := manifest.WriteManifest(&b, chunk, w.opts); err != nil {
				return nil, fmt.Errorf("paimon: encode manifest: %w", err)
			}
			body = b.Bytes()
		}
		name := "manifest-" + w.uuid + "-" + strconv.Itoa(w.manifests)
		w.manifests++
		if err := w.put(ctx, name, body); err != nil {
			return nil, err
		}
		m, err := w.fileMeta(name, int64(len(body)), chunk)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

// fileMeta summarizes a manifest's entries as Java's ManifestEntryWriter
// does: counts, partition statistics, largest schema id, bucket, level and
// row-id ranges.
func (w *metaWriter) fileMeta(name string, size int64, entries []manifest.ManifestEntry) (manifest.ManifestFileMeta, error) {
	m := manifest.ManifestFileMeta{FileName: name, FileSize: size, SchemaID: -1 << 63}
	partitions := make([][]any, 0, len(entries))
	seen := map[string]bool{}
	minB, maxB := entries[0].Bucket, entries[0].Bucket
	minL, maxL := entries[0].File.Level, entries[0].File.Level
	rowIDs := true
	var minRow, maxRow int64 = 1<<63 - 1, -1 << 63
	for i := range entries {
		e := &entries[i]
		if e.Kind == manifest.FileKindAdd {
			m.NumAddedFiles++
		} else {
			m.NumDeletedFiles++
		}
		m.SchemaID = max(m.SchemaID, e.File.SchemaID)
		minB, maxB = min(minB, e.Bucket), max(maxB, e.Bucket)
		minL, maxL = min(minL, e.File.Level), max(maxL, e.File.Level)
		if e.File.FirstRowID == nil {
			rowIDs = false
		} else {
			minRow = min(minRow, *e.File.FirstRowID)
			maxRow = max(maxRow, *e.File.FirstRowID+e.File.RowCount-1)
		}
		// The statistics depend only on the set of partitions.
		if seen[string(e.Partition)] {
			continue
		}
		seen[string(e.Partition)] = true
		row, err := binaryrow.ParseSerialized(e.Partition)
		if err != nil {
			return m, fmt.Errorf("paimon: partition of %s: %w", e.File.FileName, err)
		}
		vals, err := row.Values(w.partTypes)
		if err != nil {
			return m, fmt.Errorf("paimon: partition of %s: %w", e.File.FileName, err)
		}
		partitions = append(partitions, vals)
	}
	stats, err := datafile.PartitionStats(w.partTypes, partitions)
	if err != nil {
		return m, fmt.Errorf("paimon: partition statistics of %s: %w", name, err)
	}
	m.PartitionStats = stats
	m.MinBucket, m.MaxBucket, m.MinLevel, m.MaxLevel = &minB, &maxB, &minL, &maxL
	if rowIDs {
		m.MinRowID, m.MaxRowID = &minRow, &maxRow
	}
	return m, nil
}

// writeList writes a manifest list and returns its name and size.
func (w *metaWriter) writeList(ctx context.Context, metas []manifest.ManifestFileMeta) (string, int64, error) {
	var buf bytes.Buffer
	if err := manifest.WriteManifestList(&buf, metas, w.opts); err != nil {
		return "", 0, fmt.Errorf("paimon: encode manifest list: %w", err)
	}
	name := "manifest-list-" + w.uuid + "-" + strconv.Itoa(w.lists)
	w.lists++
	if err := w.put(ctx, name, buf.Bytes()); err != nil {
		return "", 0, err
	}
	return name, int64(buf.Len()), nil
}

// writeIndexManifest writes an index manifest listing entries.
func (w *metaWriter) writeIndexManifest(ctx context.Context, entries []manifest.IndexManifestEntry) (string, error) {
	var buf bytes.Buffer
	if err := manifest.WriteIndexManifest(&buf, entries, w.opts); err != nil {
		return "", fmt.Errorf("paimon: encode index manifest: %w", err)
	}
	name := "index-manifest-" + w.uuid + "-" + strconv.Itoa(w.indexes)
	w.indexes++
	if err := w.put(ctx, name, buf.Bytes()); err != nil {
		return "", err
	}
	return name, nil
}
