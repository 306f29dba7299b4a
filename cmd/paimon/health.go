package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/paimon"
)

// healthDetails documents the report and the rules behind its findings.
const healthDetails = `
The table is "database.table" or "database.table$branch_NAME". Flags may come
before or after it. Only metadata is read (schema, snapshots, manifests,
consumers), never data files.

The report shows the table's kind and write options, its data per partition
and bucket (files, total, average and median size, small files; for
primary-key tables level-0 files and sorted runs), its snapshots with their
retention settings, and its consumers. Then each finding, as one line naming
the table option that addresses it:

  small-files        a bucket holds at least compaction.min.file-num (5) files
                     smaller than the small-file threshold: compaction would
                     merge them but has not. The threshold defaults to 70% of
                     target-file-size (128 MiB for primary-key tables, 256 MiB
                     for append tables), the size below which Java's
                     compaction picks a file up (CoreOptions
                     compactionFileSize); --small-file-threshold overrides it.
  sorted-runs        a primary-key bucket has at least
                     num-sorted-run.compaction-trigger (5) sorted runs (each
                     level-0 file is one run, each other non-empty level one):
                     compaction is behind.
  write-stall        ... at least num-sorted-run.stop-trigger (trigger + 3):
                     writers stop until compaction catches up.
  level0-invisible   level-0 files of a deletion-vector or first-row table,
                     which batch reads skip until they are compacted.
  postpone-files     files waiting in bucket-postpone (bucket = -2), invisible
                     to batch reads until a compaction assigns their buckets.
  bucket-too-large   a bucket holds more than 1 GiB; Paimon's documentation
                     recommends about 200 MiB to 1 GiB per bucket.
  buckets-too-small  a fixed-bucket table with more than one bucket and at
                     least 200 MiB of data whose largest partition holds less
                     than 200 MiB per bucket.
  bucket-skew        in a partition, the largest bucket is at least 4 times
                     the median bucket and holds at least 64 MiB.
  snapshots-overdue  snapshots that Java's expiration would delete
                     (snapshot.num-retained.min/max, snapshot.time-retained,
                     consumers) are still present: expiration has not run.
  consumer-expired   a consumer's next snapshot no longer exists.
  consumer-blocking  a consumer keeps snapshots from expiring.
  no-snapshot        the table has no snapshot yet.

A consumer's lag is the number of snapshots committed that it has not read:
latest snapshot id - next snapshot + 1 (0 when it is caught up).

--output json prints the whole report as one JSON object, sizes in bytes and
ages in seconds.

Exit status: 0 ok (findings do not change it), 1 runtime error, 2 usage
error.`

// Output formats of health.
const formatText = "text"

var healthFormats = []string{formatText, formatJSON}

// Thresholds of the findings (see healthDetails).
const (
	bucketRecommendedMin = 200 << 20
	bucketRecommendedMax = 1 << 30
	skewFactor           = 4
	skewMinBytes         = 64 << 20
	// findingsShownPerRule caps the text output's lines per rule; JSON
	// lists every finding.
	findingsShownPerRule = 5
)

// healthNow is the clock ages are measured against; tests replace it.
var healthNow = time.Now

// errHealth reports a table option the health report cannot interpret.
var errHealth = errors.New("health")

type healthArgs struct {
	warehouse  string
	table      paimon.Identifier
	output     string
	smallFiles int64 // 0: the default threshold
}

func parseHealthArgs(e *env, c *command, args []string) (*healthArgs, error) {
	var a healthArgs
	var small string
	fs := newFlagSet(c)
	fs.StringVar(&a.warehouse, "warehouse", "", "warehouse `URI`: a path, file://, mem://, s3://, gs:// or azblob:// (default $"+warehouseEnv+")")
	fs.StringVar(&a.output, "output", formatText, "output `format`: "+strings.Join(healthFormats, ", "))
	fs.StringVar(&small, "small-file-threshold", "", "files below `SIZE` (e.g. 16mb) count as small (default 70% of target-file-size)")
	pos, err := parseArgs(e, c, fs, args)
	if err != nil {
		return nil, err
	}
	switch len(pos) {
	case 0:
		return nil, usagef(c.name, "missing table name (database.table)")
	case 1:
	default:
		return nil, usagef(c.name, "expected one table name, got %d arguments: %s", len(pos), strings.Join(pos, " "))
	}
	if a.table, err = paimon.ParseIdentifier(pos[0]); err != nil {
		return nil, usagef(c.name, "%v", err)
	}
	if a.warehouse = warehouseFlag(a.warehouse); a.warehouse == "" {
		return nil, usagef(c.name, "no warehouse: pass --warehouse URI or set $%s", warehouseEnv)
	}
	if !slices.Contains(healthFormats, a.output) {
		return nil, usagef(c.name, "--output %q: want one of %s", a.output, strings.Join(healthFormats, ", "))
	}
	if small != "" {
		if a.smallFiles, err = paimon.ParseMemorySize(small); err != nil || a.smallFiles <= 0 {
			return nil, usagef(c.name, "--small-file-threshold %q: want a positive size such as 16mb", small)
		}
	}
	return &a, nil
}

