package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/paimon"
	"github.com/paimon-go/paimon-go/paimon/rowio"
)

// explain plans the scan and prints the plan: as aligned text, or as one
// JSON object when asJSON is set.
func explain(ctx context.Context, w io.Writer, tbl *paimon.Table, scan *paimon.Scan, asJSON bool) error {
	plan, err := scan.Plan(ctx)
	if err != nil {
		return err
	}
	// Partitions are decoded with the schema the plan read, which time
	// travel may have switched to.
	ts := tbl.Schema()
	if plan.SnapshotID != 0 && plan.SchemaID != ts.ID {
		if ts, err = tbl.Meta().ReadSchema(ctx, plan.SchemaID); err != nil {
			return err
		}
	}
	parts := ts.PartitionFields()
	splits := make([]splitInfo, len(plan.Splits))
	for i := range plan.Splits {
		sp := &plan.Splits[i]
		values, err := partitionValues(sp.Partition, parts)
		if err != nil {
			return fmt.Errorf("split %d (%s): partition: %w", i, sp.BucketPath, err)
		}
		splits[i] = splitInfo{
			partition: values,
			bucket:    sp.Bucket,
			path:      sp.BucketPath,
			files:     len(sp.Files),
			rows:      sp.RowCount(),
			bytes:     sp.FileSize(),
		}
	}
	bw := bufio.NewWriter(w)
	if asJSON {
		err = explainJSON(bw, tbl, plan, parts, splits)
	} else {
		err = explainText(bw, tbl, plan, parts, splits)
	}
	if err != nil {
		return err
	}
	return bw.Flush()
}

// splitInfo is what explain shows of one split.
type splitInfo struct {
	partition []any // one value per partition field
	bucket    int32
	path      string
	files     int
	rows      int64
	bytes     int64
}

// partitionValues decodes a serialized partition BinaryRow with the
// partition fields' types.
func partitionValues(b []byte, parts []schema.DataField) ([]any, error) {
	if len(parts) == 0 {
		return nil, nil
	}
	row, err := binaryrow.ParseSerialized(b)
	if err != nil {
		return nil, err
	}
	if row.Arity() != len(parts) {
		return nil, fmt.Errorf("row has %d fields, the table %d partition keys", row.Arity(), len(parts))
	}
	types := make([]schema.DataType, len(parts))
	for i, f := range parts {
		types[i] = f.Type
	}
	return row.Values(types)
}

// partitionText renders partition values as "k=v/k2=v2" ("-" when the table
// is not partitioned).
func partitionText(parts []schema.DataField, values []any) (string, error) {
	if len(parts) == 0 {
		return "-", nil
	}
	elems := make([]string, len(parts))
	for i, f := range parts {
		s, ok, err := rowio.CellText(f.Type, values[i])
		if err != nil {
			return "", fmt.Errorf("partition field %s: %w", f.Name, err)
		}
		if !ok {
			s = rowio.TableNull
		}
		elems[i] = f.Name + "=" + sanitizeCell(s)
	}
	return strings.Join(elems, "/"), nil
}

func explainText(w io.Writer, tbl *paimon.Table, plan *paimon.Plan, parts []schema.DataField, splits []splitInfo) error {
	st := plan.Stats
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintf(tw, "table:\t%s\n", tbl.Identifier())
	if plan.SnapshotID == 0 {
		fmt.Fprintf(tw, "snapshot:\tnone (the table has no data)\n")
	} else {
		fmt.Fprintf(tw, "snapshot:\t%d\n", plan.SnapshotID)
	}
	fmt.Fprintf(tw, "schema:\t%d\n", plan.SchemaID)
	fmt.Fprintf(tw, "manifests:\t%d, %d pruned by partition stats, %d read\n",
		st.Manifests, st.ManifestsPruned, st.Manifests-st.ManifestsPruned)
	planned := 0
	for _, s := range splits {
		planned += s.files
	}
	fmt.Fprintf(tw, "data files:\t%d live\n", st.Files)
	fmt.Fprintf(tw, "  - partition:\t%d pruned\n", st.FilesPrunedByPartition)
	fmt.Fprintf(tw, "  - bucket:\t%d pruned\n", st.FilesPrunedByBucket)
	fmt.Fprintf(tw, "  - stats:\t%d pruned\n", st.FilesPrunedByStats)
	fmt.Fprintf(tw, "  - file index:\t%d pruned\n", st.FilesPrunedByIndex)
	fmt.Fprintf(tw, "  - limit:\t%d pruned\n", st.FilesPrunedByLimit)
	fmt.Fprintf(tw, "  = planned:\t%d files, %d rows (before filtering)\n", planned, st.RowCount)
	fmt.Fprintf(tw, "splits:\t%d\n", len(splits))
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(splits) == 0 {
		return nil
	}
	fmt.Fprintln(w)
	rows := make([][]string, 0, len(splits)+1)
	rows = append(rows, []string{"PARTITION", "BUCKET", "FILES", "ROWS", "BYTES"})
	for _, s := range splits {
		p, err := partitionText(parts, s.partition)
		if err != nil {
			return err
		}
		rows = append(rows, []string{p, fmt.Sprint(s.bucket), fmt.Sprint(s.files), fmt.Sprint(s.rows), fmt.Sprint(s.bytes)})
	}
	// The partition column is left-aligned, the numbers right-aligned.
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	for _, r := range rows {
		var sb strings.Builder
		for i, c := range r {
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
			if i == 0 {
				sb.WriteString(c + pad)
			} else {
				sb.WriteString("  " + pad + c)
			}
		}
		fmt.Fprintln(w, sb.String())
	}
	return nil
}

func explainJSON(w io.Writer, tbl *paimon.Table, plan *paimon.Plan, parts []schema.DataField, splits []splitInfo) error {
	st := plan.Stats
	stats := rowio.Object{
		Keys: []string{"manifests", "manifests_pruned", "files", "files_pruned_by_partition",
			"files_pruned_by_bucket", "files_pruned_by_stats", "files_pruned_by_index", "files_pruned_by_limit", "row_count"},
		Values: []any{st.Manifests, st.ManifestsPruned, st.Files, st.FilesPrunedByPartition,
			st.FilesPrunedByBucket, st.FilesPrunedByStats, st.FilesPrunedByIndex, st.FilesPrunedByLimit, st.RowCount},
	}
	list := make([]any, len(splits))
	for i, s := range splits {
		// One partition style in every command: "k=v/k2=v2", "" when
		// the table is not partitioned (as health prints it).
		part := ""
		if len(parts) > 0 {
			var err error
			if part, err = partitionText(parts, s.partition); err != nil {
				return err
			}
		}
		list[i] = rowio.Object{
			Keys:   []string{"partition", "bucket", "bucket_path", "files", "rows", "bytes"},
			Values: []any{part, s.bucket, s.path, s.files, s.rows, s.bytes},
		}
	}
	var snap any = plan.SnapshotID
	if plan.SnapshotID == 0 {
		snap = nil
	}
	doc := rowio.Object{
		Keys:   []string{"table", "snapshot_id", "schema_id", "stats", "splits"},
		Values: []any{tbl.Identifier().String(), snap, plan.SchemaID, stats, list},
	}
	b, err := rowio.MarshalJSON(doc)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}
