package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/paimon"
)

// This file reads what the health report is computed from: the table options
// it interprets, the live data files of the latest snapshot, the snapshot
// times expiration looks at, and the consumers.

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
		if c.timeRetained, err = paimon.ParseDuration(v); err != nil {
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
