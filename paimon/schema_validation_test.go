package paimon

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/javacompat"
)

// javaHashMapVectors were printed by Java 17 (java.util.HashMap) for random
// option sets: the keys inserted into a LinkedHashMap, a key put after the
// copy, a key removed after the copy, the iteration order of
// new HashMap<>(linked) once "partition" and "primary-key" are removed and
// the put/remove applied, and the iteration order of a copy of that map.
const javaHashMapVectors = `snapshot.num-retained.min|ignore-delete|target-file-size|deletion-vectors.enabled|file.format|changelog-producer|metadata.stats-mode|fields.total.aggregate-function|tag.automatic-creation|fields.b.aggregate-function|a|file.compression|primary-key|fields.a.aggregate-function|b|consumer-id|dynamic-bucket.target-row-num|日本語|snapshot.num-retained.max|partition.expiration-time|manifest.format|partial-update.remove-record-on-delete|bucket|sequence.field	fields.c,d.sequence-group	ignore-delete	fields.total.aggregate-function|consumer-id|snapshot.num-retained.min|file.compression|sequence.field|target-file-size|fields.c,d.sequence-group|file.format|metadata.stats-mode|日本語|deletion-vectors.enabled|a|b|fields.b.aggregate-function|dynamic-bucket.target-row-num|partial-update.remove-record-on-delete|tag.automatic-creation|changelog-producer|manifest.format|fields.a.aggregate-function|partition.expiration-time|bucket|snapshot.num-retained.max	fields.total.aggregate-function|a|b|fields.b.aggregate-function|dynamic-bucket.target-row-num|partial-update.remove-record-on-delete|consumer-id|tag.automatic-creation|changelog-producer|manifest.format|snapshot.num-retained.min|fields.a.aggregate-function|partition.expiration-time|bucket|file.compression|sequence.field|target-file-size|fields.c,d.sequence-group|snapshot.num-retained.max|file.format|metadata.stats-mode|日本語|deletion-vectors.enabled
metadata.stats-mode|fields.b.aggregate-function|deletion-vectors.enabled|fields.c,d.sequence-group|fields.total.aggregate-function|ignore-delete|scan.mode|write-buffer-size|partial-update.remove-record-on-delete|merge-engine|c|snapshot.num-retained.min|compaction.min.file-num|partition|consumer-id|Ωmega|fields.a.aggregate-function|bucket-key|changelog-producer|snapshot.num-retained.max|bucket|primary-key|dynamic-bucket.target-row-num|tag.automatic-creation|target-file-size|sequence.field|b			fields.total.aggregate-function|ignore-delete|consumer-id|scan.mode|snapshot.num-retained.min|sequence.field|fields.c,d.sequence-group|target-file-size|metadata.stats-mode|Ωmega|deletion-vectors.enabled|compaction.min.file-num|b|fields.b.aggregate-function|c|dynamic-bucket.target-row-num|partial-update.remove-record-on-delete|tag.automatic-creation|changelog-producer|fields.a.aggregate-function|bucket|merge-engine|bucket-key|snapshot.num-retained.max|write-buffer-size	fields.total.aggregate-function|ignore-delete|consumer-id|scan.mode|snapshot.num-retained.min|sequence.field|fields.c,d.sequence-group|target-file-size|metadata.stats-mode|Ωmega|deletion-vectors.enabled|compaction.min.file-num|b|fields.b.aggregate-function|c|dynamic-bucket.target-row-num|partial-update.remove-record-on-delete|tag.automatic-creation|changelog-producer|fields.a.aggregate-function|bucket|merge-engine|bucket-key|snapshot.num-retained.max|write-buffer-size
a|partition.expiration-time|file.compression|write-buffer-size|partial-update.remove-record-on-delete|metadata.stats-mode|fields.c,d.sequence-group|scan.mode|fields.total.aggregate-function|c|primary-key|b|file.format|merge-engine|manifest.format			a|fields.total.aggregate-function|b|c|partial-update.remove-record-on-delete|manifest.format|scan.mode|partition.expiration-time|file.compression|merge-engine|fields.c,d.sequence-group|write-buffer-size|file.format|metadata.stats-mode	a|fields.total.aggregate-function|b|c|partial-update.remove-record-on-delete|manifest.format|scan.mode|partition.expiration-time|file.compression|merge-engine|fields.c,d.sequence-group|write-buffer-size|file.format|metadata.stats-mode
sequence.field|bucket|consumer-id|file.format|primary-key|Ωmega|a|c|日本語|partial-update.remove-record-on-delete|tag.automatic-creation|deletion-vectors.enabled|partition|write-buffer-size|fields.b.aggregate-function|fields.a.aggregate-function|scan.mode|dynamic-bucket.target-row-num|snapshot.num-retained.min|ignore-delete|snapshot.num-retained.max|metadata.stats-mode|manifest.format|fields.c,d.sequence-group|file.compression|target-file-size|changelog-producer|fields.total.aggregate-function|merge-engine|partition.expiration-time|b|compaction.min.file-num|bucket-key	sequence.field		fields.total.aggregate-function|ignore-delete|consumer-id|scan.mode|snapshot.num-retained.min|file.compression|sequence.field|fields.c,d.sequence-group|target-file-size|file.format|Ωmega|日本語|metadata.stats-mode|deletion-vectors.enabled|a|compaction.min.file-num|b|c|fields.b.aggregate-function|dynamic-bucket.target-row-num|partial-update.remove-record-on-delete|tag.automatic-creation|changelog-producer|manifest.format|fields.a.aggregate-function|partition.expiration-time|bucket|merge-engine|snapshot.num-retained.max|bucket-key|write-buffer-size	fields.total.aggregate-function|ignore-delete|consumer-id|scan.mode|snapshot.num-retained.min|file.compression|sequence.field|fields.c,d.sequence-group|target-file-size|file.format|Ωmega|日本語|metadata.stats-mode|deletion-vectors.enabled|a|compaction.min.file-num|b|c|fields.b.aggregate-function|dynamic-bucket.target-row-num|partial-update.remove-record-on-delete|tag.automatic-creation|changelog-producer|manifest.format|fields.a.aggregate-function|partition.expiration-time|bucket|merge-engine|snapshot.num-retained.max|bucket-key|write-buffer-size
日本語|bucket|file.format|bucket-key|target-file-size|consumer-id|deletion-vectors.enabled|partition.expiration-time|scan.mode|write-buffer-size|compaction.min.file-num|file.compression|snapshot.num-retained.max|fields.a.aggregate-function|partial-update.remove-record-on-delete|changelog-producer|b|metadata.stats-mode|a|merge-engine|Ωmega|partition|sequence.field|fields.total.aggregate-function|tag.automatic-creation|dynamic-bucket.target-row-num|c|fields.b.aggregate-function|manifest.format|snapshot.num-retained.min|ignore-delete|primary-key		bucket	fields.total.aggregate-function|ignore-delete|consumer-id|scan.mode|snapshot.num-retained.min|file.compression|sequence.field|target-file-size|file.format|日本語|metadata.stats-mode|Ωmega|deletion-vectors.enabled|compaction.min.file-num|a|b|c|fields.b.aggregate-function|dynamic-bucket.target-row-num|partial-update.remove-record-on-delete|tag.automatic-creation|changelog-producer|manifest.format|fields.a.aggregate-function|partition.expiration-time|merge-engine|bucket-key|snapshot.num-retained.max|write-buffer-size	fields.total.aggregate-function|ignore-delete|consumer-id|scan.mode|snapshot.num-retained.min|file.compression|sequence.field|target-file-size|file.format|日本語|metadata.stats-mode|Ωmega|deletion-vectors.enabled|compaction.min.file-num|a|b|c|fields.b.aggregate-function|dynamic-bucket.target-row-num|partial-update.remove-record-on-delete|tag.automatic-creation|changelog-producer|manifest.format|fields.a.aggregate-function|partition.expiration-time|merge-engine|bucket-key|snapshot.num-retained.max|write-buffer-size
bucket-key|write-buffer-size|b|fields.total.aggregate-function|target-file-size|fields.b.aggregate-function|merge-engine|partition.expiration-time|partition|ignore-delete|fields.c,d.sequence-group|bucket|a|consumer-id|partial-update.remove-record-on-delete|snapshot.num-retained.max|compaction.min.file-num|tag.automatic-creation|changelog-producer|metadata.stats-mode|fields.a.aggregate-function|deletion-vectors.enabled|primary-key|manifest.format			fields.total.aggregate-function|ignore-delete|consumer-id|target-file-size|fields.c,d.sequence-group|metadata.stats-mode|deletion-vectors.enabled|a|compaction.min.file-num|b|fields.b.aggregate-function|partial-update.remove-record-on-delete|tag.automatic-creation|changelog-producer|manifest.format|fields.a.aggregate-function|partition.expiration-time|bucket|merge-engine|bucket-key|snapshot.num-retained.max|write-buffer-size	fields.total.aggregate-function|a|compaction.min.file-num|b|fields.b.aggregate-function|ignore-delete|partial-update.remove-record-on-delete|consumer-id|tag.automatic-creation|changelog-producer|manifest.format|fields.a.aggregate-function|partition.expiration-time|bucket|merge-engine|target-file-size|fields.c,d.sequence-group|bucket-key|snapshot.num-retained.max|write-buffer-size|metadata.stats-mode|deletion-vectors.enabled
file.compression|target-file-size|consumer-id|fields.b.aggregate-function|fields.a.aggregate-function|scan.mode|ignore-delete|file.format|fields.total.aggregate-function|partition|日本語|tag.automatic-creation|bucket|sequence.field|write-buffer-size|c|Ωmega|a|partial-update.remove-record-on-delete|compaction.min.file-num|merge-engine|partition.expiration-time|deletion-vectors.enabled|snapshot.num-retained.max|manifest.format	fields.c,d.sequence-group		fields.total.aggregate-function|ignore-delete|consumer-id|scan.mode|file.compression|sequence.field|target-file-size|fields.c,d.sequence-group|file.format|日本語|Ωmega|deletion-vectors.enabled|a|compaction.min.file-num|fields.b.aggregate-function|c|partial-update.remove-record-on-delete|tag.automatic-creation|manifest.format|fields.a.aggregate-function|partition.expiration-time|bucket|merge-engine|snapshot.num-retained.max|write-buffer-size	fields.total.aggregate-function|ignore-delete|consumer-id|scan.mode|file.compression|sequence.field|target-file-size|fields.c,d.sequence-group|file.format|日本語|Ωmega|deletion-vectors.enabled|a|compaction.min.file-num|fields.b.aggregate-function|c|partial-update.remove-record-on-delete|tag.automatic-creation|manifest.format|fields.a.aggregate-function|partition.expiration-time|bucket|merge-engine|snapshot.num-retained.max|write-buffer-size
c|ignore-delete|scan.mode|write-buffer-size|partition.expiration-time|Ωmega|file.format|fields.total.aggregate-function|fields.a.aggregate-function|merge-engine|changelog-producer|file.compression|partition|compaction.min.file-num|日本語|metadata.stats-mode|manifest.format|snapshot.num-retained.max|fields.c,d.sequence-group|snapshot.num-retained.min|fields.b.aggregate-function|sequence.field|bucket|partial-update.remove-record-on-delete|target-file-size|primary-key			fields.total.aggregate-function|ignore-delete|scan.mode|snapshot.num-retained.min|file.compression|sequence.field|fields.c,d.sequence-group|target-file-size|file.format|Ωmega|日本語|metadata.stats-mode|compaction.min.file-num|c|fields.b.aggregate-function|partial-update.remove-record-on-delete|changelog-producer|manifest.format|fields.a.aggregate-function|partition.expiration-time|bucket|merge-engine|snapshot.num-retained.max|write-buffer-size	fields.total.aggregate-function|ignore-delete|scan.mode|snapshot.num-retained.min|file.compression|sequence.field|fields.c,d.sequence-group|target-file-size|file.format|Ωmega|日本語|metadata.stats-mode|compaction.min.file-num|c|fields.b.aggregate-function|partial-update.remove-record-on-delete|changelog-producer|manifest.format|fields.a.aggregate-function|partition.expiration-time|bucket|merge-engine|snapshot.num-retained.max|write-buffer-size
bucket-key|fields.b.aggregate-function|file.format|consumer-id|dynamic-bucket.target-row-num|fields.a.aggregate-function|c|changelog-producer|file.compression|snapshot.num-retained.min|merge-engine|metadata.stats-mode|a|sequence.field|b|fields.c,d.sequence-group		fields.b.aggregate-function	a|b|c|dynamic-bucket.target-row-num|consumer-id|changelog-producer|fields.a.aggregate-function|snapshot.num-retained.min|file.compression|merge-engine|sequence.field|fields.c,d.sequence-group|bucket-key|file.format|metadata.stats-mode	a|b|c|dynamic-bucket.target-row-num|consumer-id|changelog-producer|fields.a.aggregate-function|snapshot.num-retained.min|file.compression|merge-engine|sequence.field|fields.c,d.sequence-group|bucket-key|file.format|metadata.stats-mode
metadata.stats-mode|deletion-vectors.enabled|consumer-id|日本語|compaction.min.file-num|fields.total.aggregate-function|Ωmega|target-file-size|c|manifest.format|scan.mode|fields.a.aggregate-function|bucket|merge-engine|file.compression|file.format|tag.automatic-creation|partial-update.remove-record-on-delete|partition|sequence.field|snapshot.num-retained.min|write-buffer-size|snapshot.num-retained.max|bucket-key|dynamic-bucket.target-row-num	a		fields.total.aggregate-function|consumer-id|scan.mode|snapshot.num-retained.min|file.compression|sequence.field|target-file-size|file.format|metadata.stats-mode|日本語|Ωmega|deletion-vectors.enabled|compaction.min.file-num|a|c|dynamic-bucket.target-row-num|partial-update.remove-record-on-delete|tag.automatic-creation|manifest.format|fields.a.aggregate-function|bucket|merge-engine|snapshot.num-retained.max|bucket-key|write-buffer-size	fields.total.aggregate-function|consumer-id|scan.mode|snapshot.num-retained.min|file.compression|sequence.field|target-file-size|file.format|metadata.stats-mode|日本語|Ωmega|deletion-vectors.enabled|compaction.min.file-num|a|c|dynamic-bucket.target-row-num|partial-update.remove-record-on-delete|tag.automatic-creation|manifest.format|fields.a.aggregate-function|bucket|merge-engine|snapshot.num-retained.max|bucket-key|write-buffer-size
fields.total.aggregate-function|a|ignore-delete|write-buffer-size|partial-update.remove-record-on-delete|manifest.format|changelog-producer|compaction.min.file-num|fields.b.aggregate-function|consumer-id|metadata.stats-mode|bucket-key|dynamic-bucket.target-row-num|tag.automatic-creation|fields.c,d.sequence-group|fields.a.aggregate-function|日本語|b|partition|scan.mode|merge-engine|deletion-vectors.enabled			fields.total.aggregate-function|a|compaction.min.file-num|b|fields.b.aggregate-function|ignore-delete|dynamic-bucket.target-row-num|partial-update.remove-record-on-delete|consumer-id|tag.automatic-creation|changelog-producer|manifest.format|fields.a.aggregate-function|scan.mode|merge-engine|fields.c,d.sequence-group|bucket-key|write-buffer-size|metadata.stats-mode|日本語|deletion-vectors.enabled	fields.total.aggregate-function|a|compaction.min.file-num|b|fields.b.aggregate-function|ignore-delete|dynamic-bucket.target-row-num|partial-update.remove-record-on-delete|consumer-id|tag.automatic-creation|changelog-producer|manifest.format|fields.a.aggregate-function|scan.mode|merge-engine|fields.c,d.sequence-group|bucket-key|write-buffer-size|metadata.stats-mode|日本語|deletion-vectors.enabled
file.compression|snapshot.num-retained.max|merge-engine|dynamic-bucket.target-row-num|bucket|tag.automatic-creation|Ωmega|metadata.stats-mode|consumer-id|日本語|snapshot.num-retained.min|b|c|partition|file.format|bucket-key|target-file-size|ignore-delete|fields.total.aggregate-function|fields.a.aggregate-function|compaction.min.file-num			fields.total.aggregate-function|compaction.min.file-num|b|c|dynamic-bucket.target-row-num|ignore-delete|consumer-id|tag.automatic-creation|snapshot.num-retained.min|fields.a.aggregate-function|bucket|file.compression|merge-engine|target-file-size|snapshot.num-retained.max|bucket-key|file.format|Ωmega|metadata.stats-mode|日本語	fields.total.aggregate-function|compaction.min.file-num|b|c|dynamic-bucket.target-row-num|ignore-delete|consumer-id|tag.automatic-creation|snapshot.num-retained.min|fields.a.aggregate-function|bucket|file.compression|merge-engine|target-file-size|snapshot.num-retained.max|bucket-key|file.format|Ωmega|metadata.stats-mode|日本語
a|bucket-key|partition|scan.mode|snapshot.num-retained.min|deletion-vectors.enabled|snapshot.num-retained.max|consumer-id|changelog-producer|partial-update.remove-record-on-delete|primary-key|fields.total.aggregate-function|bucket|日本語|compaction.min.file-num|tag.automatic-creation|b|Ωmega|dynamic-bucket.target-row-num	file.format	bucket-key	a|fields.total.aggregate-function|compaction.min.file-num|b|dynamic-bucket.target-row-num|partial-update.remove-record-on-delete|consumer-id|tag.automatic-creation|changelog-producer|scan.mode|snapshot.num-retained.min|bucket|snapshot.num-retained.max|file.format|日本語|Ωmega|deletion-vectors.enabled	a|fields.total.aggregate-function|compaction.min.file-num|b|dynamic-bucket.target-row-num|partial-update.remove-record-on-delete|consumer-id|tag.automatic-creation|changelog-producer|scan.mode|snapshot.num-retained.min|bucket|snapshot.num-retained.max|file.format|日本語|Ωmega|deletion-vectors.enabled
fields.a.aggregate-function|consumer-id|merge-engine|sequence.field|compaction.min.file-num|changelog-producer|snapshot.num-retained.max|target-file-size|tag.automatic-creation|日本語|fields.b.aggregate-function|metadata.stats-mode|partition|write-buffer-size|partial-update.remove-record-on-delete|a|primary-key|file.compression|manifest.format|fields.total.aggregate-function|ignore-delete|b			compaction.min.file-num|a|fields.total.aggregate-function|b|fields.b.aggregate-function|ignore-delete|partial-update.remove-record-on-delete|consumer-id|tag.automatic-creation|changelog-producer|manifest.format|fields.a.aggregate-function|file.compression|merge-engine|sequence.field|target-file-size|snapshot.num-retained.max|write-buffer-size|日本語|metadata.stats-mode	compaction.min.file-num|a|fields.total.aggregate-function|b|fields.b.aggregate-function|ignore-delete|partial-update.remove-record-on-delete|consumer-id|tag.automatic-creation|changelog-producer|manifest.format|fields.a.aggregate-function|file.compression|merge-engine|sequence.field|target-file-size|snapshot.num-retained.max|write-buffer-size|日本語|metadata.stats-mode
`