func runHealth(ctx context.Context, e *env, c *command, args []string) error {
	a, err := parseHealthArgs(e, c, args)
	if err != nil {
		return err
	}
	tbl, closeCatalog, err := loadTable(ctx, a.warehouse, a.table)
	if err != nil {
		return err
	}
	defer closeCatalog()
	in, err := collectHealth(ctx, tbl, a)
	if err != nil {
		return err
	}
	rep := analyzeHealth(in)
	if a.output == formatJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(rep)
	}
	return rep.writeText(e.stdout)
}

// healthConfig is the table options the report reads, with Java's defaults
// (CoreOptions).
type healthConfig struct {
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

func readHealthConfig(s *schema.TableSchema, smallOverride int64) (healthConfig, error) {
	opts := s.Options
	c := healthConfig{primaryKey: len(s.PrimaryKeys) > 0}
	var err error
	if c.bucket, err = s.Bucket(); err != nil {
		return c, fmt.Errorf("%w: %w", errHealth, err)
	}
	str := func(key, def string) string {
		if v, ok := opts[key]; ok {
			return strings.ToLower(strings.TrimSpace(v))
		}
		return def
	}
	num := func(key string, def int) (int, error) {
		v, ok := opts[key]
		if !ok {
			return def, nil
		}
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			return 0, fmt.Errorf("%w: table option %s = %q is not an integer", errHealth, key, v)
		}
		return n, nil
	}
	c.mergeEngine = str("merge-engine", "deduplicate")
	c.changelogProducer = str("changelog-producer", "none")
	c.fileFormat = str("file.format", "parquet")
	c.deletionVectors = str("deletion-vectors.enabled", "false") == "true"
	c.writeOnly = str("write-only", str("write.compaction-skip", "false")) == "true"
	c.bucketMode = bucketMode(s, c.bucket)

	c.targetFileSize = 256 << 20
	if c.primaryKey {
		c.targetFileSize = 128 << 20
	}
	if v, ok := opts["target-file-size"]; ok {
		if c.targetFileSize, err = paimon.ParseMemorySize(v); err != nil {
			return c, fmt.Errorf("%w: table option target-file-size: %w", errHealth, err)
		}
	}
	c.smallFile, c.smallFileDefault = smallOverride, smallOverride == 0
	if c.smallFileDefault {
		c.smallFile = c.targetFileSize / 10 * 7
	}
	if c.minFileNum, err = num("compaction.min.file-num", 5); err != nil {
		return c, err
	}
	if c.runTrigger, err = num("num-sorted-run.compaction-trigger", 5); err != nil {
		return c, err
	}
	if c.runStop, err = num("num-sorted-run.stop-trigger", c.runTrigger+3); err != nil {
		return c, err
	}
	c.runStop = max(c.runStop, c.runTrigger)
	if c.retainMin, err = num("snapshot.num-retained.min", 10); err != nil {
		return c, err
	}
	if c.retainMax, err = num("snapshot.num-retained.max", math.MaxInt32); err != nil {
		return c, err
	}
	c.timeRetained = time.Hour
	if v, ok := opts["snapshot.time-retained"]; ok {
		if c.timeRetained, err = parseOptionDuration(v); err != nil {
			return c, fmt.Errorf("%w: table option snapshot.time-retained: %w", errHealth, err)
		}
	}
	return c, nil
}

