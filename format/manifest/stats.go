package manifest

// SimpleStats holds min/max values and null counts of a set of columns (Java
// org.apache.paimon.stats.SimpleStats), as stored in _KEY_STATS,
// _VALUE_STATS and _PARTITION_STATS.
type SimpleStats struct {
	// MinValues is the serialized BinaryRow of per-column minimums (4-byte
	// big-endian arity, then the row); a field is null when unknown.
	MinValues []byte `avro:"_MIN_VALUES"`
	// MaxValues is the serialized BinaryRow of per-column maximums.
	MaxValues []byte `avro:"_MAX_VALUES"`
	// NullCounts has one entry per column; a nil element is an unknown
	// count. A nil slice is a null array: readers hand it out as found, but
	// Java cannot read it (SimpleStats.fromRow dereferences it), so the
	// writers refuse it. Java writes an empty array for "no stats".
	NullCounts []*int64 `avro:"_NULL_COUNTS"`
}

// emptyRowLen is the length of a serialized BinaryRow of arity 0: the
// big-endian arity 0 followed by the 8-byte null-bit region, all zero (Java
// BinaryRow.EMPTY_ROW through SerializationUtils.serializeBinaryRow).
const emptyRowLen = 12

// EmptyRow returns a fresh serialized BinaryRow of arity 0, the partition of
// unpartitioned tables and the min/max key of append-table files.
func EmptyRow() []byte { return make([]byte, emptyRowLen) }

// EmptyStats returns Java's SimpleStats.EMPTY_STATS: arity-0 min and max
// rows and an empty (not null) null-count array. Writers use it for columns
// without statistics, e.g. the key stats of append tables.
func EmptyStats() SimpleStats {
	return SimpleStats{
		MinValues:  EmptyRow(),
		MaxValues:  EmptyRow(),
		NullCounts: []*int64{},
	}
}

// IsEmpty reports whether s carries no statistics, the condition Java
// SimpleStats.fromRow maps to EMPTY_STATS: both rows have arity 0 and the
// null-count array is empty or null.
func (s *SimpleStats) IsEmpty() bool {
	return rowArity(s.MinValues) == 0 && rowArity(s.MaxValues) == 0 && len(s.NullCounts) == 0
}

// rowArity reads the arity prefix of a serialized BinaryRow, or -1 if the
// bytes are too short to hold one.
func rowArity(b []byte) int64 {
	if len(b) < 4 {
		return -1
	}
	return int64(int32(uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])))
}
