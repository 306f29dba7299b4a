package paimon

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/paimon-go/paimon-go/internal/coreoptions"
)

// Table options that drive snapshot expiration, with their Java
// CoreOptions defaults. changelog.* options have no default of their own:
// when absent they equal the snapshot.* ones (ExpireConfig.Builder.build).
const (
	optSnapshotRetainMin      = coreoptions.SnapshotNumRetainedMin
	optSnapshotRetainMax      = coreoptions.SnapshotNumRetainedMax
	optSnapshotTimeRetained   = coreoptions.SnapshotTimeRetained
	optSnapshotExpireLimit    = coreoptions.SnapshotExpireLimit
	optCleanEmptyDirs         = coreoptions.SnapshotCleanEmptyDirectories
	optCleanEmptyDirsFallback = "snapshot.expire.clean-empty-directories"
	optChangelogRetainMin     = coreoptions.ChangelogNumRetainedMin
	optChangelogRetainMax     = coreoptions.ChangelogNumRetainedMax
	optChangelogTimeRetained  = coreoptions.ChangelogTimeRetained
	optConsumerChangelogOnly  = coreoptions.ConsumerChangelogOnly
	optWriteOnly              = coreoptions.WriteOnly
	optWriteOnlyFallback      = "write.compaction-skip"
	optFileOperationThreads   = coreoptions.FileOperationThreadNum
	optIndexFileInDataDir     = coreoptions.IndexFileInDataFileDir

	defaultSnapshotRetainMin   = 10
	defaultSnapshotRetainMax   = math.MaxInt32
	defaultSnapshotTimeRetain  = time.Hour
	defaultSnapshotExpireLimit = 50
)

// ErrInvalidExpireOptions reports expiration settings Java would reject:
// snapshot.num-retained.min below 1, a maximum below the minimum, or an
// option value that does not parse.
var ErrInvalidExpireOptions = errors.New("paimon: invalid snapshot expiration options")

// expireConfig is the resolved form of ExpireOptions and the table options;
// it mirrors Java org.apache.paimon.options.ExpireConfig plus the
// SnapshotDeletion settings (clean-empty-directories, thread count).
type expireConfig struct {
	retainMin, retainMax int
	// olderThanMillis is "now - snapshot.time-retained": snapshots committed
	// at or after it are kept.
	olderThanMillis int64
	// graceCutoffMillis is "now - commit grace": a snapshot whose
	// successor was committed after it is kept (math.MaxInt64 without
	// grace).
	graceCutoffMillis     int64
	maxDeletes            int
	cleanEmptyDirs        bool
	consumerChangelogOnly bool
	changelogDecoupled    bool
	threads               int
	indexInDataDir        bool
	// now is the clock of the expiration.
	now func() time.Time
}

