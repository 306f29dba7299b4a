package coreoptions

import (
	"strings"
	"time"

	"github.com/paimon-go/paimon-go/internal/javacompat"
)

// Options is a table's options parsed once: every option this library acts
// on, typed, with Java's defaults applied. Parse fails on the first value
// that does not parse (a malformed boolean is an error like a malformed
// memory size), naming the key and the value. Options that only some
// operations read (schema validation, the merge functions' per-column
// options) are read through the embedded Values.
type Options struct {
	Values

	// Layout.
	Bucket                int
	BucketFunctionType    string // enum constant: default, mod, hive
	FileFormat            string // lower case, as FileFormat.fromIdentifier
	DataFilePathDirectory string
	PartitionDefaultName  string
	PartitionLegacyName   bool
	RowTracking           bool
	DataEvolution         bool
	IndexFileInDataDir    bool

	// Reading.
	SplitTargetSize   int64
	SplitOpenFileCost int64
	DeletionVectors   bool
	MergeEngine       string // enum constant
	ChangelogProducer string // enum constant

	// Data files written.
	FileCompression              string
	FileCompressionZstdLevel     int
	FileSuffixIncludeCompression bool
	FileBlockSize                int64 // 0: unset
	DataFilePrefix               string
	targetFileSize               int64 // 0: unset, see TargetFileSize
	StatsMode                    string
	StatsKeepFirstN              int
	StatsDenseStore              bool

	// Manifests written.
	ManifestCompression                 string
	ManifestTargetFileSize              int64
	ManifestMergeMinCount               int
	ManifestFullCompactionThresholdSize int64

	// Commits.
	CommitMaxRetries          int
	CommitMinRetryWait        time.Duration
	CommitMaxRetryWait        time.Duration
	CommitTimeout             time.Duration // 0: none
	DynamicPartitionOverwrite bool
	WriteOnly                 bool

	// Expiration. The changelog retention defaults to the snapshot one
	// (Java's ExpireConfig.Builder).
	SnapshotNumRetainedMin        int
	SnapshotNumRetainedMax        int
	SnapshotTimeRetained          time.Duration
	SnapshotExpireLimit           int
	SnapshotCleanEmptyDirectories bool
	ChangelogNumRetainedMin       int
	ChangelogNumRetainedMax       int
	ChangelogTimeRetained         time.Duration
	ConsumerChangelogOnly         bool
	ConsumerExpirationTime        time.Duration // 0: consumers never expire
	FileOperationThreadNum        int           // 0: unset (Java: the processors)
	TagDefaultTimeRetained        time.Duration // 0: tags never expire

	// Compaction triggers (read by the health report).
	CompactionMinFileNum          int
	NumSortedRunCompactionTrigger int
	NumSortedRunStopTrigger       int // default: the compaction trigger + 3
	DynamicBucketTargetRowNum     int64
}

// parser reads typed options, keeping the first error.
type parser struct {
	v   Values
	err error
}

func (p *parser) note(err error) {
	if err != nil && p.err == nil {
		p.err = err
	}
}

func (p *parser) bool(key string) bool {
	x, err := p.v.Bool(key)
	p.note(err)
	return x
}

func (p *parser) int(key string) int {
	x, err := p.v.Int(key)
	p.note(err)
	return x
}

func (p *parser) long(key string) int64 {
	x, err := p.v.Long(key)
	p.note(err)
	return x
}

func (p *parser) size(key string) int64 {
	x, err := p.v.MemorySize(key)
	p.note(err)
	return x
}

func (p *parser) duration(key string) time.Duration {
	x, err := p.v.Duration(key)
	p.note(err)
	return x
}

func (p *parser) enum(key string) string {
	x, err := p.v.Enum(key)
	p.note(err)
	return x
}

