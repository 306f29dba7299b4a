package paimon

import "github.com/paimon-go/paimon-go/internal/coreoptions"

// Keys of the table options that programs using this package commonly set
// or show (Java CoreOptions). The registry of every key, with Java's types
// and defaults, is internal/coreoptions; these are aliases of its
// constants so that a key string is spelled in one place.
const (
	OptionBucket            = coreoptions.Bucket
	OptionBucketKey         = coreoptions.BucketKey
	OptionFileFormat        = coreoptions.FileFormat
	OptionMergeEngine       = coreoptions.MergeEngine
	OptionChangelogProducer = coreoptions.ChangelogProducer
)

// OptionDefault returns Java's default value of a table option key, and
// false for a key without a default or unknown to Java.
func OptionDefault(key string) (string, bool) {
	o, ok := coreoptions.Lookup(key)
	if !ok || !o.HasDefault || o.Key != key {
		return "", false
	}
	return o.Default, true
}
