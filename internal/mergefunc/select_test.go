package mergefunc_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/mergefunc"
)

// TestSelectedWithoutValues drives deduplicate and first-row the way the
// merge reader's fast path does: rows carry only kinds, and Selected names
// the winning version.
func TestSelectedWithoutValues(t *testing.T) {
	I, UB, UA, D := data.Insert, data.UpdateBefore, data.UpdateAfter, data.Delete
	for _, tc := range []struct {
		name    string
		options map[string]string
		kinds   []data.RowKind
		want    int
		err     bool
	}{
		{"dedup lone delete passes", nil, []data.RowKind{D}, 0, false},
		{"dedup last wins", nil, []data.RowKind{I, UA, UA}, 2, false},
		{"dedup last delete wins", nil, []data.RowKind{I, D}, 1, false},
		{"dedup ignore-delete skips", map[string]string{"ignore-delete": "true"}, []data.RowKind{I, UA, D, UB}, 1, false},
		{"dedup ignore-delete all retract", map[string]string{"ignore-delete": "true"}, []data.RowKind{D, UB}, -1, false},
		{"first-row first wins", map[string]string{"merge-engine": "first-row"}, []data.RowKind{I, UA, I}, 0, false},
		{"first-row lone delete passes", map[string]string{"merge-engine": "first-row"}, []data.RowKind{D}, 0, false},
		{"first-row refuses delete", map[string]string{"merge-engine": "first-row"}, []data.RowKind{I, D}, 0, true},
		{"first-row refuses leading delete", map[string]string{"merge-engine": "first-row"}, []data.RowKind{D, I}, 0, true},
		{"first-row ignore-delete", map[string]string{"merge-engine": "first-row", "ignore-delete": "true"}, []data.RowKind{D, UB, I, I}, 2, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := map[string]string{}
			for k, v := range tc.options {
				opts[k] = v
			}
			ts := &schema.TableSchema{
				Fields:      []schema.DataField{schema.NewField(0, "k", schema.IntType().NotNull()), schema.NewField(1, "v", schema.IntType())},
				PrimaryKeys: []string{"k"},
				Options:     opts,
			}
			f, err := mergefunc.NewFactory(ts)
			require.NoError(t, err)
			fn := f.New()
			sel, ok := fn.(interface{ Selected() int })
			require.True(t, ok, "deduplicate and first-row select")
			for round := 0; round < 2; round++ { // Reset makes a Function reusable
				fn.Reset()
				var addErr error
				for i, k := range tc.kinds {
					if addErr = fn.Add(&mergefunc.Row{Seq: int64(i), Kind: k}); addErr != nil {
						break
					}
				}
				if tc.err {
					require.ErrorIs(t, addErr, mergefunc.ErrMerge)
					continue
				}
				require.NoError(t, addErr)
				require.Equal(t, tc.want, sel.Selected())
				r, err := fn.Result()
				require.NoError(t, err)
				if tc.want < 0 {
					require.Nil(t, r)
				} else {
					require.Equal(t, int64(tc.want), r.Seq)
				}
			}
		})
	}
}
