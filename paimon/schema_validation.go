package paimon

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/coreoptions"
	"github.com/paimon-go/paimon-go/internal/evolution"
)

// Option keys and values SchemaValidation reads (Java CoreOptions).
const (
	ddlOptUpsertKey              = coreoptions.UpsertKey
	ddlOptChangelogProducer      = coreoptions.ChangelogProducer
	ddlOptScanMode               = coreoptions.ScanMode
	ddlOptScanModeFallback       = "log.scan"
	ddlOptStreamingReadOverwrite = coreoptions.StreamingReadOverwrite
	ddlOptSnapshotRetainMin      = coreoptions.SnapshotNumRetainedMin
	ddlOptSnapshotRetainMax      = coreoptions.SnapshotNumRetainedMax
	ddlOptChangelogRetainMin     = coreoptions.ChangelogNumRetainedMin
	ddlOptChangelogRetainMax     = coreoptions.ChangelogNumRetainedMax
	ddlOptFullCompactionCommits  = coreoptions.FullCompactionDeltaCommits
	ddlOptPartitionExpiration    = coreoptions.PartitionExpirationTime
	ddlOptRecordLevelTimeField   = coreoptions.RecordLevelTimeField
	ddlOptRecordLevelExpireTime  = coreoptions.RecordLevelExpireTime
	ddlOptRowkindField           = coreoptions.RowkindField
	ddlOptVectorField            = coreoptions.VectorField
	ddlOptVectorFileFormat       = coreoptions.VectorFileFormat
	ddlOptRowTracking            = coreoptions.RowTrackingEnabled
	ddlOptDataEvolution          = coreoptions.DataEvolutionEnabled
	ddlOptClusteringIncremental  = coreoptions.ClusteringIncremental
	ddlOptBucketAppendOrdered    = coreoptions.BucketAppendOrdered
	ddlOptReadSequenceNumber     = coreoptions.TableReadSequenceNumberEnabled
	ddlOptChainTable             = coreoptions.ChainTableEnabled
	ddlOptChainPartitionKeys     = coreoptions.ChainTableChainPartitionKeys
	ddlOptPartitionTSPattern     = coreoptions.PartitionTimestampPattern
	ddlOptPartitionTSFormatter   = coreoptions.PartitionTimestampFormatter
	ddlOptTableType              = coreoptions.Type
	ddlOptBlobDescriptorField    = coreoptions.BlobDescriptorField
	ddlOptBlobExternalField      = coreoptions.BlobExternalStorageField
	ddlOptBlobExternalPath       = coreoptions.BlobExternalStoragePath
	ddlOptFallbackBranch         = coreoptions.ScanFallbackBranch
	ddlOptPrimaryBranch          = coreoptions.ScanPrimaryBranch
	ddlOptRemoveOnDelete         = coreoptions.PartialUpdateRemoveRecordOnDelete
	ddlOptRemoveOnSequenceGroup  = coreoptions.PartialUpdateRemoveRecordOnSequenceGroup
	ddlOptAggRemoveOnDelete      = coreoptions.AggregationRemoveRecordOnDelete
	ddlOptFieldsDefaultAgg       = coreoptions.FieldsDefaultAggFunc
	defaultAggFunction           = "default-aggregate-function"
	keyFieldPrefix               = "_KEY_"
)

// Accepted values of the enum options (Java CoreOptions enums, matched
// case-insensitively as Java's Options do).
var (
	mergeEngines       = []string{"deduplicate", "partial-update", "aggregation", "first-row"}
	changelogProducers = []string{"none", "input", "full-compaction", "lookup"}
	startupModes       = []string{"default", "latest-full", "full", "latest", "compacted-full", "from-timestamp",
		"from-creation-timestamp", "from-file-creation-time", "from-snapshot", "from-snapshot-full", "incremental"}
	tableTypes = []string{"table", "format-table", "materialized-table", "object-table", "lance-table"}
	// fileFormats are the FileFormatFactory identifiers of paimon-bundle
	// 1.4.2.
	fileFormats = []string{"avro", "blob", "csv", "json", "orc", "parquet", "text"}
	// aggFunctions are the FieldAggregatorFactory identifiers of Paimon
	// 1.4.2.
	aggFunctions = []string{"bool_and", "bool_or", "collect", "first_non_null_value", "first_not_null_value",
		"first_value", "hll_sketch", "last_non_null_value", "last_value", "listagg", "max", "merge_map",
		"merge_map_with_keytime", "min", "nested_partial_update", "nested_update", "primary-key", "product",
		"rbm32", "rbm64", "sum", "theta_sketch"}
	// systemFieldNames are the column names Paimon reserves (Java
	// SpecialFields.SYSTEM_FIELD_NAMES).
	systemFieldNames = []string{"_SEQUENCE_NUMBER", "_VALUE_KIND", "_LEVEL", "rowkind", "_ROW_ID"}
)

// validateTableSchema refuses what Java's SchemaManager.commit refuses
// before writing a schema file: SchemaValidation.validateTableSchema and
// validateFallbackBranch. Errors wrap ErrInvalidSchema.
func validateTableSchema(ctx context.Context, meta *TableMeta, ts *schema.TableSchema) error {
	if err := checkTableSchema(ts); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidSchema, err)
	}
	return validateFallbackBranch(ctx, meta, ts)
}

