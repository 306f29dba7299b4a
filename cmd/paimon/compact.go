package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/paimon-go/paimon-go/paimon"
	"github.com/paimon-go/paimon-go/paimon/health"
	"github.com/paimon-go/paimon-go/paimon/predicate"
)

// compactDetails is the help text of compact.
const compactDetails = `
Compaction rewrites the small data files of an append table into fewer,
larger ones and commits them as a COMPACT snapshot, as Java Paimon's compact
procedure (Spark) and compact action (Flink) do, with the same rules:

  bucket = -1   in each partition, files smaller than 70% of
                target-file-size are packed into rewrites of about twice
                target-file-size (at least compaction.min.file-num files);
                --full makes no difference, as in Java.
  bucket = N    without --full a bucket is compacted as its writer would:
                once compaction.min.file-num consecutive files (in write
                order) fit in twice target-file-size, they become one file.
                With --full every bucket whose small files outnumber its
                large ones is rewritten whole (large leading files stay).

Deletion vectors are applied while rewriting and dropped. Rows, their order
within a bucket and the sequence numbers are kept; readers see the same
rows before and after. A table that is write-only is compacted all the same:
this is the separate compaction job such a table expects.

--where restricts the compaction to partitions matching a filter on
partition columns (the syntax of scan's --where): dt >= '2024-01-01'.

If another commit removed a file this compaction rewrote (another
compaction, an overwrite, a DELETE), nothing is committed and the files
written are removed: run compact again. Appends committed meanwhile do not
conflict.

Primary-key tables are not compacted yet: the command refuses them.

Exit status: 0 ok (also when nothing needed compacting), 1 runtime error,
2 usage error.`

type compactArgs struct {
	*tableArgs
	opts paimon.CompactOptions
}

func parseCompactArgs(e *env, c *command, args []string) (*compactArgs, error) {
	var a compactArgs
	var where, workers, user string
	fs := newFlagSet(c)
	fs.BoolVar(&a.opts.Full, "full", false, "full compaction: rewrite every bucket worth it whole (fixed-bucket tables)")
	fs.StringVar(&where, "where", "", "compact only the partitions matching `EXPR` (partition columns only)")
	fs.StringVar(&workers, "workers", "", "rewrite `N` groups of files at once (default the number of CPUs)")
	fs.StringVar(&user, "commit-user", "", "commit user recorded in the snapshot (default a random UUID)")
	var err error
	if a.tableArgs, err = parseTable(e, c, fs, args, tableSpec{formats: healthFormats}); err != nil {
		return nil, err
	}
	set := a.set
	if set["where"] {
		if strings.TrimSpace(where) == "" {
			return nil, usagef(c.name, "--where: empty expression")
		}
		if a.opts.Partitions, err = predicate.Parse(where); err != nil {
			return nil, usagef(c.name, "--where: %v", err)
		}
	}
	if set["workers"] {
		n, err := positiveInt(c, "workers", workers)
		if err != nil {
			return nil, err
		}
		a.opts.Workers = int(min(n, 1024))
	}
	if user != "" {
		a.opts.Commit = &paimon.CommitOptions{User: user}
	}
	return &a, nil
}

func runCompact(ctx context.Context, e *env, c *command, args []string) error {
	a, err := parseCompactArgs(e, c, args)
	if err != nil {
		return err
	}
	tbl, closeCatalog, err := a.load(ctx)
	if err != nil {
		return err
	}
	defer closeCatalog()
	// The bar starts once the plan says how many bytes are rewritten.
	on := isTerminal(e.stderr)
	var bar *progress
	var shown int64
	a.opts.Progress = func(p paimon.CompactProgress) {
		if !on || p.Bytes == 0 {
			return
		}
		if bar == nil {
			bar = newProgress(e.stderr, true, fmt.Sprintf("compacting %d files", p.Files), p.Bytes)
		}
		bar.add(p.BytesDone - shown)
		shown = p.BytesDone
	}
	res, err := tbl.Compact(ctx, &a.opts)
	bar.done()
	if err != nil {
		return err
	}
	if a.output == formatJSON {
		return writeCompactJSON(e.stdout, res)
	}
	return writeCompactText(e.stdout, a.table, res, a.opts.Partitions != nil)
}

func writeCompactText(w io.Writer, table paimon.Identifier, res *paimon.CompactResult, filtered bool) error {
	scope := "Data files"
	if filtered {
		scope = "Data files of the partitions matching --where"
	}
	if res.Commit == nil {
		_, err := fmt.Fprintf(w, "Nothing to compact in %s. %s: %d (%s).\n", table, scope, res.FilesBefore, health.FormatBytes(res.BytesBefore))
		return err
	}
	fmt.Fprintf(w, "Compacted %s in snapshot %d: rewrote %d file%s (%s) into %d (%s), %s rows, in %s.\n",
		table, res.Commit.Snapshot.ID, res.FilesRewritten, plural(res.FilesRewritten), health.FormatBytes(res.BytesRewritten),
		res.FilesWritten, health.FormatBytes(res.BytesWritten), groupDigits(res.RowsWritten), res.Duration.Round(time.Millisecond))
	_, err := fmt.Fprintf(w, "%s: %d (%s) before, %d (%s) after.\n", scope, res.FilesBefore, health.FormatBytes(res.BytesBefore),
		res.FilesAfter, health.FormatBytes(res.BytesAfter))
	return err
}

// compactJSON is the --output json form of a compaction.
type compactJSON struct {
	Snapshot       *int64  `json:"snapshot"`
	Tasks          int     `json:"tasks"`
	FilesBefore    int     `json:"files_before"`
	BytesBefore    int64   `json:"bytes_before"`
	FilesAfter     int     `json:"files_after"`
	BytesAfter     int64   `json:"bytes_after"`
	FilesRewritten int     `json:"files_rewritten"`
	BytesRewritten int64   `json:"bytes_rewritten"`
	FilesWritten   int     `json:"files_written"`
	BytesWritten   int64   `json:"bytes_written"`
	RowsWritten    int64   `json:"rows_written"`
	Seconds        float64 `json:"seconds"`
}

func writeCompactJSON(w io.Writer, res *paimon.CompactResult) error {
	out := compactJSON{
		Tasks: res.Tasks, FilesBefore: res.FilesBefore, BytesBefore: res.BytesBefore, FilesAfter: res.FilesAfter,
		BytesAfter: res.BytesAfter, FilesRewritten: res.FilesRewritten, BytesRewritten: res.BytesRewritten,
		FilesWritten: res.FilesWritten, BytesWritten: res.BytesWritten, RowsWritten: res.RowsWritten,
		Seconds: res.Duration.Seconds(),
	}
	if res.Commit != nil {
		id := res.Commit.Snapshot.ID
		out.Snapshot = &id
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
