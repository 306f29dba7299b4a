package paimon_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/paimon"
)

// lookupScenario writes rounds into a one-bucket table with
// changelog-producer = lookup (or, with cl false, a first-row table
// without changelog) and compacts after each: round 0 with a full
// compaction (everything to the highest level, 5), every later round by
// trigger, which Java's ForceUpLevel0Compaction sends one level below the
// lowest non-empty one (4, then 3, ...), so that the before of a key is
// found by the lookup in the levels above. It returns each compaction's
// changelog as "kind id name score" lines and the rows read afterwards.
// Filler keys are 1000 and up: they are left out of the changelogs and
// rows returned.
const fillerKeys = 300

type lookupRound struct {
	rows  [][]any // id, name, score
	kinds []string
	full  bool
}

func runLookupScenario(t *testing.T, opts map[string]string, rounds []lookupRound) (changelogs [][]string, reads [][]string, fsysT *paimon.Table) {
	t.Helper()
	ctx := context.Background()
	opts["bucket"] = "1"
	tbl, fsys := newPKTable(t, false, opts)
	commit, err := tbl.NewCommit(&paimon.CommitOptions{User: "u"})
	require.NoError(t, err)
	w, err := tbl.NewWriter(&paimon.WriterOptions{RowKindColumn: "op"})
	require.NoError(t, err)
	defer w.Close(ctx)
	for i, rd := range rounds {
		var rows [][]any
		kinds := rd.kinds
		for _, r := range rd.rows {
			rows = append(rows, append([]any{"d"}, r...))
		}
		if i == 0 {
			// Filler keys make the highest level large enough that the
			// size ratio leaves it out of the later compactions.
			for id := range int64(fillerKeys) {
				rows = append(rows, []any{"d", 1000 + id, fmt.Sprintf("filler-%d", id), float64(id)})
			}
		}
		if kinds == nil {
			for range rows {
				kinds = append(kinds, "+I")
			}
		}
		rec := pkBatch(t, tbl, rows, kinds)
		require.NoError(t, w.Write(ctx, rec))
		rec.Release()
		msgs, err := w.PrepareCommit(ctx)
		require.NoError(t, err)
		_, err = commit.Commit(ctx, int64(i), msgs)
		require.NoError(t, err)
		res, err := compactTable(t, reopen(t, fsys), &paimon.CompactOptions{Full: rd.full || i == 0})
		require.NoError(t, err, "round %d", i)
		require.NotNil(t, res.Commit, "round %d", i)
		var lines []string
		for _, r := range changelogRows(t, reopen(t, fsys), res.Commit.Snapshot.ID) {
			if l := shortRow(t, r[1]); !strings.HasPrefix(l, "1") || len(strings.Fields(l)[0]) < 4 {
				lines = append(lines, r[0]+" "+l)
			}
		}
		changelogs = append(changelogs, lines)
		var got []string
		for _, l := range dump(t, reopen(t, fsys)) {
			if l := shortRow(t, l); !strings.HasPrefix(l, "1") || len(strings.Fields(l)[0]) < 4 {
				got = append(got, l)
			}
		}
		reads = append(reads, got)
	}
	return changelogs, reads, reopen(t, fsys)
}

// shortRow turns a canonical row of writeFields into "id name score".
func shortRow(t *testing.T, line string) string {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(line), &m))
	score := m["score"]
	if s, ok := score.(string); ok && strings.HasPrefix(s, "f64:") {
		bits, err := strconv.ParseUint(s[4:], 16, 64)
		require.NoError(t, err)
		score = math.Float64frombits(bits)
	}
	return fmt.Sprint(m["id"], " ", m["name"], " ", score)
}