func TestJavaHashMapOrder(t *testing.T) {
	split := func(s string) []string {
		if s == "" {
			return nil
		}
		return strings.Split(s, "|")
	}
	lines := strings.Split(strings.TrimSpace(javaHashMapVectors), "\n")
	require.NotEmpty(t, lines)
	for i, line := range lines {
		cols := strings.Split(line, "\t")
		require.Len(t, cols, 5, "line %d", i)
		inserted, put, removed := split(cols[0]), cols[1], cols[2]
		vals := map[string]string{}
		for _, k := range inserted {
			vals[k] = "v"
		}
		m := javacompat.CopyStringMap(inserted, vals)
		m.Remove("partition")
		m.Remove("primary-key")
		if put != "" {
			m.Put(put, "x")
		}
		if removed != "" {
			m.Remove(removed)
		}
		require.Equal(t, split(cols[3]), m.Keys(), "line %d: copy", i)
		require.Equal(t, split(cols[4]), m.Copy().Keys(), "line %d: copy of copy", i)
	}
}

// TestTypeCasts checks the model of Java's DataTypeCasts.supportsCast and
// CastExecutors.resolve that UpdateColumnType relies on.
func TestTypeCasts(t *testing.T) {
	p := func(s string) schema.DataType {
		t.Helper()
		dt, err := schema.ParseType(s)
		require.NoError(t, err, s)
		return dt
	}
	tests := []struct {
		from, to string
		explicit bool // allow explicit casts
		want     bool
	}{
		{"SMALLINT", "INT", false, true},
		{"INT", "SMALLINT", false, false}, // narrowing is explicit
		{"INT", "SMALLINT", true, true},
		{"FLOAT", "DOUBLE", false, true},
		{"DECIMAL(10, 2)", "DECIMAL(20, 2)", false, true},
		{"DECIMAL(10, 2)", "FLOAT", false, true},
		{"INT", "STRING", false, false},
		{"INT", "STRING", true, true},
		{"STRING", "INT", true, true},
		{"TIMESTAMP(3)", "TIMESTAMP(6)", false, true},
		{"TIMESTAMP(3)", "TIMESTAMP(3) WITH LOCAL TIME ZONE", false, true},
		{"TIME", "TIMESTAMP(3)", true, true},
		{"DATE", "STRING", true, true},
		{"DATE", "STRING NOT NULL", true, false}, // the DATE→STRING rule is keyed by nullable STRING
		{"DATE", "VARCHAR(10)", true, false},
		{"DATE", "INT", true, false},
		{"INT", "DATE", true, false},
		{"INT", "TIMESTAMP(3)", true, true},
		{"DOUBLE", "TIMESTAMP(3)", true, false}, // Java's rule only creates a cast from INT and BIGINT
		{"TIMESTAMP(3)", "BIGINT", true, true},
		{"TIMESTAMP(3)", "SMALLINT", true, false},
		{"BOOLEAN", "INT", true, true},
		{"INT", "BOOLEAN", true, true},
		{"BOOLEAN", "BOOLEAN", true, false}, // no cast rule targets BOOLEAN from BOOLEAN
		{"BYTES", "STRING", true, true},
		{"STRING", "BYTES", true, true},
		{"BINARY(4)", "BYTES", false, true},
		{"ARRAY<INT>", "ARRAY<BIGINT>", true, false},
		{"ARRAY<INT>", "STRING", true, true},
		{"STRING", "ARRAY<INT>", true, false}, // DataTypeCasts has no explicit rule into ARRAY
		{"INT", "INT NOT NULL", false, false},
		{"INT", "INT NOT NULL", true, true},
		{"CHAR(3)", "VARCHAR(5)", false, true},
		{"VARIANT", "STRING", true, false},
	}
	for _, tt := range tests {
		from, to := p(tt.from), p(tt.to)
		got := supportsCast(from, to, tt.explicit) && castExecutorExists(from, to)
		require.Equal(t, tt.want, got, "%s -> %s (explicit %t)", tt.from, tt.to, tt.explicit)
	}
}
