// Package health inspects a Paimon table's metadata and reports what needs
// attention: the layout of its data per partition and bucket, its
// compaction backlog, its snapshots against their retention, and its
// consumers, each problem a Finding naming the table options that address
// it. Only metadata is read (schema, snapshots, manifests, consumers),
// never data files; the table's directories are listed to find the files
// nothing references (Table.RemoveOrphanFiles in a dry run, the library's
// one orphan scan).
//
// Inspect reads what the report is computed from; the analysis itself
// (rules.go) does no I/O. The rules, with their thresholds:
//
//	small-files        a bucket holds at least compaction.min.file-num (5) files smaller than
//	                   the small-file threshold, 70% of target-file-size by default (the size
//	                   below which Java's compaction picks a file up, CoreOptions
//	                   compactionFileSize): compaction would merge them but has not
//	sorted-runs        a primary-key bucket has at least num-sorted-run.compaction-trigger (5)
//	                   sorted runs (each level-0 file is one run, each other non-empty level one)
//	write-stall        ... at least num-sorted-run.stop-trigger (trigger + 3): writers stop
//	level0-invisible   level-0 files of a deletion-vector or first-row table, which batch
//	                   reads skip until they are compacted
//	postpone-files     files waiting in bucket-postpone (bucket = -2)
//	bucket-too-large   a bucket holds more than 1 GiB (Paimon recommends 200 MiB to 1 GiB)
//	buckets-too-small  a fixed-bucket table with more than one bucket and at least 200 MiB
//	                   whose largest partition holds less than 200 MiB per bucket
//	bucket-skew        in a partition, the largest bucket is at least 4 times the median
//	                   bucket and holds at least 64 MiB
//	snapshots-overdue  snapshots Java's expiration would delete are still present
//	consumer-expired   a consumer's next snapshot no longer exists
//	consumer-blocking  a consumer keeps snapshots from expiring
//	no-snapshot        the table has no snapshot yet
//	unreferenced-files files no snapshot, tag, changelog or branch references (left by failed
//	                   or no-op commits, rollbacks, interrupted expirations), with their bytes
package health

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/coreoptions"
	"github.com/paimon-go/paimon-go/paimon"
)

// Options configures Inspect. A nil *Options is the zero value.
type Options struct {
	// SmallFileThreshold is the size below which a data file counts as
	// small; 0 means 70% of target-file-size.
	SmallFileThreshold int64
	// Now is the clock ages are measured against; nil means time.Now.
	Now func() time.Time
	// SkipUnreferenced leaves out the scan for unreferenced files, which
	// lists every data directory of the table (slow on a large table in an
	// object store).
	SkipUnreferenced bool
}

// Report is the result of Inspect. Its JSON form (the field tags) is what
// "paimon health --output json" prints: sizes in bytes, ages in seconds.
type Report struct {
	Table     Table      `json:"table"`
	Snapshots Snapshots  `json:"snapshots"`
	Consumers []Consumer `json:"consumers"`
	Buckets   []Bucket   `json:"buckets"`
	// Unreferenced is nil when Options.SkipUnreferenced was set.
	Unreferenced *Unreferenced `json:"unreferenced,omitempty"`
	Findings     []Finding     `json:"findings"`
}

// Unreferenced counts the files of the table that nothing references,
// whatever their age, as "paimon orphans" lists them. Those younger than
// paimon.DefaultOrphanOlderThan may still belong to a write in flight.
type Unreferenced struct {
	Files int   `json:"files"`
	Bytes int64 `json:"bytes"`
	// Error is set when the scan failed (e.g. a snapshot names a missing
	// manifest); Files and Bytes are then 0.
	Error string `json:"error,omitempty"`
}

