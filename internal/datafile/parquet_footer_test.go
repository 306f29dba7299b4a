package datafile_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	pq "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/memfs"
	"github.com/paimon-go/paimon-go/internal/datafile"
	"github.com/paimon-go/paimon-go/internal/memcheck"
)

// TestParquetFooterForJava checks the footer details Java's row-group
// filter relies on: "" counts as a string minimum even when a column has no
// values buffer, float columns carry no min/max (arrow-go would leave NaN
// out), and decimals above precision 18 are not dictionary-encoded.
func TestParquetFooterForJava(t *testing.T) {
	ctx := context.Background()
	fsys := memfs.New(nil)
	fields := []schema.DataField{
		col("s", schema.StringType()),
		col("d", schema.DoubleType()),
		col("dec", schema.DecimalType(38, 2)),
	}
	ts := tableSchema(t, nil, fields...)
	w, err := datafile.NewWriter(datafile.Options{FS: fsys, Dir: "b", Schema: ts})
	require.NoError(t, err)

	// A batch whose only string is "", taken out of a larger one as the
	// table writer splits batches by partition: the take kernel leaves it
	// without value bytes.
	whole := record(t, nil, fields, [][]any{{"", 1.0, nil}, {"zz", 9.0, nil}})
	defer whole.Release()
	idx := array.NewInt64Builder(memcheck.New())
	idx.Append(0)
	ia := idx.NewArray()
	idx.Release()
	defer ia.Release()
	cols := make([]arrow.Array, len(fields))
	for i := range cols {
		cols[i], err = compute.TakeArray(ctx, whole.Column(i), ia)
		require.NoError(t, err)
		defer cols[i].Release()
	}
	rec := array.NewRecordBatch(whole.Schema(), cols, 1)
	require.NoError(t, w.Write(ctx, rec))
	rec.Release()
	more := record(t, nil, fields, [][]any{{"c", 2.0, nil}, {"d", 3.0, nil}})
	require.NoError(t, w.Write(ctx, more))
	more.Release()
	metas, err := w.Close(ctx)
	require.NoError(t, err)
	require.Len(t, metas, 1)

	raw, err := fs.ReadFile(ctx, fsys, "b/"+metas[0].FileName)
	require.NoError(t, err)
	r, err := file.NewParquetReader(bytes.NewReader(raw))
	require.NoError(t, err)
	rg := r.MetaData().RowGroup(0)
	s, err := rg.ColumnChunk(0)
	require.NoError(t, err)
	st, err := s.Statistics()
	require.NoError(t, err)
	require.True(t, st.HasMinMax())
	require.Equal(t, "", string(st.(*metadata.ByteArrayStatistics).Min()))
	require.Equal(t, "d", string(st.(*metadata.ByteArrayStatistics).Max()))

	d, err := rg.ColumnChunk(1)
	require.NoError(t, err)
	ok, err := d.StatsSet()
	require.NoError(t, err)
	require.False(t, ok, "double columns carry no footer statistics")

	dec, err := rg.ColumnChunk(2)
	require.NoError(t, err)
	require.Equal(t, pq.Types.FixedLenByteArray, dec.Type())
	require.False(t, dec.HasDictionaryPage(), "decimal(38) must be written PLAIN")
}
