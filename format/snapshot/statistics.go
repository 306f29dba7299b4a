package snapshot

import (
	"encoding/json"
	"fmt"
)

// Statistics is the content of a statistics/stat-<uuid>-<n> file written by
// ANALYZE; it mirrors Java org.apache.paimon.stats.Statistics. It is purely
// advisory (query planning) and referenced by Snapshot.Statistics.
type Statistics struct {
	// SnapshotID is the snapshot the statistics were collected from.
	SnapshotID int64
	// SchemaID is that snapshot's schema id; statistics are inherited by later
	// snapshots only while the schema id is unchanged.
	SchemaID int64
	// MergedRecordCount is the number of records after merging.
	MergedRecordCount *int64
	// MergedRecordSize is the size of those records in bytes.
	MergedRecordSize *int64
	// ColStats maps column names to their statistics. Java always writes the
	// member: nil is written as null, an empty map as "{ }". A nil entry is a
	// Java null value.
	ColStats map[string]*ColStats

	// colOrder is the document order of ColStats when decoded from a file whose
	// keys were not sorted.
	colOrder []string
}

// ColStats holds the statistics of one column; it mirrors Java
// org.apache.paimon.stats.ColStats. Min and Max are the values serialized to
// strings by the column type's Java serializer
// (Serializer.serializeToString); interpreting them needs the schema.
type ColStats struct {
	// ColID is the field id of the column.
	ColID int32
	// DistinctCount is the number of distinct values.
	DistinctCount *int64
	// Min is the smallest value, serialized to a string.
	Min *string
	// Max is the largest value, serialized to a string.
	Max *string
	// NullCount is the number of nulls.
	NullCount *int64
	// AvgLen is the average length of the values in bytes.
	AvgLen *int64
	// MaxLen is the largest length of a value in bytes.
	MaxLen *int64
}

// DecodeStatistics parses the JSON of a statistics file. Unknown members are
// ignored. Jackson's scalar coercion is mirrored for min and max: a number
// there is kept as its text.
func DecodeStatistics(data []byte) (*Statistics, error) {
	members, err := readObject(data)
	if err != nil {
		return nil, fmt.Errorf("%w: statistics: %v", ErrCorrupt, err)
	}
	s := &Statistics{}
	for _, m := range members {
		switch m.name {
		case "snapshotId":
			s.SnapshotID, _, err = parseInt64(m.value)
		case "schemaId":
			s.SchemaID, _, err = parseInt64(m.value)
		case "mergedRecordCount":
			s.MergedRecordCount, err = optInt64(m.value)
		case "mergedRecordSize":
			s.MergedRecordSize, err = optInt64(m.value)
		case "colStats":
			err = s.decodeColStats(m.value)
		}
		if err != nil {
			return nil, fmt.Errorf("%w: statistics member %q: %v", ErrCorrupt, m.name, err)
		}
	}
	return s, nil
}

func (s *Statistics) decodeColStats(raw json.RawMessage) error {
	s.ColStats, s.colOrder = nil, nil
	if isNull(raw) {
		return nil
	}
	members, err := readObject(raw)
	if err != nil {
		return err
	}
	s.ColStats = make(map[string]*ColStats, len(members))
	order := make([]string, 0, len(members))
	for _, m := range members {
		cs, err := decodeColStats(m.value)
		if err != nil {
			return fmt.Errorf("column %q: %w", m.name, err)
		}
		if _, dup := s.ColStats[m.name]; !dup {
			order = append(order, m.name)
		}
		s.ColStats[m.name] = cs
	}
	s.colOrder = decodedOrder(order)
	return nil
}

func decodeColStats(raw json.RawMessage) (*ColStats, error) {
	if isNull(raw) {
		return nil, nil
	}
	members, err := readObject(raw)
	if err != nil {
		return nil, err
	}
	cs := &ColStats{}
	for _, m := range members {
		switch m.name {
		case "colId":
			cs.ColID, _, err = parseInt32(m.value)
		case "distinctCount":
			cs.DistinctCount, err = optInt64(m.value)
		case "min":
			cs.Min, err = optScalarString(m.value)
		case "max":
			cs.Max, err = optScalarString(m.value)
		case "nullCount":
			cs.NullCount, err = optInt64(m.value)
		case "avgLen":
			cs.AvgLen, err = optInt64(m.value)
		case "maxLen":
			cs.MaxLen, err = optInt64(m.value)
		}
		if err != nil {
			return nil, fmt.Errorf("member %q: %w", m.name, err)
		}
	}
	return cs, nil
}

// optScalarString decodes a String member that Jackson would also fill from a
// number or boolean (scalar coercion), keeping the literal text.
func optScalarString(raw json.RawMessage) (*string, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	switch v.(type) {
	case nil:
		return nil, nil
	case string:
		return optString(raw)
	case float64, bool:
		text := string(trimSpace(raw))
		return &text, nil
	}
	return nil, fmt.Errorf("not a scalar: %s", trimSpace(raw))
}

// Encode returns the JSON Java writes for s (Statistics.toJson): members in
// @JsonCreator order, null optional members left out.
func (s *Statistics) Encode() []byte {
	w := newPrettyWriter()
	w.BeginObject()
	w.int64Field("snapshotId", s.SnapshotID)
	w.int64Field("schemaId", s.SchemaID)
	w.optInt64Field("mergedRecordCount", s.MergedRecordCount)
	w.optInt64Field("mergedRecordSize", s.MergedRecordSize)
	w.Name("colStats")
	if s.ColStats == nil {
		w.Null()
	} else {
		w.BeginObject()
		for _, name := range orderedKeys(s.ColStats, s.colOrder) {
			w.Name(name)
			cs := s.ColStats[name]
			if cs == nil {
				w.Null()
				continue
			}
			w.BeginObject()
			w.int64Field("colId", int64(cs.ColID))
			w.optInt64Field("distinctCount", cs.DistinctCount)
			w.optStringField("min", cs.Min)
			w.optStringField("max", cs.Max)
			w.optInt64Field("nullCount", cs.NullCount)
			w.optInt64Field("avgLen", cs.AvgLen)
			w.optInt64Field("maxLen", cs.MaxLen)
			w.EndObject()
		}
		w.EndObject()
	}
	w.EndObject()
	return w.Bytes()
}
