package main

import (
	"context"
	"encoding/json"
	"io"
	"time"

	"github.com/paimon-go/paimon-go/paimon"
	"github.com/paimon-go/paimon-go/paimon/health"
)

// healthDetails documents the report and the rules behind its findings.
const healthDetails = `
The table is "database.table" or "database.table$branch_NAME". Flags may come
before or after it. Only metadata is read (schema, snapshots, manifests,
consumers), never data files; the table's directories are listed to count
the files nothing references (as "paimon orphans" does; --skip-unreferenced
leaves that out on a large table in an object store).

The report shows the table's kind and write options, its data per partition
and bucket (files, total, average and median size, small files; for
primary-key tables level-0 files and sorted runs), its snapshots with their
retention settings, and its consumers. Then each finding, as one line naming
the table option that addresses it:

  small-files        a bucket holds at least compaction.min.file-num (5) files
                     smaller than the small-file threshold: compaction would
                     merge them but has not. The threshold defaults to 70% of
                     target-file-size (128 MiB for primary-key tables, 256 MiB
                     for append tables), the size below which Java's
                     compaction picks a file up (CoreOptions
                     compactionFileSize); --small-file-threshold overrides it.
                     "paimon compact" merges them (append tables; primary-key
                     tables without deletion vectors, postpone buckets or a
                     lookup/full-compaction changelog producer).
  sorted-runs        a primary-key bucket has at least
                     num-sorted-run.compaction-trigger (5) sorted runs (each
                     level-0 file is one run, each other non-empty level one):
                     compaction is behind; "paimon compact" catches up where
                     it compacts the table.
  write-stall        ... at least num-sorted-run.stop-trigger (trigger + 3):
                     writers stop until compaction catches up.
  level0-invisible   level-0 files of a deletion-vector or first-row table,
                     which batch reads skip until they are compacted.
  postpone-files     files waiting in bucket-postpone (bucket = -2), invisible
                     to batch reads until a compaction assigns their buckets.
  bucket-too-large   a bucket holds more than 1 GiB; Paimon's documentation
                     recommends about 200 MiB to 1 GiB per bucket.
  buckets-too-small  a fixed-bucket table with more than one bucket and at
                     least 200 MiB of data whose largest partition holds less
                     than 200 MiB per bucket.
  bucket-skew        in a partition, the largest bucket is at least 4 times
                     the median bucket and holds at least 64 MiB.
  snapshots-overdue  snapshots that Java's expiration would delete
                     (snapshot.num-retained.min/max, snapshot.time-retained,
                     consumers) are still present: expiration has not run.
  consumer-expired   a consumer's next snapshot no longer exists.
  consumer-blocking  a consumer keeps snapshots from expiring.
  no-snapshot        the table has no snapshot yet.
  unreferenced-files files that no snapshot, tag, changelog or branch
                     references, with their bytes: left by failed or no-op
                     commits, rollbacks or interrupted expirations. "paimon
                     orphans --delete" removes those older than 1 d.

A consumer's lag is the number of snapshots committed that it has not read:
latest snapshot id - next snapshot + 1 (0 when it is caught up).

--output json prints the whole report as one JSON object, sizes in bytes and
ages in seconds.

Exit status: 0 ok (findings do not change it), 1 runtime error, 2 usage
error.`

// Output formats of health.
const formatText = "text"

var healthFormats = []string{formatText, formatJSON}

// healthNow is the clock ages are measured against; tests replace it.
var healthNow = time.Now

func runHealth(ctx context.Context, e *env, c *command, args []string) error {
	var small string
	fs := newFlagSet(c)
	fs.StringVar(&small, "small-file-threshold", "", "files below `SIZE` (e.g. 16mb) count as small (default 70% of target-file-size)")
	var skipUnref bool
	fs.BoolVar(&skipUnref, "skip-unreferenced", false, "do not list the table's directories for unreferenced files")
	a, err := parseTable(e, c, fs, args, tableSpec{formats: healthFormats})
	if err != nil {
		return err
	}
	opts := &health.Options{Now: healthNow, SkipUnreferenced: skipUnref}
	if small != "" {
		if opts.SmallFileThreshold, err = paimon.ParseMemorySize(small); err != nil || opts.SmallFileThreshold <= 0 {
			return usagef(c.name, "--small-file-threshold %q: want a positive size such as 16mb", small)
		}
	}
	tbl, closeCatalog, err := a.load(ctx)
	if err != nil {
		return err
	}
	defer closeCatalog()
	rep, err := health.Inspect(ctx, tbl, opts)
	if err != nil {
		return err
	}
	if a.output == formatJSON {
		return writeJSON(e.stdout, rep)
	}
	return rep.WriteText(e.stdout)
}

// writeJSON prints v as indented JSON without HTML escaping.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