// TestCompactLookupChangelogPartialUpdate: Java's
// LookupChangelogMergeFunctionWrapper over PartialUpdateMergeFunction. The
// before is the key's version of the lowest level above 0 (found by
// lookup in the levels above the output), the after the engine's merge of
// the before and the level-0 versions; -U/+U are emitted even when equal
// unless changelog-producer.row-deduplicate (with score ignored) finds the
// values equal.
func TestCompactLookupChangelogPartialUpdate(t *testing.T) {
	rounds := []lookupRound{
		{rows: [][]any{{int64(1), "a", 1.0}, {int64(2), "b", 2.0}}},
		// id 1: name kept from level 5, score updated; id 3 new.
		{rows: [][]any{{int64(1), nil, 10.0}, {int64(3), "c", nil}}},
		// id 1 again: its before is now the level-4 version (1 a 10), not
		// level 5's (1 a 1). id 3 gets a score only.
		{rows: [][]any{{int64(1), "a", nil}, {int64(3), nil, 3.0}}},
		// id 2: a name change; id 1: same name, a new score.
		{rows: [][]any{{int64(2), "B", nil}, {int64(1), "a", 11.0}}},
	}
	t.Run("plain", func(t *testing.T) {
		cls, reads, _ := runLookupScenario(t, map[string]string{"merge-engine": "partial-update", "changelog-producer": "lookup"}, rounds)
		require.Equal(t, [][]string{
			{"+I 1 a 1", "+I 2 b 2"},
			{"-U 1 a 1", "+U 1 a 10", "+I 3 c <nil>"},
			{"-U 1 a 10", "+U 1 a 10", "-U 3 c <nil>", "+U 3 c 3"},
			{"-U 1 a 10", "+U 1 a 11", "-U 2 b 2", "+U 2 B 2"},
		}, cls)
		require.Equal(t, []string{"1 a 11", "2 B 2", "3 c 3"}, reads[3])
	})
	t.Run("row-deduplicate", func(t *testing.T) {
		cls, reads, _ := runLookupScenario(t, map[string]string{"merge-engine": "partial-update", "changelog-producer": "lookup",
			"changelog-producer.row-deduplicate": "true", "changelog-producer.row-deduplicate-ignore-fields": "score"}, rounds)
		require.Equal(t, [][]string{
			{"+I 1 a 1", "+I 2 b 2"},
			{"+I 3 c <nil>"},
			nil,
			{"-U 2 b 2", "+U 2 B 2"},
		}, cls)
		require.Equal(t, []string{"1 a 11", "2 B 2", "3 c 3"}, reads[3])
	})
	t.Run("row-deduplicate-double-refused", func(t *testing.T) {
		tbl, fsys := newPKTable(t, false, map[string]string{"merge-engine": "partial-update", "changelog-producer": "lookup",
			"changelog-producer.row-deduplicate": "true"})
		_, err := compactTable(t, tbl, nil)
		require.ErrorIs(t, err, paimon.ErrUnsupported)
		require.ErrorContains(t, err, "changelog-producer.row-deduplicate")
		relCheckClean(t, fsys, "db.db/t")
	})
}

// TestCompactLookupChangelogAggregation: Java's
// LookupChangelogMergeFunctionWrapper over AggregateMergeFunction (score
// summed, name last non-null with retractions ignored): the after folds
// the before found above with the level-0 versions, retractions included.
// A key whose only version is a level-0 retraction is folded by the
// engine into a row of its own, as Java folds it.
func TestCompactLookupChangelogAggregation(t *testing.T) {
	opts := func() map[string]string {
		return map[string]string{"merge-engine": "aggregation", "changelog-producer": "lookup",
			"fields.score.aggregate-function": "sum", "fields.name.ignore-retract": "true"}
	}
	cls, reads, _ := runLookupScenario(t, opts(), []lookupRound{
		{rows: [][]any{{int64(1), "a", 1.0}, {int64(2), "b", 2.0}}},
		{rows: [][]any{{int64(1), nil, 10.0}, {int64(3), "c", 3.0}}},
		{rows: [][]any{{int64(1), "x", 10.0}, {int64(2), "y", 5.0}, {int64(2), nil, 1.0}}, kinds: []string{"-U", "+I", "+I"}},
	})
	require.Equal(t, [][]string{
		{"+I 1 a 1", "+I 2 b 2"},
		{"-U 1 a 1", "+U 1 a 11", "+I 3 c 3"},
		// id 1: 11 - 10, the name's retraction ignored; id 2: the two
		// level-0 versions are one before the writer's merge.
		{"-U 1 a 11", "+U 1 a 1", "-U 2 b 2", "+U 2 y 8"},
	}, cls)
	require.Equal(t, []string{"1 a 1", "2 y 8", "3 c 3"}, reads[2])

	// A retraction of a key no other version has runs through the engine
	// too, as Java's LookupMergeFunction runs it (FieldSumAgg.retract of
	// nothing is the negated input; the name's retraction is ignored):
	// +I of the result, with deletion vectors and without.
	// full: the second compaction goes to the highest level, where a
	// deletion-vector table has nothing above to look up but Java still
	// merges through the lookup wrapper.
	for _, c := range []struct{ dv, full bool }{{false, false}, {true, false}, {true, true}} {
		dv := c.dv
		t.Run(fmt.Sprintf("lone-retraction/dv=%v/full=%v", dv, c.full), func(t *testing.T) {
			o := opts()
			if dv {
				delete(o, "changelog-producer")
				o["deletion-vectors.enabled"] = "true"
			}
			cls, reads, _ := runLookupScenario(t, o, []lookupRound{
				{rows: [][]any{{int64(1), "a", 1.0}}},
				{rows: [][]any{{int64(7), "z", 4.0}, {int64(8), "y", 2.5}}, kinds: []string{"-D", "-U"}, full: c.full},
			})
			require.Equal(t, []string{"1 a 1", "7 <nil> -4", "8 <nil> -2.5"}, reads[1])
			if !dv {
				require.Equal(t, []string{"+I 7 <nil> -4", "+I 8 <nil> -2.5"}, cls[1])
			}
		})
	}
}

