package mergefunc

// deduplicate mirrors Java DeduplicateMergeFunction: the last version wins,
// whatever its kind; with ignore-delete retractions are skipped (files
// written by Paimon 0.7 and older may hold them even with the option set).
type deduplicate struct {
	ignoreDelete bool
	latest       *Row
}

func newDeduplicate(o options) (func() engineFunc, error) {
	ignore, err := o.ignoreDelete()
	if err != nil {
		return nil, err
	}
	return func() engineFunc { return &deduplicate{ignoreDelete: ignore} }, nil
}

func (d *deduplicate) reset() { d.latest = nil }

func (d *deduplicate) add(r *Row) error {
	if d.ignoreDelete && r.Kind.IsRetract() {
		return nil
	}
	d.latest = r
	return nil
}

func (d *deduplicate) result() (*Row, error) { return d.latest, nil }
