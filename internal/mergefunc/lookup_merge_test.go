package mergefunc_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/mergefunc"
)

// TestLookupMerge follows Java's CoreOptions.needLookup and
// LookupMergeFunction.wrap, which leaves first-row unwrapped.
func TestLookupMerge(t *testing.T) {
	for _, tc := range []struct {
		opts map[string]string
		want bool
		bad  bool
	}{
		{map[string]string{}, false, false},
		{map[string]string{"changelog-producer": "input"}, false, false},
		{map[string]string{"changelog-producer": "full-compaction"}, false, false},
		{map[string]string{"changelog-producer": "LOOKUP", "merge-engine": "aggregation"}, true, false},
		{map[string]string{"deletion-vectors.enabled": "true"}, true, false},
		{map[string]string{"force-lookup": "True", "merge-engine": "partial-update"}, true, false},
		{map[string]string{"changelog-producer": "lookup", "merge-engine": "first-row"}, false, false},
		{map[string]string{"changelog-producer": "sometimes"}, false, true},
		{map[string]string{"force-lookup": "yes"}, false, true},
	} {
		ts := &schema.TableSchema{Options: tc.opts}
		got, err := mergefunc.LookupMerge(ts)
		if tc.bad {
			require.Error(t, err, "%v", tc.opts)
			continue
		}
		require.NoError(t, err, "%v", tc.opts)
		require.Equal(t, tc.want, got, "%v", tc.opts)
	}
}
