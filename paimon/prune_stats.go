package paimon

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/manifest"
	"github.com/paimon-go/paimon-go/format/schema"
)

// statsLayout is how the statistics row of the files written with one
// schema (and one _VALUE_STATS_COLS list) maps onto the scan's fields. It
// is worked out once per schema instead of once per file, like Java's
// SimpleStatsEvolutions caches one evolution per schema id.
type statsLayout struct {
	keep    bool              // the statistics cannot be mapped: keep every such file
	types   []schema.DataType // type of each statistics column in the file
	idx     []int             // scan field of each column; -1 when the filter does not test it
	convert []bool            // the column's type changed since the file was written
	added   []int             // scan fields the file's schema lacks: NULL in all its rows
}

// layoutCache holds the layouts of one pruner.
type layoutCache struct {
	mu   sync.Mutex
	m    map[string]*statsLayout
	last struct { // the files of a manifest mostly share one layout
		schemaID int64
		cols     []string
		pk       bool
		l        *statsLayout
	}
}

// statsScratch is the per-file working memory of keepFile, reused from file
// to file by one pruneEntries call.
type statsScratch struct {
	mins, maxs []any
	nulls      []*int64
	rowCount   int64
}

func (sc *statsScratch) reset(n int) {
	if cap(sc.mins) < n {
		sc.mins, sc.maxs, sc.nulls = make([]any, n), make([]any, n), make([]*int64, n)
	}
	sc.mins, sc.maxs, sc.nulls = sc.mins[:n], sc.maxs[:n], sc.nulls[:n]
	clear(sc.mins)
	clear(sc.maxs)
	clear(sc.nulls)
}

// keepFile tests the filter against a data file's value statistics, mapped
// from the schema the file was written with to the scan's schema by field
// id (Java AppendOnlyFileStoreScan.filterByStats with SimpleStatsEvolutions).
// Only the columns the filter tests are decoded, as Java reads the fields of
// the statistics rows it needs.
//
// Primary-key tables are pruned by their key statistics only (Java
// KeyValueFileStoreScan): a file none of whose keys can match holds no
// version of a matching key, whereas value statistics describe versions a
// newer file may replace.
func (p *pruner) keepFile(ctx context.Context, f *manifest.DataFileMeta, sc *statsScratch) (bool, error) {
	st := p.st
	if st.dataEvolution {
		// A partial-column file's statistics describe its columns only,
		// and a column's value may come from a newer file of the same rows.
		return true, nil
	}
	pk := len(st.schema.PrimaryKeys) > 0
	l, err := p.statsLayout(ctx, f.SchemaID, statsCols(f), pk)
	if err != nil {
		return false, err
	}
	if l.keep {
		return true, nil
	}
	stats := &f.ValueStats
	if pk {
		stats = &f.KeyStats
	}
	minRow, err1 := binaryrow.ParseSerialized(stats.MinValues)
	maxRow, err2 := binaryrow.ParseSerialized(stats.MaxValues)
	if err1 != nil || err2 != nil || minRow.Arity() != len(l.types) || maxRow.Arity() != len(l.types) {
		return true, nil // statistics that do not fit the schema: no pruning
	}
	sc.reset(len(st.schema.Fields))
	for j, i := range l.idx {
		if i < 0 {
			continue
		}
		t := &l.types[j]
		lo, err1 := minRow.Value(j, t)
		hi, err2 := maxRow.Value(j, t)
		if err1 != nil || err2 != nil {
			return true, nil
		}
		if j < len(stats.NullCounts) {
			sc.nulls[i] = stats.NullCounts[j]
		}
		if l.convert[j] {
			var ok1, ok2 bool
			lo, ok1 = castStat(lo, *t, st.schema.Fields[i].Type)
			hi, ok2 = castStat(hi, *t, st.schema.Fields[i].Type)
			if !ok1 || !ok2 {
				lo, hi = nil, nil
				sc.nulls[i] = nil
			}
		}
		sc.mins[i], sc.maxs[i] = lo, hi
	}
	if !pk {
		sc.rowCount = f.RowCount
		for _, i := range l.added {
			sc.nulls[i] = &sc.rowCount
		}
	}
	return st.filter.TestStats(f.RowCount, sc.mins, sc.maxs, sc.nulls), nil
}

// statsLayout returns the layout of the statistics of files written with
// schema id and statistics columns cols (nil: all value columns); pk
// selects the key statistics of primary-key tables, which ignore cols.
func (p *pruner) statsLayout(ctx context.Context, id int64, cols []string, pk bool) (*statsLayout, error) {
	if pk {
		cols = nil
	}
	c := &p.layouts
	c.mu.Lock()
	if last := &c.last; last.l != nil && last.schemaID == id && last.pk == pk &&
		(last.cols == nil) == (cols == nil) && slices.Equal(last.cols, cols) {
		l := last.l
		c.mu.Unlock()
		return l, nil
	}
	key := layoutKey(id, cols)
	l, ok := c.m[key]
	c.mu.Unlock()
	if !ok {
		var err error
		if l, err = p.newStatsLayout(ctx, id, cols, pk); err != nil {
			return nil, err
		}
	}
	c.mu.Lock()
	if c.m == nil {
		c.m = map[string]*statsLayout{}
	}
	c.m[key] = l
	c.last.schemaID, c.last.cols, c.last.pk, c.last.l = id, cols, pk, l
	c.mu.Unlock()
	return l, nil
}