// bucketMode names Java's BucketMode for the table.
func bucketMode(s *schema.TableSchema, bucket int) string {
	switch {
	case bucket > 0:
		return "fixed"
	case bucket == postponeBucketMode:
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

// durationUnits are the unit labels of Java's TimeUtils.parseDuration.
var durationUnits = map[string]time.Duration{
	"d": 24 * time.Hour, "day": 24 * time.Hour, "days": 24 * time.Hour,
	"h": time.Hour, "hour": time.Hour, "hours": time.Hour,
	"m": time.Minute, "min": time.Minute, "mins": time.Minute, "minute": time.Minute, "minutes": time.Minute,
	"s": time.Second, "sec": time.Second, "secs": time.Second, "second": time.Second, "seconds": time.Second,
	"ms": time.Millisecond, "milli": time.Millisecond, "millis": time.Millisecond,
	"millisecond": time.Millisecond, "milliseconds": time.Millisecond,
	"µs": time.Microsecond, "micro": time.Microsecond, "micros": time.Microsecond,
	"microsecond": time.Microsecond, "microseconds": time.Microsecond,
	"ns": time.Nanosecond, "nano": time.Nanosecond, "nanos": time.Nanosecond,
	"nanosecond": time.Nanosecond, "nanoseconds": time.Nanosecond,
}

// parseOptionDuration parses a duration option as Java's
// TimeUtils.parseDuration does: a number and an optional unit ("1 h",
// "30min"; milliseconds without a unit).
func parseOptionDuration(s string) (time.Duration, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	n, err := strconv.ParseInt(t[:i], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("duration %q does not start with a number", s)
	}
	unit := time.Millisecond
	if label := strings.ToLower(strings.TrimSpace(t[i:])); label != "" {
		var ok bool
		if unit, ok = durationUnits[label]; !ok {
			return 0, fmt.Errorf("duration %q: unknown unit %q", s, label)
		}
	}
	if n > math.MaxInt64/int64(unit) {
		return time.Duration(math.MaxInt64), nil
	}
	return time.Duration(n) * unit, nil
}

// healthInput is everything the report is computed from; collectHealth
// reads it and analyzeHealth, which does no I/O, turns it into the report.
type healthInput struct {
	name   string
	schema *schema.TableSchema
	cfg    healthConfig
	// snapshotID is the latest snapshot (0: none) and files its live data
	// files.
	snapshotID int64
	files      []healthFile
	// snapshotIDs are the snapshot files present, ascending; times holds
	// the commit time (epoch millis) of those read: the earliest, the
	// latest and the ones expiration would look at.
	snapshotIDs []int64
	times       map[int64]int64
	consumers   []healthConsumer
	now         time.Time
}

// healthFile is one live data file.
type healthFile struct {
	partition string // "k=v/..." ("" when unpartitioned)
	bucket    int32
	level     int32
	size      int64
	rows      int64
}

func collectHealth(ctx context.Context, tbl *paimon.Table, a *healthArgs) (*healthInput, error) {
	s := tbl.Schema()
	cfg, err := readHealthConfig(s, a.smallFiles)
	if err != nil {
		return nil, err
	}
	in := &healthInput{name: a.table.String(), schema: s, cfg: cfg, now: healthNow(), times: map[int64]int64{}}
	src, err := openSnapshotSource(ctx, tbl, &snapshotArgs{metaArgs: metaArgs{warehouse: a.warehouse, table: a.table}})
	if err != nil {
		return nil, err
	}
	meta := src.meta
	if src.snap != nil {
		in.snapshotID = src.snap.ID
		in.times[src.snap.ID] = src.snap.TimeMillis
		live, err := src.liveFiles(ctx)
		if err != nil {
			return nil, err
		}
		if in.files, err = healthFiles(live, s); err != nil {
			return nil, err
		}
	}
	if in.snapshotIDs, err = meta.SnapshotIDs(ctx); err != nil {
		return nil, err
	}
	if in.consumers, err = readConsumers(ctx, meta); err != nil {
		return nil, err
	}
	if len(in.snapshotIDs) > 0 {
		if err := readSnapshotTime(ctx, meta, in.snapshotIDs[0], in.times); err != nil {
			return nil, err
		}
		if err := readExpiryBoundary(ctx, meta, in); err != nil {
			return nil, err
		}
	}
	return in, nil
}

// readExpiryBoundary reads the commit time of the first snapshot in the
// expiration window young enough to be kept, which is where Java's
// expiration stops (ExpireSnapshotsImpl.expire walks the window oldest
// first). Commit times grow with snapshot ids, so a binary search finds it
// with a few reads however many snapshots are overdue.
func readExpiryBoundary(ctx context.Context, meta *paimon.TableMeta, in *healthInput) error {
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

func healthFiles(live []manifest.ManifestEntry, s *schema.TableSchema) ([]healthFile, error) {
	parts := s.PartitionFields()
	defaultName := s.Options["partition.default-name"]
	if defaultName == "" {
		defaultName = "__DEFAULT_PARTITION__"
	}
	names := map[string]string{}
	out := make([]healthFile, len(live))
	for i := range live {
		e := &live[i]
		name, ok := names[string(e.Partition)]
		if !ok {
			var err error
			if name, err = partitionSpecText(e.Partition, parts, defaultName); err != nil {
				return nil, fmt.Errorf("data file %s: partition: %w", e.File.FileName, err)
			}
			names[string(e.Partition)] = name
		}
		out[i] = healthFile{partition: name, bucket: e.Bucket, level: e.File.Level, size: e.File.FileSize, rows: e.File.RowCount}
	}
	return out, nil
}

// healthConsumer is one consumer/consumer-<id> file.
type healthConsumer struct {
	ID           string    `json:"id"`
	NextSnapshot int64     `json:"next_snapshot"`
	Lag          int64     `json:"lag"`
	Modified     time.Time `json:"modified,omitzero"`
}

// readConsumers reads the consumers of the branch (Java ConsumerManager).
func readConsumers(ctx context.Context, meta *paimon.TableMeta) ([]healthConsumer, error) {
	dir := "consumer"
	if b := meta.Branch(); b != paimon.MainBranch {
		dir = "branch/branch-" + b + "/consumer"
	}
	dir = meta.Path(dir)
	var out []healthConsumer
	for fi, err := range meta.FS().List(ctx, dir) {
		if err != nil {
			return nil, err
		}
		id, ok := strings.CutPrefix(fi.Name, "consumer-")
		if !ok || fi.IsDir || id == "" {
			continue
		}
		p := dir + "/" + fi.Name
		b, err := fs.ReadFile(ctx, meta.FS(), p)
		if err != nil {
			return nil, err
		}
		c, err := snapshot.DecodeConsumer(b)
		if err != nil {
			return nil, fmt.Errorf("consumer file %s: %w", p, err)
		}
		out = append(out, healthConsumer{ID: id, NextSnapshot: c.NextSnapshot, Modified: fi.ModTime})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// expireWindow is the range [begin, end) of snapshot ids Java's expiration
// examines: it keeps the snapshot.num-retained.min newest, always expires
// beyond snapshot.num-retained.max, and (withConsumers) never reaches a
// consumer's next snapshot.
func expireWindow(in *healthInput, withConsumers bool) (begin, end int64) {
	if len(in.snapshotIDs) == 0 {
		return 0, 0
	}
	earliest, latest := in.snapshotIDs[0], in.snapshotIDs[len(in.snapshotIDs)-1]
	begin = max(latest-int64(in.cfg.retainMax)+1, earliest)
	end = latest - int64(in.cfg.retainMin) + 1
	if withConsumers {
		for _, c := range in.consumers {
			end = min(end, c.NextSnapshot)
		}
	}
	return begin, end
}

// overdueSnapshots counts the snapshots present that Java's expiration
// would delete now: those below the first snapshot of the window young
// enough to keep (ExpireSnapshotsImpl.expire, without its per-run limit).
func overdueSnapshots(in *healthInput, withConsumers bool) int {
	begin, end := expireWindow(in, withConsumers)
	cutoff := in.now.Add(-in.cfg.timeRetained).UnixMilli()
	for id := begin; id < end; id++ {
		t, ok := in.times[id]
		if ok && cutoff <= t {
			end = id
			break
		}
	}
	n := 0
	for _, id := range in.snapshotIDs {
		if id < end {
			n++
		}
	}
	return n
}

// healthReport is the report, as --output json prints it.
type healthReport struct {
	Table     healthTable      `json:"table"`
	Snapshots healthSnapshots  `json:"snapshots"`
	Consumers []healthConsumer `json:"consumers"`
	Buckets   []healthBucket   `json:"buckets"`
	Findings  []healthFinding  `json:"findings"`
}

type healthTable struct {
	Name              string   `json:"name"`
	Type              string   `json:"type"`
	PrimaryKeys       []string `json:"primary_keys"`
	PartitionKeys     []string `json:"partition_keys"`
	BucketMode        string   `json:"bucket_mode"`
	Bucket            int      `json:"bucket"`
	MergeEngine       string   `json:"merge_engine,omitempty"`
	ChangelogProducer string   `json:"changelog_producer"`
	FileFormat        string   `json:"file_format"`
	DeletionVectors   bool     `json:"deletion_vectors"`
	WriteOnly         bool     `json:"write_only"`
	TargetFileSize    int64    `json:"target_file_size"`
	SmallFileSize     int64    `json:"small_file_threshold"`
	SmallFileSource   string   `json:"small_file_threshold_source"`
	MinFileNum        int      `json:"compaction_min_file_num"`
	RunTrigger        int      `json:"sorted_run_compaction_trigger,omitempty"`
	RunStop           int      `json:"sorted_run_stop_trigger,omitempty"`
	SnapshotID        int64    `json:"snapshot_id"`
	Partitions        int      `json:"partitions"`
	Files             int      `json:"files"`
	Bytes             int64    `json:"bytes"`
	Records           int64    `json:"records"`
}

type healthSnapshots struct {
	Count           int   `json:"count"`
	Earliest        int64 `json:"earliest_id"`
	Latest          int64 `json:"latest_id"`
	EarliestAge     int64 `json:"earliest_age_seconds"`
	LatestAge       int64 `json:"latest_age_seconds"`
	RetainMin       int   `json:"num_retained_min"`
	RetainMax       int   `json:"num_retained_max"`
	TimeRetained    int64 `json:"time_retained_seconds"`
	Overdue         int   `json:"overdue"`
	HeldByConsumers int   `json:"held_by_consumers"`
}

// healthBucket is one bucket of one partition.
type healthBucket struct {
	Partition   string `json:"partition"`
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

// healthFinding is one problem, in plain language, with the options that
// address it.
type healthFinding struct {
	Rule     string   `json:"rule"`
	Severity string   `json:"severity"` // "warning" or "info"
	Scope    string   `json:"scope"`
	Message  string   `json:"message"`
	Options  []string `json:"options"`
}

// analyzeHealth computes the report. It does no I/O.
func analyzeHealth(in *healthInput) *healthReport {
	cfg := &in.cfg
	rep := &healthReport{Consumers: []healthConsumer{}, Buckets: []healthBucket{}, Findings: []healthFinding{}}
	t := &rep.Table
	t.Name, t.Type = in.name, "append"
	t.PrimaryKeys, t.PartitionKeys = nonNil(in.schema.PrimaryKeys), nonNil(in.schema.PartitionKeys)
	if cfg.primaryKey {
		t.Type, t.MergeEngine = "primary-key", cfg.mergeEngine
		t.RunTrigger, t.RunStop = cfg.runTrigger, cfg.runStop
	}
	t.BucketMode, t.Bucket = cfg.bucketMode, cfg.bucket
	t.ChangelogProducer, t.FileFormat = cfg.changelogProducer, cfg.fileFormat
	t.DeletionVectors, t.WriteOnly = cfg.deletionVectors, cfg.writeOnly
	t.TargetFileSize, t.SmallFileSize, t.MinFileNum = cfg.targetFileSize, cfg.smallFile, cfg.minFileNum
	t.SmallFileSource = "--small-file-threshold"
	if cfg.smallFileDefault {
		t.SmallFileSource = "70% of target-file-size"
	}
	t.SnapshotID = in.snapshotID

	add := func(rule, severity, scope, options string, format string, args ...any) {
		opts := []string{}
		if options != "" {
			opts = strings.Split(options, ",")
		}
		rep.Findings = append(rep.Findings, healthFinding{
			Rule: rule, Severity: severity, Scope: scope,
			Message: fmt.Sprintf(format, args...), Options: opts,
		})
	}
	rep.Buckets = bucketStats(in.files, cfg)
	partitions := map[string]bool{}
	for _, b := range rep.Buckets {
		partitions[b.Partition] = true
		t.Files += b.Files
		t.Bytes += b.Bytes
		t.Records += b.Records
	}
	t.Partitions = len(partitions)

	analyzeBuckets(rep, cfg, add)
	analyzeSnapshots(rep, in, add)
	return rep
}

// bucketStats groups the files by partition and bucket, sorted.
func bucketStats(files []healthFile, cfg *healthConfig) []healthBucket {
	type key struct {
		partition string
		bucket    int32
	}
	groups := map[key][]healthFile{}
	for _, f := range files {
		k := key{f.partition, f.bucket}
		groups[k] = append(groups[k], f)
	}
	out := make([]healthBucket, 0, len(groups))
	for k, fs := range groups {
		b := healthBucket{Partition: k.partition, Bucket: k.bucket, Files: len(fs)}
		sizes := make([]int64, len(fs))
		levels := map[int32]bool{}
		for i, f := range fs {
			sizes[i] = f.size
			b.Bytes += f.size
			b.Records += f.rows
			if f.size < cfg.smallFile {
				b.SmallFiles++
			}
			if f.level == 0 {
				b.Level0Files++
			} else {
				levels[f.level] = true
			}
		}
		slices.Sort(sizes)
		b.AvgFile = b.Bytes / int64(len(fs))
		b.MedianFile = median(sizes)
		if cfg.primaryKey {
			b.SortedRuns = b.Level0Files + len(levels)
		} else {
			b.Level0Files = 0
		}
		out = append(out, b)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Partition != out[j].Partition {
			return out[i].Partition < out[j].Partition
		}
		return out[i].Bucket < out[j].Bucket
	})
	return out
}

// median of sorted values; the mean of the middle two for an even count.
func median(sorted []int64) int64 {
	n := len(sorted)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

type addFinding func(rule, severity, scope, options string, format string, args ...any)

func bucketScope(b *healthBucket) string {
	name := "bucket " + strconv.Itoa(int(b.Bucket))
	if b.Bucket == postponeBucketMode {
		name = "bucket-postpone"
	}
	if b.Partition == "" {
		return name
	}
	return "partition " + b.Partition + " " + name
}

func analyzeBuckets(rep *healthReport, cfg *healthConfig, add addFinding) {
	compactHint := "compaction.min.file-num,target-file-size,write-only"
	if cfg.primaryKey {
		compactHint = "full-compaction.delta-commits,target-file-size,write-only"
	}
	var level0 int64
	var postponeFiles int
	for i := range rep.Buckets {
		b := &rep.Buckets[i]
		scope := bucketScope(b)
		if b.Bucket == postponeBucketMode {
			postponeFiles += b.Files
			continue
		}
		if b.SmallFiles >= cfg.minFileNum {
			add("small-files", "warning", scope, compactHint,
				"%d of %d files are smaller than %s (average %s); compaction would merge them but has not run",
				b.SmallFiles, b.Files, humanBytes(cfg.smallFile), humanBytes(b.AvgFile))
		}
		if cfg.primaryKey {
			switch {
			case b.SortedRuns >= cfg.runStop:
				add("write-stall", "warning", scope, "num-sorted-run.stop-trigger,num-sorted-run.compaction-trigger,write-only",
					"%d sorted runs (%d level-0 files) reach the stop trigger %d: writers wait for compaction",
					b.SortedRuns, b.Level0Files, cfg.runStop)
			case b.SortedRuns >= cfg.runTrigger:
				add("sorted-runs", "warning", scope, "num-sorted-run.compaction-trigger,write-only",
					"%d sorted runs (%d level-0 files) reach the compaction trigger %d: compaction is behind",
					b.SortedRuns, b.Level0Files, cfg.runTrigger)
			}
		}
		if cfg.bucketMode != "unaware" && b.Bytes > bucketRecommendedMax {
			opts := "bucket"
			if cfg.bucketMode == "dynamic" || cfg.bucketMode == "cross-partition" {
				opts = "dynamic-bucket.target-row-num"
			}
			add("bucket-too-large", "warning", scope, opts,
				"holds %s; Paimon recommends 200 MiB to 1 GiB per bucket: more buckets would split it", humanBytes(b.Bytes))
		}
	}
	for _, b := range rep.Buckets {
		if cfg.primaryKey && (cfg.deletionVectors || cfg.mergeEngine == "first-row") && b.Bucket >= 0 {
			level0 += int64(b.Level0Files)
		}
	}
	if level0 > 0 {
		why := "deletion-vectors.enabled"
		if !cfg.deletionVectors {
			why = "merge-engine"
		}
		add("level0-invisible", "info", "table", why+",write-only",
			"%d level-0 files are not visible to batch reads until compaction moves them up (%s)",
			level0, strings.TrimSuffix(why, ".enabled"))
	}
	if postponeFiles > 0 {
		add("postpone-files", "info", "table", "bucket",
			"%d files wait in bucket-postpone and are not visible to batch reads until a compaction assigns their buckets", postponeFiles)
	}
	analyzeBucketBalance(rep, cfg, add)
}

// analyzeBucketBalance looks for skewed and over-divided fixed buckets.
func analyzeBucketBalance(rep *healthReport, cfg *healthConfig, add addFinding) {
	if cfg.bucketMode != "fixed" {
		return
	}
	byPartition := map[string][]int64{}
	var order []string
	for _, b := range rep.Buckets {
		if _, ok := byPartition[b.Partition]; !ok {
			order = append(order, b.Partition)
		}
		byPartition[b.Partition] = append(byPartition[b.Partition], b.Bytes)
	}
	var largest int64
	var largestName string
	for _, p := range order {
		sizes := byPartition[p]
		var total int64
		for _, s := range sizes {
			total += s
		}
		if total > largest || largestName == "" {
			largest, largestName = total, p
		}
		if len(sizes) < 2 {
			continue
		}
		slices.Sort(sizes)
		top, med := sizes[len(sizes)-1], median(sizes)
		if top >= skewMinBytes && top >= skewFactor*med {
			scope := "table"
			if p != "" {
				scope = "partition " + p
			}
			add("bucket-skew", "warning", scope, "bucket-key",
				"the largest bucket holds %s, %.1f times the median bucket (%s): the bucket key concentrates rows; a bucket key with more evenly spread values would balance them",
				humanBytes(top), float64(top)/float64(max(med, 1)), humanBytes(med))
		}
	}
	if cfg.bucket > 1 && rep.Table.Bytes >= bucketRecommendedMin && largest/int64(cfg.bucket) < bucketRecommendedMin {
		where := "the table holds"
		if largestName != "" {
			where = "the largest partition (" + largestName + ") holds"
		}
		add("buckets-too-small", "info", "table", "bucket",
			"%s %s, %s per bucket over %d buckets; Paimon recommends 200 MiB to 1 GiB per bucket: fewer buckets would mean fewer, larger files",
			where, humanBytes(largest), humanBytes(largest/int64(cfg.bucket)), cfg.bucket)
	}
}

func analyzeSnapshots(rep *healthReport, in *healthInput, add addFinding) {
	cfg := &in.cfg
	s := &rep.Snapshots
	s.Count = len(in.snapshotIDs)
	s.RetainMin, s.RetainMax, s.TimeRetained = cfg.retainMin, cfg.retainMax, int64(cfg.timeRetained/time.Second)
	if s.Count == 0 {
		add("no-snapshot", "info", "table", "", "the table has no snapshot yet")
		rep.Consumers = append(rep.Consumers, in.consumers...)
		return
	}
	s.Earliest, s.Latest = in.snapshotIDs[0], in.snapshotIDs[s.Count-1]
	if ms, ok := in.times[s.Earliest]; ok {
		s.EarliestAge = int64(in.now.Sub(time.UnixMilli(ms)) / time.Second)
	}
	if ms, ok := in.times[s.Latest]; ok {
		s.LatestAge = int64(in.now.Sub(time.UnixMilli(ms)) / time.Second)
	}
	s.Overdue = overdueSnapshots(in, true)
	s.HeldByConsumers = overdueSnapshots(in, false) - s.Overdue
	if s.Overdue > 0 {
		add("snapshots-overdue", "warning", "snapshots", "snapshot.num-retained.min,snapshot.num-retained.max,snapshot.time-retained,write-only",
			"%d of %d snapshots are past retention (keep at least %d, at most %s, for %s) but still present: expiration runs after commits of writers that are not write-only",
			s.Overdue, s.Count, cfg.retainMin, retainMaxText(cfg.retainMax), humanDuration(cfg.timeRetained))
	}
	for _, c := range in.consumers {
		c.Lag = max(0, s.Latest-c.NextSnapshot+1)
		rep.Consumers = append(rep.Consumers, c)
		scope := "consumer " + c.ID
		if c.NextSnapshot < s.Earliest {
			add("consumer-expired", "warning", scope, "consumer.expiration-time,consumer.ignore-progress",
				"its next snapshot %d has expired (earliest is %d): it cannot resume where it stopped", c.NextSnapshot, s.Earliest)
			continue
		}
		alone := *in
		alone.consumers = []healthConsumer{c}
		if held := overdueSnapshots(in, false) - overdueSnapshots(&alone, true); held > 0 {
			add("consumer-blocking", "warning", scope, "consumer.expiration-time",
				"it is %d snapshots behind (next snapshot %d) and keeps %d snapshots from expiring", c.Lag, c.NextSnapshot, held)
		}
	}
}

func retainMaxText(n int) string {
	if n == math.MaxInt32 {
		return "unlimited"
	}
	return strconv.Itoa(n)
}

// humanBytes renders a size with binary units: "512 B", "1.5 KiB".
func humanBytes(n int64) string {
	if n < 1024 && n > -1024 {
		return strconv.FormatInt(n, 10) + " B"
	}
	f := float64(n)
	for _, u := range []string{"KiB", "MiB", "GiB", "TiB"} {
		f /= 1024
		if math.Abs(f) < 1024 || u == "TiB" {
			return strconv.FormatFloat(f, 'f', 1, 64) + " " + u
		}
	}
	return strconv.FormatInt(n, 10) + " B"
}

// humanDuration renders a duration in its two largest units: "2d3h",
// "1h", "45s".
func humanDuration(d time.Duration) string {
	if d < 0 {
		return "-" + humanDuration(-d)
	}
	if d < time.Second {
		return d.String()
	}
	units := []struct {
		d    time.Duration
		name string
	}{{24 * time.Hour, "d"}, {time.Hour, "h"}, {time.Minute, "m"}, {time.Second, "s"}}
	var sb strings.Builder
	parts := 0
	for _, u := range units {
		if d >= u.d && parts < 2 {
			sb.WriteString(strconv.FormatInt(int64(d/u.d), 10) + u.name)
			d %= u.d
			parts++
		} else if parts > 0 {
			parts = 2
		}
	}
	return sb.String()
}

// age renders how long ago something happened.
func age(seconds int64) string {
	d := time.Duration(seconds) * time.Second
	if d < 0 {
		return humanDuration(-d) + " in the future (clock skew?)"
	}
	if d == 0 {
		return "just now"
	}
	return humanDuration(d) + " ago"
}

// writeText prints the report for people.
func (rep *healthReport) writeText(w io.Writer) error {
	t := &rep.Table
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	line := func(k, format string, args ...any) { fmt.Fprintf(tw, "%s\t%s\n", k, fmt.Sprintf(format, args...)) }
	line("Table", "%s", t.Name)
	if t.Type == "primary-key" {
		line("Type", "primary key (%s)", strings.Join(t.PrimaryKeys, ", "))
	} else {
		line("Type", "append")
	}
	if len(t.PartitionKeys) > 0 {
		line("Partitioned by", "%s", strings.Join(t.PartitionKeys, ", "))
	}
	switch {
	case t.Bucket == 1:
		line("Bucket mode", "%s, 1 bucket", t.BucketMode)
	case t.Bucket > 1:
		line("Bucket mode", "%s, %d buckets", t.BucketMode, t.Bucket)
	default:
		line("Bucket mode", "%s (bucket = %d)", t.BucketMode, t.Bucket)
	}
	if t.Type == "primary-key" {
		line("Merge engine", "%s", t.MergeEngine)
	}
	line("Changelog producer", "%s", t.ChangelogProducer)
	line("File format", "%s", t.FileFormat)
	line("Deletion vectors", "%s", onOff(t.DeletionVectors))
	if t.WriteOnly {
		line("Write-only", "yes: writers neither compact nor expire snapshots")
	}
	line("Target file size", "%s", humanBytes(t.TargetFileSize))
	line("Small files", "below %s (%s); compaction after %d of them in a bucket", humanBytes(t.SmallFileSize), t.SmallFileSource, t.MinFileNum)
	if t.Type == "primary-key" {
		line("Sorted runs", "compaction at %d, writes stop at %d", t.RunTrigger, t.RunStop)
	}
	if t.SnapshotID > 0 {
		where := ""
		if len(t.PartitionKeys) > 0 {
			where = fmt.Sprintf(" in %d partitions", t.Partitions)
		}
		line("Data", "%d files, %s, %d records%s (snapshot %d)", t.Files, humanBytes(t.Bytes), t.Records, where, t.SnapshotID)
	}
	s := &rep.Snapshots
	if s.Count == 0 {
		line("Snapshots", "none")
	} else {
		line("Snapshots", "%d (%d..%d), earliest %s, latest %s", s.Count, s.Earliest, s.Latest, age(s.EarliestAge), age(s.LatestAge))
	}
	line("Retention", "keep %d to %s snapshots, expire after %s; %d overdue",
		s.RetainMin, retainMaxText(s.RetainMax), humanDuration(time.Duration(s.TimeRetained)*time.Second), s.Overdue)
	if len(rep.Consumers) == 0 {
		line("Consumers", "none")
	}
	for i, c := range rep.Consumers {
		k := ""
		if i == 0 {
			k = "Consumers"
		}
		line(k, "%s: next snapshot %d, %d behind", c.ID, c.NextSnapshot, c.Lag)
	}
	if err := tw.Flush(); err != nil {
		return err
	}

	if len(rep.Buckets) > 0 {
		fmt.Fprintln(w)
		pk := t.Type == "primary-key"
		head := []string{"partition", "bucket", "files", "size", "avg", "median", "small"}
		if pk {
			head = append(head, "level-0", "runs")
		}
		rows := make([][]string, 0, len(rep.Buckets))
		for _, b := range rep.Buckets {
			p := b.Partition
			if p == "" {
				p = "-"
			}
			bucket := strconv.Itoa(int(b.Bucket))
			if b.Bucket == postponeBucketMode {
				bucket = "postpone"
			}
			row := []string{sanitizeCell(p), bucket, strconv.Itoa(b.Files), humanBytes(b.Bytes),
				humanBytes(b.AvgFile), humanBytes(b.MedianFile), strconv.Itoa(b.SmallFiles)}
			if pk {
				row = append(row, strconv.Itoa(b.Level0Files), strconv.Itoa(b.SortedRuns))
			}
			rows = append(rows, row)
		}
		writeColumns(w, head, rows)
	}

	fmt.Fprintln(w)
	if len(rep.Findings) == 0 {
		_, err := fmt.Fprintln(w, "No findings.")
		return err
	}
	fmt.Fprintln(w, "Findings:")
	shown := map[string]int{}
	var rules []string
	for _, f := range rep.Findings {
		if shown[f.Rule] == 0 {
			rules = append(rules, f.Rule)
		}
		shown[f.Rule]++
		if shown[f.Rule] > findingsShownPerRule {
			continue
		}
		opts := ""
		if len(f.Options) > 0 {
			opts = " [" + strings.Join(f.Options, ", ") + "]"
		}
		fmt.Fprintf(w, "  %-7s  %s: %s%s\n", f.Severity, f.Scope, f.Message, opts)
	}
	for _, rule := range rules {
		if n := shown[rule]; n > findingsShownPerRule {
			fmt.Fprintf(w, "  ... and %d more %s findings (see --output json)\n", n-findingsShownPerRule, rule)
		}
	}
	return nil
}

// writeColumns prints rows under a header, the first column aligned left
// and the others right.
func writeColumns(w io.Writer, head []string, rows [][]string) {
	widths := make([]int, len(head))
	for _, r := range append([][]string{head}, rows...) {
		for i, c := range r {
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	var sb strings.Builder
	for _, r := range append([][]string{head}, rows...) {
		sb.Reset()
		for i, c := range r {
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
			switch {
			case i == 0:
				sb.WriteString(c)
				if len(r) > 1 {
					sb.WriteString(pad)
				}
			default:
				sb.WriteString("  ")
				sb.WriteString(pad)
				sb.WriteString(c)
			}
		}
		fmt.Fprintln(w, sb.String())
	}
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}
