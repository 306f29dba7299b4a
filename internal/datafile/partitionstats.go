package datafile

import (
	"fmt"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
)

// PartitionStats computes the _PARTITION_STATS of a manifest file: min, max
// and null count of every partition field over the partitions of its
// entries (one []any of format/data values per entry, in the order of
// types), as Java's ManifestFile.ManifestEntryWriter gathers them with a
// default ("full") SimpleStatsCollector: values ordered by their Java
// compareTo, and null min/max for values that are not Comparable in Java
// (BINARY). types are the partition fields' types; their nullability does
// not matter. Errors wrap ErrInvalid when a partition has the wrong arity
// or mixes Go types in one field, or a value does not fit its type.
func PartitionStats(types []schema.DataType, partitions [][]any) (manifest.SimpleStats, error) {
	n := len(types)
	mins, maxs := make([]any, n), make([]any, n)
	nulls := make([]*int64, n)
	for j, p := range partitions {
		if len(p) != n {
			return manifest.SimpleStats{}, fmt.Errorf("%w: partition %d has %d values for %d partition fields", ErrInvalid, j, len(p), n)
		}
	}
	for i := range types {
		var cnt int64
		for _, p := range partitions {
			v := p[i]
			if v == nil {
				cnt++
				continue
			}
			if mins[i] == nil {
				if _, ok := javaCompare(v, v); !ok {
					continue
				}
				mins[i], maxs[i] = v, v
				continue
			}
			lo, ok := javaCompare(v, mins[i])
			hi, _ := javaCompare(v, maxs[i])
			if !ok {
				return manifest.SimpleStats{}, fmt.Errorf("%w: partition field %d mixes %T and %T values", ErrInvalid, i, v, mins[i])
			}
			if lo < 0 {
				mins[i] = v
			}
			if hi > 0 {
				maxs[i] = v
			}
		}
		nulls[i] = &cnt
	}
	nullable := make([]schema.DataType, n)
	for i, t := range types {
		nullable[i] = t.Copy(true)
	}
	st, err := encodeStats(nullable, mins, maxs, nulls)
	if err != nil {
		return manifest.SimpleStats{}, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	return st, nil
}
