package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/paimon-go/paimon-go/paimon"
	"github.com/paimon-go/paimon-go/paimon/health"
)

// describeZone is the time zone commit times are shown in; tests fix it.
var describeZone = time.Local

// describeTimeLayout shows a commit time with its zone offset, so that the
// text means the same wherever it is read.
const describeTimeLayout = "2006-01-02 15:04:05.000 -07:00"

// describeReport is what "table describe" shows, as --output json prints
// it.
type describeReport struct {
	Table             string            `json:"table"`
	Type              string            `json:"type"` // "append" or "primary-key"
	SchemaID          int64             `json:"schema_id"`
	Fields            []describeField   `json:"fields"`
	PrimaryKeys       []string          `json:"primary_keys"`
	PartitionKeys     []string          `json:"partition_keys"`
	BucketMode        string            `json:"bucket_mode"`
	Bucket            int               `json:"bucket"`
	BucketKeys        []string          `json:"bucket_keys"`
	MergeEngine       string            `json:"merge_engine,omitempty"`
	ChangelogProducer string            `json:"changelog_producer"`
	FileFormat        string            `json:"file_format"`
	Comment           *string           `json:"comment"`
	Options           map[string]string `json:"options"`
	LatestSnapshot    *describeSnapshot `json:"latest_snapshot"`
}

type describeField struct {
	ID          int     `json:"id"`
	Name        string  `json:"name"`
	Type        string  `json:"type"`
	Description *string `json:"description,omitempty"`
}

type describeSnapshot struct {
	ID          int64  `json:"id"`
	SchemaID    int64  `json:"schema_id"`
	CommitKind  string `json:"commit_kind"`
	CommitTime  string `json:"commit_time"`
	TimeMillis  int64  `json:"commit_time_millis"`
	RecordCount int64  `json:"record_count"`
}

func runTableDescribe(ctx context.Context, e *env, c *command, args []string) error {
	a, err := parseTable(e, c, newFlagSet(c), args, tableSpec{formats: healthFormats})
	if err != nil {
		return err
	}
	tbl, closeCatalog, err := a.load(ctx)
	if err != nil {
		return err
	}
	defer closeCatalog()
	rep, err := describe(ctx, tbl, a.table)
	if err != nil {
		return err
	}
	if a.output == formatJSON {
		return writeJSON(e.stdout, rep)
	}
	return rep.writeText(e.stdout)
}

// describe gathers the report from the table's schema and latest snapshot.
func describe(ctx context.Context, tbl *paimon.Table, id paimon.Identifier) (*describeReport, error) {
	s := tbl.Schema()
	bucket, err := s.Bucket()
	if err != nil {
		return nil, err
	}
	mode, err := health.BucketMode(s)
	if err != nil {
		return nil, err
	}
	option := func(key string) string {
		if v, ok := s.Options[key]; ok {
			return strings.ToLower(strings.TrimSpace(v))
		}
		def, _ := paimon.OptionDefault(key)
		return def
	}
	rep := &describeReport{
		Table: id.String(), Type: "append", SchemaID: s.ID,
		PrimaryKeys: nonNil(s.PrimaryKeys), PartitionKeys: nonNil(s.PartitionKeys),
		Bucket: bucket, BucketMode: mode, BucketKeys: []string{},
		ChangelogProducer: option(paimon.OptionChangelogProducer),
		FileFormat:        option(paimon.OptionFileFormat),
		Comment:           s.Comment,
		Options:           s.Options,
	}
	if rep.Options == nil {
		rep.Options = map[string]string{}
	}
	if len(s.PrimaryKeys) > 0 {
		rep.Type = "primary-key"
		rep.MergeEngine = option(paimon.OptionMergeEngine)
	}
	if bucket > 0 {
		rep.BucketKeys = nonNil(s.BucketKeys())
	}
	for _, f := range s.Fields {
		rep.Fields = append(rep.Fields, describeField{ID: f.ID, Name: f.Name, Type: f.Type.String(), Description: f.Description})
	}
	meta := tbl.Meta()
	latest, ok, err := meta.LatestSnapshotID(ctx)
	if err != nil {
		return nil, err
	}
	if ok {
		snap, err := meta.ReadSnapshot(ctx, latest)
		if err != nil {
			return nil, err
		}
		rep.LatestSnapshot = &describeSnapshot{
			ID: snap.ID, SchemaID: snap.SchemaID, CommitKind: string(snap.CommitKind),
			CommitTime:  time.UnixMilli(snap.TimeMillis).In(describeZone).Format(describeTimeLayout),
			TimeMillis:  snap.TimeMillis,
			RecordCount: snap.TotalRecordCount,
		}
	}
	return rep, nil
}

// writeText prints the report for people.
func (r *describeReport) writeText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	line := func(k, format string, args ...any) {
		fmt.Fprintf(tw, "%s\t%s\n", k, sanitizeCell(fmt.Sprintf(format, args...)))
	}
	list := func(names []string) string {
		if len(names) == 0 {
			return "(none)"
		}
		return strings.Join(names, ", ")
	}
	line("Table", "%s", r.Table)
	line("Type", "%s", r.Type)
	line("Schema", "%d", r.SchemaID)
	line("Primary keys", "%s", list(r.PrimaryKeys))
	line("Partition keys", "%s", list(r.PartitionKeys))
	switch {
	case r.Bucket > 0:
		line("Bucket mode", "%s, %d bucket%s, bucket key %s", r.BucketMode, r.Bucket, plural(r.Bucket), list(r.BucketKeys))
	default:
		line("Bucket mode", "%s (bucket = %d)", r.BucketMode, r.Bucket)
	}
	if r.MergeEngine != "" {
		line("Merge engine", "%s", r.MergeEngine)
	}
	line("Changelog producer", "%s", r.ChangelogProducer)
	line("File format", "%s", r.FileFormat)
	if r.Comment != nil {
		line("Comment", "%s", *r.Comment)
	}
	if s := r.LatestSnapshot; s != nil {
		line("Latest snapshot", "%d, committed %s (%s), %d records", s.ID, s.CommitTime, strings.ToLower(s.CommitKind), s.RecordCount)
	} else {
		line("Latest snapshot", "none")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nColumns:")
	rows := make([][]string, len(r.Fields))
	for i, f := range r.Fields {
		desc := ""
		if f.Description != nil {
			desc = "-- " + *f.Description
		}
		rows[i] = []string{sanitizeCell(f.Name), sanitizeCell(f.Type), sanitizeCell(desc)}
	}
	writeIndented(w, rows)
	if len(r.Options) > 0 {
		fmt.Fprintln(w, "\nOptions:")
		keys := make([]string, 0, len(r.Options))
		for k := range r.Options {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		rows = rows[:0]
		for _, k := range keys {
			rows = append(rows, []string{sanitizeCell(k), sanitizeCell(r.Options[k])})
		}
		writeIndented(w, rows)
	}
	return nil
}

// writeIndented prints rows as aligned columns indented by two spaces,
// without trailing blanks.
func writeIndented(w io.Writer, rows [][]string) {
	var sb strings.Builder
	tw := tabwriter.NewWriter(&sb, 0, 8, 2, ' ', 0)
	for _, r := range rows {
		fmt.Fprintf(tw, "  %s\n", strings.Join(r, "\t"))
	}
	tw.Flush()
	for _, l := range strings.SplitAfter(sb.String(), "\n") {
		if l == "" {
			continue
		}
		io.WriteString(w, strings.TrimRight(l, " \n")+"\n")
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
