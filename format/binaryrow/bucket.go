package binaryrow

import (
	"fmt"
	"strings"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
)

// BucketFunction is how a fixed-bucket table (bucket = N > 0) maps a bucket
// key to a bucket: the `bucket-function.type` table option (Java
// CoreOptions.BucketFunctionType and the org.apache.paimon.bucket classes).
type BucketFunction int

// The bucket functions of Paimon 1.4.2.
const (
	// BucketDefault hashes the bucket-key BinaryRow: abs(Hash(row) %
	// numBuckets), with Java's truncating remainder (DefaultBucketFunction).
	BucketDefault BucketFunction = iota
	// BucketMod takes floorMod(key, numBuckets) of a single INT or BIGINT
	// bucket key; a NULL key counts as 0 (ModBucketFunction).
	BucketMod
	// BucketHive combines per-field Hive hashes, h = 31*h + hiveHash(field)
	// with NULL as 0, then (h & MaxInt32) % numBuckets (HiveBucketFunction).
	BucketHive
)

// String returns the option value: "default", "mod" or "hive".
func (f BucketFunction) String() string {
	switch f {
	case BucketDefault:
		return "default"
	case BucketMod:
		return "mod"
	case BucketHive:
		return "hive"
	}
	return fmt.Sprintf("BucketFunction(%d)", int(f))
}

// ParseBucketFunction parses a `bucket-function.type` value, ignoring case
// like Java BucketFunctionType.of.
func ParseBucketFunction(s string) (BucketFunction, error) {
	for _, f := range []BucketFunction{BucketDefault, BucketMod, BucketHive} {
		if strings.EqualFold(s, f.String()) {
			return f, nil
		}
	}
	return 0, fmt.Errorf("binaryrow: unknown bucket function %q", s)
}

// Check reports whether the function accepts a bucket key of these types,
// as the Java constructors do: mod needs exactly one INT or BIGINT field.
// The hive function rejects unsupported types only when it meets a non-NULL
// value, as Java does, so Check accepts any types for it.
func (f BucketFunction) Check(types []schema.DataType) error {
	switch f {
	case BucketDefault, BucketHive:
		return nil
	case BucketMod:
		if len(types) != 1 {
			return fmt.Errorf("%w: mod bucket function needs exactly one bucket key field, got %d", ErrType, len(types))
		}
		if r := types[0].Root; r != schema.Int && r != schema.BigInt {
			return fmt.Errorf("%w: mod bucket function needs an INT or BIGINT key, got %s", ErrType, rootName(r))
		}
		return nil
	}
	return fmt.Errorf("%w: %v", ErrType, f)
}

// DefaultBucket maps a row hash to a bucket like Java
// DefaultBucketFunction: Math.abs(hash % numBuckets). numBuckets must be
// positive.
func DefaultBucket(hash int32, numBuckets int) int {
	r := int(hash) % numBuckets
	if r < 0 {
		r = -r
	}
	return r
}

// ModBucket maps an INT or BIGINT key to a bucket like Java
// ModBucketFunction: Math.floorMod(key, numBuckets). numBuckets must be
// positive.
func ModBucket(key int64, numBuckets int) int {
	r := key % int64(numBuckets)
	if r < 0 {
		r += int64(numBuckets)
	}
	return int(r)
}

// HiveBucket maps a Hive hash (HiveHash) to a bucket like Java
// HiveBucketFunction: (hash & Integer.MAX_VALUE) % numBuckets. numBuckets
// must be positive.
func HiveBucket(hash int32, numBuckets int) int {
	return int(hash&0x7fffffff) % numBuckets
}

// KeyHash encodes a key row (kind +I) and returns its Hash: the bucket-key
// hash of the default bucket function and the key hash of dynamic-bucket
// tables (Java trimmedPrimaryKey().hashCode()).
func KeyHash(types []schema.DataType, values []any) (int32, error) {
	w := writerPool.Get().(*Writer)
	defer writerPool.Put(w)
	b, err := w.Encode(data.Insert, types, values)
	if err != nil {
		return 0, err
	}
	return Hash(b), nil
}

// BucketOf returns the bucket of a bucket key given as values of types
// (in bucket-key order) for a table with numBuckets fixed buckets, computed
// the way Java FixedBucketRowKeyExtractor does with the given function.
func BucketOf(types []schema.DataType, values []any, numBuckets int, fn BucketFunction) (int, error) {
	if numBuckets <= 0 {
		return 0, fmt.Errorf("%w: %d buckets", ErrValue, numBuckets)
	}
	if err := fn.Check(types); err != nil {
		return 0, err
	}
	if len(types) != len(values) {
		return 0, fmt.Errorf("%w: %d values for %d types", ErrValue, len(values), len(types))
	}
	switch fn {
	case BucketMod:
		key, err := modKey(&types[0], values[0])
		if err != nil {
			return 0, err
		}
		return ModBucket(key, numBuckets), nil
	case BucketHive:
		h, err := HiveHash(types, values)
		if err != nil {
			return 0, err
		}
		return HiveBucket(h, numBuckets), nil
	}
	h, err := KeyHash(types, values)
	if err != nil {
		return 0, err
	}
	return DefaultBucket(h, numBuckets), nil
}

// BucketOfRow is BucketOf for a bucket key that is already a BinaryRow
// (Java BucketFunction.bucket(BinaryRow, int)); types are needed by the mod
// and hive functions only.
func BucketOfRow(row Row, types []schema.DataType, numBuckets int, fn BucketFunction) (int, error) {
	if numBuckets <= 0 {
		return 0, fmt.Errorf("%w: %d buckets", ErrValue, numBuckets)
	}
	switch fn {
	case BucketDefault:
		return DefaultBucket(row.Hash(), numBuckets), nil
	case BucketMod:
		if err := fn.Check(types); err != nil {
			return 0, err
		}
		if row.Arity() != 1 {
			return 0, fmt.Errorf("%w: %d-field row for the mod bucket function", ErrValue, row.Arity())
		}
		// Java reads the slot without looking at the null flag; a NULL
		// slot holds 0.
		if types[0].Root == schema.Int {
			return ModBucket(int64(row.Int(0)), numBuckets), nil
		}
		return ModBucket(row.Long(0), numBuckets), nil
	case BucketHive:
		vals, err := row.Values(types)
		if err != nil {
			return 0, err
		}
		h, err := HiveHash(types, vals)
		if err != nil {
			return 0, err
		}
		return HiveBucket(h, numBuckets), nil
	}
	return 0, fmt.Errorf("%w: %v", ErrType, fn)
}

func modKey(t *schema.DataType, v any) (int64, error) {
	switch x := v.(type) {
	case nil:
		return 0, nil
	case int32:
		if t.Root == schema.Int {
			return int64(x), nil
		}
	case int64:
		if t.Root == schema.BigInt {
			return x, nil
		}
	}
	return 0, mismatch(t, v)
}
