package health

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/paimon-go/paimon-go/paimon/rowio"
)

// findingsShownPerRule caps the text output's lines per rule; JSON lists
// every finding.
const findingsShownPerRule = 5

// FormatAge renders how long ago something happened, seconds ago.
func FormatAge(seconds int64) string {
	d := time.Duration(seconds) * time.Second
	if d < 0 {
		return FormatDuration(-d) + " in the future (clock skew?)"
	}
	if d == 0 {
		return "just now"
	}
	return FormatDuration(d) + " ago"
}

// WriteText prints the report for people, as "paimon health" does: the
// table's settings, its snapshots and consumers, a line per bucket and at
// most findingsShownPerRule findings per rule.
func (rep *Report) WriteText(w io.Writer) error {
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
	line("Target file size", "%s", FormatBytes(t.TargetFileSize))
	line("Small files", "below %s (%s); compaction after %d of them in a bucket", FormatBytes(t.SmallFileSize), t.SmallFileSource, t.MinFileNum)
	if t.Type == "primary-key" {
		line("Sorted runs", "compaction at %d, writes stop at %d", t.RunTrigger, t.RunStop)
	}
	if t.SnapshotID > 0 {
		where := ""
		if len(t.PartitionKeys) > 0 {
			where = fmt.Sprintf(" in %d partitions", t.Partitions)
		}
		line("Data", "%d files, %s, %d records%s (snapshot %d)", t.Files, FormatBytes(t.Bytes), t.Records, where, t.SnapshotID)
	}
	s := &rep.Snapshots
	if s.Count == 0 {
		line("Snapshots", "none")
	} else {
		line("Snapshots", "%d (%d..%d), earliest %s, latest %s", s.Count, s.Earliest, s.Latest, FormatAge(s.EarliestAge), FormatAge(s.LatestAge))
	}
	line("Retention", "keep %d to %s snapshots, expire after %s; %d overdue",
		s.RetainMin, FormatRetainMax(s.RetainMax), FormatDuration(time.Duration(s.TimeRetained)*time.Second), s.Overdue)
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
			line("Unreferenced files", "%d, %s (paimon orphans lists them)", u.Files, FormatBytes(u.Bytes))
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
			if b.Bucket == PostponeBucket {
				bucket = "postpone"
			}
			row := []string{rowio.SanitizeCell(p), bucket, strconv.Itoa(b.Files), FormatBytes(b.Bytes),
				FormatBytes(b.AvgFile), FormatBytes(b.MedianFile), strconv.Itoa(b.SmallFiles)}
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
