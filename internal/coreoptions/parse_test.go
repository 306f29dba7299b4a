package coreoptions

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"
)

func TestParseBool(t *testing.T) {
	for s, want := range map[string]bool{"true": true, "TRUE": true, "False": false, "fAlSe": false} {
		if got, err := ParseBool(s); err != nil || got != want {
			t.Errorf("ParseBool(%q) = %v, %v", s, got, err)
		}
	}
	// Java's convertToBoolean neither trims nor takes other spellings.
	for _, s := range []string{"", " true", "yes", "1", "t"} {
		if _, err := ParseBool(s); err == nil {
			t.Errorf("ParseBool(%q) accepted", s)
		}
	}
}

func TestParseInt(t *testing.T) {
	for s, want := range map[string]int{"0": 0, "+7": 7, "-2147483648": math.MinInt32, "2147483647": math.MaxInt32} {
		if got, err := ParseInt(s); err != nil || got != want {
			t.Errorf("ParseInt(%q) = %v, %v", s, got, err)
		}
	}
	for _, s := range []string{"", " 1", "1 ", "2147483648", "1.0", "0x10", "1_000"} {
		if _, err := ParseInt(s); err == nil {
			t.Errorf("ParseInt(%q) accepted", s)
		}
	}
}

func TestParseDouble(t *testing.T) {
	for s, want := range map[string]float64{"0.2": 0.2, " 1e3 ": 1000, "2d": 2, "0.5f": 0.5, "-Infinity": math.Inf(-1)} {
		if got, err := ParseDouble(s); err != nil || got != want {
			t.Errorf("ParseDouble(%q) = %v, %v", s, got, err)
		}
	}
	if got, err := ParseDouble("NaN"); err != nil || !math.IsNaN(got) {
		t.Errorf("ParseDouble(NaN) = %v, %v", got, err)
	}
	for _, s := range []string{"", "inf", "nan", "1_0", "x"} {
		if _, err := ParseDouble(s); err == nil {
			t.Errorf("ParseDouble(%q) accepted", s)
		}
	}
}

func TestParseMemorySize(t *testing.T) {
	for s, want := range map[string]int64{"0": 0, "128 mb": 128 << 20, "128MB": 128 << 20, " 4 KiBiBytes ": 4 << 10,
		"1t": 1 << 40, "500 bytes": 500, "9223372036854775807 bytes": math.MaxInt64} {
		if got, err := ParseMemorySize(s); err != nil || got != want {
			t.Errorf("ParseMemorySize(%q) = %v, %v", s, got, err)
		}
	}
	for _, s := range []string{"", "mb", "-1", "1 xb", "8388608 tb", "1.5 mb"} {
		if _, err := ParseMemorySize(s); err == nil {
			t.Errorf("ParseMemorySize(%q) accepted", s)
		}
	}
}

func TestParseDuration(t *testing.T) {
	for s, want := range map[string]time.Duration{"500": 500 * time.Millisecond, "1 h": time.Hour, "30min": 30 * time.Minute,
		" 2 Days ": 48 * time.Hour, "10 µs": 10 * time.Microsecond, "0 ms": 0} {
		if got, err := ParseDuration(s); err != nil || got != want {
			t.Errorf("ParseDuration(%q) = %v, %v", s, got, err)
		}
	}
	for _, s := range []string{"", "h", "-1 s", "1 fortnight", "1.5 h", "9223372036854775807 d"} {
		if _, err := ParseDuration(s); err == nil {
			t.Errorf("ParseDuration(%q) accepted", s)
		}
	}
}

func TestParseMap(t *testing.T) {
	// Java escapes the entry for ',' around the key escaped for ':'.
	m, err := ParseMap("0:avro, 3:parquet,'''a:b'':c,d'")
	if err != nil || len(m) != 3 || m["0"] != "avro" || m["3"] != "parquet" || m["a:b"] != "c,d" {
		t.Errorf("ParseMap = %v, %v", m, err)
	}
	for _, s := range []string{"a", "a:b:c", "'a:b"} {
		if _, err := ParseMap(s); err == nil {
			t.Errorf("ParseMap(%q) accepted", s)
		}
	}
}