// Parse parses a table's option map. The map is kept, not copied.
func Parse(m map[string]string) (*Options, error) {
	v := Values(m)
	p := &parser{v: v}
	o := &Options{
		Values:                v,
		Bucket:                p.int(Bucket),
		BucketFunctionType:    p.enum(BucketFunctionType),
		FileFormat:            strings.ToLower(v.String(FileFormat)),
		DataFilePathDirectory: v.String(DataFilePathDirectory),
		PartitionDefaultName:  v.String(PartitionDefaultName),
		PartitionLegacyName:   p.bool(PartitionGenerateLegacyName),
		RowTracking:           p.bool(RowTrackingEnabled),
		DataEvolution:         p.bool(DataEvolutionEnabled),
		IndexFileInDataDir:    p.bool(IndexFileInDataFileDir),

		SplitTargetSize:   p.size(SourceSplitTargetSize),
		SplitOpenFileCost: p.size(SourceSplitOpenFileCost),
		DeletionVectors:   p.bool(DeletionVectorsEnabled),
		MergeEngine:       p.enum(MergeEngine),
		ChangelogProducer: p.enum(ChangelogProducer),

		FileCompression:              v.String(FileCompression),
		FileCompressionZstdLevel:     p.int(FileCompressionZstdLevel),
		FileSuffixIncludeCompression: p.bool(FileSuffixIncludeCompression),
		FileBlockSize:                p.size(FileBlockSize),
		DataFilePrefix:               v.String(DataFilePrefix),
		targetFileSize:               p.size(TargetFileSize),
		StatsMode:                    v.String(MetadataStatsMode),
		StatsKeepFirstN:              p.int(MetadataStatsKeepFirstNColumns),
		StatsDenseStore:              p.bool(MetadataStatsDenseStore),

		ManifestCompression:                 v.String(ManifestCompression),
		ManifestTargetFileSize:              p.size(ManifestTargetFileSize),
		ManifestMergeMinCount:               p.int(ManifestMergeMinCount),
		ManifestFullCompactionThresholdSize: p.size(ManifestFullCompactionFileSize),

		CommitMaxRetries:          p.int(CommitMaxRetries),
		CommitMinRetryWait:        p.duration(CommitMinRetryWait),
		CommitMaxRetryWait:        p.duration(CommitMaxRetryWait),
		CommitTimeout:             p.duration(CommitTimeout),
		DynamicPartitionOverwrite: p.bool(DynamicPartitionOverwrite),
		WriteOnly:                 p.bool(WriteOnly),

		SnapshotNumRetainedMin:        p.int(SnapshotNumRetainedMin),
		SnapshotNumRetainedMax:        p.int(SnapshotNumRetainedMax),
		SnapshotTimeRetained:          p.duration(SnapshotTimeRetained),
		SnapshotExpireLimit:           p.int(SnapshotExpireLimit),
		SnapshotCleanEmptyDirectories: p.bool(SnapshotCleanEmptyDirectories),
		ConsumerChangelogOnly:         p.bool(ConsumerChangelogOnly),
		ConsumerExpirationTime:        p.duration(ConsumerExpirationTime),
		FileOperationThreadNum:        p.int(FileOperationThreadNum),
		TagDefaultTimeRetained:        p.duration(TagDefaultTimeRetained),

		CompactionMinFileNum:          p.int(CompactionMinFileNum),
		NumSortedRunCompactionTrigger: p.int(NumSortedRunsCompactionTrigger),
		DynamicBucketTargetRowNum:     p.long(DynamicBucketTargetRowNum),
	}
	o.ChangelogNumRetainedMin = o.SnapshotNumRetainedMin
	if v.Has(ChangelogNumRetainedMin) {
		o.ChangelogNumRetainedMin = p.int(ChangelogNumRetainedMin)
	}
	o.ChangelogNumRetainedMax = o.SnapshotNumRetainedMax
	if v.Has(ChangelogNumRetainedMax) {
		o.ChangelogNumRetainedMax = p.int(ChangelogNumRetainedMax)
	}
	o.ChangelogTimeRetained = o.SnapshotTimeRetained
	if v.Has(ChangelogTimeRetained) {
		o.ChangelogTimeRetained = p.duration(ChangelogTimeRetained)
	}
	o.NumSortedRunStopTrigger = o.NumSortedRunCompactionTrigger + 3
	if v.Has(NumSortedRunsStopTrigger) {
		o.NumSortedRunStopTrigger = p.int(NumSortedRunsStopTrigger)
	}
	if p.err != nil {
		return nil, p.err
	}
	return o, nil
}

// Default target file sizes (Java CoreOptions.targetFileSize).
const (
	DefaultTargetFileSizePrimaryKey = 128 << 20
	DefaultTargetFileSizeAppend     = 256 << 20
)

// TargetFileSize returns target-file-size, whose default depends on the
// table having a primary key.
func (o *Options) TargetFileSize(primaryKey bool) int64 {
	switch {
	case o.targetFileSize > 0:
		return o.targetFileSize
	case primaryKey:
		return DefaultTargetFileSizePrimaryKey
	}
	return DefaultTargetFileSizeAppend
}

// SequenceFields returns sequence.field split at commas, each part trimmed
// (Java CoreOptions.sequenceField).
func (o *Options) SequenceFields() []string {
	s, _, ok := o.Get(SequenceField)
	if !ok {
		return nil
	}
	parts := javacompat.Split(s, FieldsSeparator)
	for i, p := range parts {
		parts[i] = javacompat.Trim(p)
	}
	return parts
}
