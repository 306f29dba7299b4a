package paimon

import (
	"encoding/binary"

	"github.com/paimon-go/paimon-go/format/parquet"
	"github.com/paimon-go/paimon-go/format/schema"
)

// selectRowGroups returns the row groups of a Parquet data file whose footer
// statistics may match the residual filter, and whether any was skipped.
// fileFields are the fields read from the file (file names and types);
// statistics are used only for columns whose type did not change since the
// file was written, and only for types whose Parquet ordering equals
// Paimon's (booleans, integers, dates, strings). Floating point columns are
// left out because Parquet writers disagree on NaN in statistics.
func (st *scanState) selectRowGroups(groups []parquet.RowGroupInfo, fileFields []schema.DataField) ([]int, bool) {
	all := make([]int, len(groups))
	for i := range all {
		all[i] = i
	}
	if st.residual == nil || len(groups) == 0 {
		return all, false
	}
	// Column chunk position of each read field usable for pruning.
	type col struct {
		read int
		typ  schema.DataType
	}
	byName := map[string]col{}
	readByID := fieldsByID(st.readFields)
	for _, ff := range fileFields {
		i, ok := readByID[ff.ID]
		if !ok || !ff.Type.EqualIgnoreFieldIDs(st.readFields[i].Type) || !rowGroupStatsType(ff.Type) {
			continue
		}
		byName[ff.Name] = col{read: i, typ: ff.Type}
	}
	if len(byName) == 0 {
		return all, false
	}
	n := len(st.readFields)
	var out []int
	for g, rg := range groups {
		mins, maxs, nulls := make([]any, n), make([]any, n), make([]*int64, n)
		for _, cc := range rg.Columns {
			c, ok := byName[cc.Path]
			if !ok {
				continue
			}
			if cc.HasNullCount {
				nc := cc.NullCount
				nulls[c.read] = &nc
			}
			if cc.HasMinMax {
				lo, ok1 := plainStat(cc.Min, c.typ)
				hi, ok2 := plainStat(cc.Max, c.typ)
				if ok1 && ok2 {
					mins[c.read], maxs[c.read] = lo, hi
				}
			}
		}
		if st.residual.TestStats(rg.NumRows, mins, maxs, nulls) {
			out = append(out, g)
		}
	}
	return out, len(out) < len(groups)
}

func rowGroupStatsType(t schema.DataType) bool {
	switch t.Root {
	case schema.Boolean, schema.TinyInt, schema.SmallInt, schema.Int, schema.BigInt,
		schema.Date, schema.Char, schema.VarChar:
		return true
	}
	return false
}

// plainStat decodes a PLAIN-encoded Parquet statistic of a column of type t
// into the value model.
func plainStat(b []byte, t schema.DataType) (any, bool) {
	switch t.Root {
	case schema.Boolean:
		if len(b) != 1 {
			return nil, false
		}
		return b[0] != 0, true
	case schema.TinyInt, schema.SmallInt, schema.Int, schema.Date:
		if len(b) != 4 {
			return nil, false
		}
		v := int32(binary.LittleEndian.Uint32(b))
		switch t.Root {
		case schema.TinyInt:
			if v < -128 || v > 127 {
				return nil, false
			}
			return int8(v), true
		case schema.SmallInt:
			if v < -32768 || v > 32767 {
				return nil, false
			}
			return int16(v), true
		}
		return v, true
	case schema.BigInt:
		if len(b) != 8 {
			return nil, false
		}
		return int64(binary.LittleEndian.Uint64(b)), true
	case schema.Char, schema.VarChar:
		return string(b), true
	}
	return nil, false
}