// layoutKey tells layouts apart: schema id, then whether and which
// statistics columns are listed.
func layoutKey(id int64, cols []string) string {
	key := strconv.FormatInt(id, 10)
	if cols == nil {
		return key
	}
	return key + "\x00" + strings.Join(cols, "\x00") + "\x00"
}

func (p *pruner) newStatsLayout(ctx context.Context, id int64, cols []string, pk bool) (*statsLayout, error) {
	st := p.st
	fileSchema, err := st.schemas.get(ctx, id)
	if err != nil {
		return nil, err
	}
	m := newStatsColumns(st.schema, fileSchema, cols, false, pk)
	if m.unknown {
		return &statsLayout{keep: true}, nil
	}
	tested := map[int]bool{}
	for _, leaf := range st.filter.Leaves() {
		tested[leaf.FieldIndex()] = true
	}
	l := &statsLayout{types: m.types, idx: make([]int, len(m.types)), convert: make([]bool, len(m.types))}
	for j := range l.idx {
		l.idx[j] = -1
	}
	for i, j := range m.col {
		if j >= 0 && tested[i] {
			l.idx[j], l.convert[j] = i, m.changed[i]
		}
	}
	if !pk {
		// Fields added after the file was written are all NULL in it.
		for i, missing := range m.missing {
			if missing {
				l.added = append(l.added, i)
			}
		}
	}
	return l, nil
}

// statsColumns maps the fields of one schema onto the statistics columns of
// the files written with another (Java SimpleStatsEvolution): fields are
// matched by id, and the statistics hold every field of the file schema in
// order, or only those the file's _VALUE_STATS_COLS names (dense
// statistics), or for primary-key tables the key fields. Planning prunes
// with it and the files system table renders statistics with it.
type statsColumns struct {
	// types is the file's type of each statistics column.
	types []schema.DataType
	// col is, per field of the target schema, its statistics column; -1
	// when the file lacks the field or did not collect statistics for it.
	col []int
	// missing marks the target fields the file schema lacks: all NULL in
	// the file.
	missing []bool
	// changed marks the target fields whose type changed since the file
	// was written.
	changed []bool
	// unknown is set when the statistics columns name a field the file
	// schema lacks: no target field maps to such a column, but the
	// statistics may not be what their file claims.
	unknown bool
}

// statsCols names the statistics columns of a data file: its
// _VALUE_STATS_COLS, else the columns it holds when it lists them
// (_WRITE_COLS of partial-column files of data-evolution tables and of
// compacted row-tracking files, which include _ROW_ID and
// _SEQUENCE_NUMBER), else nil (every field of its schema).
func statsCols(f *manifest.DataFileMeta) []string {
	if f.ValueStatsCols != nil {
		return f.ValueStatsCols
	}
	return f.WriteCols
}

// newStatsColumns maps the fields of to onto the statistics of files
// written with schema file; cols is the files' statistics columns (nil:
// every field), written says that they are the only columns the files hold
// (the others are all NULL in them), and pk selects the key statistics,
// which ignore cols. Row-tracking columns in cols hold no field of to.
func newStatsColumns(to, file *schema.TableSchema, cols []string, written, pk bool) *statsColumns {
	m := &statsColumns{col: make([]int, len(to.Fields)), missing: make([]bool, len(to.Fields)), changed: make([]bool, len(to.Fields))}
	statFields := file.Fields
	switch {
	case pk:
		statFields = file.TrimmedPrimaryKeyFields()
	case cols != nil:
		statFields = make([]schema.DataField, 0, len(cols))
		for _, name := range cols {
			fld, ok := file.FieldByName(name)
			switch {
			case ok:
			case name == rowIDFieldName || name == sequenceFieldName:
				fld = schema.NewField(-1, name, schema.BigIntType()) // holds no target field
			default:
				m.unknown = true
				fld = schema.DataField{ID: -1} // holds no target field
			}
			statFields = append(statFields, fld)
		}
	}
	colOf := make(map[int]int, len(statFields)) // field id -> first statistics column
	for j, fld := range statFields {
		m.types = append(m.types, fld.Type)
		if _, dup := colOf[fld.ID]; !dup {
			colOf[fld.ID] = j
		}
	}
	for i, fld := range to.Fields {
		ff, ok := file.FieldByID(fld.ID)
		j, collected := colOf[fld.ID]
		m.missing[i] = !ok || written && !collected
		if !ok || !collected {
			j = -1
		}
		m.col[i] = j
		m.changed[i] = ok && !ff.Type.EqualIgnoreFieldIDs(fld.Type)
	}
	return m
}