func TestValues(t *testing.T) {
	v := Values{"write.compaction-skip": "true", "bucket": "4", "snapshot.time-retained": "2 h",
		"fields.a.ignore-retract": "TRUE", "merge-engine": "Partial-Update"}
	if b, err := v.Bool(WriteOnly); err != nil || !b {
		t.Errorf("write-only through its fallback key = %v, %v", b, err)
	}
	if n, err := v.Int(Bucket); err != nil || n != 4 {
		t.Errorf("bucket = %v, %v", n, err)
	}
	if d, err := v.Duration(SnapshotTimeRetained); err != nil || d != 2*time.Hour {
		t.Errorf("snapshot.time-retained = %v, %v", d, err)
	}
	if d, err := v.Duration(ChangelogTimeRetained); err != nil || d != 0 {
		t.Errorf("absent changelog.time-retained = %v, %v", d, err)
	}
	if n, err := v.Int(SnapshotNumRetainedMin); err != nil || n != 10 {
		t.Errorf("default snapshot.num-retained.min = %v, %v", n, err)
	}
	if b, err := v.Bool(FieldKey("a", FieldIgnoreRetract)); err != nil || !b {
		t.Errorf("fields.a.ignore-retract = %v, %v", b, err)
	}
	if e, err := v.Enum(MergeEngine); err != nil || e != "partial-update" {
		t.Errorf("merge-engine = %q, %v", e, err)
	}
	if _, err := v.Int("no-such-option"); !errors.Is(err, ErrInvalid) {
		t.Errorf("unknown key: %v", err)
	}
	if _, err := v.Int(WriteOnly); !errors.Is(err, ErrInvalid) {
		t.Errorf("boolean read as int: %v", err)
	}
}

// TestParseErrors: a malformed value of any option the library acts on is
// an error naming the key and the value (a bad boolean used to fall back
// to the default).
func TestParseErrors(t *testing.T) {
	for key, value := range map[string]string{
		DeletionVectorsEnabled:   "yes",
		"write.compaction-skip":  "1",
		SourceSplitTargetSize:    "big",
		Bucket:                   "two",
		MergeEngine:              "dedup",
		SnapshotTimeRetained:     "an hour",
		ChangelogNumRetainedMax:  "x",
		NumSortedRunsStopTrigger: "-",
	} {
		_, err := Parse(map[string]string{key: value})
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, ErrInvalid) || e.Key != key || e.Value != value ||
			!strings.Contains(err.Error(), key) || !strings.Contains(err.Error(), value) {
			t.Errorf("Parse(%s=%q) = %v", key, value, err)
		}
	}
}

func TestParseDefaults(t *testing.T) {
	o, err := Parse(map[string]string{"snapshot.num-retained.max": "50", "num-sorted-run.compaction-trigger": "7"})
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case o.Bucket != -1, o.MergeEngine != "deduplicate", o.FileFormat != "parquet", o.PartitionDefaultName != "__DEFAULT_PARTITION__",
		!o.PartitionLegacyName, o.SplitTargetSize != 128<<20, o.SplitOpenFileCost != 4<<20, o.FileCompression != "zstd",
		o.SnapshotNumRetainedMin != 10, o.ChangelogNumRetainedMax != 50, o.ChangelogTimeRetained != time.Hour,
		o.CommitMaxRetries != 10, o.CommitMinRetryWait != 10*time.Millisecond, o.CommitTimeout != 0,
		!o.DynamicPartitionOverwrite, o.NumSortedRunStopTrigger != 10, o.DataFilePrefix != "data-",
		o.TargetFileSize(true) != 128<<20, o.TargetFileSize(false) != 256<<20, o.StatsMode != "truncate(16)",
		o.StatsKeepFirstN != -1, !o.StatsDenseStore, o.ManifestFullCompactionThresholdSize != 16<<20:
		t.Errorf("defaults: %+v", *o)
	}
}