// validateFallbackBranch mirrors Java SchemaValidation.validateFallbackBranch:
// the branches a table falls back to, or that are primary for it, must exist.
func validateFallbackBranch(ctx context.Context, meta *TableMeta, ts *schema.TableSchema) error {
	fallback := strings.TrimSpace(ts.Options[ddlOptFallbackBranch])
	primary := strings.TrimSpace(ts.Options[ddlOptPrimaryBranch])
	if fallback != "" && primary != "" {
		return fmt.Errorf("%w: cannot set both '%s' and '%s'", ErrInvalidSchema, ddlOptFallbackBranch, ddlOptPrimaryBranch)
	}
	for _, o := range []struct{ key, branch string }{{ddlOptFallbackBranch, ts.Options[ddlOptFallbackBranch]},
		{ddlOptPrimaryBranch, ts.Options[ddlOptPrimaryBranch]}} {
		if strings.TrimSpace(o.branch) == "" {
			continue
		}
		ids, err := meta.WithBranch(o.branch).SchemaIDs(ctx)
		if err != nil {
			return fmt.Errorf("paimon: check branch %q: %w", o.branch, err)
		}
		if len(ids) == 0 {
			return fmt.Errorf("%w: cannot set '%s' = '%s' because the branch does not exist",
				ErrInvalidSchema, o.key, o.branch)
		}
	}
	return nil
}

// optionReader reads typed options the way Java's Options do, remembering
// the first value that does not parse.
type optionReader struct {
	opts map[string]string
	err  error
}

func (r *optionReader) fail(key, v, want string) {
	if r.err == nil {
		r.err = fmt.Errorf("option %s=%q: %s", key, v, want)
	}
}

func (r *optionReader) has(key string) bool {
	_, ok := r.opts[key]
	return ok
}

func (r *optionReader) integer(key string, def int) int {
	v, ok := r.opts[key]
	if !ok {
		return def
	}
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		r.fail(key, v, "not a 32-bit integer")
		return def
	}
	return int(n)
}

func (r *optionReader) boolean(key string, def bool) bool {
	v, ok := r.opts[key]
	if !ok {
		return def
	}
	switch strings.ToUpper(v) {
	case "TRUE":
		return true
	case "FALSE":
		return false
	}
	r.fail(key, v, "expected true or false")
	return def
}

// enum returns the canonical (lower-case) value of an enum option; keys are
// tried in order (an option and its fallback keys).
func (r *optionReader) enum(values []string, def string, keys ...string) string {
	for _, key := range keys {
		v, ok := r.opts[key]
		if !ok {
			continue
		}
		for _, allowed := range values {
			if strings.EqualFold(v, allowed) {
				return allowed
			}
		}
		r.fail(key, v, "expected one of "+strings.Join(values, ", "))
		return def
	}
	return def
}

