package health

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/paimon-go/paimon-go/internal/coreoptions"
)

// This file turns what Inspect read into the report: statistics per bucket
// and the findings, without any I/O.

// expireWindow is the range [begin, end) of snapshot ids Java's expiration
// examines: it keeps the snapshot.num-retained.min newest, always expires
// beyond snapshot.num-retained.max, and (withConsumers) never reaches a
// consumer's next snapshot.
func expireWindow(in *input, withConsumers bool) (begin, end int64) {
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
func overdueSnapshots(in *input, withConsumers bool) int {
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

// analyze computes the report. It does no I/O.
func analyze(in *input) *Report {
	cfg := &in.cfg
	rep := &Report{Consumers: []Consumer{}, Buckets: []Bucket{}, Findings: []Finding{}}
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
		rep.Findings = append(rep.Findings, Finding{
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
	if u := in.unreferenced; u != nil {
		rep.Unreferenced = u
		switch {
		case u.Error != "":
			add("unreferenced-files", "warning", "table", "",
				"the scan for unreferenced files failed: %s", u.Error)
		case u.Files > 0:
			add("unreferenced-files", "info", "table", "",
				"%d file%s (%s) that no snapshot, tag, changelog or branch references, left by failed or no-op commits, rollbacks or interrupted expirations; `paimon orphans --delete` (Table.RemoveOrphanFiles) removes those older than 1 d",
				u.Files, map[bool]string{true: "", false: "s"}[u.Files == 1], FormatBytes(u.Bytes))
		}
	}
	return rep
}

// bucketStats groups the files by partition and bucket, sorted.
func bucketStats(files []file, cfg *config) []Bucket {
	type key struct {
		partition string
		bucket    int32
	}
	groups := map[key][]file{}
	for _, f := range files {
		k := key{f.partition, f.bucket}
		groups[k] = append(groups[k], f)
	}
	out := make([]Bucket, 0, len(groups))
	for k, fs := range groups {
		b := Bucket{Partition: k.partition, Bucket: k.bucket, Files: len(fs)}
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

func bucketScope(b *Bucket) string {
	name := "bucket " + strconv.Itoa(int(b.Bucket))
	if b.Bucket == PostponeBucket {
		name = "bucket-postpone"
	}
	if b.Partition == "" {
		return name
	}
	return "partition " + b.Partition + " " + name
}

// goCompacts reports whether Table.Compact (`paimon compact`) compacts the
// table: append tables, and primary-key tables without deletion vectors,
// postpone buckets or a changelog producer that needs compaction.
func (c *config) goCompacts() bool {
	if !c.primaryKey {
		return true
	}
	return !c.deletionVectors && c.bucket != -2 && (c.changelogProducer == "" || c.changelogProducer == "none" || c.changelogProducer == "input")
}

func analyzeBuckets(rep *Report, cfg *config, add addFinding) {
	compactHint := "compaction.min.file-num,target-file-size,write-only"
	if cfg.primaryKey {
		compactHint = "full-compaction.delta-commits,target-file-size,write-only"
	}
	var level0 int64
	var postponeFiles int
	for i := range rep.Buckets {
		b := &rep.Buckets[i]
		scope := bucketScope(b)
		if b.Bucket == PostponeBucket {
			postponeFiles += b.Files
			continue
		}
		if b.SmallFiles >= cfg.minFileNum {
			cure := "compaction would merge them but has not run"
			if cfg.goCompacts() {
				cure = "compaction (`paimon compact`, Table.Compact) merges them"
			}
			add("small-files", "warning", scope, compactHint,
				"%d of %d files are smaller than %s (average %s); %s",
				b.SmallFiles, b.Files, FormatBytes(cfg.smallFile), FormatBytes(b.AvgFile), cure)
		}
		if cfg.primaryKey {
			cure := ""
			if cfg.goCompacts() {
				cure = " (`paimon compact`, Table.Compact)"
			}
			switch {
			case b.SortedRuns >= cfg.runStop:
				add("write-stall", "warning", scope, "num-sorted-run.stop-trigger,num-sorted-run.compaction-trigger,write-only",
					"%d sorted runs (%d level-0 files) reach the stop trigger %d: writers wait for compaction%s",
					b.SortedRuns, b.Level0Files, cfg.runStop, cure)
			case b.SortedRuns >= cfg.runTrigger:
				add("sorted-runs", "warning", scope, "num-sorted-run.compaction-trigger,write-only",
					"%d sorted runs (%d level-0 files) reach the compaction trigger %d: compaction is behind%s",
					b.SortedRuns, b.Level0Files, cfg.runTrigger, cure)
			}
		}
		if cfg.bucketMode != "unaware" && b.Bytes > bucketRecommendedMax {
			opts := "bucket"
			if cfg.bucketMode == "dynamic" || cfg.bucketMode == "cross-partition" {
				opts = coreoptions.DynamicBucketTargetRowNum
			}
			add("bucket-too-large", "warning", scope, opts,
				"holds %s; Paimon recommends 200 MiB to 1 GiB per bucket: more buckets would split it", FormatBytes(b.Bytes))
		}
	}
	for _, b := range rep.Buckets {
		if cfg.primaryKey && (cfg.deletionVectors || cfg.mergeEngine == "first-row") && b.Bucket >= 0 {
			level0 += int64(b.Level0Files)
		}
	}
	if level0 > 0 {
		why := coreoptions.DeletionVectorsEnabled
		if !cfg.deletionVectors {
			why = coreoptions.MergeEngine
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
func analyzeBucketBalance(rep *Report, cfg *config, add addFinding) {
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
			add("bucket-skew", "warning", scope, coreoptions.BucketKey,
				"the largest bucket holds %s, %.1f times the median bucket (%s): the bucket key concentrates rows; a bucket key with more evenly spread values would balance them",
				FormatBytes(top), float64(top)/float64(max(med, 1)), FormatBytes(med))
		}
	}
	if cfg.bucket > 1 && rep.Table.Bytes >= bucketRecommendedMin && largest/int64(cfg.bucket) < bucketRecommendedMin {
		where := "the table holds"
		if largestName != "" {
			where = "the largest partition (" + largestName + ") holds"
		}
		add("buckets-too-small", "info", "table", "bucket",
			"%s %s, %s per bucket over %d buckets; Paimon recommends 200 MiB to 1 GiB per bucket: fewer buckets would mean fewer, larger files",
			where, FormatBytes(largest), FormatBytes(largest/int64(cfg.bucket)), cfg.bucket)
	}
}

func analyzeSnapshots(rep *Report, in *input, add addFinding) {
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
			s.Overdue, s.Count, cfg.retainMin, FormatRetainMax(cfg.retainMax), FormatDuration(cfg.timeRetained))
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
		alone.consumers = []Consumer{c}
		if held := overdueSnapshots(in, false) - overdueSnapshots(&alone, true); held > 0 {
			add("consumer-blocking", "warning", scope, coreoptions.ConsumerExpirationTime,
				"it is %d snapshots behind (next snapshot %d) and keeps %d snapshots from expiring", c.Lag, c.NextSnapshot, held)
		}
	}
}

// Thresholds of the findings (see the package documentation).
const (
	bucketRecommendedMin = 200 << 20
	bucketRecommendedMax = 1 << 30
	skewFactor           = 4
	skewMinBytes         = 64 << 20
)

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// FormatRetainMax renders snapshot.num-retained.max: "unlimited" for
// Java's default, Integer.MAX_VALUE.
func FormatRetainMax(n int) string {
	if n == math.MaxInt32 {
		return "unlimited"
	}
	return strconv.Itoa(n)
}

// FormatBytes renders a size with binary units: "512 B", "1.5 KiB".
func FormatBytes(n int64) string {
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

// FormatDuration renders a duration in its two largest units: "2d3h",
// "1h", "45s".
func FormatDuration(d time.Duration) string {
	if d < 0 {
		return "-" + FormatDuration(-d)
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
