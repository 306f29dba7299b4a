package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/arrowrow"
	"github.com/paimon-go/paimon-go/paimon"
)

// loadDetails is the help text of load.
const loadDetails = `
load appends the rows of the files to an append-only table in one commit
(one new snapshot), as an INSERT INTO would. Primary-key tables are refused.
If anything fails (a value that does not parse, a column the table does not
have, an unreadable file), nothing is committed and the data files written
so far are removed; the error names the file and line (or row).

Formats, from --format or else from the file name (.csv, .jsonl/.ndjson,
.parquet):

  csv      a header line with column names, then one record per line
           (RFC 4180 quoting; --delimiter for other separators). An empty
           field is NULL. Values as "paimon scan --output csv" prints them:
           numbers, true/false, DECIMAL as text ("12.50"), DATE 2024-05-01,
           TIME 12:34:56.789, TIMESTAMP "2024-05-01 12:00:00.123" (or with
           'T'), TIMESTAMP_LTZ in RFC 3339 ("2024-05-01T12:00:00Z"; without
           a zone read as UTC), BINARY as hex, ARRAY/MAP/ROW as JSON.
  jsonl    one JSON object per line, keyed by column name; a missing key is
           NULL. Values in the canon-v1 form of "paimon scan" (FLOAT/DOUBLE
           as "f64:<bits>" too), or plain JSON numbers and the strings csv
           accepts; ROW as an object, MAP as [key, value] pairs or an object.
  parquet  columns matched by name; a column whose type differs from the
           table's is cast when every value converts exactly (INT into
           BIGINT, BIGINT into INT when the values fit, DECIMAL scales,
           timestamp units without lost digits, ...).

Columns of the table missing from a file are NULL; a NOT NULL column must
be present. Values are never rounded or truncated: a value that does not
fit its column is an error.

A progress bar is drawn on standard error when it is a terminal.

Exit status: 0 ok, 1 runtime error (nothing committed), 2 usage error.`

// Input formats of load.
const (
	loadCSV     = "csv"
	loadJSONL   = "jsonl"
	loadParquet = "parquet"
)

var loadFormats = []string{loadCSV, loadJSONL, loadParquet}

const defaultBatchRows = 65536

type loadArgs struct {
	*tableArgs
	files      []string
	format     string // "" = by file name
	batchRows  int
	commitUser string
	delimiter  rune
}

func parseLoadArgs(e *env, c *command, args []string) (*loadArgs, error) {
	a := loadArgs{batchRows: defaultBatchRows}
	var batchRows, delimiter string
	fs := newFlagSet(c)
	fs.StringVar(&a.format, "format", "", "input `format` of every file: csv, jsonl or parquet (default: from the file name)")
	fs.StringVar(&batchRows, "batch-rows", "", "rows per batch handed to the writer (default 65536)")
	fs.StringVar(&a.commitUser, "commit-user", "", "commit user recorded in the snapshot (default a random UUID)")
	fs.StringVar(&delimiter, "delimiter", ",", "field `separator` of csv files (one character; \\t for tab)")
	var err error
	a.tableArgs, err = parseTable(e, c, fs, args, tableSpec{minRest: 1, maxRest: -1, args: "table name (database.table) and at least one file"})
	if err != nil {
		return nil, err
	}
	a.files = a.rest
	set := a.set
	if set["format"] {
		if a.format = strings.ToLower(a.format); a.format == "ndjson" {
			a.format = loadJSONL
		}
		if !slices.Contains(loadFormats, a.format) {
			return nil, usagef(c.name, "--format %q: want one of %s", a.format, strings.Join(loadFormats, ", "))
		}
	}
	if set["batch-rows"] {
		n, err := positiveInt(c, "batch-rows", batchRows)
		if err != nil {
			return nil, err
		}
		a.batchRows = int(min(n, 1<<24))
	}
	if delimiter == `\t` {
		delimiter = "\t"
	}
	if r := []rune(delimiter); len(r) != 1 || r[0] == '"' || r[0] == '\n' || r[0] == '\r' {
		return nil, usagef(c.name, "--delimiter %q: want one character other than a quote or a line break", delimiter)
	} else {
		a.delimiter = r[0]
	}
	return &a, nil
}

// fileFormat is the format of one input file.
func (a *loadArgs) fileFormat(path string) (string, error) {
	if a.format != "" {
		return a.format, nil
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
		return loadCSV, nil
	case ".jsonl", ".ndjson":
		return loadJSONL, nil
	case ".parquet", ".parq":
		return loadParquet, nil
	}
	return "", fmt.Errorf("%s: unsupported file format %q: name the format with --format csv, jsonl or parquet", path, filepath.Ext(path))
}

// loadSource yields the rows of one input file as batches in the writer's
// Arrow schema.
type loadSource interface {
	// next returns the next batch, or nil at the end of the file.
	next(ctx context.Context) (arrow.RecordBatch, error)
	close()
}

// loadInput is what a source needs to know about the table and the run.
type loadInput struct {
	path      string
	fields    []schema.DataField // the table's columns
	arrow     *arrow.Schema      // the writer's batch schema
	table     paimon.Identifier
	batchRows int
	delimiter rune
	mem       memory.Allocator
	bar       *progress
}

