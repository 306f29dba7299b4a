package paimon

import (
	"math"
	"strings"

	"github.com/paimon-go/paimon-go/format/orc"
	"github.com/paimon-go/paimon-go/format/schema"
)

// orcLTZMode reads the table's orc.timestamp-ltz.legacy.type (Java
// OrcOptions.ORC_TIMESTAMP_LTZ_LEGACY_TYPE, default true): how the ORC
// files of the table store TIMESTAMP_LTZ values.
func (st *scanState) orcLTZMode() orc.LTZMode {
	if v, ok := st.schema.Options["orc.timestamp-ltz.legacy.type"]; ok && strings.EqualFold(strings.TrimSpace(v), "false") {
		return orc.LTZInstant
	}
	return orc.LTZLegacy
}

// orcSelector returns the ORC reader's pruning callback for the residual
// filter: it turns the statistics of a stripe or row group (10,000 rows in
// Java's files) into the value model and asks the filter whether any row
// may match, as selectRowGroups does for Parquet row groups. fileFields are
// the fields read from the file (the callback's stats come in their order);
// statistics are used only for columns whose type did not change since the
// file was written, and only for the types whose ORC statistics order equals
// Paimon's (see orcStatsType). *pruned records that rows were skipped.
func (st *scanState) orcSelector(fileFields []schema.DataField, pruned *bool) func(int64, []*orc.ColumnStatistics) bool {
	if st.residual == nil {
		return nil
	}
	type col struct {
		file, read int
		typ        schema.DataType
	}
	var cols []col
	readByID := fieldsByID(st.readFields)
	for j, ff := range fileFields {
		i, ok := readByID[ff.ID]
		if !ok || !ff.Type.EqualIgnoreFieldIDs(st.readFields[i].Type) || !orcStatsType(ff.Type) {
			continue
		}
		cols = append(cols, col{file: j, read: i, typ: ff.Type})
	}
	if len(cols) == 0 {
		return nil
	}
	n := len(st.readFields)
	return func(rows int64, stats []*orc.ColumnStatistics) bool {
		mins, maxs, nulls := make([]any, n), make([]any, n), make([]*int64, n)
		for _, c := range cols {
			cs := stats[c.file]
			if cs == nil {
				continue
			}
			if cs.NumberOfValues <= uint64(rows) {
				nc := rows - int64(cs.NumberOfValues)
				nulls[c.read] = &nc
			}
			if cs.NumberOfValues == 0 {
				continue
			}
			lo, hi, ok := orcMinMax(cs, c.typ)
			if ok {
				mins[c.read], maxs[c.read] = lo, hi
			}
		}
		if st.residual.TestStats(rows, mins, maxs, nulls) {
			return true
		}
		*pruned = true
		return false
	}
}

// orcStatsType reports whether the ORC statistics of a column of type t
// bound its values in Paimon's order: booleans, integers, dates and
// VARCHAR (ORC compares strings by their UTF-8 bytes, as Paimon does).
// CHAR is left out: Java's ORC writer records the values padded with
// spaces, which its reader trims. Floating point columns are left out for
// NaN, decimals and timestamps for their lossy statistics encodings.
func orcStatsType(t schema.DataType) bool {
	switch t.Root {
	case schema.Boolean, schema.TinyInt, schema.SmallInt, schema.Int, schema.BigInt, schema.Date, schema.VarChar:
		return true
	}
	return false
}

// orcMinMax converts ORC column statistics into the value model.
func orcMinMax(cs *orc.ColumnStatistics, t schema.DataType) (any, any, bool) {
	switch t.Root {
	case schema.Boolean:
		b := cs.Bucket
		if b == nil || len(b.Count) == 0 || b.Count[0] > cs.NumberOfValues {
			return nil, nil, false
		}
		trues := b.Count[0]
		return trues == cs.NumberOfValues, trues > 0, true
	case schema.TinyInt, schema.SmallInt, schema.Int, schema.BigInt:
		s := cs.Int
		if s == nil || !s.HasMinimum || !s.HasMaximum {
			return nil, nil, false
		}
		lo, ok1 := intStat(s.Minimum, t.Root)
		hi, ok2 := intStat(s.Maximum, t.Root)
		return lo, hi, ok1 && ok2
	case schema.Date:
		s := cs.Date
		if s == nil || !s.HasMinimum || !s.HasMaximum {
			return nil, nil, false
		}
		return s.Minimum, s.Maximum, true
	case schema.VarChar:
		s := cs.String
		if s == nil {
			return nil, nil, false
		}
		lo, hi := s.Minimum, s.Maximum
		okLo, okHi := s.HasMinimum, s.HasMaximum
		if !okLo && s.HasLowerBound {
			lo, okLo = s.LowerBound, true
		}
		if !okHi && s.HasUpperBound {
			hi, okHi = s.UpperBound, true
		}
		return lo, hi, okLo && okHi
	}
	return nil, nil, false
}

func intStat(v int64, root schema.TypeRoot) (any, bool) {
	switch root {
	case schema.TinyInt:
		return int8(v), v >= math.MinInt8 && v <= math.MaxInt8
	case schema.SmallInt:
		return int16(v), v >= math.MinInt16 && v <= math.MaxInt16
	case schema.Int:
		return int32(v), v >= math.MinInt32 && v <= math.MaxInt32
	}
	return v, true
}
