package paimon

import (
	"context"
	"fmt"
	"sync"

	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/coreoptions"
	"github.com/paimon-go/paimon-go/paimon/predicate"
)

// pruner decides which manifests and data files a scan can skip. Every test
// errs on the side of keeping: pruning may only drop what provably holds no
// matching row.
type pruner struct {
	st        *scanState
	partIdx   []int // schema.Fields index of each partition field
	partTypes []schema.DataType

	partMu    sync.Mutex
	partCache map[string]bool

	bucketKeyTypes []schema.DataType
	bucketValues   [][]any // candidate values per bucket key; nil: no bucket pruning
	bucketFn       binaryrow.BucketFunction
	bucketMu       sync.Mutex
	bucketSets     map[int32]map[int32]bool // numBuckets → selected buckets

	layouts layoutCache // of file statistics, by schema
}

func newPruner(st *scanState) (*pruner, error) {
	p := &pruner{st: st, partCache: map[string]bool{}, bucketSets: map[int32]map[int32]bool{}}
	byName := map[string]int{}
	for i, f := range st.schema.Fields {
		byName[f.Name] = i
	}
	for _, k := range st.schema.PartitionKeys {
		i, ok := byName[k]
		if !ok {
			return nil, fmt.Errorf("%w: partition key %q is not a field of schema %d", ErrCorrupt, k, st.schema.ID)
		}
		p.partIdx = append(p.partIdx, i)
		p.partTypes = append(p.partTypes, st.schema.Fields[i].Type)
	}
	if st.filter != nil {
		if err := p.initBuckets(); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// keepManifest tests the filter against a manifest's partition statistics
// (Java ManifestsReader's partition filter over ManifestFileMeta).
func (p *pruner) keepManifest(m *manifest.ManifestFileMeta) bool {
	if p.st.filter == nil || len(p.partIdx) == 0 {
		return true
	}
	n := len(p.st.schema.Fields)
	mins, maxs, nulls, ok := p.decodeStats(m.PartitionStats, p.partTypes, p.partIdx, n)
	if !ok {
		return true
	}
	return p.st.filter.TestStats(m.NumAddedFiles+m.NumDeletedFiles, mins, maxs, nulls)
}

// decodeStats spreads statistics of the given types over an n-field row at
// positions idx. ok is false when they cannot be decoded.
func (p *pruner) decodeStats(s manifest.SimpleStats, types []schema.DataType, idx []int, n int) (mins, maxs []any, nulls []*int64, ok bool) {
	minRow, err1 := decodeStatsRow(s.MinValues, types)
	maxRow, err2 := decodeStatsRow(s.MaxValues, types)
	if err1 != nil || err2 != nil {
		return nil, nil, nil, false
	}
	mins, maxs, nulls = make([]any, n), make([]any, n), make([]*int64, n)
	for j, i := range idx {
		mins[i], maxs[i] = minRow[j], maxRow[j]
		if j < len(s.NullCounts) {
			nulls[i] = s.NullCounts[j]
		}
	}
	return mins, maxs, nulls, true
}

func decodeStatsRow(b []byte, types []schema.DataType) ([]any, error) {
	row, err := binaryrow.ParseSerialized(b)
	if err != nil {
		return nil, err
	}
	if row.Arity() != len(types) {
		return nil, fmt.Errorf("statistics row has %d fields, want %d", row.Arity(), len(types))
	}
	return row.Values(types)
}

// keepPartition tests the filter against one partition's values.
func (p *pruner) keepPartition(partition []byte) (bool, error) {
	if p.st.filter == nil || len(p.partIdx) == 0 {
		return true, nil
	}
	key := string(partition)
	p.partMu.Lock()
	keep, ok := p.partCache[key]
	p.partMu.Unlock()
	if ok {
		return keep, nil
	}
	values, err := p.st.pather.values(partition)
	if err != nil {
		return false, fmt.Errorf("%w: partition of a manifest entry: %w", ErrCorrupt, err)
	}
	n := len(p.st.schema.Fields)
	mins, nulls := make([]any, n), make([]*int64, n)
	zero, one := int64(0), int64(1)
	for j, i := range p.partIdx {
		mins[i] = values[j]
		if values[j] == nil {
			nulls[i] = &one
		} else {
			nulls[i] = &zero
		}
	}
	keep = p.st.filter.TestStats(1, mins, mins, nulls)
	p.partMu.Lock()
	p.partCache[key] = keep
	p.partMu.Unlock()
	return keep, nil
}

// initBuckets collects, from the filter's top-level conjuncts, the values
// each bucket key can take (Java BucketSelector: equalities and IN lists,
// possibly OR-ed, on one bucket key; values of a key constrained twice are
// intersected; at most 1000 key combinations).
func (p *pruner) initBuckets() error {
	st := p.st
	n, err := st.schema.Bucket()
	if err != nil || n <= 0 {
		return nil
	}
	fn := binaryrow.BucketDefault // Java CoreOptions.BUCKET_FUNCTION_TYPE default
	if v, ok := st.schema.Options[coreoptions.BucketFunctionType]; ok {
		if fn, err = binaryrow.ParseBucketFunction(v); err != nil {
			return nil
		}
	}
	keys := st.schema.BucketKeys()
	keyPos := map[int]int{}
	for j, k := range keys {
		i := st.schema.FieldIndex(k)
		if i < 0 {
			return nil
		}
		keyPos[i] = j
		p.bucketKeyTypes = append(p.bucketKeyTypes, st.schema.Fields[i].Type)
	}
	values := make([][]any, len(keys))
	seen := make([]bool, len(keys))
	conjuncts := []*predicate.Bound{st.filter}
	if st.filter.Kind() == predicate.KindAnd {
		conjuncts = st.filter.Children()
	}
next:
	for _, c := range conjuncts {
		leaves := []*predicate.Bound{c}
		if c.Kind() == predicate.KindOr {
			leaves = c.Children()
		}
		ref := -1
		var vals []any
		for _, l := range leaves {
			if l.Kind() != predicate.KindEqual && l.Kind() != predicate.KindIn {
				continue next
			}
			if ref >= 0 && l.FieldIndex() != ref {
				continue next
			}
			ref = l.FieldIndex()
			for _, v := range l.Literals() {
				if v != nil {
					vals = append(vals, v)
				}
			}
		}
		j, ok := keyPos[ref]
		if !ok {
			continue
		}
		if seen[j] {
			values[j] = intersect(values[j], vals)
			if len(values[j]) == 0 {
				return nil // contradictory: Java keeps every bucket
			}
		} else {
			values[j], seen[j] = vals, true
		}
	}
	combos := 1
	for j := range values {
		if !seen[j] {
			return nil
		}
		combos *= len(values[j])
		if combos > 1000 {
			return nil
		}
	}
	p.bucketValues, p.bucketFn = values, fn
	return nil
}

func intersect(a, b []any) []any {
	var out []any
	for _, x := range a {
		for _, y := range b {
			if valuesEqual(x, y) {
				out = append(out, x)
				break
			}
		}
	}
	return out
}

// keepBucket reports whether a file in bucket of a partition written with
// numBuckets buckets may hold rows the filter selects.
func (p *pruner) keepBucket(bucket, numBuckets int32) (bool, error) {
	if p.bucketValues == nil || numBuckets <= 0 {
		return true, nil
	}
	p.bucketMu.Lock()
	defer p.bucketMu.Unlock()
	set, ok := p.bucketSets[numBuckets]
	if !ok {
		set = map[int32]bool{}
		row := make([]any, len(p.bucketValues))
		var walk func(j int) error
		walk = func(j int) error {
			if j == len(row) {
				b, err := binaryrow.BucketOf(p.bucketKeyTypes, row, int(numBuckets), p.bucketFn)
				if err != nil {
					return err
				}
				set[int32(b)] = true
				return nil
			}
			for _, v := range p.bucketValues[j] {
				row[j] = v
				if err := walk(j + 1); err != nil {
					return err
				}
			}
			return nil
		}
		if err := walk(0); err != nil {
			// A value the bucket function cannot hash: do not prune.
			p.bucketValues = nil
			return true, nil
		}
		p.bucketSets[numBuckets] = set
	}
	return set[bucket], nil
}

// pruneEntries drops the live files the filter excludes by partition, bucket
// and value statistics, counting each step.
func (p *pruner) pruneEntries(ctx context.Context, entries []*manifest.ManifestEntry, stats *PlanStats) ([]*manifest.ManifestEntry, error) {
	if p.st.filter == nil {
		return entries, nil
	}
	out := entries[:0]
	var sc statsScratch
	for _, e := range entries {
		keep, err := p.keepPartition(e.Partition)
		if err != nil {
			return nil, &entryError{e, err}
		}
		if !keep {
			stats.FilesPrunedByPartition++
			continue
		}
		if keep, err = p.keepBucket(e.Bucket, e.TotalBuckets); err != nil {
			return nil, err
		}
		if !keep {
			stats.FilesPrunedByBucket++
			continue
		}
		if keep, err = p.keepFile(ctx, &e.File, &sc); err != nil {
			return nil, err
		}
		if !keep {
			stats.FilesPrunedByStats++
			continue
		}
		if e.File.EmbeddedIndex != nil && p.st.fileIndexUsable() {
			if keep, err = p.st.keepByIndex(ctx, &e.File, e.File.EmbeddedIndex); err != nil {
				return nil, err
			}
			if !keep {
				stats.FilesPrunedByIndex++
				continue
			}
		}
		out = append(out, e)
	}
	return out, nil
}
