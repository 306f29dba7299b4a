package ops

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pq "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// rawBatchSize is the batch size of the raw reads: paimon's default read
// batch size, so both produce the same batches.
const rawBatchSize = 4096

// DataFiles returns the data files a full scan of bench.<name> reads, as the
// Java generator listed them in files-<name>.txt of the warehouse (paths
// relative to the warehouse).
func DataFiles(warehouse, name string) ([]string, error) {
	p := filepath.Join(warehouse, "files-"+name+".txt")
	f, err := os.Open(p)
	if err != nil {
		return nil, fmt.Errorf("bench: data file list: %w", err)
	}
	defer f.Close()
	var files []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" {
			if !filepath.IsAbs(line) {
				line = filepath.Join(warehouse, line)
			}
			files = append(files, line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("bench: data file list %s: %w", p, err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%w: data file list %s is empty", ErrBadOptions, p)
	}
	return files, nil
}

// prepareRawRead returns the raw limit of a read: pqarrow decodes the files
// a full scan reads (all columns, or the projected two), with no planning,
// merging, deletion vectors or filtering. The filter has no raw form.
func prepareRawRead(op, name string, o Options) (timedBody, error) {
	if op == OpFilter {
		return nil, fmt.Errorf("%w: %s by %s", ErrUnsupported, op, ImplRaw)
	}
	files, err := DataFiles(o.Warehouse, name)
	if err != nil {
		return nil, err
	}
	var cols []string
	if op == OpScan2Col {
		cols = projected
	}
	return timed(func(ctx context.Context) (int64, error) {
		var n int64
		for _, p := range files {
			m, err := ReadParquet(ctx, p, cols)
			if err != nil {
				return n, err
			}
			n += m
		}
		return n, nil
	}), nil
}

// ReadParquet decodes one Parquet file with pqarrow alone (the named
// top-level columns, or all when cols is nil) and returns its row count.
func ReadParquet(ctx context.Context, path string, cols []string) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, fmt.Errorf("bench: %w", err)
	}
	defer f.Close()
	pr, err := file.NewParquetReader(f)
	if err != nil {
		return 0, fmt.Errorf("bench: %s: %w", path, err)
	}
	defer pr.Close()
	var idx []int
	for _, c := range cols {
		i := pr.MetaData().Schema.ColumnIndexByName(c)
		if i < 0 {
			return 0, fmt.Errorf("%w: no column %q in %s", ErrBadOptions, c, path)
		}
		idx = append(idx, i)
	}
	fr, err := pqarrow.NewFileReader(pr, pqarrow.ArrowReadProperties{BatchSize: rawBatchSize}, memory.DefaultAllocator)
	if err != nil {
		return 0, fmt.Errorf("bench: %s: %w", path, err)
	}
	rr, err := fr.GetRecordReader(ctx, idx, nil)
	if err != nil {
		return 0, fmt.Errorf("bench: %s: %w", path, err)
	}
	defer rr.Release()
	var n int64
	for rr.Next() {
		n += rr.RecordBatch().NumRows()
	}
	if err := rr.Err(); err != nil {
		return n, fmt.Errorf("bench: %s: %w", path, err)
	}
	return n, nil
}

// rawWriterProps are the Parquet writer settings internal/datafile uses for
// Paimon data files (zstd level 1, decimals as integers), so the raw write
// encodes exactly what the table writer encodes.
func rawWriterProps() *pq.WriterProperties {
	return pq.NewWriterProperties(pq.WithCompression(compress.Codecs.Zstd), pq.WithCompressionLevel(1),
		pq.WithAllocator(memory.DefaultAllocator), pq.WithStoreDecimalAsInteger(true), pq.WithRootName("paimon_schema"))
}

// WriteParquetByDay writes batches with pqarrow alone into dir, one file per
// day partition (batches never straddle days), and returns the rows
// written: the raw limit of the append write.
func WriteParquetByDay(dir string, recs []arrow.RecordBatch) (int64, error) {
	props := rawWriterProps()
	var (
		w   *pqarrow.FileWriter
		day arrow.Date32 = -1
		n   int64
	)
	closeFile := func() error {
		if w == nil {
			return nil
		}
		err := w.Close() // closes the file too
		w = nil
		return err
	}
	for _, rec := range recs {
		d := rec.Column(dayColumn).(interface{ Value(int) arrow.Date32 }).Value(0)
		if d != day {
			if err := closeFile(); err != nil {
				return n, fmt.Errorf("bench: raw write: %w", err)
			}
			f, err := os.Create(filepath.Join(dir, fmt.Sprintf("day-%d.parquet", d)))
			if err != nil {
				return n, fmt.Errorf("bench: raw write: %w", err)
			}
			if w, err = pqarrow.NewFileWriter(rec.Schema(), f, props, pqarrow.DefaultWriterProps()); err != nil {
				f.Close()
				return n, fmt.Errorf("bench: raw write: %w", err)
			}
			day = d
		}
		if err := w.WriteBuffered(rec); err != nil {
			return n, fmt.Errorf("bench: raw write: %w", err)
		}
		n += rec.NumRows()
	}
	if err := closeFile(); err != nil {
		return n, fmt.Errorf("bench: raw write: %w", err)
	}
	return n, nil
}
