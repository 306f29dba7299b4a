package interop_test

import (
	"context"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/internal/interop"
)

// The pypaimon side of TestLiveWritesReadByJava.

// wtPython dumps every table pypaimon can read from the warehouse our
// writer left (read-only, so it runs beside the JVMs), two processes at a
// time, and compares the rows with what we committed. Of the tables it
// cannot read (wtSpec.pySkip) the first is dumped too, and must still fail.
func wtPython(ctx context.Context, t *testing.T, rn *interop.Runner, wh string, tables []*wtTable) {
	start := time.Now()
	var wg sync.WaitGroup
	outs := make([][]byte, len(tables))
	errs := make([]error, len(tables))
	started, excluded := 0, -1
	for i, wt := range tables {
		if wt.spec.pySkip != "" {
			if excluded >= 0 {
				continue
			}
			excluded = i // dumped once, to see that the exclusion still holds
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i], errs[i] = rn.Dump(ctx, wh, wt.id(), interop.DumpOptions{})
		}()
		if started++; started%2 == 0 {
			wg.Wait() // two processes at a time
		}
	}
	wg.Wait()
	for i, wt := range tables {
		t.Run(wt.spec.name, func(t *testing.T) {
			if wt.spec.pySkip != "" {
				t.Log("not read by pypaimon: " + wt.spec.pySkip)
				if i == excluded {
					require.Error(t, errs[i], "pypaimon read %s: lift the exclusion", wt.spec.name)
					require.Contains(t, errs[i].Error(), "MULTISET")
				}
				return
			}
			require.NoError(t, errs[i])
			got, err := canon.ReadLines(strings.NewReader(string(outs[i])))
			require.NoError(t, err)
			want := wt.model.lines()
			if strings.EqualFold(wt.spec.options["file.format"], "orc") {
				want = wt.model.paddedCharLines(t)
			}
			wtCompare(t, rn.Name()+"'s dump of "+wt.spec.name, want, got)
		})
	}
	t.Logf("pypaimon dumps %v", time.Since(start).Round(time.Millisecond))
}

// paddedCharLines are the model's lines with top-level CHAR(n) values
// padded with spaces to n characters: pyarrow's ORC reader, which pypaimon
// reads ORC files with, returns CHAR values as stored, padded (Java's
// CharTreeReader trims them), for files of Java's writer and ours alike.
func (m *wtModel) paddedCharLines(t *testing.T) []string {
	t.Helper()
	out := make([]string, len(m.rows))
	for i, r := range m.rows {
		vals := slices.Clone(r.vals)
		for c, f := range m.fields {
			if s, ok := vals[c].(string); ok && f.Type.Root == schema.Char {
				if n := f.Type.Length - utf8.RuneCountInString(s); n > 0 {
					vals[c] = s + strings.Repeat(" ", n)
				}
			}
		}
		out[i] = wtCanonLine(t, m.fields, vals)
	}
	sort.Strings(out)
	return out
}
