package binaryrow_test

import (
	"testing"

	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/data"
)

// BenchmarkEncodeHash3 measures the per-record cost of the default bucket
// assignment for a 3-column key (INT, STRING, BIGINT) with a reused Writer.
func BenchmarkEncodeHash3(b *testing.B) {
	ts := types(tInt(), tString(), tBigInt())
	vs := vals(int32(42), "customer-000123", int64(1700000000000))
	var w binaryrow.Writer
	b.ReportAllocs()
	for b.Loop() {
		row, err := w.Encode(data.Insert, ts, vs)
		if err != nil {
			b.Fatal(err)
		}
		_ = binaryrow.DefaultBucket(binaryrow.Hash(row), 16)
	}
}

// BenchmarkBucketOf3 is the same through the pooled package-level helper.
func BenchmarkBucketOf3(b *testing.B) {
	ts := types(tInt(), tString(), tBigInt())
	vs := vals(int32(42), "customer-000123", int64(1700000000000))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := binaryrow.BucketOf(ts, vs, 16, binaryrow.BucketDefault); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecode3 measures decoding the same key back to values.
func BenchmarkDecode3(b *testing.B) {
	ts := types(tInt(), tString(), tBigInt())
	row, err := binaryrow.Encode(data.Insert, ts, vals(int32(42), "customer-000123", int64(1700000000000)))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := binaryrow.Decode(row, ts); err != nil {
			b.Fatal(err)
		}
	}
}
