package paimon

import (
	"cmp"
	"context"
	"fmt"
	"iter"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/paimon-go/paimon-go/format/blobfile"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
)

// BLOB updates (Java 2.0.0). A write that changes a BLOB column of some rows
// of a data-evolution table (Spark's MERGE INTO, DataEvolutionTableDataWrite)
// writes new .blob files over the row-id range with a placeholder (length
// -2 in the file's index, Java BlobPlaceholder) for every row it leaves as
// it was. Java reads such a column with BlobFallbackRecordReader, mirrored
// here:
//
//   - the column's BLOB files of the row-id group are grouped by maximum
//     sequence number (one group per write), newest first;
//   - within a group the files do not overlap, and the rows of the group's
//     range that no file of the group covers read as placeholders
//     (AllPlaceholdersRecordReader);
//   - each row takes the first non-placeholder value, newest group first: a
//     value or a NULL a newer write stored wins over older ones;
//   - a row that is a placeholder in every group is NULL, its
//     _SEQUENCE_NUMBER -1 (BlobFallbackRecordReader.nullBlobRow); otherwise
//     _SEQUENCE_NUMBER is the maximum sequence number of the file the value
//     came from (DataFileRecordReader) and _ROW_ID the row's id.
//
// Java 1.4.2 has no placeholders; of overlapping BLOB files it read the
// newest only, which this gives too wherever the newest file covers the
// rows. Deletion vectors are applied by readUnion after the group's members
// are zipped, which removes the same rows Java removes from every member.
//
// Memory: the files' indexes (one int64 per row, bounded by the files'
// sizes) and one open file per write at a time; values are read one at a
// time into a reused buffer.

// blobCursor walks the files of one write (one maximum sequence number) of
// a BLOB column in row-id order.
type blobCursor struct {
	files []*manifest.DataFileMeta
	i     int              // file covering or after the current row
	open  fs.File          // files[i] when opened
	rd    *blobfile.Reader // files[i]'s index when opened
}

func (c *blobCursor) close() {
	if c.open != nil {
		c.open.Close()
		c.open, c.rd = nil, nil
	}
}

// readBlobFallback reads fields (one BLOB field and row-tracking fields)
// from the BLOB files of one column of a row-id group written by several
// writes, resolving placeholders as Java 2.0.0's BlobFallbackRecordReader.
// The files were checked by checkBlobBunch.
func (r *splitReader) readBlobFallback(ctx context.Context, sp *Split, files []*manifest.DataFileMeta, fields []schema.DataField) iter.Seq2[arrow.RecordBatch, error] {
	return func(yield func(arrow.RecordBatch, error) bool) {
		bySeq := map[int64]*blobCursor{}
		var cursors []*blobCursor
		first, last := *files[0].FirstRowID, int64(-1)
		for _, f := range files {
			c := bySeq[f.MaxSequenceNumber]
			if c == nil {
				c = &blobCursor{}
				bySeq[f.MaxSequenceNumber] = c
				cursors = append(cursors, c)
			}
			c.files = append(c.files, f)
			first = min(first, *f.FirstRowID)
			last = max(last, *f.FirstRowID+f.RowCount-1)
		}
		slices.SortFunc(cursors, func(a, b *blobCursor) int {
			return cmp.Compare(b.files[0].MaxSequenceNumber, a.files[0].MaxSequenceNumber)
		})
		defer func() {
			for _, c := range cursors {
				c.close()
			}
		}()
		sch, err := schema.ToArrowSchema(fields)
		if err != nil {
			yield(nil, err)
			return
		}
		blobCol, rowIDCol, seqCol := -1, -1, -1
		for j, fld := range fields {
			switch {
			case fld.ID == rowIDField.ID:
				rowIDCol = j
			case fld.ID == sequenceField.ID:
				seqCol = j
			case fld.Type.Root == schema.Blob && blobCol < 0:
				blobCol = j
			default:
				yield(nil, fmt.Errorf("%w: field %s read from the BLOB files of %s", ErrCorrupt, fld.Name, files[0].FileName))
				return
			}
		}
		batch := r.scan.spec.BatchSize
		if batch <= 0 {
			batch = blobfile.DefaultBatchSize
		}
		var buf []byte
		for start := first; start <= last; start += int64(batch) {
			if err := ctx.Err(); err != nil {
				yield(nil, err)
				return
			}
			end := min(start+int64(batch)-1, last)
			builders := make([]array.Builder, len(fields))
			for j := range fields {
				builders[j] = array.NewBuilder(r.mem, sch.Field(j).Type)
			}
			release := func() {
				for _, b := range builders {
					b.Release()
				}
			}
			for row := start; row <= end; row++ {
				src, pos, err := r.resolveBlobRow(ctx, sp, cursors, row)
				if err != nil {
					release()
					yield(nil, err)
					return
				}
				if rowIDCol >= 0 {
					builders[rowIDCol].(*array.Int64Builder).Append(row)
				}
				if seqCol >= 0 {
					seq := int64(-1)
					if src != nil {
						seq = src.files[src.i].MaxSequenceNumber
					}
					builders[seqCol].(*array.Int64Builder).Append(seq)
				}
				if blobCol < 0 {
					continue
				}
				b := builders[blobCol].(*array.BinaryBuilder)
				if src == nil || src.rd.IsNull(pos) {
					b.AppendNull()
					continue
				}
				if buf, err = src.rd.AppendValue(buf[:0], pos); err != nil {
					release()
					yield(nil, formatErr(src.files[src.i].FileName, err))
					return
				}
				b.Append(buf)
			}
			cols := make([]arrow.Array, len(builders))
			for j, b := range builders {
				cols[j] = b.NewArray()
			}
			release()
			rec := array.NewRecordBatch(sch, cols, end-start+1)
			for _, c := range cols {
				c.Release()
			}
			if !yield(rec, nil) {
				return
			}
		}
	}
}

