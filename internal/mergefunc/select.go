package mergefunc

// selectingFactory makes the Functions of the deduplicate and first-row
// engines. Both pick one version of a key unchanged, so their Functions also
// report which version won (Selected) and accept rows without values: the
// merge reader then copies the winner straight from its batch instead of
// decoding every version into values (the fast path of
// internal/mergetree.Selector).
type selectingFactory struct {
	firstRow     bool
	ignoreDelete bool
	arity        int
}

// New implements Factory.
func (f *selectingFactory) New() Function {
	return &selecting{firstRow: f.firstRow, ignoreDelete: f.ignoreDelete, arity: f.arity, winner: -1}
}

// selecting is deduplicate or first-row wrapped like Java's
// ReducerMergeFunctionWrapper: a key with one version returns it unchanged,
// whatever its kind; with two or more, Java's DeduplicateMergeFunction keeps
// the last version (skipping retractions under ignore-delete) and
// FirstRowMergeFunction the first insert (refusing retractions unless
// ignore-delete).
type selecting struct {
	firstRow     bool
	ignoreDelete bool
	arity        int
	rows         []*Row
	winner       int
}

// Reset implements Function.
func (s *selecting) Reset() {
	clear(s.rows)
	s.rows = s.rows[:0]
	s.winner = -1
}

// Add implements Function. Values may be empty: only kinds are looked at.
func (s *selecting) Add(r *Row) error {
	if r == nil {
		return mergeErrf("nil row")
	}
	if r.Kind < 0 || r.Kind > 3 {
		return mergeErrf("invalid row kind %d", r.Kind)
	}
	if len(r.Values) != 0 && len(r.Values) != s.arity {
		return mergeErrf("row of %d values for %d fields", len(r.Values), s.arity)
	}
	s.rows = append(s.rows, r)
	n := len(s.rows)
	if n == 1 {
		return nil
	}
	if n == 2 {
		// The engine now sees the held-back first version too.
		s.winner = -1
		if err := s.consider(0); err != nil {
			return err
		}
	}
	return s.consider(n - 1)
}

func (s *selecting) consider(i int) error {
	r := s.rows[i]
	if s.firstRow {
		if r.Kind.IsRetract() {
			if s.ignoreDelete {
				return nil
			}
			return mergeErrf("by default, first row merge engine can not accept DELETE/UPDATE_BEFORE records (got %s); "+
				"configure 'ignore-delete' to ignore them", r.Kind)
		}
		if s.winner < 0 {
			s.winner = i
		}
		return nil
	}
	if s.ignoreDelete && r.Kind.IsRetract() {
		return nil
	}
	s.winner = i
	return nil
}

// Selected returns the position of the winning version among those added
// since Reset, or -1 when the key yields no row.
func (s *selecting) Selected() int {
	if len(s.rows) == 1 {
		return 0
	}
	return s.winner
}

// Result implements Function.
func (s *selecting) Result() (*Row, error) {
	if i := s.Selected(); i >= 0 {
		return s.rows[i], nil
	}
	return nil, nil
}
