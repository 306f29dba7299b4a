package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

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

// findingsShownPerRule caps the text output's lines per rule; JSON lists
// every finding.
const findingsShownPerRule = 5

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
	return writeHealthText(e.stdout, rep)
}

// writeJSON prints v as indented JSON without HTML escaping.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// age renders how long ago something happened.
func age(seconds int64) string {
	d := time.Duration(seconds) * time.Second
	if d < 0 {
		return health.FormatDuration(-d) + " in the future (clock skew?)"
	}
	if d == 0 {
		return "just now"
	}
	return health.FormatDuration(d) + " ago"
}

// writeHealthText prints the report for people.
func writeHealthText(w io.Writer, rep *health.Report) error {
	t := &rep.Table
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	line := func(k, format string, args ...any) { fmt.Fprintf(tw, "%s\t%s\n", k, fmt.Sprintf(format, args...)) }
	line("Table", "%s", t.Name)
	if t.Type == "primary-key" {
		line("Type", "primary key (%s)", strings.Join(t.PrimaryKeys, ", "))
	} else {
		line("Type", "append")
	}
	if len(t.PartitionKeys) > 0 {
		line("Partitioned by", "%s", strings.Join(t.PartitionKeys, ", "))
	}
	switch {
	case t.Bucket == 1:
		line("Bucket mode", "%s, 1 bucket", t.BucketMode)
	case t.Bucket > 1:
		line("Bucket mode", "%s, %d buckets", t.BucketMode, t.Bucket)
	default:
		line("Bucket mode", "%s (bucket = %d)", t.BucketMode, t.Bucket)
	}
	if t.Type == "primary-key" {
		line("Merge engine", "%s", t.MergeEngine)
	}
	line("Changelog producer", "%s", t.ChangelogProducer)
	line("File format", "%s", t.FileFormat)
	line("Deletion vectors", "%s", onOff(t.DeletionVectors))
	if t.WriteOnly {
		line("Write-only", "yes: writers neither compact nor expire snapshots")
	}
	line("Target file size", "%s", health.FormatBytes(t.TargetFileSize))
	line("Small files", "below %s (%s); compaction after %d of them in a bucket", health.FormatBytes(t.SmallFileSize), t.SmallFileSource, t.MinFileNum)
	if t.Type == "primary-key" {
		line("Sorted runs", "compaction at %d, writes stop at %d", t.RunTrigger, t.RunStop)
	}
	if t.SnapshotID > 0 {
		where := ""
		if len(t.PartitionKeys) > 0 {
			where = fmt.Sprintf(" in %d partitions", t.Partitions)
		}
		line("Data", "%d files, %s, %d records%s (snapshot %d)", t.Files, health.FormatBytes(t.Bytes), t.Records, where, t.SnapshotID)
	}
	s := &rep.Snapshots
	if s.Count == 0 {
		line("Snapshots", "none")
	} else {
		line("Snapshots", "%d (%d..%d), earliest %s, latest %s", s.Count, s.Earliest, s.Latest, age(s.EarliestAge), age(s.LatestAge))
	}
	line("Retention", "keep %d to %s snapshots, expire after %s; %d overdue",
		s.RetainMin, health.FormatRetainMax(s.RetainMax), health.FormatDuration(time.Duration(s.TimeRetained)*time.Second), s.Overdue)
	if len(rep.Consumers) == 0 {
		line("Consumers", "none")
	}
	for i, c := range rep.Consumers {
		k := ""
		if i == 0 {
			k = "Consumers"
		}
		line(k, "%s: next snapshot %d, %d behind", c.ID, c.NextSnapshot, c.Lag)
	}
	if u := rep.Unreferenced; u != nil {
		switch {
		case u.Error != "":
			line("Unreferenced files", "unknown (see findings)")
		case u.Files == 0:
			line("Unreferenced files", "none")
		default:
			line("Unreferenced files", "%d, %s (paimon orphans lists them)", u.Files, health.FormatBytes(u.Bytes))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}

	if len(rep.Buckets) > 0 {
		fmt.Fprintln(w)
		pk := t.Type == "primary-key"
		head := []string{"partition", "bucket", "files", "size", "avg", "median", "small"}
		if pk {
			head = append(head, "level-0", "runs")
		}
		rows := make([][]string, 0, len(rep.Buckets))
		for _, b := range rep.Buckets {
			p := b.Partition
			if p == "" {
				p = "-"
			}
			bucket := strconv.Itoa(int(b.Bucket))
			if b.Bucket == health.PostponeBucket {
				bucket = "postpone"
			}
			row := []string{sanitizeCell(p), bucket, strconv.Itoa(b.Files), health.FormatBytes(b.Bytes),
				health.FormatBytes(b.AvgFile), health.FormatBytes(b.MedianFile), strconv.Itoa(b.SmallFiles)}
			if pk {
				row = append(row, strconv.Itoa(b.Level0Files), strconv.Itoa(b.SortedRuns))
			}
			rows = append(rows, row)
		}
		writeColumns(w, head, rows)
	}

	fmt.Fprintln(w)
	if len(rep.Findings) == 0 {
		_, err := fmt.Fprintln(w, "No findings.")
		return err
	}
	fmt.Fprintln(w, "Findings:")
	shown := map[string]int{}
	var rules []string
	for _, f := range rep.Findings {
		if shown[f.Rule] == 0 {
			rules = append(rules, f.Rule)
		}
		shown[f.Rule]++
		if shown[f.Rule] > findingsShownPerRule {
			continue
		}
		opts := ""
		if len(f.Options) > 0 {
			opts = " [" + strings.Join(f.Options, ", ") + "]"
		}
		fmt.Fprintf(w, "  %-7s  %s: %s%s\n", f.Severity, f.Scope, f.Message, opts)
	}
	for _, rule := range rules {
		if n := shown[rule]; n > findingsShownPerRule {
			fmt.Fprintf(w, "  ... and %d more %s findings (see --output json)\n", n-findingsShownPerRule, rule)
		}
	}
	return nil
}

// writeColumns prints rows under a header, the first column aligned left
// and the others right.
func writeColumns(w io.Writer, head []string, rows [][]string) {
	widths := make([]int, len(head))
	for _, r := range append([][]string{head}, rows...) {
		for i, c := range r {
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	var sb strings.Builder
	for _, r := range append([][]string{head}, rows...) {
		sb.Reset()
		for i, c := range r {
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
			switch {
			case i == 0:
				sb.WriteString(c)
				if len(r) > 1 {
					sb.WriteString(pad)
				}
			default:
				sb.WriteString("  ")
				sb.WriteString(pad)
				sb.WriteString(c)
			}
		}
		fmt.Fprintln(w, sb.String())
	}
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}