// resolveBlobRow finds the write whose file holds row's value: the newest
// whose file covers the row with anything but a placeholder. It returns
// that cursor (nil when every write has a placeholder or no file for the
// row) and the row's position in the cursor's current file. Cursors only
// move forward: rows are resolved in row-id order.
func (r *splitReader) resolveBlobRow(ctx context.Context, sp *Split, cursors []*blobCursor, row int64) (*blobCursor, int64, error) {
	for _, c := range cursors {
		for c.i < len(c.files) && *c.files[c.i].FirstRowID+c.files[c.i].RowCount <= row {
			c.close()
			c.i++
		}
		if c.i == len(c.files) || *c.files[c.i].FirstRowID > row {
			continue // a gap: a placeholder
		}
		if c.rd == nil {
			if err := r.openBlobFile(ctx, sp, c); err != nil {
				return nil, 0, err
			}
		}
		pos := row - *c.files[c.i].FirstRowID
		if !c.rd.IsPlaceholder(pos) {
			return c, pos, nil
		}
	}
	return nil, 0, nil
}

// openBlobFile opens the cursor's current file and reads its index; the
// file's size and row count must be the ones the manifest recorded.
func (r *splitReader) openBlobFile(ctx context.Context, sp *Split, c *blobCursor) error {
	f := c.files[c.i]
	p, err := r.dataFilePath(sp, f)
	if err != nil {
		return err
	}
	file, err := r.scan.table.meta.fsys.Open(ctx, p)
	if err != nil {
		return fmt.Errorf("paimon: data file %s: %w", p, err)
	}
	if f.FileSize != file.Size() {
		file.Close()
		return corrupt(p, fmt.Errorf("file has %d bytes, manifest says %d", file.Size(), f.FileSize))
	}
	rd, err := blobfile.Open(ctx, file, file.Size(), &blobfile.ReadOptions{Name: p})
	if err != nil {
		file.Close()
		return formatErr(p, err)
	}
	if rd.NumRows() != f.RowCount {
		file.Close()
		return corrupt(p, fmt.Errorf("file has %d rows, manifest says %d", rd.NumRows(), f.RowCount))
	}
	c.open, c.rd = file, rd
	return nil
}
