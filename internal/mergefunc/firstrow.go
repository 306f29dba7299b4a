package mergefunc

// firstRow mirrors Java FirstRowMergeFunction: the first version wins. A
// retraction is skipped with ignore-delete and refused otherwise, as in
// Java.
type firstRow struct {
	ignoreDelete bool
	first        *Row
}

func newFirstRow(o options) (func() engineFunc, error) {
	ignore, err := o.ignoreDelete()
	if err != nil {
		return nil, err
	}
	return func() engineFunc { return &firstRow{ignoreDelete: ignore} }, nil
}

func (f *firstRow) reset() { f.first = nil }

func (f *firstRow) add(r *Row) error {
	if r.Kind.IsRetract() {
		if f.ignoreDelete {
			return nil
		}
		return mergeErrf("by default, first row merge engine can not accept DELETE/UPDATE_BEFORE records (got %s); "+
			"configure 'ignore-delete' to ignore them", r.Kind)
	}
	if f.first == nil {
		f.first = r
	}
	return nil
}

func (f *firstRow) result() (*Row, error) { return f.first, nil }