func runLoad(ctx context.Context, e *env, c *command, args []string) (err error) {
	a, err := parseLoadArgs(e, c, args)
	if err != nil {
		return err
	}
	formats := make([]string, len(a.files))
	var total int64
	for i, f := range a.files {
		if formats[i], err = a.fileFormat(f); err != nil {
			return err
		}
		fi, err := os.Stat(f)
		if err != nil {
			return err
		}
		if fi.IsDir() {
			return fmt.Errorf("%s is a directory, not a file", f)
		}
		total += fi.Size()
	}
	tbl, closeCatalog, err := a.load(ctx)
	if err != nil {
		return err
	}
	defer closeCatalog()
	w, err := tbl.NewWriter(nil)
	if err != nil {
		return fmt.Errorf("cannot load into %s: %w", a.table, err)
	}
	// Until the commit succeeds every file written is removed again.
	defer func() {
		if cerr := w.Close(context.WithoutCancel(ctx)); cerr != nil && err != nil {
			err = fmt.Errorf("%w (and removing the files written: %v)", err, cerr)
		}
	}()

	bar := newProgress(e.stderr, isTerminal(e.stderr), "loading", total)
	rows, err := loadFiles(ctx, a, formats, tbl, w, bar)
	if err != nil {
		bar.done()
		return err
	}
	msgs, err := w.PrepareCommit(ctx)
	if err != nil {
		bar.done()
		return err
	}
	commit, err := tbl.NewCommit(&paimon.CommitOptions{User: a.commitUser})
	if err != nil {
		bar.done()
		return errors.Join(err, abortMessages(ctx, tbl, msgs))
	}
	res, err := commit.Commit(ctx, paimon.BatchCommitIdentifier, msgs)
	bar.done()
	if err != nil {
		return err
	}
	if res.Snapshot == nil {
		fmt.Fprintf(e.stdout, "Loaded 0 rows into %s: nothing to commit.\n", a.table)
		return nil
	}
	fmt.Fprintf(e.stdout, "Loaded %d rows from %d file%s into %s: snapshot %d.\n",
		rows, len(a.files), plural(len(a.files)), a.table, res.Snapshot.ID)
	if res.ExpireErr != nil {
		fmt.Fprintf(e.stderr, "paimon: warning: the commit succeeded, but expiring old snapshots after it failed: %s\n", errorText(res.ExpireErr))
	}
	return nil
}

// abortMessages removes prepared files that will not be committed.
func abortMessages(ctx context.Context, tbl *paimon.Table, msgs []paimon.CommitMessage) error {
	c, err := tbl.NewCommit(nil)
	if err != nil {
		return err
	}
	return c.Abort(context.WithoutCancel(ctx), msgs)
}

// loadFiles writes every file's rows and returns how many there were.
func loadFiles(ctx context.Context, a *loadArgs, formats []string, tbl *paimon.Table, w *paimon.TableWriter, bar *progress) (int64, error) {
	var rows int64
	for i, path := range a.files {
		in := &loadInput{
			path: path, fields: tbl.Schema().Fields, arrow: w.ArrowSchema(), table: a.table,
			batchRows: a.batchRows, delimiter: a.delimiter, mem: memory.DefaultAllocator, bar: bar,
		}
		var src loadSource
		var err error
		switch formats[i] {
		case loadCSV:
			src, err = openCSVSource(in)
		case loadJSONL:
			src, err = openJSONLSource(in)
		case loadParquet:
			src, err = openParquetSource(ctx, in)
		}
		if err != nil {
			return rows, err
		}
		n, err := writeSource(ctx, src, w, path)
		src.close()
		rows += n
		if err != nil {
			return rows, err
		}
	}
	return rows, nil
}

func writeSource(ctx context.Context, src loadSource, w *paimon.TableWriter, path string) (int64, error) {
	var rows int64
	for {
		rec, err := src.next(ctx)
		if err != nil {
			return rows, err
		}
		if rec == nil {
			return rows, nil
		}
		err = w.Write(ctx, rec)
		rows += rec.NumRows()
		rec.Release()
		if err != nil {
			return rows, fmt.Errorf("%s: %w", path, err)
		}
	}
}

// rowBatcher builds batches of the writer's schema row by row.
type rowBatcher struct {
	fields []schema.DataField
	rb     *array.RecordBuilder
	rows   int
}

func newRowBatcher(in *loadInput) *rowBatcher {
	return &rowBatcher{fields: in.fields, rb: array.NewRecordBuilder(in.mem, in.arrow)}
}

// appendRow appends one row of values, one per table column; on failure it
// returns the index of the column whose value does not fit.
func (b *rowBatcher) appendRow(vals []any) (int, error) {
	for i, f := range b.fields {
		if err := arrowrow.AppendValue(b.rb.Field(i), f.Type, vals[i]); err != nil {
			return i, err
		}
	}
	b.rows++
	return -1, nil
}

// flush returns the rows appended since the last flush as a batch; nil
// when there are none.
func (b *rowBatcher) flush() arrow.RecordBatch {
	if b.rows == 0 {
		return nil
	}
	b.rows = 0
	return b.rb.NewRecordBatch()
}

func (b *rowBatcher) release() { b.rb.Release() }

// columnIndex maps the column names of a file to table columns: unknown
// and repeated names are errors, and so is a NOT NULL table column the
// file lacks.
func columnIndex(in *loadInput, names []string, where string) ([]int, error) {
	byName := map[string]int{}
	for i, f := range in.fields {
		byName[f.Name] = i
	}
	seen := make([]bool, len(in.fields))
	out := make([]int, len(names))
	for j, n := range names {
		i, ok := byName[n]
		if !ok {
			return nil, fmt.Errorf("%s: column %q is not a column of %s (columns: %s)", where, n, in.table, strings.Join(fieldNames(in.fields), ", "))
		}
		if seen[i] {
			return nil, fmt.Errorf("%s: column %q appears twice", where, n)
		}
		seen[i] = true
		out[j] = i
	}
	for i, f := range in.fields {
		if !seen[i] && !f.Type.Nullable {
			return nil, fmt.Errorf("%s: no column %q, which is NOT NULL in %s", where, f.Name, in.table)
		}
	}
	return out, nil
}

func fieldNames(fields []schema.DataField) []string {
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = f.Name
	}
	return out
}
