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

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/paimon"
	"github.com/paimon-go/paimon-go/paimon/rowio"
)

// loadDetails is the help text of load.
const loadDetails = `
load writes the rows of the files to a table in one commit (one new
snapshot), as an INSERT INTO would. If anything fails (a value that does
not parse, a column the table does not have, a NULL key, an unreadable
file), nothing is committed and the data files written so far are removed;
the error names the file and line (or row).

Append-only tables get the rows appended. Primary-key tables take them as
upserts: a row replaces (or, per the table's merge engine, merges into) the
row of its key. Change data: --row-kind-column NAME reads each row's kind
from the column NAME ("+I", "-U", "+U" or "-D"; a column of the table, or
one only the files have), and --delete writes every row as a delete of its
key (files with only the key columns are enough when the other columns are
nullable).

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
           NULL. Values as "paimon scan --output jsonl" prints them: JSON
           numbers, the strings csv accepts, ROW as an object, MAP as
           [key, value] pairs or an object; or in the canon-v1 form of
           "paimon scan --output canon" (FLOAT/DOUBLE as "f64:<bits>").
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
	rowKind    string // --row-kind-column
	delete     bool
}

func parseLoadArgs(e *env, c *command, args []string) (*loadArgs, error) {
	a := loadArgs{batchRows: defaultBatchRows}
	var batchRows, delimiter string
	fs := newFlagSet(c)
	fs.StringVar(&a.format, "format", "", "input `format` of every file: csv, jsonl or parquet (default: from the file name)")
	fs.StringVar(&batchRows, "batch-rows", "", "rows per batch handed to the writer (default 65536)")
	fs.StringVar(&a.commitUser, "commit-user", "", "commit user recorded in the snapshot (default a random UUID)")
	fs.StringVar(&delimiter, "delimiter", ",", "field `separator` of csv files (one character; \\t for tab)")
	fs.StringVar(&a.rowKind, "row-kind-column", "", "primary-key tables: the `column` holding each row's kind (+I, -U, +U, -D)")
	fs.BoolVar(&a.delete, "delete", false, "primary-key tables: delete the keys of the rows instead of writing them")
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
	if a.delete && a.rowKind != "" {
		return nil, usagef(c.name, "--delete and --row-kind-column exclude each other")
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
	if (a.delete || a.rowKind != "") && len(tbl.PrimaryKeys()) == 0 {
		flag := "--delete"
		if a.rowKind != "" {
			flag = "--row-kind-column"
		}
		return fmt.Errorf("cannot load into %s: %s needs a primary-key table, and %s is append-only", a.table, flag, a.table)
	}
	w, err := tbl.NewWriter(&paimon.WriterOptions{RowKindColumn: a.rowKind, CommitUser: a.commitUser})
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
		n, err := loadFile(ctx, a, path, formats[i], tbl, w, bar)
		rows += n
		if err != nil {
			return rows, err
		}
	}
	return rows, nil
}

// loadFile writes the rows of one file.
func loadFile(ctx context.Context, a *loadArgs, path, format string, tbl *paimon.Table, w *paimon.TableWriter, bar *progress) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	in := &rowio.Input{Name: path, Table: a.table.String(), Fields: tbl.Schema().Fields, Schema: w.ArrowSchema(),
		BatchRows: a.batchRows, Delimiter: a.delimiter, Progress: bar.add}
	if a.rowKind != "" && tbl.Schema().FieldIndex(a.rowKind) < 0 {
		// The files' own row-kind column: read as a string, dropped by
		// the writer.
		in.Fields = append(slices.Clone(in.Fields), schema.NewField(-1, a.rowKind, schema.StringType()))
		in.Schema = arrow.NewSchema(append(slices.Clone(in.Schema.Fields()),
			arrow.Field{Name: a.rowKind, Type: arrow.BinaryTypes.String, Nullable: true}), nil)
	}
	var src rowio.Source
	switch format {
	case loadCSV:
		src, err = rowio.NewCSV(f, in)
	case loadJSONL:
		src, err = rowio.NewJSONLines(f, in)
	case loadParquet:
		src, err = rowio.NewParquet(ctx, f, in)
	}
	if err != nil {
		return 0, err
	}
	defer src.Close()
	var rows int64
	for {
		rec, err := src.Next(ctx)
		if err != nil || rec == nil {
			return rows, err
		}
		if a.delete {
			err = w.Delete(ctx, rec)
		} else {
			err = w.Write(ctx, rec)
		}
		rows += rec.NumRows()
		rec.Release()
		if err != nil {
			return rows, fmt.Errorf("%s: %w", path, err)
		}
	}
}
