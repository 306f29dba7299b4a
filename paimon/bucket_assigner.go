package paimon

import (
	"fmt"
	"math/rand/v2"

	"github.com/paimon-go/paimon-go/internal/coreoptions"
	"github.com/paimon-go/paimon-go/internal/javacompat"
)

// Dynamic-bucket options (Java CoreOptions).
const (
	optDynamicTargetRows = coreoptions.DynamicBucketTargetRowNum
	optDynamicMaxBuckets = coreoptions.DynamicBucketMaxBuckets

	defaultDynamicTargetRows = 2_000_000
)

// hashAssigner assigns the keys of a dynamic-bucket table (bucket = -1) to
// buckets by the hash of their trimmed primary key, as Java's
// HashBucketAssigner does with one assigner (numAssigners 1): a hash seen
// before (in the table's HASH index files or in this writer) keeps its
// bucket; a new hash goes to the first bucket of the partition holding
// fewer than dynamic-bucket.target-row-num hashes, in Java's HashMap order,
// or to a new bucket (the smallest unused id) when all are full, or, past
// dynamic-bucket.max-buckets, to a random existing one.
type hashAssigner struct {
	target     int64
	maxBuckets int // -1: unlimited
	maxID      int32
	parts      map[string]*partitionIndex
}

// partitionIndex is Java's PartitionIndex: the buckets of one partition.
type partitionIndex struct {
	hash2bucket map[int32]int32
	nonFull     *javaIntMap // bucket -> hashes, possibly full (removed lazily)
	total       map[int32]bool
	totalList   []int32
}

func newHashAssigner(target int64, maxBuckets int) *hashAssigner {
	return &hashAssigner{target: target, maxBuckets: maxBuckets, parts: map[string]*partitionIndex{}}
}

// load installs a partition's index from its HASH index files, given as
// (bucket, hashes) in index manifest order (PartitionIndex.loadIndex).
func (a *hashAssigner) load(partition string, files []hashIndexFile) {
	idx := &partitionIndex{hash2bucket: map[int32]int32{}, nonFull: newJavaIntMap(), total: map[int32]bool{}}
	for _, f := range files {
		for _, h := range f.hashes {
			idx.hash2bucket[h] = f.bucket
			idx.nonFull.put(f.bucket, idx.nonFull.get(f.bucket)+1)
		}
	}
	for _, b := range idx.nonFull.keys() {
		idx.total[b] = true
		idx.totalList = append(idx.totalList, b)
	}
	a.parts[partition] = idx
}

// loaded reports whether the partition's index is installed.
func (a *hashAssigner) loaded(partition string) bool { return a.parts[partition] != nil }

// assign returns the bucket of a key hash in a loaded partition
// (HashBucketAssigner.assign over PartitionIndex.assign).
func (a *hashAssigner) assign(partition string, hash int32) (int32, error) {
	b, err := a.assignIn(a.parts[partition], hash)
	if err == nil && b > a.maxID {
		a.maxID = b // assigner-wide, as Java's maxBucketId
	}
	return b, err
}

func (a *hashAssigner) assignIn(idx *partitionIndex, hash int32) (int32, error) {
	if b, ok := idx.hash2bucket[hash]; ok {
		return b, nil
	}
	for _, b := range idx.nonFull.keys() {
		if n := idx.nonFull.get(b); n < a.target {
			idx.nonFull.put(b, n+1)
			idx.hash2bucket[hash] = b
			return b, nil
		}
		idx.nonFull.remove(b)
	}
	globalMax := int32(32767) - 1
	if a.maxBuckets != -1 {
		globalMax = int32(a.maxBuckets) - 1
	}
	if len(idx.total) == 0 || a.maxID < globalMax {
		for i := int32(0); i <= globalMax; i++ {
			if !idx.total[i] {
				idx.nonFull.put(i, 1)
				idx.total[i] = true
				idx.totalList = append(idx.totalList, i)
				idx.hash2bucket[hash] = i
				return i, nil
			}
		}
		if a.maxBuckets == -1 {
			return 0, fmt.Errorf("%w: more than %d buckets in a partition; increase %s (%d)",
				ErrInvalidOption, globalMax+1, optDynamicTargetRows, a.target)
		}
	}
	b := idx.totalList[rand.IntN(len(idx.totalList))]
	idx.hash2bucket[hash] = b
	return b, nil
}

// hashIndexFile is the content of one HASH index file.
type hashIndexFile struct {
	bucket int32
	hashes []int32
}

// javaIntMap is a java.util.HashMap<Integer, Long> (javacompat.HashMap:
// Integer's hashCode is the value), iterated in Java's order by keys.
type javaIntMap struct{ m javacompat.HashMap }

func newJavaIntMap() *javaIntMap { return &javaIntMap{} }

// The map's only possible error is javacompat.ErrTreeified, which needs 8+
// bucket ids in one bin of a 64-bin table: bucket ids are handed out
// densely from 0, so bins hold at most a few; the order would then be
// approximate.

func (m *javaIntMap) get(k int32) int64 {
	v, ok, _ := m.m.Get(k, k)
	if !ok {
		return 0
	}
	return v.(int64)
}

func (m *javaIntMap) put(k int32, v int64) { _ = m.m.Put(k, k, v) }

func (m *javaIntMap) remove(k int32) { _ = m.m.Remove(k, k) }

// keys returns the keys in Java's iteration order.
func (m *javaIntMap) keys() []int32 {
	es := m.m.Entries()
	out := make([]int32, len(es))
	for i, e := range es {
		out[i] = e.Key.(int32)
	}
	return out
}
