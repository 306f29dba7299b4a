package predicate

// TestStats reports whether some row of a set summarised by column
// statistics may match b (Java Predicate.test(rowCount, minValues,
// maxValues, nullCounts)). min, max and nullCounts are indexed like the
// fields given to Bind; a nil min/max entry or a missing index means
// unknown, and a nil null count means unknown. The answer is false only
// when the statistics prove no row matches.
//
// Per function, as in Java: when the null count is known and equals
// rowCount (all NULL), comparisons, IN, NOT IN and STARTS WITH are false,
// IS NULL is true iff rowCount > 0 and IS NOT NULL is false; otherwise an
// unknown min or max gives true. Malformed statistics (a value of the wrong
// Go type) also give true.
func (b *Bound) TestStats(rowCount int64, min, max []any, nullCounts []*int64) bool {
	switch b.kind {
	case KindAnd:
		for _, c := range b.children {
			if !c.TestStats(rowCount, min, max, nullCounts) {
				return false
			}
		}
		return true
	case KindOr:
		for _, c := range b.children {
			if c.TestStats(rowCount, min, max, nullCounts) {
				return true
			}
		}
		return false
	}
	lo, hi := at(min, b.index), at(max, b.index)
	var nc *int64
	if b.index < len(nullCounts) {
		nc = nullCounts[b.index]
	}
	allNull := nc != nil && *nc == rowCount
	if !allNull && (lo == nil || hi == nil) {
		return true // Java LeafPredicate: unknown stats
	}
	switch b.kind {
	case KindIsNull: // Java IsNull
		return nc == nil || *nc > 0
	case KindIsNotNull: // Java IsNotNull
		return nc == nil || *nc < rowCount
	case KindIn, KindNotIn:
		if allNull {
			return false
		}
		return b.inStats(lo, hi)
	}
	// Java LeafBinaryFunction.
	if allNull || len(b.literals) == 0 || b.literals[0] == nil {
		// Java throws on a NULL literal with unknown null count; no row can
		// match a comparison with NULL, so false is the sound answer.
		return false
	}
	lit := b.literals[0]
	if b.kind == KindStartsWith {
		return startsWithStats(lit, lo, hi)
	}
	cl, ok1 := compare(lit, lo)
	ch, ok2 := compare(lit, hi)
	if !ok1 || !ok2 {
		return true
	}
	switch b.kind {
	case KindEqual:
		return cl >= 0 && ch <= 0
	case KindNotEqual:
		return cl != 0 || ch != 0
	case KindLessThan:
		return cl > 0
	case KindLessOrEqual:
		return cl >= 0
	case KindGreaterThan:
		return ch < 0
	case KindGreaterOrEqual:
		return ch <= 0
	}
	return true
}

// inStats mirrors Java In/NotIn.test on statistics.
func (b *Bound) inStats(lo, hi any) bool {
	if b.kind == KindIn {
		for _, l := range b.literals {
			if l == nil {
				continue
			}
			cl, ok1 := compare(l, lo)
			ch, ok2 := compare(l, hi)
			if !ok1 || !ok2 || (cl >= 0 && ch <= 0) {
				return true
			}
		}
		return false
	}
	for _, l := range b.literals {
		if l == nil {
			return false
		}
		cl, ok1 := compare(l, lo)
		ch, ok2 := compare(l, hi)
		if ok1 && ok2 && cl == 0 && ch == 0 {
			return false
		}
	}
	return true
}

// startsWithStats mirrors Java StartsWith.test on statistics: some string
// in [min, max] may start with the prefix.
func startsWithStats(lit, lo, hi any) bool {
	p, ok1 := lit.(string)
	mn, ok2 := lo.(string)
	mx, ok3 := hi.(string)
	if !ok1 || !ok2 || !ok3 {
		return true
	}
	return (hasPrefix(mn, p) || mn <= p) && (hasPrefix(mx, p) || mx >= p)
}

func at(vs []any, i int) any {
	if i < 0 || i >= len(vs) {
		return nil
	}
	return vs[i]
}
