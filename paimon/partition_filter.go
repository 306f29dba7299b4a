package paimon

import (
	"fmt"
	"strconv"

	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/partpath"
	"github.com/paimon-go/paimon-go/paimon/predicate"
)

// partitionInStats reports whether a partition (a serialized BinaryRow of
// the given types) may be among the partitions summarized by stats (Java
// PartitionPredicate.fromMultiple tested on manifest partition statistics).
func partitionInStats(types []schema.DataType, partition []byte, stats manifest.SimpleStats, rowCount int64) (bool, error) {
	row, err := binaryrow.ParseSerialized(partition)
	if err != nil {
		return true, err
	}
	values, err := row.Values(types)
	if err != nil {
		return true, err
	}
	fields := make([]schema.DataField, len(types))
	leaves := make([]*predicate.Predicate, len(types))
	for i, t := range types {
		name := "p" + strconv.Itoa(i)
		fields[i] = schema.DataField{ID: i, Name: name, Type: t}
		if values[i] == nil {
			leaves[i] = predicate.IsNull(name)
		} else {
			leaves[i] = predicate.Equal(name, values[i])
		}
	}
	b, err := predicate.Bind(predicate.And(leaves...), fields)
	if err != nil {
		return true, err
	}
	mins, err1 := decodeStatsRow(stats.MinValues, types)
	maxs, err2 := decodeStatsRow(stats.MaxValues, types)
	if err1 != nil || err2 != nil {
		return true, nil
	}
	nulls := make([]*int64, len(types))
	copy(nulls, stats.NullCounts)
	return b.TestStats(rowCount, mins, maxs, nulls), nil
}

// partitionSpec selects partitions by some of their keys' values, written
// as Java renders them in directory names (Java's static partition maps:
// {"dt": "2024-01-01"}; the default partition name stands for NULL).
type partitionSpec struct {
	pather *partitionPather
	pos    []int    // index of each spec key among the partition fields
	want   []string // its rendered value
}

func newPartitionSpec(pather *partitionPather, spec map[string]string) (*partitionSpec, error) {
	s := &partitionSpec{pather: pather}
	idx := map[string]int{}
	for i, f := range pather.fields {
		idx[f.Name] = i
	}
	for k, v := range spec {
		i, ok := idx[k]
		if !ok {
			return nil, fmt.Errorf("%w: %q is not a partition key", ErrInvalidPartition, k)
		}
		s.pos = append(s.pos, i)
		s.want = append(s.want, v)
	}
	return s, nil
}

// match reports whether a serialized partition row satisfies the spec.
func (s *partitionSpec) match(partition []byte) (bool, error) {
	values, err := s.pather.values(partition)
	if err != nil {
		return false, fmt.Errorf("%w: partition of a manifest entry: %w", ErrCorrupt, err)
	}
	for j, i := range s.pos {
		got := s.pather.defaultName
		if values[i] != nil {
			if got, err = partpath.ValueString(values[i], s.pather.types[i], s.pather.legacy); err != nil {
				return false, err
			}
		}
		if got != s.want[j] {
			return false, nil
		}
	}
	return true, nil
}
