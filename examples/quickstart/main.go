// Command quickstart opens a Paimon table written by Java Paimon and prints
// what its metadata says: the schema, the snapshot history, the tags, and the
// data files of the latest snapshot, with their partitions decoded.
//
//	go run ./examples/quickstart                       # a table from the golden corpus
//	go run ./examples/quickstart -table /path/to/warehouse/db.db/table
//
// It uses only the public packages: fs/localfs to reach the files,
// paimon.TableMeta to locate and decode them, and format/binaryrow to decode
// partition values. (Reading rows into Arrow arrives with the scan API.)
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/paimon"
)

const defaultTable = "testdata/golden/java-1.4.2/pk-dedup/warehouse/interop.db/pk_dedup"

func main() {
	table := flag.String("table", defaultTable, "directory of a Paimon table")
	flag.Parse()
	if err := run(context.Background(), *table); err != nil {
		fmt.Fprintln(os.Stderr, "quickstart:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	fsys, err := localfs.New(abs, nil)
	if err != nil {
		return fmt.Errorf("open %s: %w", dir, err)
	}
	defer fsys.Close()
	meta := paimon.NewTableMeta(fsys, ".")
	out := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	defer out.Flush()

	s, err := meta.LatestSchema(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "table %s (schema %d)\n", dir, s.ID)
	for _, f := range s.Fields {
		fmt.Fprintf(out, "  %d\t%s\t%s\n", f.ID, f.Name, f.Type)
	}
	fmt.Fprintf(out, "partition keys: %v   primary keys: %v\n", s.PartitionKeys, s.PrimaryKeys)
	fmt.Fprintf(out, "options: %v\n\n", s.Options)

	ids, err := meta.SnapshotIDs(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintln(out, "snapshot\tkind\tcommitted\ttotal rows\tdelta rows")
	for _, id := range ids {
		snap, err := meta.ReadSnapshot(ctx, id)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "%d\t%s\t%s\t%d\t%d\n", snap.ID, snap.CommitKind,
			time.UnixMilli(snap.TimeMillis).UTC().Format(time.DateTime), snap.TotalRecordCount, snap.DeltaRecordCount)
	}
	tags, err := meta.TagNames(ctx)
	if err != nil {
		return err
	}
	for _, name := range tags {
		tag, err := meta.ReadTag(ctx, name)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "tag %s -> snapshot %d\n", name, tag.ID)
	}

	latest, ok, err := meta.LatestSnapshotID(ctx)
	if err != nil || !ok {
		return err
	}
	snap, err := meta.ReadSnapshot(ctx, latest)
	if err != nil {
		return err
	}
	lists, err := meta.DataManifests(ctx, snap)
	if err != nil {
		return err
	}
	var entries []manifest.ManifestEntry
	for _, l := range lists {
		e, err := meta.ReadManifest(ctx, l.FileName)
		if err != nil {
			return err
		}
		entries = append(entries, e...)
	}
	live, err := manifest.MergeEntries(entries)
	if err != nil {
		return err
	}
	partTypes := fieldTypes(s.PartitionFields())
	fmt.Fprintf(out, "\nlive data files of snapshot %d\n", latest)
	fmt.Fprintln(out, "partition\tbucket\tlevel\trows\tbytes\tfile")
	for _, e := range live {
		row, err := binaryrow.ParseSerialized(e.Partition)
		if err != nil {
			return err
		}
		vals, err := row.Values(partTypes)
		if err != nil {
			return err
		}
		var parts []string
		for i, f := range s.PartitionFields() {
			parts = append(parts, fmt.Sprintf("%s=%v", f.Name, vals[i]))
		}
		fmt.Fprintf(out, "%s\t%d\t%d\t%d\t%d\t%s\n", strings.Join(parts, ","), e.Bucket, e.File.Level,
			e.File.RowCount, e.File.FileSize, e.File.FileName)
	}
	return nil
}

func fieldTypes(fields []schema.DataField) []schema.DataType {
	out := make([]schema.DataType, len(fields))
	for i, f := range fields {
		out[i] = f.Type
	}
	return out
}
