package paimon

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/paimon-go/paimon-go/format/blobfile"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/internal/coreoptions"
)

// Descriptor-stored BLOBs (blob-descriptor-field, Java 1.4.2 and 2.0.0).
// The BLOB columns the option names are written into the data files
// (Parquet, ORC, Avro) as serialized descriptors — a URI, an offset and a
// length (blobfile.Descriptor) — rather than as the bytes or into .blob
// files. Java reads such a value as a BlobRef whose bytes it fetches
// through the table's FileIO (ColumnarRow.getBlob, UriReader.fromFile,
// BlobRef.toData); a scan here returns the bytes too, fetched through the
// table's BlobOpener after the filter and the projection, for the output
// columns only.
//
// A table opened without a BlobOpener refuses, before any row, a scan that
// outputs such a column; other columns read as usual. Every value is
// checked before anything is allocated for it: a descriptor that does not
// parse is corrupt, one naming bytes outside its object or more than Java
// materialises (maxBlobValue) is refused, and every error names the
// object. The bytes of one batch's values are held at once.

// BlobOpener opens the object a BLOB descriptor names, by the URI the
// descriptor holds as Java wrote it (a path such as "/data/x.bin", or a URI
// such as "s3://bucket/x.bin"). Java opens it with the table's FileIO; an
// opener that cannot reach the URI returns an error saying so. It is called
// once per value: fs.NewURIOpener().OpenFile opens each bucket (or the
// local file system) once and reuses it, where fs.OpenFileURI opens a file
// system, and for an object store a client, per call.
type BlobOpener func(ctx context.Context, uri string) (fs.File, error)

// maxBlobValue bounds one value as Java's BlobRef.toData bounds the byte
// array it materialises (MAX_ARRAY_SIZE, Integer.MAX_VALUE - 8).
const maxBlobValue = math.MaxInt32 - 8

// descriptorFieldIDs returns the ids of the top-level BLOB fields of ts that
// blob-descriptor-field (fallback key blob.stored-descriptor-fields) names:
// comma-separated, trimmed, empty names dropped (Java
// CoreOptions.parseCommaSeparatedSet).
func descriptorFieldIDs(ts *schema.TableSchema) map[int]bool {
	v, _, ok := coreoptions.Values(ts.Options).Get(coreoptions.BlobDescriptorField)
	if !ok {
		return nil
	}
	var names []string
	for _, n := range strings.Split(v, ",") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	ids := map[int]bool{}
	for _, f := range ts.Fields {
		if f.Type.Root == schema.Blob && slices.Contains(names, f.Name) {
			ids[f.ID] = true
		}
	}
	return ids
}

// descriptorColumns sets st.descCols, the output columns holding
// descriptor-stored BLOBs, and refuses them when the table has no opener.
func (st *scanState) descriptorColumns(t *Table) error {
	ids := descriptorFieldIDs(st.schema)
	if len(ids) == 0 {
		return nil
	}
	for j, oc := range st.outputs {
		if oc.read >= 0 && oc.read < len(st.readFields) && ids[st.readFields[oc.read].ID] {
			st.descCols = append(st.descCols, j)
		}
	}
	if len(st.descCols) > 0 && t.blobOpener == nil {
		return fmt.Errorf("%w: %s stores BLOB column %s as descriptors (%s); reading it needs TableOptions.BlobOpener to fetch the bytes they name",
			ErrUnsupported, t.name(), st.outFields[st.descCols[0]].Name, coreoptions.BlobDescriptorField)
	}
	return nil
}

// resolveDescriptors replaces the descriptor columns of an output batch by
// the bytes their descriptors name. It owns rec.
func (r *splitReader) resolveDescriptors(ctx context.Context, rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	st := r.st
	if len(st.descCols) == 0 {
		return rec, nil
	}
	defer rec.Release()
	cols := slices.Clone(rec.Columns())
	var owned []arrow.Array
	defer func() {
		for _, a := range owned {
			a.Release()
		}
	}()
	var cur struct {
		uri  string
		file fs.File
	}
	defer func() {
		if cur.file != nil {
			cur.file.Close()
		}
	}()
	open := func(uri string) (fs.File, error) {
		if cur.file != nil && cur.uri == uri {
			return cur.file, nil
		}
		if cur.file != nil {
			cur.file.Close()
			cur.file = nil
		}
		f, err := r.scan.table.blobOpener(ctx, uri)
		if err != nil {
			return nil, err
		}
		cur.uri, cur.file = uri, f
		return f, nil
	}
	for _, j := range st.descCols {
		name := st.outFields[j].Name
		in, ok := cols[j].(interface {
			arrow.Array
			Value(int) []byte
		})
		if !ok {
			return nil, fmt.Errorf("paimon: %s: BLOB column %s read as %s", r.scan.table.name(), name, cols[j].DataType())
		}
		b := array.NewBinaryBuilder(r.mem, arrow.BinaryTypes.LargeBinary)
		var buf []byte
		for i := 0; i < in.Len(); i++ {
			if in.IsNull(i) {
				b.AppendNull()
				continue
			}
			var err error
			if buf, err = readDescribed(in.Value(i), open, buf[:0]); err != nil {
				b.Release()
				return nil, fmt.Errorf("paimon: %s: BLOB column %s: %w", r.scan.table.name(), name, err)
			}
			b.Append(buf)
		}
		out := b.NewArray()
		b.Release()
		owned = append(owned, out)
		cols[j] = out
	}
	return array.NewRecordBatch(rec.Schema(), cols, rec.NumRows()), nil
}

// readDescribed appends to dst the bytes the serialized descriptor desc
// names, checked against the object's size before anything is allocated.
func readDescribed(desc []byte, open func(string) (fs.File, error), dst []byte) ([]byte, error) {
	d, err := blobfile.ParseDescriptor(desc)
	if err != nil {
		return dst, fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	f, err := open(d.URI)
	if err != nil {
		return dst, fmt.Errorf("descriptor of %s: %w", d.URI, err)
	}
	size := f.Size()
	n := d.Length
	if n < 0 {
		n = size - d.Offset // Java: up to the end
	}
	switch {
	case d.Offset < 0 || d.Offset > size || n < 0 || n > size-d.Offset:
		return dst, fmt.Errorf("%w: descriptor names bytes %d+%d of %s, which has %d", ErrCorrupt, d.Offset, d.Length, d.URI, size)
	case n > maxBlobValue:
		return dst, fmt.Errorf("%w: descriptor names %d bytes of %s, more than a BLOB value holds (%d)", ErrUnsupported, n, d.URI, maxBlobValue)
	}
	start := len(dst)
	dst = slices.Grow(dst, int(n))[:start+int(n)]
	got, err := f.ReadAt(dst[start:], d.Offset)
	if err != nil && !(errors.Is(err, io.EOF) && int64(got) == n) {
		return dst[:start], fmt.Errorf("reading bytes %d+%d of %s: %w", d.Offset, n, d.URI, err)
	}
	return dst, nil
}
