package main

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/paimon-go/paimon-go/paimon"
)

// tagsColumns are the columns of Java's $tags system table
// (org.apache.paimon.table.system.TagsTable, Paimon 1.4.2), in order.
var tagsColumns = []column{
	{"tag_name", stringNotNull},
	{"snapshot_id", bigintNotNull},
	{"schema_id", bigintNotNull},
	{"commit_time", tsNotNull},
	{"record_count", bigintNull},
	{"create_time", tsNull},
	{"time_retained", stringNull},
}

func runTags(ctx context.Context, e *env, c *command, args []string) error {
	return runMeta(ctx, e, c, args, tagsColumns, tagRows)
}

// tagRows emits one row per tag, by name.
func tagRows(ctx context.Context, meta *paimon.TableMeta, emit func([]any) error) error {
	names, err := meta.TagNames(ctx)
	if err != nil {
		return err
	}
	for _, name := range names {
		t, err := meta.ReadTag(ctx, name)
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
		err = emit([]any{
			name,
			t.ID,
			t.SchemaID,
			localTimestamp(t.TimeMillis, time.Local),
			t.TotalRecordCount,
			created,
			retained,
		})
		if err != nil {
			return err
		}
	}
	return nil
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
		b.WriteString(strconv.FormatInt(h, 10))
		b.WriteByte('H')
	}
	if m := (total % 3600) / 60; m != 0 {
		b.WriteString(strconv.FormatInt(m, 10))
		b.WriteByte('M')
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
		digits := strings.TrimRight(strconv.FormatInt(frac+int64(time.Second), 10)[1:], "0")
		b.WriteByte('.')
		b.WriteString(digits)
	}
	b.WriteByte('S')
	return b.String()
}
