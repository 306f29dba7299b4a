package paimon

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	iofs "io/fs"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/internal/javacompat"
)

// The system tables read from snapshot, schema, tag, branch and consumer
// files.

// snapshotsFields is Java's SnapshotsTable (Paimon 1.4.2).
var snapshotsFields = columns(
	"snapshot_id", bigintNotNull,
	"schema_id", bigintNotNull,
	"commit_user", stringNotNull,
	"commit_identifier", bigintNotNull,
	"commit_kind", stringNotNull,
	"commit_time", tsNotNull,
	"base_manifest_list", stringNotNull,
	"delta_manifest_list", stringNotNull,
	"changelog_manifest_list", stringNull,
	"total_record_count", bigintNull,
	"delta_record_count", bigintNull,
	"changelog_record_count", bigintNull,
	"watermark", bigintNull,
	"next_row_id", bigintNull,
)

// snapshotRows emits one row per snapshot file present, by ascending id.
func snapshotRows(ctx context.Context, src *systemSource, emit func([]any) error) error {
	ids, err := src.meta.SnapshotIDs(ctx)
	if err != nil {
		return err
	}
	for _, id := range ids {
		s, err := src.meta.ReadSnapshot(ctx, id)
		if errors.Is(err, ErrSnapshotNotFound) {
			continue // expired while listing
		}
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
			src.localTime(s.TimeMillis),
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

// schemasFields is Java's SchemasTable (Paimon 1.4.2).
var schemasFields = columns(
	"schema_id", bigintNotNull,
	"fields", stringNotNull,
	"partition_keys", stringNotNull,
	"primary_keys", stringNotNull,
	"options", stringNotNull,
	"comment", stringNull,
	"update_time", tsNotNull,
)

// schemaRows emits one row per schema file present, by ascending id. The
// fields, keys and options are compact JSON as Java's JsonSerdeUtil writes
// them, options in the order Java's HashMap iterates them.
func schemaRows(ctx context.Context, src *systemSource, emit func([]any) error) error {
	ids, err := src.meta.SchemaIDs(ctx)
	if err != nil {
		return err
	}
	for _, id := range ids {
		s, err := src.meta.ReadSchema(ctx, id)
		if err != nil {
			return err
		}
		fields := s.Fields
		if fields == nil {
			fields = []schema.DataField{}
		}
		keys, err := javaOptionOrder(s)
		if err != nil {
			return err
		}
		texts := make([]string, 4)
		for i, v := range []any{fields, nonNil(s.PartitionKeys), nonNil(s.PrimaryKeys), orderedOptions{keys, s.Options}} {
			if texts[i], err = flatJSON(v); err != nil {
				return err
			}
		}
		err = emit([]any{s.ID, texts[0], texts[1], texts[2], texts[3], optString(s.Comment), src.localTime(s.TimeMillis)})
		if err != nil {
			return err
		}
	}
	return nil
}

// optionsFields is Java's OptionsTable.
var optionsFields = columns("key", stringNotNull, "value", stringNotNull)

// optionRows emits the options of the latest schema, as OptionsTable does,
// in Java's HashMap order.
func optionRows(ctx context.Context, src *systemSource, emit func([]any) error) error {
	s, err := src.meta.LatestSchema(ctx)
	if err != nil {
		return err
	}
	keys, err := javaOptionOrder(s)
	if err != nil {
		return err
	}
	for _, k := range keys {
		if err := emit([]any{k, s.Options[k]}); err != nil {
			return err
		}
	}
	return nil
}

// tagsFields is Java's TagsTable (Paimon 1.4.2).
var tagsFields = columns(
	"tag_name", stringNotNull,
	"snapshot_id", bigintNotNull,
	"schema_id", bigintNotNull,
	"commit_time", tsNotNull,
	"record_count", bigintNull,
	"create_time", tsNull,
	"time_retained", stringNull,
)

// tagRows emits one row per tag, by name.
func tagRows(ctx context.Context, src *systemSource, emit func([]any) error) error {
	names, err := src.meta.TagNames(ctx)
	if err != nil {
		return err
	}
	for _, name := range names {
		t, err := src.meta.ReadTag(ctx, name)
		if errors.Is(err, ErrTagNotFound) {
			continue // deleted while listing
		}
		if err != nil {
			return err
		}
		var created, retained any
		if t.CreateTime != nil {
			// tagCreateTime is a zone-less LocalDateTime: shown as stored.
			created = wallClock(*t.CreateTime)
		}
		if t.TimeRetained != nil {
			retained = javaDuration(*t.TimeRetained)
		}
		err = emit([]any{name, t.ID, t.SchemaID, src.localTime(t.TimeMillis), t.TotalRecordCount, created, retained})
		if err != nil {
			return err
		}
	}
	return nil
}

// branchesFields is Java's BranchesTable (Paimon 1.4.2).
var branchesFields = columns("branch_name", stringNotNull, "create_time", tsNotNull)

// branchRows emits one row per branch/branch-<name> directory, by name (Java
// lists them in directory order), with the directory's modification time
// as its creation time, as Java does.
func branchRows(ctx context.Context, src *systemSource, emit func([]any) error) error {
	entries, err := fs.ReadDir(ctx, src.meta.fsys, src.meta.Path(branchDir))
	if err != nil {
		return err
	}
	for _, fi := range entries {
		name, ok := strings.CutPrefix(fi.Name, branchPrefix)
		if !ok || !fi.IsDir || name == "" {
			continue
		}
		if err := emit([]any{name, wallClock(fi.ModTime.In(src.opts.TimeZone))}); err != nil {
			return err
		}
	}
	return nil
}

// consumersFields is Java's ConsumersTable (Paimon 1.4.2).
var consumersFields = columns("consumer_id", stringNotNull, "next_snapshot_id", bigintNotNull)

// consumerRows emits one row per consumer of the branch, in the order of
// the HashMap Java's ConsumerManager.consumers fills.
func consumerRows(ctx context.Context, src *systemSource, emit func([]any) error) error {
	consumers, err := readConsumers(ctx, src.meta)
	if err != nil {
		return err
	}
	m := javacompat.NewStringMap()
	for _, c := range consumers {
		m.Put(c.ID, "")
	}
	next := map[string]int64{}
	for _, c := range consumers {
		next[c.ID] = c.NextSnapshot
	}
	for _, id := range m.Keys() {
		if err := emit([]any{id, next[id]}); err != nil {
			return err
		}
	}
	return nil
}

// Consumer is one consumer/consumer-<id> file of a branch (Java
// ConsumerManager): a reader's progress, which keeps expiration from
// deleting the snapshots it has not read.
type Consumer struct {
	ID           string
	NextSnapshot int64
	// Modified is the file's modification time, zero when unknown.
	Modified time.Time
}

// Consumers lists the consumers of the branch, by id.
func (m *TableMeta) Consumers(ctx context.Context) ([]Consumer, error) { return readConsumers(ctx, m) }

// readConsumers reads the consumer files of the branch, sorted by id.
// Files deleted while listing are skipped.
func readConsumers(ctx context.Context, m *TableMeta) ([]Consumer, error) {
	dir := m.branchPath(consumerDir)
	entries, err := fs.ReadDir(ctx, m.fsys, dir)
	if err != nil {
		return nil, err
	}
	var out []Consumer
	for _, fi := range entries {
		id, ok := strings.CutPrefix(fi.Name, consumerPrefix)
		if !ok || fi.IsDir || id == "" {
			continue
		}
		p := dir + "/" + fi.Name
		b, err := m.read(ctx, p)
		if errors.Is(err, iofs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		c, err := snapshot.DecodeConsumer(b)
		if err != nil {
			return nil, corrupt(p, err)
		}
		out = append(out, Consumer{ID: id, NextSnapshot: c.NextSnapshot, Modified: fi.ModTime})
	}
	slices.SortFunc(out, func(a, b Consumer) int { return strings.Compare(a.ID, b.ID) })
	return out, nil
}

// localTime is epoch milliseconds as a TIMESTAMP(3) holding the wall-clock
// time in the options' zone: Java's system tables turn commit times into
// LocalDateTime with ZoneId.systemDefault().
func (src *systemSource) localTime(ms int64) data.Timestamp {
	return wallClock(time.UnixMilli(ms).In(src.opts.TimeZone))
}

// wallClock is t's wall-clock fields as a zone-less TIMESTAMP, the way
// data.Timestamp stores one (read as UTC).
func wallClock(t time.Time) data.Timestamp {
	u := time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
	return data.Timestamp{Millis: u.UnixMilli(), NanoOfMilli: int32(u.Nanosecond() % 1_000_000)}
}

// optInt64 is a nullable BIGINT cell.
func optInt64(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}

// optString is a nullable STRING cell.
func optString(p *string) any {
	if p == nil {
		return nil
	}
	return *p
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// flatJSON encodes v compactly without HTML escaping, as Jackson (Java
// JsonSerdeUtil.toFlatJson) does.
func flatJSON(v any) (string, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(buf.String(), "\n"), nil
}

// orderedOptions is a string map that encodes to JSON with its keys in a
// given order.
type orderedOptions struct {
	keys []string
	m    map[string]string
}

// MarshalJSON writes the members in o.keys order.
func (o orderedOptions) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, k := range o.keys {
		if i > 0 {
			b = append(b, ',')
		}
		kj, err := flatJSON(k)
		if err != nil {
			return nil, err
		}
		vj, err := flatJSON(o.m[k])
		if err != nil {
			return nil, err
		}
		b = append(append(append(b, kj...), ':'), vj...)
	}
	return append(b, '}'), nil
}

// javaOptionOrder is the order in which Java lists the options of s: those
// of its file put into a HashMap in file order.
func javaOptionOrder(s *schema.TableSchema) ([]string, error) {
	m := javacompat.NewStringMap()
	for _, k := range s.OptionOrder() {
		m.Put(k, s.Options[k])
	}
	return m.Keys(), nil
}

// javaDuration formats d as Java's Duration.toString does (ISO-8601, e.g.
// "PT1H30M", "PT0.5S", "PT-0.5S"), which is how TagsTable shows
// time_retained.
func javaDuration(d time.Duration) string {
	if d == 0 {
		return "PT0S"
	}
	// Java keeps floor seconds and a non-negative nano part.
	secs := int64(d / time.Second)
	nanos := int64(d % time.Second)
	if nanos < 0 {
		secs--
		nanos += int64(time.Second)
	}
	// For the H/M/S split a negative value with a fraction counts its
	// seconds towards zero.
	total := secs
	if secs < 0 && nanos > 0 {
		total++
	}
	var b strings.Builder
	b.WriteString("PT")
	if h := total / 3600; h != 0 {
		b.WriteString(strconv.FormatInt(h, 10) + "H")
	}
	if m := (total % 3600) / 60; m != 0 {
		b.WriteString(strconv.FormatInt(m, 10) + "M")
	}
	s := total % 60
	if s == 0 && nanos == 0 && b.Len() > 2 {
		return b.String()
	}
	if secs < 0 && nanos > 0 && s == 0 {
		b.WriteString("-0")
	} else {
		b.WriteString(strconv.FormatInt(s, 10))
	}
	if nanos > 0 {
		frac := nanos
		if secs < 0 {
			frac = int64(time.Second) - nanos
		}
		b.WriteString("." + strings.TrimRight(strconv.FormatInt(frac+int64(time.Second), 10)[1:], "0"))
	}
	b.WriteByte('S')
	return b.String()
}
