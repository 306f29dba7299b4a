package paimon

import (
	"fmt"
	"strings"

	"github.com/paimon-go/paimon-go/internal/coreoptions"
	"github.com/paimon-go/paimon-go/internal/datafile"
)

// Table option keys and defaults the read path needs. They mirror fields of
// Java org.apache.paimon.CoreOptions; only the options this library acts on
// are named here.
const (
	optBucket               = coreoptions.Bucket
	optFileFormat           = coreoptions.FileFormat
	optPartitionDefaultName = coreoptions.PartitionDefaultName
	optPartitionLegacyName  = coreoptions.PartitionGenerateLegacyName
	optDataFilePathDir      = coreoptions.DataFilePathDirectory
	optSplitTargetSize      = coreoptions.SourceSplitTargetSize
	optSplitOpenFileCost    = coreoptions.SourceSplitOpenFileCost
	optDeletionVectors      = coreoptions.DeletionVectorsEnabled
	optMergeEngine          = coreoptions.MergeEngine

	defaultPartitionName = "__DEFAULT_PARTITION__"
	defaultFileFormat    = "parquet"
	defaultSplitTarget   = 128 << 20
	defaultOpenFileCost  = 4 << 20
)

// tableOptions is a typed view of a schema's options.
type tableOptions map[string]string

func (o tableOptions) str(key, def string) string {
	if v, ok := o[key]; ok {
		return v
	}
	return def
}

func (o tableOptions) boolean(key string, def bool) bool {
	v, ok := o[key]
	if !ok {
		return def
	}
	// checkOptions, which every read and write calls first, refuses a
	// value that does not parse, so def is only ever Java's default here.
	b, err := coreoptions.ParseBool(v)
	if err != nil {
		return def
	}
	return b
}

func (o tableOptions) memory(key string, def int64) (int64, error) {
	v, ok := o[key]
	if !ok {
		return def, nil
	}
	n, err := ParseMemorySize(v)
	if err != nil {
		return 0, fmt.Errorf("paimon: table option %s: %w", key, err)
	}
	return n, nil
}

func (o tableOptions) partitionDefaultName() string {
	return o.str(optPartitionDefaultName, defaultPartitionName)
}

func (o tableOptions) deletionVectors() bool { return o.boolean(optDeletionVectors, false) }

func (o tableOptions) mergeEngine() string {
	return strings.ToLower(strings.TrimSpace(o.str(optMergeEngine, "deduplicate")))
}

// ParseMemorySize parses a memory size the way Java's MemorySize.parse does:
// a number followed by an optional unit (b, k/kb/kibibytes, m/mb, g/gb, t/tb;
// units are powers of 1024 and case-insensitive).
func ParseMemorySize(s string) (int64, error) {
	n, err := datafile.ParseMemorySize(s)
	if err != nil {
		return 0, fmt.Errorf("%w: %w", ErrInvalidOption, err)
	}
	return n, nil
}