// Table describes the table and the write options the rules read.
type Table struct {
	Name              string   `json:"name"`
	Type              string   `json:"type"` // "append" or "primary-key"
	PrimaryKeys       []string `json:"primary_keys"`
	PartitionKeys     []string `json:"partition_keys"`
	BucketMode        string   `json:"bucket_mode"` // Java's BucketMode: fixed, dynamic, cross-partition, unaware, postpone
	Bucket            int      `json:"bucket"`
	MergeEngine       string   `json:"merge_engine,omitempty"`
	ChangelogProducer string   `json:"changelog_producer"`
	FileFormat        string   `json:"file_format"`
	DeletionVectors   bool     `json:"deletion_vectors"`
	WriteOnly         bool     `json:"write_only"`
	TargetFileSize    int64    `json:"target_file_size"`
	SmallFileSize     int64    `json:"small_file_threshold"`
	// SmallFileSource says where SmallFileSize comes from.
	SmallFileSource string `json:"small_file_threshold_source"`
	MinFileNum      int    `json:"compaction_min_file_num"`
	RunTrigger      int    `json:"sorted_run_compaction_trigger,omitempty"`
	RunStop         int    `json:"sorted_run_stop_trigger,omitempty"`
	// SnapshotID is the latest snapshot (0: none); the counts are its live
	// data files.
	SnapshotID int64 `json:"snapshot_id"`
	Partitions int   `json:"partitions"`
	Files      int   `json:"files"`
	Bytes      int64 `json:"bytes"`
	Records    int64 `json:"records"`
}

// Snapshots describes the snapshots present and their retention.
type Snapshots struct {
	Count        int   `json:"count"`
	Earliest     int64 `json:"earliest_id"`
	Latest       int64 `json:"latest_id"`
	EarliestAge  int64 `json:"earliest_age_seconds"`
	LatestAge    int64 `json:"latest_age_seconds"`
	RetainMin    int   `json:"num_retained_min"`
	RetainMax    int   `json:"num_retained_max"`
	TimeRetained int64 `json:"time_retained_seconds"`
	// Overdue counts the snapshots Java's expiration would delete now;
	// HeldByConsumers those it would delete but for the consumers.
	Overdue         int `json:"overdue"`
	HeldByConsumers int `json:"held_by_consumers"`
}

// Consumer is one consumer of the table's branch.
type Consumer struct {
	ID           string `json:"id"`
	NextSnapshot int64  `json:"next_snapshot"`
	// Lag is the number of snapshots committed that it has not read:
	// latest snapshot id - next snapshot + 1 (0 when it is caught up).
	Lag      int64     `json:"lag"`
	Modified time.Time `json:"modified,omitzero"`
}

// Bucket is one bucket of one partition.
type Bucket struct {
	Partition   string `json:"partition"` // "k=v/..." ("" when unpartitioned)
	Bucket      int32  `json:"bucket"`
	Files       int    `json:"files"`
	Bytes       int64  `json:"bytes"`
	Records     int64  `json:"records"`
	AvgFile     int64  `json:"avg_file_size"`
	MedianFile  int64  `json:"median_file_size"`
	SmallFiles  int    `json:"small_files"`
	Level0Files int    `json:"level0_files,omitempty"`
	SortedRuns  int    `json:"sorted_runs,omitempty"`
}

// Finding is one problem, in plain language, with the options that address
// it.
type Finding struct {
	Rule     string   `json:"rule"`
	Severity string   `json:"severity"` // "warning" or "info"
	Scope    string   `json:"scope"`    // "table", "snapshots", "consumer ID", "[partition P ]bucket N"
	Message  string   `json:"message"`
	Options  []string `json:"options"`
}

// PostponeBucket is the bucket of the files of a postpone-bucket table
// that no compaction has assigned yet (Java BucketMode.POSTPONE_BUCKET).
const PostponeBucket = -2

// ErrOptions reports a table option the report cannot interpret.
var ErrOptions = errors.New("health: table option")