// resolveExpireConfig merges explicit options over the table options the
// way Java's CoreOptions.expireConfig and ExpireSnapshotsImpl.expire do,
// and validates them as SchemaValidation does.
func resolveExpireConfig(table map[string]string, o *ExpireOptions) (*expireConfig, error) {
	if o == nil {
		o = &ExpireOptions{}
	}
	opts := tableOptions(table)
	var err error
	c := &expireConfig{}
	get := func(key string, def int, override int) int {
		if err != nil {
			return 0
		}
		if override != 0 {
			return override
		}
		var v int
		v, err = expireOptInt(opts, key, def)
		return v
	}
	c.retainMin = get(optSnapshotRetainMin, defaultSnapshotRetainMin, o.RetainMin)
	c.retainMax = get(optSnapshotRetainMax, defaultSnapshotRetainMax, o.RetainMax)
	c.maxDeletes = get(optSnapshotExpireLimit, defaultSnapshotExpireLimit, o.MaxDeletes)
	c.threads = get(optFileOperationThreads, runtime.GOMAXPROCS(0), 0)
	if err != nil {
		return nil, err
	}
	timeRetain := o.OlderThan
	if timeRetain == 0 {
		if timeRetain, err = expireOptDuration(opts, optSnapshotTimeRetained, defaultSnapshotTimeRetain); err != nil {
			return nil, err
		}
	}
	if c.cleanEmptyDirs, err = expireOptBool(opts, false, optCleanEmptyDirs, optCleanEmptyDirsFallback); err != nil {
		return nil, err
	}
	if o.CleanEmptyDirectories != nil {
		c.cleanEmptyDirs = *o.CleanEmptyDirectories
	}
	if c.consumerChangelogOnly, err = expireOptBool(opts, false, optConsumerChangelogOnly); err != nil {
		return nil, err
	}
	if c.indexInDataDir, err = expireOptBool(opts, false, optIndexFileInDataDir); err != nil {
		return nil, err
	}

	// Changelog retention defaults to the snapshot retention in effect.
	clMin, err := expireOptInt(opts, optChangelogRetainMin, c.retainMin)
	if err != nil {
		return nil, err
	}
	clMax, err := expireOptInt(opts, optChangelogRetainMax, c.retainMax)
	if err != nil {
		return nil, err
	}
	clTime, err := expireOptDuration(opts, optChangelogTimeRetained, timeRetain)
	if err != nil {
		return nil, err
	}
	c.changelogDecoupled = clMax > c.retainMax || clMin > c.retainMin || clTime > timeRetain

	switch {
	case c.retainMin < 1:
		return nil, fmt.Errorf("%w: %s is %d, must be at least 1", ErrInvalidExpireOptions, optSnapshotRetainMin, c.retainMin)
	case c.retainMax < c.retainMin:
		return nil, fmt.Errorf("%w: %s (%d) must not be less than %s (%d)", ErrInvalidExpireOptions, optSnapshotRetainMax, c.retainMax, optSnapshotRetainMin, c.retainMin)
	}
	if c.threads < 1 {
		c.threads = 1
	}

	now := time.Now
	if o.Now != nil {
		now = o.Now
	}
	if timeRetain < 0 {
		// No time protection: every snapshot counts as old enough.
		c.olderThanMillis = math.MaxInt64
	} else {
		c.olderThanMillis = now().UnixMilli() - timeRetain.Milliseconds()
	}
	c.now = now
	switch grace := o.CommitGrace; {
	case grace < 0:
		c.graceCutoffMillis = math.MaxInt64
	case grace == 0:
		c.graceCutoffMillis = now().UnixMilli() - DefaultCommitGrace.Milliseconds()
	default:
		c.graceCutoffMillis = now().UnixMilli() - grace.Milliseconds()
	}
	return c, nil
}

// writeOnly reports the write-only option (fallback write.compaction-skip):
// a writer with it set neither compacts nor expires.
func writeOnly(table map[string]string) (bool, error) {
	return expireOptBool(tableOptions(table), false, optWriteOnly, optWriteOnlyFallback)
}

// expireLookup returns the value of the first key present, as Java's Options.get
// with fallback keys does.
func expireLookup(o tableOptions, keys ...string) (string, string, bool) {
	for _, k := range keys {
		if v, ok := o[k]; ok {
			return k, v, true
		}
	}
	return "", "", false
}

// expireOptInt parses an int option as Java's ConfigOption.intType does.
func expireOptInt(o tableOptions, key string, def int) (int, error) {
	v, ok := o[key]
	if !ok {
		return def, nil
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 32)
	if err != nil {
		return 0, fmt.Errorf("%w: %s = %q is not an int", ErrInvalidExpireOptions, key, v)
	}
	return int(n), nil
}

// expireOptBool parses a boolean option strictly ("true"/"false", any case), as
// Java's OptionsUtils.convertToBoolean does.
func expireOptBool(o tableOptions, def bool, keys ...string) (bool, error) {
	key, v, ok := expireLookup(o, keys...)
	if !ok {
		return def, nil
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, fmt.Errorf("%w: %s = %q is not a boolean", ErrInvalidExpireOptions, key, v)
}

func expireOptDuration(o tableOptions, key string, def time.Duration) (time.Duration, error) {
	v, ok := o[key]
	if !ok {
		return def, nil
	}
	d, err := ParseDuration(v)
	if err != nil {
		return 0, fmt.Errorf("%w: %s: %w", ErrInvalidExpireOptions, key, err)
	}
	return d, nil
}
