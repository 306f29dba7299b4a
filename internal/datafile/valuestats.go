package datafile

import (
	"fmt"

	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
)

// toBinary serializes the columns' statistics as Java's
// SimpleStatsConverter.toBinary does: with dense store
// (metadata.stats-dense-store, the default) the columns without any
// statistics are left out and the kept ones named in _VALUE_STATS_COLS,
// unless all are kept (then the list is null); without dense store every
// column stays and the list is null.
func toBinary(fields []schema.DataField, stats []colStats, dense bool) (manifest.SimpleStats, []string, error) {
	var (
		types      []schema.DataType
		mins, maxs []any
		nulls      []*int64
		names      []string
	)
	for i, f := range fields {
		cs := stats[i]
		if dense && cs.isNone() {
			continue
		}
		types = append(types, f.Type.Copy(true))
		mins = append(mins, cs.min)
		maxs = append(maxs, cs.max)
		nulls = append(nulls, cs.nullCount)
		names = append(names, f.Name)
	}
	st, err := encodeStats(types, mins, maxs, nulls)
	if err != nil {
		return manifest.SimpleStats{}, nil, err
	}
	if !dense || len(names) == len(fields) {
		names = nil
	} else if names == nil {
		names = []string{}
	}
	return st, names, nil
}

// encodeStats serializes min and max rows and the null counts.
func encodeStats(types []schema.DataType, mins, maxs []any, nulls []*int64) (manifest.SimpleStats, error) {
	minRow, err := binaryrow.Encode(data.Insert, types, mins)
	if err != nil {
		return manifest.SimpleStats{}, fmt.Errorf("datafile: encode min stats: %w", err)
	}
	maxRow, err := binaryrow.Encode(data.Insert, types, maxs)
	if err != nil {
		return manifest.SimpleStats{}, fmt.Errorf("datafile: encode max stats: %w", err)
	}
	if nulls == nil {
		nulls = []*int64{}
	}
	return manifest.SimpleStats{
		MinValues:  binaryrow.MarshalSerialized(minRow, len(types)),
		MaxValues:  binaryrow.MarshalSerialized(maxRow, len(types)),
		NullCounts: nulls,
	}, nil
}