// TestCompactLookupChangelogFirstRow: Java's FirstRowMergeFunctionWrapper.
// A key of level 0 already in the levels above the output gives no
// changelog and is not rewritten (the level-4 file of round 1 holds id 3
// only); a key with a version above level 0 among the compacted files
// gives none either; a new key gives +I of its first version, no -U/+U
// ever. Without changelog-producer the data files are the same.
func TestCompactLookupChangelogFirstRow(t *testing.T) {
	rounds := []lookupRound{
		{rows: [][]any{{int64(1), "a", 1.0}, {int64(2), "b", 2.0}}},
		{rows: [][]any{{int64(1), "A", 10.0}, {int64(3), "c", 3.0}}},
		{rows: [][]any{{int64(3), "C", 30.0}, {int64(4), "d", 4.0}}, full: true},
	}
	for _, cl := range []bool{true, false} {
		t.Run(fmt.Sprintf("changelog=%v", cl), func(t *testing.T) {
			opts := map[string]string{"merge-engine": "first-row"}
			if cl {
				opts["changelog-producer"] = "lookup"
			}
			cls, reads, tbl := runLookupScenario(t, opts, rounds[:2])
			_, live := liveEntriesOf(t, tbl)
			var layout []string
			for _, e := range live {
				layout = append(layout, fmt.Sprintf("level %d rows %d", e.File.Level, e.File.RowCount))
			}
			require.ElementsMatch(t, []string{fmt.Sprintf("level 5 rows %d", 2+fillerKeys), "level 4 rows 1"}, layout)
			require.Equal(t, []string{"1 a 1", "2 b 2", "3 c 3"}, reads[1])
			if cl {
				require.Equal(t, [][]string{{"+I 1 a 1", "+I 2 b 2"}, {"+I 3 c 3"}}, cls)
			} else {
				require.Equal(t, [][]string{nil, nil}, cls)
			}
			cls, reads, _ = runLookupScenario(t, opts, rounds)
			require.Equal(t, []string{"1 a 1", "2 b 2", "3 c 3", "4 d 4"}, reads[2])
			if cl {
				require.Equal(t, []string{"+I 4 d 4"}, cls[2])
			}
		})
	}
}

// TestCompactLookupChangelogSequenceField: deduplicate with
// sequence.field (Java LookupChangelogMergeFunctionWrapper with its
// UserDefinedSeqComparator): the version found above joins the level-0
// versions in sequence.field order, so a level-0 version with a smaller
// score loses to it; the after is then the before itself and Java still
// emits -U/+U of the same row, and the rewrite writes the version from
// above at the output level.
func TestCompactLookupChangelogSequenceField(t *testing.T) {
	cls, reads, _ := runLookupScenario(t, map[string]string{"changelog-producer": "lookup", "sequence.field": "score"}, []lookupRound{
		{rows: [][]any{{int64(1), "a", 5.0}, {int64(2), "b", 5.0}}},
		{rows: [][]any{{int64(1), "x", 3.0}, {int64(2), "y", 7.0}, {int64(3), "c", 1.0}}},
		{rows: [][]any{{int64(1), "z", 4.0}, {int64(3), "d", 2.0}}},
	})
	require.Equal(t, [][]string{
		{"+I 1 a 5", "+I 2 b 5"},
		{"-U 1 a 5", "+U 1 a 5", "-U 2 b 5", "+U 2 y 7", "+I 3 c 1"},
		// id 1's before is now level 4's copy of (1 a 5).
		{"-U 1 a 5", "+U 1 a 5", "-U 3 c 1", "+U 3 d 2"},
	}, cls)
	require.Equal(t, []string{"1 a 5", "2 y 7", "3 d 2"}, reads[2])
}

// TestCompactLookupChangelogDeduplicateIgnoreDelete: with ignore-delete
// the writer drops the delete of id 1, and the changelog holds the update
// of id 2 only.
func TestCompactLookupChangelogDeduplicateIgnoreDelete(t *testing.T) {
	cls, reads, _ := runLookupScenario(t, map[string]string{"changelog-producer": "lookup", "ignore-delete": "true"}, []lookupRound{
		{rows: [][]any{{int64(1), "a", 1.0}, {int64(2), "b", 2.0}}},
		{rows: [][]any{{int64(1), "a", 1.0}, {int64(2), "B", 2.0}}, kinds: []string{"-D", "+I"}},
	})
	require.Equal(t, [][]string{{"+I 1 a 1", "+I 2 b 2"}, {"-U 2 b 2", "+U 2 B 2"}}, cls)
	require.Equal(t, []string{"1 a 1", "2 B 2"}, reads[1])
}
