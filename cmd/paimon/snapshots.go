package main

import (
	"context"
	"time"

	"github.com/paimon-go/paimon-go/paimon"
)

// snapshotsColumns are the columns of Java's $snapshots system table
// (org.apache.paimon.table.system.SnapshotsTable, Paimon 1.4.2), in order.
var snapshotsColumns = []column{
	{"snapshot_id", bigintNotNull},
	{"schema_id", bigintNotNull},
	{"commit_user", stringNotNull},
	{"commit_identifier", bigintNotNull},
	{"commit_kind", stringNotNull},
	{"commit_time", tsNotNull},
	{"base_manifest_list", stringNotNull},
	{"delta_manifest_list", stringNotNull},
	{"changelog_manifest_list", stringNull},
	{"total_record_count", bigintNull},
	{"delta_record_count", bigintNull},
	{"changelog_record_count", bigintNull},
	{"watermark", bigintNull},
	{"next_row_id", bigintNull},
}

func runSnapshots(ctx context.Context, e *env, c *command, args []string) error {
	return runMeta(ctx, e, c, args, snapshotsColumns, snapshotRows)
}

// snapshotRows emits one row per snapshot file present, by ascending id.
func snapshotRows(ctx context.Context, meta *paimon.TableMeta, emit func([]any) error) error {
	ids, err := meta.SnapshotIDs(ctx)
	if err != nil {
		return err
	}
	for _, id := range ids {
		s, err := meta.ReadSnapshot(ctx, id)
		if err != nil {
			return err
		}
		var kind any
		if s.CommitKind != "" {
			kind = string(s.CommitKind)
		}
		err = emit([]any{
			s.ID,
			s.SchemaID,
			s.CommitUser,
			s.CommitIdentifier,
			kind,
			localTimestamp(s.TimeMillis, time.Local),
			s.BaseManifestList,
			s.DeltaManifestList,
			optString(s.ChangelogManifestList),
			s.TotalRecordCount,
			s.DeltaRecordCount,
			optInt64(s.ChangelogRecordCount),
			optInt64(s.Watermark),
			optInt64(s.NextRowID),
		})
		if err != nil {
			return err
		}
	}
	return nil
}
