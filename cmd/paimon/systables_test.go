package main

import (
	"time"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/paimon"
)

// The columns of the system tables the golden comparisons keep: Java's
// columns as the library declares them.
var (
	snapshotsColumns = systemColumns("snapshots")
	schemasColumns   = systemColumns("schemas")
	optionsColumns   = systemColumns("options")
	tagsColumns      = systemColumns("tags")
	filesColumns     = systemColumns("files")
	manifestsColumns = systemColumns("manifests")
)

func systemColumns(name string) []column {
	fields, err := paimon.SystemTableFields(name)
	if err != nil {
		panic(err)
	}
	out := make([]column, len(fields))
	for i, f := range fields {
		out[i] = column{f.Name, f.Type}
	}
	return out
}

// localTimestamp is epoch milliseconds as the wall-clock TIMESTAMP(3) in
// loc that the commands print for commit times.
func localTimestamp(ms int64, loc *time.Location) data.Timestamp {
	t := time.UnixMilli(ms).In(loc)
	u := time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
	return data.Timestamp{Millis: u.UnixMilli(), NanoOfMilli: int32(u.Nanosecond() % 1_000_000)}
}