// Inspect reads the table's metadata at its latest snapshot and returns the
// report.
func Inspect(ctx context.Context, tbl *paimon.Table, opts *Options) (*Report, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	s := tbl.Schema()
	cfg, err := readConfig(s, o.SmallFileThreshold)
	if err != nil {
		return nil, err
	}
	in := &input{name: tbl.Identifier().String(), schema: s, cfg: cfg, now: o.Now(), times: map[int64]int64{}}
	meta := tbl.Meta()
	if id, ok, err := meta.LatestSnapshotID(ctx); err != nil {
		return nil, err
	} else if ok {
		latest, err := meta.ReadSnapshot(ctx, id)
		if err != nil {
			return nil, err
		}
		in.snapshotID = latest.ID
		in.times[latest.ID] = latest.TimeMillis
		live, err := meta.LiveFiles(ctx, latest, nil)
		if err != nil {
			return nil, err
		}
		if in.files, err = filesOf(tbl, live); err != nil {
			return nil, err
		}
	}
	if in.snapshotIDs, err = meta.SnapshotIDs(ctx); err != nil {
		return nil, err
	}
	consumers, err := meta.Consumers(ctx)
	if err != nil {
		return nil, err
	}
	for _, c := range consumers {
		in.consumers = append(in.consumers, Consumer{ID: c.ID, NextSnapshot: c.NextSnapshot, Modified: c.Modified})
	}
	if len(in.snapshotIDs) > 0 {
		if err := readSnapshotTime(ctx, meta, in.snapshotIDs[0], in.times); err != nil {
			return nil, err
		}
		if err := readExpiryBoundary(ctx, meta, in); err != nil {
			return nil, err
		}
	}
	if !o.SkipUnreferenced {
		in.unreferenced = &Unreferenced{}
		// The age threshold must be positive; one nanosecond counts every
		// file, the freshest included.
		res, err := tbl.RemoveOrphanFiles(ctx, &paimon.OrphanOptions{DryRun: true, OlderThan: time.Nanosecond, Now: o.Now})
		switch {
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case err != nil:
			in.unreferenced.Error = err.Error()
		default:
			in.unreferenced.Files, in.unreferenced.Bytes = len(res.Deleted), res.DeletedBytes
		}
	}
	return analyze(in), nil
}

// config is the table options the report reads, with Java's defaults.
type config struct {
	primaryKey        bool
	bucket            int
	bucketMode        string
	mergeEngine       string
	changelogProducer string
	fileFormat        string
	deletionVectors   bool
	writeOnly         bool
	targetFileSize    int64
	smallFile         int64
	smallFileDefault  bool
	minFileNum        int
	runTrigger        int
	runStop           int
	retainMin         int
	retainMax         int
	timeRetained      time.Duration
}

func readConfig(s *schema.TableSchema, smallOverride int64) (config, error) {
	c := config{primaryKey: len(s.PrimaryKeys) > 0}
	var err error
	if c.bucket, err = s.Bucket(); err != nil {
		return c, fmt.Errorf("%w: %w", ErrOptions, err)
	}
	o, err := coreoptions.Parse(s.Options)
	if err != nil {
		return c, fmt.Errorf("%w: %w", ErrOptions, err)
	}
	c.mergeEngine, c.changelogProducer, c.fileFormat = o.MergeEngine, o.ChangelogProducer, o.FileFormat
	c.deletionVectors, c.writeOnly = o.DeletionVectors, o.WriteOnly
	c.bucketMode = bucketMode(s, c.bucket)
	c.targetFileSize = o.TargetFileSize(c.primaryKey)
	c.smallFile, c.smallFileDefault = smallOverride, smallOverride == 0
	if c.smallFileDefault {
		c.smallFile = c.targetFileSize / 10 * 7
	}
	c.minFileNum, c.runTrigger = o.CompactionMinFileNum, o.NumSortedRunCompactionTrigger
	c.runStop = max(o.NumSortedRunStopTrigger, c.runTrigger)
	c.retainMin, c.retainMax, c.timeRetained = o.SnapshotNumRetainedMin, o.SnapshotNumRetainedMax, o.SnapshotTimeRetained
	return c, nil
}