// commaSet splits a comma-separated option into its trimmed, non-empty
// names (Java CoreOptions.parseCommaSeparatedSet).
func optionNameSet(opts map[string]string, key string) []string {
	var out []string
	if v, ok := opts[key]; ok {
		for _, s := range strings.Split(v, ",") {
			if s = strings.TrimSpace(s); s != "" && !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

// tableRules is the decoded view of a schema that the validation rules
// share.
type tableRules struct {
	ts                *schema.TableSchema
	r                 *optionReader
	bucket            int
	mergeEngine       string
	changelogProducer string
	dv                bool
	fieldNames        []string
}

// checkTableSchema applies Java SchemaValidation.validateTableSchema, in
// Java's order. It does not model what a file format supports
// (FileFormat.validateDataFields) nor the type rules of each aggregate
// function.
func checkTableSchema(ts *schema.TableSchema) error {
	r := &optionReader{opts: ts.Options}
	t := &tableRules{
		ts:                ts,
		r:                 r,
		bucket:            r.integer(optBucket, -1),
		mergeEngine:       r.enum(mergeEngines, "deduplicate", optMergeEngine),
		changelogProducer: r.enum(changelogProducers, "none", ddlOptChangelogProducer),
		dv:                r.boolean(optDeletionVectors, false),
		fieldNames:        ts.FieldNames(),
	}
	if r.err != nil {
		return r.err
	}
	for _, check := range []func() error{
		t.checkKeyTypes, t.checkBucket, t.checkStartupMode, t.checkFieldsPrefix, t.checkSequenceField,
		t.checkMergeFunction, t.checkChangelog, t.checkRetention, t.checkFileFormat, t.checkBlobFields,
		t.checkColumnNames, t.checkMisc, t.checkVectorFields, t.checkAggFunctions, t.checkRowTracking,
		t.checkIncrementalClustering, t.checkChainTable, t.checkPkClusteringOverride,
	} {
		if err := check(); err != nil {
			return err
		}
		if r.err != nil {
			return r.err
		}
	}
	return nil
}

func (t *tableRules) field(name string) (schema.DataField, bool) { return t.ts.FieldByName(name) }

func isComplexKeyType(r schema.TypeRoot) bool {
	return r == schema.Map || r == schema.Array || r == schema.Row || r == schema.Multiset
}

// checkKeyTypes: primary, partition and upsert keys must be existing
// columns of primitive types; upsert-key excludes a primary key.
func (t *tableRules) checkKeyTypes() error {
	var upsert []string
	if v := t.ts.Options[ddlOptUpsertKey]; v != "" {
		upsert = javaSplit(v, ",")
	}
	for _, k := range []struct {
		what  string
		names []string
	}{{"primary key", t.ts.PrimaryKeys}, {"partition", t.ts.PartitionKeys}, {"upsert key", upsert}} {
		for _, name := range k.names {
			f, ok := t.field(name)
			if !ok {
				return fmt.Errorf("cannot find %s field %s", k.what, name)
			}
			if isComplexKeyType(f.Type.Root) {
				return fmt.Errorf("the type %s in %s field %s is unsupported", f.Type.Root, k.what, name)
			}
		}
	}
	if len(upsert) > 0 && len(t.ts.PrimaryKeys) > 0 {
		return fmt.Errorf("cannot define 'upsert-key' %v with 'primary-key' %v", upsert, t.ts.PrimaryKeys)
	}
	return nil
}

// checkBucket mirrors Java validateBucket.
func (t *tableRules) checkBucket() error {
	pk := len(t.ts.PrimaryKeys) > 0
	switch {
	case t.bucket == -1:
		if t.r.has(ddlOptBucketKey) {
			return fmt.Errorf("cannot define 'bucket-key' with bucket = -1, remove the 'bucket-key' setting or specify a bucket number")
		}
		if !pk && t.r.has(ddlOptFullCompactionCommits) {
			t.r.integer(ddlOptFullCompactionCommits, 0)
			return fmt.Errorf("append table of unaware or dynamic bucket does not support '%s'", ddlOptFullCompactionCommits)
		}
	case t.bucket < 1 && !(pk && t.bucket == -2):
		return fmt.Errorf("the number of buckets needs to be greater than 0 (bucket = %d)", t.bucket)
	default:
		keys := t.ts.BucketKeys()
		if !pk && len(keys) == 0 {
			return fmt.Errorf("you should define a 'bucket-key' for bucketed append mode")
		}
		for _, f := range t.ts.Fields {
			if slices.Contains(keys, f.Name) && isComplexKeyType(f.Type.Root) {
				return fmt.Errorf("nested type can not be in bucket-key: %s", f.Name)
			}
		}
	}
	return nil
}

// Scan options of validateStartupMode.
const (
	ddlOptScanTimestampMillis    = coreoptions.ScanTimestampMillis
	ddlOptScanTimestampMillisOld = "log.scan.timestamp-millis"
	ddlOptScanTimestamp          = coreoptions.ScanTimestamp
	ddlOptScanSnapshotID         = coreoptions.ScanSnapshotId
	ddlOptScanTagName            = coreoptions.ScanTagName
	ddlOptScanWatermark          = coreoptions.ScanWatermark
	ddlOptScanVersion            = coreoptions.ScanVersion
	ddlOptScanFileCreationTime   = coreoptions.ScanFileCreationTimeMillis
	ddlOptScanCreationTime       = coreoptions.ScanCreationTimeMillis
	ddlOptIncrementalBetween     = coreoptions.IncrementalBetween
	ddlOptIncrementalBetweenTS   = coreoptions.IncrementalBetweenTimestamp
	ddlOptIncrementalToAutoTag   = coreoptions.IncrementalToAutoTag
)

// checkStartupMode mirrors Java validateStartupMode: the scan options must
// fit the startup mode (given by scan.mode or derived from them).
func (t *tableRules) checkStartupMode() error {
	has := func(key string) bool {
		return t.r.has(key) || (key == ddlOptScanTimestampMillis && t.r.has(ddlOptScanTimestampMillisOld))
	}
	mode := t.r.enum(startupModes, "default", ddlOptScanMode, ddlOptScanModeFallback)
	switch mode {
	case "default":
		switch {
		case has(ddlOptScanTimestampMillis) || has(ddlOptScanTimestamp):
			mode = "from-timestamp"
		case has(ddlOptScanSnapshotID) || has(ddlOptScanTagName) || has(ddlOptScanWatermark) || has(ddlOptScanVersion):
			mode = "from-snapshot"
		case has(ddlOptScanFileCreationTime):
			mode = "from-file-creation-time"
		case has(ddlOptScanCreationTime):
			mode = "from-creation-timestamp"
		case has(ddlOptIncrementalBetween) || has(ddlOptIncrementalBetweenTS):
			mode = "incremental"
		default:
			mode = "latest-full"
		}
	case "full":
		mode = "latest-full"
	}
	exactlyOne := func(keys ...string) error {
		n := 0
		for _, k := range keys {
			if has(k) {
				n++
			}
		}
		if n != 1 {
			return fmt.Errorf("must set only one key in [%s] when you use %s for %s", strings.Join(keys, ","), mode, ddlOptScanMode)
		}
		return nil
	}
	absent := func(keys ...string) error {
		for _, k := range keys {
			if has(k) {
				return fmt.Errorf("[%s] must be null when you use %s for %s", k, mode, ddlOptScanMode)
			}
		}
		return nil
	}
	switch mode {
	case "from-timestamp":
		if err := exactlyOne(ddlOptScanTimestampMillis, ddlOptScanTimestamp); err != nil {
			return err
		}
		return absent(ddlOptScanSnapshotID, ddlOptScanFileCreationTime, ddlOptScanTagName, ddlOptIncrementalBetweenTS,
			ddlOptIncrementalBetween, ddlOptIncrementalToAutoTag)
	case "from-snapshot":
		if err := exactlyOne(ddlOptScanSnapshotID, ddlOptScanTagName, ddlOptScanWatermark); err != nil {
			return err
		}
		return absent(ddlOptScanTimestampMillis, ddlOptScanTimestamp, ddlOptScanFileCreationTime, ddlOptIncrementalBetweenTS,
			ddlOptIncrementalBetween, ddlOptIncrementalToAutoTag)
	case "incremental":
		if err := exactlyOne(ddlOptIncrementalBetween, ddlOptIncrementalBetweenTS, ddlOptIncrementalToAutoTag); err != nil {
			return err
		}
		return absent(ddlOptScanSnapshotID, ddlOptScanTimestampMillis, ddlOptScanFileCreationTime, ddlOptScanTimestamp, ddlOptScanTagName)
	case "from-snapshot-full":
		if !has(ddlOptScanSnapshotID) {
			return fmt.Errorf("%s can not be null when you use %s for %s", ddlOptScanSnapshotID, mode, ddlOptScanMode)
		}
		return absent(ddlOptScanTimestampMillis, ddlOptScanTimestamp, ddlOptScanFileCreationTime, ddlOptScanTagName,
			ddlOptIncrementalBetweenTS, ddlOptIncrementalBetween, ddlOptIncrementalToAutoTag)
	case "from-file-creation-time":
		if !has(ddlOptScanFileCreationTime) {
			return fmt.Errorf("%s can not be null when you use %s for %s", ddlOptScanFileCreationTime, mode, ddlOptScanMode)
		}
		return absent(ddlOptScanSnapshotID, ddlOptScanTimestampMillis, ddlOptScanTagName, ddlOptIncrementalBetweenTS,
			ddlOptIncrementalBetween, ddlOptIncrementalToAutoTag)
	}
	return absent(ddlOptScanTimestampMillis, ddlOptScanFileCreationTime, ddlOptScanTimestamp, ddlOptScanSnapshotID, ddlOptScanTagName,
		ddlOptIncrementalBetweenTS, ddlOptIncrementalBetween, ddlOptIncrementalToAutoTag)
}

// checkFieldsPrefix: every fields.<names>.* option names existing columns
// (Java validateFieldsPrefix).
func (t *tableRules) checkFieldsPrefix() error {
	for _, k := range slices.Sorted(maps.Keys(t.ts.Options)) {
		if !strings.HasPrefix(k, fieldsOptionPrefix) {
			continue
		}
		parts := javaSplit(k, ".")
		if len(parts) < 2 {
			return fmt.Errorf("malformed option key %q", k)
		}
		for _, f := range javaSplit(parts[1], ",") {
			if f != defaultAggFunction && !slices.Contains(t.fieldNames, f) {
				return fmt.Errorf("field %s of option %s can not be found in table schema", f, k)
			}
		}
	}
	return nil
}

// sequenceFields is Java CoreOptions.sequenceField.
func (t *tableRules) sequenceFields() []string {
	v, ok := t.ts.Options[ddlOptSequenceField]
	if !ok {
		return nil
	}
	parts := javaSplit(v, ",")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

func aggFunctionKey(field string) string { return fieldsOptionPrefixDt + field + ".aggregate-function" }

// checkSequenceField mirrors Java validateSequenceField.
func (t *tableRules) checkSequenceField() error {
	seq := t.sequenceFields()
	if len(seq) == 0 {
		return nil
	}
	for i, f := range seq {
		if !slices.Contains(t.fieldNames, f) {
			return fmt.Errorf("sequence field: '%s' can not be found in table schema", f)
		}
		if t.r.has(aggFunctionKey(f)) {
			return fmt.Errorf("should not define aggregation on sequence field: '%s'", f)
		}
		if slices.Contains(seq[i+1:], f) {
			return fmt.Errorf("sequence field '%s' is defined repeatedly", f)
		}
	}
	if t.mergeEngine == "first-row" {
		return fmt.Errorf("do not support use sequence field on first-row merge engine")
	}
	if t.ts.CrossPartitionUpdate() {
		return fmt.Errorf("you can not use sequence.field in cross partition update case "+
			"(primary key %v does not include all partition fields %v)", t.ts.PrimaryKeys, t.ts.PartitionKeys)
	}
	return nil
}

// checkMergeFunction models what building the merge function factory of a
// primary-key table checks (Java validateMergeFunction), for partial-update
// the sequence groups and the delete options.
func (t *tableRules) checkMergeFunction() error {
	if len(t.ts.PrimaryKeys) == 0 {
		return nil
	}
	switch t.mergeEngine {
	case "aggregation":
		t.r.boolean(ddlOptAggRemoveOnDelete, false)
		return nil
	case "partial-update":
	default:
		return nil
	}
	ignoreDelete := false
	for _, k := range []string{ddlOptIgnoreDelete, "first-row.ignore-delete", "deduplicate.ignore-delete", "partial-update.ignore-delete"} {
		if t.r.has(k) {
			ignoreDelete = t.r.boolean(k, false)
			break
		}
	}
	removeOnDelete := t.r.boolean(ddlOptRemoveOnDelete, false)
	groups := map[string]bool{}    // sequence fields of the groups
	protected := map[string]bool{} // fields some group protects
	for _, k := range slices.Sorted(maps.Keys(t.ts.Options)) {
		if !strings.HasPrefix(k, fieldsOptionPrefix) || !strings.HasSuffix(k, ".sequence-group") {
			continue
		}
		lo, hi := len(fieldsOptionPrefix)+1, len(k)-len("sequence-group")-1
		if lo > hi {
			return fmt.Errorf("malformed option key %q", k)
		}
		seq := javaSplit(k[lo:hi], ",")
		for _, f := range append(slices.Clone(seq), javaSplit(t.ts.Options[k], ",")...) {
			if !slices.Contains(t.fieldNames, f) {
				return fmt.Errorf("field %s can not be found in table schema", f)
			}
		}
		for _, f := range javaSplit(t.ts.Options[k], ",") {
			if protected[f] {
				return fmt.Errorf("field %s is defined repeatedly by multiple groups: %s", f, k)
			}
			protected[f] = true
		}
		for _, f := range seq {
			groups[f] = true
			protected[f] = true
		}
	}
	removeOnGroup, hasRemoveOnGroup := t.ts.Options[ddlOptRemoveOnSequenceGroup]
	if removeOnDelete && ignoreDelete {
		return fmt.Errorf("%s and %s have conflicting behavior so should not be enabled at the same time",
			ddlOptIgnoreDelete, ddlOptRemoveOnDelete)
	}
	if hasRemoveOnGroup && ignoreDelete {
		return fmt.Errorf("%s and %s have conflicting behavior so should not be enabled at the same time",
			ddlOptIgnoreDelete, ddlOptRemoveOnSequenceGroup)
	}
	if removeOnDelete && len(protected) > 0 {
		return fmt.Errorf("sequence-group and %s have conflicting behavior so should not be enabled at the same time",
			ddlOptRemoveOnDelete)
	}
	if hasRemoveOnGroup {
		for _, f := range javaSplit(removeOnGroup, ",") {
			if !groups[f] {
				return fmt.Errorf("field '%s' defined in '%s' option must be part of sequence groups",
					removeOnGroup, ddlOptRemoveOnSequenceGroup)
			}
		}
	}
	return nil
}

// checkChangelog: a changelog producer needs a primary key, and
// streaming-read-overwrite conflicts with producers that compact.
func (t *tableRules) checkChangelog() error {
	if len(t.ts.PrimaryKeys) == 0 && t.changelogProducer != "none" {
		return fmt.Errorf("can not set %s on table without primary keys, please define primary keys", ddlOptChangelogProducer)
	}
	overwrite := t.r.boolean(ddlOptStreamingReadOverwrite, false)
	if overwrite && (t.changelogProducer == "full-compaction" || t.changelogProducer == "lookup") {
		return fmt.Errorf("cannot set %s to true when changelog producer is %s because it will read duplicated changes",
			ddlOptStreamingReadOverwrite, t.changelogProducer)
	}
	return nil
}

// checkRetention: snapshot and changelog retention minimums are at least 1
// and not above the maximums.
func (t *tableRules) checkRetention() error {
	snapMin := t.r.integer(ddlOptSnapshotRetainMin, 10)
	snapMax := t.r.integer(ddlOptSnapshotRetainMax, math.MaxInt32)
	clMin := t.r.integer(ddlOptChangelogRetainMin, snapMin)
	clMax := t.r.integer(ddlOptChangelogRetainMax, snapMax)
	switch {
	case snapMin <= 0:
		return fmt.Errorf("%s should be at least 1", ddlOptSnapshotRetainMin)
	case snapMin > snapMax:
		return fmt.Errorf("%s should not be larger than %s", ddlOptSnapshotRetainMin, ddlOptSnapshotRetainMax)
	case clMin <= 0:
		return fmt.Errorf("%s should be at least 1", ddlOptChangelogRetainMin)
	case clMin > clMax:
		return fmt.Errorf("%s should not be larger than %s", ddlOptChangelogRetainMin, ddlOptChangelogRetainMax)
	}
	return nil
}

// checkFileFormat: file.format (and vector.file.format) name a format Java
// ships.
func (t *tableRules) checkFileFormat() error {
	format := defaultFileFormat
	if v, ok := t.ts.Options[optFileFormat]; ok {
		format = strings.ToLower(v)
	}
	if !slices.Contains(fileFormats, format) {
		return fmt.Errorf("option %s=%q: unknown file format (known: %s)", optFileFormat, format, strings.Join(fileFormats, ", "))
	}
	if v, ok := t.ts.Options[ddlOptVectorFileFormat]; ok && !slices.Contains(fileFormats, strings.ToLower(v)) {
		return fmt.Errorf("option %s=%q: unknown file format", ddlOptVectorFileFormat, v)
	}
	return nil
}

// checkBlobFields mirrors Java validateBlobDescriptorFields and
// validateBlobExternalStorageFields.
func (t *tableRules) checkBlobFields() error {
	isBlob := func(name string) bool {
		f, ok := t.field(name)
		return ok && f.Type.Root == schema.Blob
	}
	descriptors := optionNameSet(t.ts.Options, ddlOptBlobDescriptorField)
	for _, f := range descriptors {
		if !isBlob(f) {
			return fmt.Errorf("field '%s' in '%s' must be a BLOB field in table schema", f, ddlOptBlobDescriptorField)
		}
	}
	external := optionNameSet(t.ts.Options, ddlOptBlobExternalField)
	for _, f := range external {
		if !isBlob(f) {
			return fmt.Errorf("field '%s' in '%s' must be a BLOB field in table schema", f, ddlOptBlobExternalField)
		}
		if !slices.Contains(descriptors, f) {
			return fmt.Errorf("field '%s' in '%s' must also be in '%s'", f, ddlOptBlobExternalField, ddlOptBlobDescriptorField)
		}
	}
	if len(external) > 0 && t.ts.Options[ddlOptBlobExternalPath] == "" {
		return fmt.Errorf("'%s' must be set when '%s' is configured", ddlOptBlobExternalPath, ddlOptBlobExternalField)
	}
	return nil
}

// checkColumnNames: no column may take a system column's name.
func (t *tableRules) checkColumnNames() error {
	for _, f := range t.fieldNames {
		if slices.Contains(systemFieldNames, f) {
			return fmt.Errorf("field name [%s] in schema cannot be one of %v", f, systemFieldNames)
		}
		if strings.HasPrefix(f, keyFieldPrefix) {
			return fmt.Errorf("field name [%s] in schema cannot start with [%s]", f, keyFieldPrefix)
		}
	}
	return nil
}

// checkMisc groups Java's smaller rules: streaming-read-overwrite needs a
// primary key, partition expiration a partition, the record-level time
// field and the rowkind field must exist, first-row only takes the none and
// lookup producers, deletion vectors only some producers and engines.
func (t *tableRules) checkMisc() error {
	pk := len(t.ts.PrimaryKeys) > 0
	if !pk && t.r.boolean(ddlOptStreamingReadOverwrite, false) {
		return fmt.Errorf("doesn't support streaming read the changes from overwrite when the primary keys are not defined")
	}
	if t.r.has(ddlOptPartitionExpiration) && len(t.ts.PartitionKeys) == 0 {
		return fmt.Errorf("can not set '%s' for non-partitioned table", ddlOptPartitionExpiration)
	}
	if name, ok := t.ts.Options[ddlOptRecordLevelTimeField]; ok {
		f, ok := t.field(name)
		if !ok {
			return fmt.Errorf("can not find time field %s for record level expire", name)
		}
		switch f.Type.Root {
		case schema.Int, schema.BigInt, schema.Timestamp, schema.TimestampLTZ:
		default:
			return fmt.Errorf("the record level time field type should be one of INT, BIGINT, or TIMESTAMP, but field type is %s", f.Type)
		}
	}
	if t.mergeEngine == "first-row" && t.changelogProducer != "lookup" && t.changelogProducer != "none" {
		return fmt.Errorf("only support 'none' and 'lookup' changelog-producer on first-row merge engine")
	}
	if name, ok := t.ts.Options[ddlOptRowkindField]; ok && !slices.Contains(t.fieldNames, name) {
		return fmt.Errorf("rowkind field: '%s' can not be found in table schema", name)
	}
	if t.dv {
		switch t.changelogProducer {
		case "none", "input", "lookup":
		default:
			return fmt.Errorf("deletion vectors mode is only supported for none/input/lookup changelog producer")
		}
		if !t.r.boolean(ddlOptPkClusteringOverride, false) && t.mergeEngine == "first-row" {
			return fmt.Errorf("first row merge engine does not need deletion vectors")
		}
	}
	return nil
}

// checkVectorFields: vector-field names existing VECTOR columns.
func (t *tableRules) checkVectorFields() error {
	v := strings.TrimSpace(t.ts.Options[ddlOptVectorField])
	if v == "" {
		return nil
	}
	for _, name := range strings.Split(v, ",") {
		f, ok := t.field(name)
		if !ok {
			return fmt.Errorf("some of the columns specified as vector-field are unknown")
		}
		if f.Type.Root != schema.Vector {
			return fmt.Errorf("field name[%s] is configured as vector-field so the type must be vector, but it is %s", name, f.Type)
		}
	}
	return nil
}

// checkAggFunctions: partial-update and aggregation tables name known
// aggregate functions (Java validateMergeFunctionFactory).
func (t *tableRules) checkAggFunctions() error {
	if len(t.ts.PrimaryKeys) == 0 || t.mergeEngine == "deduplicate" || t.mergeEngine == "first-row" {
		return nil
	}
	for _, name := range t.fieldNames {
		fn, ok := t.ts.Options[aggFunctionKey(name)]
		if !ok {
			fn, ok = t.ts.Options[ddlOptFieldsDefaultAgg]
		}
		if ok && !slices.Contains(aggFunctions, fn) {
			return fmt.Errorf("unknown aggregate function %q for field %s", fn, name)
		}
	}
	return nil
}

// checkRowTracking mirrors Java validateRowTracking: row tracking needs
// bucket -1 and no primary key, data evolution needs row tracking, BLOB and
// vector-store columns need data evolution.
func (t *tableRules) checkRowTracking() error {
	rowTracking := t.r.boolean(ddlOptRowTracking, false)
	dataEvolution := t.r.boolean(ddlOptDataEvolution, false)
	if rowTracking {
		if t.bucket != -1 {
			return fmt.Errorf("cannot define %s for row tracking table, it only supports bucket = -1", optBucket)
		}
		if len(t.ts.PrimaryKeys) > 0 {
			return fmt.Errorf("cannot define %s for row tracking table", ddlOptPrimaryKey)
		}
	}
	if dataEvolution {
		switch {
		case !rowTracking:
			return fmt.Errorf("data evolution config must be enabled with %s", ddlOptRowTracking)
		case t.dv:
			return fmt.Errorf("data evolution config must be disabled with %s", optDeletionVectors)
		case t.r.boolean(ddlOptClusteringIncremental, false):
			return fmt.Errorf("data evolution config must be disabled with %s", ddlOptClusteringIncremental)
		}
	}
	blobs := 0
	for _, f := range t.ts.Fields {
		if f.Type.Root != schema.Blob {
			continue
		}
		blobs++
		if !dataEvolution {
			return fmt.Errorf("data evolution config must be enabled for table with BLOB type column")
		}
		if slices.Contains(t.ts.PartitionKeys, f.Name) {
			return fmt.Errorf("the BLOB type column can not be part of partition keys")
		}
	}
	if blobs > 0 && blobs == len(t.ts.Fields) {
		return fmt.Errorf("table with BLOB type column must have other normal columns")
	}
	if t.r.has(ddlOptVectorFileFormat) {
		for _, f := range t.ts.Fields {
			if f.Type.Root == schema.Vector && slices.Contains(t.ts.PartitionKeys, f.Name) {
				return fmt.Errorf("the vector-store columns can not be part of partition keys")
			}
		}
		if !dataEvolution {
			return fmt.Errorf("data evolution config must be enabled for table with vector-store file format")
		}
	}
	return nil
}

// checkIncrementalClustering mirrors Java validateIncrementalClustering.
func (t *tableRules) checkIncrementalClustering() error {
	if !t.r.boolean(ddlOptClusteringIncremental, false) {
		return nil
	}
	if len(t.ts.PrimaryKeys) > 0 {
		return fmt.Errorf("cannot define %s for incremental clustering table", ddlOptPrimaryKey)
	}
	if t.bucket != -1 {
		if t.r.boolean(ddlOptBucketAppendOrdered, true) {
			return fmt.Errorf("%s must be false for incremental clustering table", ddlOptBucketAppendOrdered)
		}
		if t.dv {
			return fmt.Errorf("cannot enable deletion-vectors for incremental clustering table which bucket is not -1")
		}
	}
	return nil
}

// checkChainTable mirrors Java validateChainTable.
func (t *tableRules) checkChainTable() error {
	if !t.r.boolean(ddlOptChainTable, false) {
		return nil
	}
	switch {
	case t.r.enum(tableTypes, "table", ddlOptTableType) != "table":
		return fmt.Errorf("chain table must be table type")
	case len(t.ts.PrimaryKeys) == 0:
		return fmt.Errorf("primary key is required for chain table")
	case len(t.ts.PartitionKeys) == 0:
		return fmt.Errorf("chain table must be partition table")
	case t.bucket <= 0:
		return fmt.Errorf("bucket number must be greater than 0 for chain table")
	case t.changelogProducer != "none" && t.changelogProducer != "input":
		return fmt.Errorf("changelog producer must be none or input for chain table")
	case t.dv:
		return fmt.Errorf("chain table do not support enable deletion vector")
	case !t.r.has(ddlOptPartitionTSPattern):
		return fmt.Errorf("partition timestamp pattern is required for chain table")
	case !t.r.has(ddlOptPartitionTSFormatter):
		return fmt.Errorf("partition timestamp formatter is required for chain table")
	}
	v := strings.TrimSpace(t.ts.Options[ddlOptChainPartitionKeys])
	if v == "" {
		return nil
	}
	chain := splitTrimmed(v)
	start := len(t.ts.PartitionKeys) - len(chain)
	if start < 0 || !slices.Equal(t.ts.PartitionKeys[start:], chain) {
		return fmt.Errorf("%s must be a contiguous suffix of the table's partition keys %v, got %v",
			ddlOptChainPartitionKeys, t.ts.PartitionKeys, chain)
	}
	return nil
}

// checkPkClusteringOverride mirrors Java validatePkClusteringOverride (and
// validateChangelogReadSequenceNumber, which precedes it).
func (t *tableRules) checkPkClusteringOverride() error {
	if t.r.boolean(ddlOptReadSequenceNumber, false) && len(t.ts.PrimaryKeys) == 0 {
		return fmt.Errorf("cannot enable '%s' for non-primary-key table", ddlOptReadSequenceNumber)
	}
	if !t.r.boolean(ddlOptPkClusteringOverride, false) {
		return nil
	}
	switch {
	case len(optionNameSet(t.ts.Options, ddlOptClusteringColumns)) == 0:
		return fmt.Errorf("cannot support '%s' mode without '%s'", ddlOptPkClusteringOverride, ddlOptClusteringColumns)
	case !t.dv:
		return fmt.Errorf("cannot support deletion-vectors disabled in '%s' mode", ddlOptPkClusteringOverride)
	case t.r.has(ddlOptRecordLevelExpireTime):
		return fmt.Errorf("cannot support record level expire time enabled in '%s' mode", ddlOptPkClusteringOverride)
	case t.mergeEngine != "deduplicate" && t.mergeEngine != "first-row":
		return fmt.Errorf("cannot support merge engine %s in '%s' mode", t.mergeEngine, ddlOptPkClusteringOverride)
	case len(t.sequenceFields()) > 0:
		return fmt.Errorf("cannot support sequence field %v in '%s' mode", t.sequenceFields(), ddlOptPkClusteringOverride)
	case t.changelogProducer != "none" && t.changelogProducer != "input":
		return fmt.Errorf("cannot support changelog producer %s in '%s' mode", t.changelogProducer, ddlOptPkClusteringOverride)
	}
	return nil
}

// --- type casts ----------------------------------------------------------------
//
// UpdateColumnType accepts a new type only when Java's
// DataTypeCasts.supportsCast allows it and CastExecutors.resolve finds a
// cast rule; both are modelled here.

// typeFamily is Java's DataTypeFamily (format/schema).
type typeFamily = schema.TypeFamily

const (
	famPredefined         = schema.FamilyPredefined
	famConstructed        = schema.FamilyConstructed
	famCharacterString    = schema.FamilyCharacterString
	famBinaryString       = schema.FamilyBinaryString
	famNumeric            = schema.FamilyNumeric
	famIntegerNumeric     = schema.FamilyIntegerNumeric
	famExactNumeric       = schema.FamilyExactNumeric
	famApproximateNumeric = schema.FamilyApproximateNumeric
	famDatetime           = schema.FamilyDatetime
	famTime               = schema.FamilyTime
	famTimestamp          = schema.FamilyTimestamp
	famCollection         = schema.FamilyCollection
	famExtension          = schema.FamilyExtension
)

func typeFamiliesOf(r schema.TypeRoot) []typeFamily { return r.Families() }

// allRoots are the type roots, for expanding families into roots.
var allRoots = []schema.TypeRoot{schema.Char, schema.VarChar, schema.Boolean, schema.Binary, schema.VarBinary,
	schema.Decimal, schema.TinyInt, schema.SmallInt, schema.Int, schema.BigInt, schema.Float, schema.Double,
	schema.Date, schema.Time, schema.Timestamp, schema.TimestampLTZ, schema.Variant, schema.Blob,
	schema.Array, schema.Vector, schema.Multiset, schema.Map, schema.Row}

type rootSet map[schema.TypeRoot]bool

func rootsOf(roots []schema.TypeRoot, fams ...typeFamily) rootSet {
	s := rootSet{}
	for _, r := range roots {
		s[r] = true
	}
	for _, r := range allRoots {
		for _, f := range typeFamiliesOf(r) {
			if slices.Contains(fams, f) {
				s[r] = true
			}
		}
	}
	return s
}

type castRule struct{ implicit, explicit rootSet }

// castRules are Java DataTypeCasts' implicit and explicit rules by target
// root; roots without an entry only cast from themselves.
var castRules = func() map[schema.TypeRoot]castRule {
	r := func(roots ...schema.TypeRoot) []schema.TypeRoot { return roots }
	tsRoots := r(schema.Boolean, schema.Timestamp, schema.TimestampLTZ)
	numeric := func(implicit ...schema.TypeRoot) castRule {
		return castRule{rootsOf(implicit), rootsOf(tsRoots, famNumeric, famCharacterString)}
	}
	return map[schema.TypeRoot]castRule{
		schema.Char:         {rootsOf(r(schema.Char)), rootsOf(nil, famPredefined, famConstructed)},
		schema.VarChar:      {rootsOf(nil, famCharacterString), rootsOf(nil, famPredefined, famConstructed)},
		schema.Boolean:      {rootsOf(r(schema.Boolean)), rootsOf(nil, famCharacterString, famIntegerNumeric)},
		schema.Binary:       {rootsOf(r(schema.Binary)), rootsOf(r(schema.VarBinary), famCharacterString)},
		schema.VarBinary:    {rootsOf(nil, famBinaryString), rootsOf(r(schema.Binary), famCharacterString)},
		schema.Decimal:      {rootsOf(nil, famNumeric), rootsOf(tsRoots, famCharacterString)},
		schema.TinyInt:      numeric(schema.TinyInt),
		schema.SmallInt:     numeric(schema.TinyInt, schema.SmallInt),
		schema.Int:          numeric(schema.TinyInt, schema.SmallInt, schema.Int),
		schema.BigInt:       numeric(schema.TinyInt, schema.SmallInt, schema.Int, schema.BigInt),
		schema.Float:        numeric(schema.TinyInt, schema.SmallInt, schema.Int, schema.BigInt, schema.Float, schema.Decimal),
		schema.Double:       {rootsOf(nil, famNumeric), rootsOf(tsRoots, famCharacterString)},
		schema.Date:         {rootsOf(r(schema.Date, schema.Timestamp)), rootsOf(nil, famTimestamp, famCharacterString)},
		schema.Time:         {rootsOf(r(schema.Time, schema.Timestamp)), rootsOf(nil, famTime, famTimestamp, famCharacterString)},
		schema.Timestamp:    {rootsOf(r(schema.Timestamp, schema.TimestampLTZ)), rootsOf(nil, famDatetime, famCharacterString, famNumeric)},
		schema.TimestampLTZ: {rootsOf(r(schema.TimestampLTZ, schema.Timestamp)), rootsOf(nil, famDatetime, famCharacterString, famNumeric)},
	}
}()

// supportsCast is Java DataTypeCasts.supportsCast.
func supportsCast(source, target schema.DataType, allowExplicit bool) bool {
	if source.Nullable && !target.Nullable && !allowExplicit {
		return false
	}
	if source.EqualIgnoreNullable(target) {
		return true
	}
	rule, ok := castRules[target.Root]
	if !ok {
		return source.Root == target.Root
	}
	return rule.implicit[source.Root] || (allowExplicit && rule.explicit[source.Root])
}

// castExecutorExists is Java CastExecutors.resolve(source, target) != null.
func castExecutorExists(source, target schema.DataType) bool {
	return evolution.CastExists(source, target)
}
