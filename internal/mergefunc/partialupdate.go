package mergefunc

import (
	"slices"

	"github.com/paimon-go/paimon-go/format/data"
)

// partialUpdate mirrors Java 1.4.2 PartialUpdateMergeFunction.
//
// Without sequence groups every non-null input field overwrites the
// accumulated one. With sequence groups (fields.<s1>,<s2>.sequence-group =
// f1,f2) the fields of a group are only updated by a version whose sequence
// fields compare >= the accumulated ones (NULL lowest; a version whose
// sequence fields of the group are all NULL leaves the group alone); fields
// with an aggregate function fold instead of overwrite, and fold "reversed"
// for an older version.
//
// Retractions (-U/-D): with ignore-delete they are skipped (but the first
// version of a key, even a retraction, seeds the row, as in Java); with
// sequence groups they retract the groups they are newer for (normal
// fields become NULL, aggregated fields call retract), and a -D of a group
// named in partial-update.remove-record-on-sequence-group deletes the row;
// with partial-update.remove-record-on-delete a -D deletes the row;
// otherwise they are refused (ErrMerge). The result is a -D when the row
// was deleted or no insert was seen.
type partialUpdate struct {
	nullable       []bool
	ignoreDelete   bool
	groupOf        []*seqGroup // per field: the group it belongs to (protected or sequence field), nil if none
	aggs           []fieldAgg  // per field, nil if none
	groupsEnabled  bool
	removeOnDelete bool
	partialDelete  map[int]bool // sequence fields whose group's -D removes the row

	latestSeq     int64
	row           []any
	deleteRow     bool
	notNullFilled bool
	meetInsert    bool
}

// seqGroup is the comparator of one sequence group.
type seqGroup struct {
	cmp *seqComparator
}

func (g *seqGroup) isSequenceField(i int) bool { return slices.Contains(g.cmp.fields, i) }

func (p *partialUpdate) reset() {
	p.latestSeq = 0
	p.row = make([]any, len(p.nullable))
	p.meetInsert = false
	p.notNullFilled = false
	for _, a := range p.aggs {
		if a != nil {
			a.reset()
		}
	}
}

func (p *partialUpdate) add(r *Row) error {
	p.deleteRow = false
	if r.Kind.IsRetract() {
		if !p.notNullFilled {
			row, err := initRow(r.Values, p.nullable)
			if err != nil {
				return err
			}
			p.row = row
			p.notNullFilled = true
		}
		if p.ignoreDelete {
			return nil
		}
		p.latestSeq = r.Seq
		if p.groupsEnabled {
			return p.retractWithGroups(r)
		}
		if p.removeOnDelete {
			if r.Kind == data.Delete {
				row, err := initRow(r.Values, p.nullable)
				if err != nil {
					return err
				}
				p.deleteRow = true
				p.row = row
			}
			return nil
		}
		return mergeErrf("by default, partial update can not accept delete records (got %s); configure 'ignore-delete' to ignore them, "+
			"'partial-update.remove-record-on-delete' to remove the whole row on delete, or sequence groups to retract partial columns "+
			"(with 'partial-update.remove-record-on-sequence-group' to remove the whole row on a delete of those groups)", r.Kind)
	}
	p.latestSeq = r.Seq
	var err error
	if p.groupsEnabled {
		err = p.updateWithGroups(r)
	} else {
		err = p.updateNonNull(r)
	}
	if err != nil {
		return err
	}
	p.meetInsert = true
	p.notNullFilled = true
	return nil
}

func (p *partialUpdate) updateNonNull(r *Row) error {
	for i, v := range r.Values {
		if v != nil {
			p.row[i] = v
		} else if !p.nullable[i] {
			return mergeErrf("field %d can not be null", i)
		}
	}
	return nil
}

// emptyGroup reports whether the version has no value in any sequence field
// of g; the answer is remembered per sequence field for this version.
func (p *partialUpdate) emptyGroup(r *Row, g *seqGroup, empty []bool) bool {
	if empty[g.cmp.fields[0]] {
		return true
	}
	for _, i := range g.cmp.fields {
		if r.Values[i] != nil {
			return false
		}
	}
	for _, i := range g.cmp.fields {
		empty[i] = true
	}
	return true
}

func (p *partialUpdate) updateWithGroups(r *Row) error {
	empty := make([]bool, len(p.row))
	for i := range p.row {
		g, a := p.groupOf[i], p.aggs[i]
		acc, in := p.row[i], r.Values[i]
		if g == nil {
			if a != nil {
				v, err := a.agg(acc, in)
				if err != nil {
					return err
				}
				p.row[i] = v
			} else if in != nil {
				p.row[i] = in
			}
			continue
		}
		if p.emptyGroup(r, g, empty) {
			continue
		}
		c, err := g.cmp.compare(r.Values, p.row)
		if err != nil {
			return err
		}
		switch {
		case c >= 0 && g.isSequenceField(i):
			// All sequence fields of the group move together.
			for _, s := range g.cmp.fields {
				p.row[s] = r.Values[s]
			}
		case c >= 0:
			if a == nil {
				p.row[i] = in
			} else {
				v, err := a.agg(acc, in)
				if err != nil {
					return err
				}
				p.row[i] = v
			}
		case a != nil:
			v, err := aggReversed(a, acc, in)
			if err != nil {
				return err
			}
			p.row[i] = v
		}
	}
	return nil
}

func (p *partialUpdate) retractWithGroups(r *Row) error {
	updated := make(map[int]bool)
	empty := make([]bool, len(p.row))
	for i := range p.row {
		g, a := p.groupOf[i], p.aggs[i]
		if g == nil {
			continue
		}
		if p.emptyGroup(r, g, empty) {
			continue
		}
		c, err := g.cmp.compare(r.Values, p.row)
		if err != nil {
			return err
		}
		switch {
		case c >= 0 && g.isSequenceField(i):
			for _, s := range g.cmp.fields {
				if updated[s] {
					continue
				}
				if r.Kind == data.Delete && p.partialDelete[s] {
					row, err := initRow(r.Values, p.nullable)
					if err != nil {
						return err
					}
					p.deleteRow = true
					p.row = row
					return nil
				}
				p.row[s] = r.Values[s]
				updated[s] = true
			}
		case c >= 0 && a == nil:
			p.row[i] = nil
		case a != nil:
			v, err := a.retract(p.row[i], r.Values[i])
			if err != nil {
				return err
			}
			p.row[i] = v
		}
	}
	return nil
}

func (p *partialUpdate) result() (*Row, error) {
	kind := data.Insert
	if p.deleteRow || !p.meetInsert {
		kind = data.Delete
	}
	return &Row{Seq: p.latestSeq, Kind: kind, Values: p.row}, nil
}