// bucketMode names Java's BucketMode for the table.
func bucketMode(s *schema.TableSchema, bucket int) string {
	switch {
	case bucket > 0:
		return "fixed"
	case bucket == PostponeBucket:
		return "postpone"
	case len(s.PrimaryKeys) == 0:
		return "unaware"
	}
	for _, p := range s.PartitionKeys {
		if !slices.Contains(s.PrimaryKeys, p) {
			return "cross-partition"
		}
	}
	return "dynamic"
}

// BucketMode names Java's BucketMode for a table: fixed, dynamic,
// cross-partition, unaware or postpone.
func BucketMode(s *schema.TableSchema) (string, error) {
	n, err := s.Bucket()
	if err != nil {
		return "", err
	}
	return bucketMode(s, n), nil
}

// input is everything the report is computed from; Inspect reads it and
// analyze, which does no I/O, turns it into the report.
type input struct {
	name   string
	schema *schema.TableSchema
	cfg    config
	// snapshotID is the latest snapshot (0: none) and files its live data
	// files.
	snapshotID int64
	files      []file
	// snapshotIDs are the snapshot files present, ascending; times holds
	// the commit time (epoch millis) of those read: the earliest, the
	// latest and the ones expiration would look at.
	snapshotIDs []int64
	times       map[int64]int64
	consumers   []Consumer
	now         time.Time
	// unreferenced is nil when the scan was skipped.
	unreferenced *Unreferenced
}

// file is one live data file.
type file struct {
	partition string // "k=v/..." ("" when unpartitioned)
	bucket    int32
	level     int32
	size      int64
	rows      int64
}

// filesOf turns the live files into what the rules read, partitions named
// as the partitions system table names them.
func filesOf(tbl *paimon.Table, live []manifest.ManifestEntry) ([]file, error) {
	names := map[string]string{}
	out := make([]file, len(live))
	for i := range live {
		e := &live[i]
		name, ok := names[string(e.Partition)]
		if !ok {
			var err error
			if name, err = tbl.PartitionName(e.Partition); err != nil {
				return nil, fmt.Errorf("data file %s: partition: %w", e.File.FileName, err)
			}
			names[string(e.Partition)] = name
		}
		out[i] = file{partition: name, bucket: e.Bucket, level: e.File.Level, size: e.File.FileSize, rows: e.File.RowCount}
	}
	return out, nil
}

// readExpiryBoundary reads the commit time of the first snapshot in the
// expiration window young enough to be kept, which is where Java's
// expiration stops (ExpireSnapshotsImpl.expire walks the window oldest
// first). Commit times grow with snapshot ids, so a binary search finds it
// with a few reads however many snapshots are overdue.
func readExpiryBoundary(ctx context.Context, meta *paimon.TableMeta, in *input) error {
	begin, end := expireWindow(in, false)
	lo, _ := slices.BinarySearch(in.snapshotIDs, begin)
	hi, _ := slices.BinarySearch(in.snapshotIDs, end)
	if lo >= hi {
		return nil
	}
	window := in.snapshotIDs[lo:hi]
	cutoff := in.now.Add(-in.cfg.timeRetained).UnixMilli()
	var err error
	sort.Search(len(window), func(i int) bool {
		if err != nil {
			return true
		}
		id := window[i]
		if err = readSnapshotTime(ctx, meta, id, in.times); err != nil {
			return true
		}
		t, ok := in.times[id]
		return ok && cutoff <= t
	})
	return err
}

func readSnapshotTime(ctx context.Context, meta *paimon.TableMeta, id int64, times map[int64]int64) error {
	if _, ok := times[id]; ok {
		return nil
	}
	s, err := meta.ReadSnapshot(ctx, id)
	if errors.Is(err, paimon.ErrSnapshotNotFound) {
		return nil // expired meanwhile
	}
	if err != nil {
		return err
	}
	times[id] = s.TimeMillis
	return nil
}
