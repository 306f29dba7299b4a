package predicate_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
	p "github.com/paimon-go/paimon-go/paimon/predicate"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"dt = '2026-08-01' AND amount > 100", "dt = '2026-08-01' AND amount > 100"},
		{"a=1 and b<>2 or not c is null", "(a = 1 AND b != 2) OR NOT (c IS NULL)"},
		{"a = 1 AND b = 2 AND c = 3", "a = 1 AND b = 2 AND c = 3"},
		{"a = 1 AND (b = 2 AND c = 3)", "a = 1 AND (b = 2 AND c = 3)"},
		{"a = 1 OR b = 2 AND c = 3", "a = 1 OR (b = 2 AND c = 3)"},
		{"((a = 1))", "a = 1"},
		{"NOT NOT a < 1", "NOT (NOT (a < 1))"},
		{"a <= -5 OR a >= +5.5 OR a != 0", "a <= -5 OR a >= 5.5 OR a != 0"},
		{"a = 1e3 OR a = .5 OR a = 2.5E-3", "a = 1e3 OR a = .5 OR a = 2.5E-3"},
		{"x IN (1, - 2, 'y')", "x IN (1, -2, 'y')"},
		{"a IS NOT NULL", "a IS NOT NULL"},
		{"s LIKE 'ab%'", "s STARTS WITH 'ab'"},
		{"s LIKE '%'", "s STARTS WITH ''"},
		{"s NOT LIKE 'ab%'", "NOT (s STARTS WITH 'ab')"},
		{"s starts with 'it''s'", "s STARTS WITH 'it''s'"},
		{"s = 'it''s' AND s <> ''", "s = 'it''s' AND s != ''"},
		{"b = X'0AfF' OR b = x''", "b = X'0aff' OR b = X''"},
		{"ok = TRUE OR ok = false", "ok = true OR ok = false"},
		{"d = DATE '2024-01-02'", "d = DATE '2024-01-02'"},
		{"d IN (date '0000-01-01', DATE '9999-12-31')", "d IN (DATE '0000-01-01', DATE '9999-12-31')"},
		{"tm = TIME '03:04:05.5' OR tm = TIME '23:59'", "tm = TIME '03:04:05.5' OR tm = TIME '23:59:00'"},
		{"t = TIMESTAMP '2024-01-02 03:04:05.123'", "t = TIMESTAMP '2024-01-02 03:04:05.123'"},
		{"t = TIMESTAMP '2024-01-02T03:04:05.000000001Z'", "t = TIMESTAMP '2024-01-02 03:04:05.000000001'"},
		{"t = TIMESTAMP '2024-01-02 03:04:05-08:00'", "t = TIMESTAMP '2024-01-02 03:04:05-08:00'"},
		{"t > TIMESTAMP '2024-01-02'", "t > TIMESTAMP '2024-01-02 00:00:00'"},
		{"`a b` = 1 AND `a``b` = 2 AND `and` = 3 AND `plain` = 4", "`a b` = 1 AND `a``b` = 2 AND `and` = 3 AND plain = 4"},
		{"date = 1 AND time = 2 AND x = 3 AND é$1 = 4", "date = 1 AND time = 2 AND x = 3 AND é$1 = 4"},
		{"`a.b` = 1", "`a.b` = 1"},
		{" \ta\n=\r\n1 ", "a = 1"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := p.Parse(tt.in)
			require.NoError(t, err)
			require.Equal(t, tt.want, got.String())
			again, err := p.Parse(got.String())
			require.NoError(t, err)
			require.Equal(t, tt.want, again.String())
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		in     string
		offset int
		msg    string
	}{
		{"", 0, "expected a field name, found end of input"},
		{"a", 1, "expected an operator after field a"},
		{"a = ", 4, "expected a literal"},
		{"a = NULL", 4, "IS NULL"},
		{"a IN (1, NULL)", 9, "IS NULL"},
		{"a == 1", 3, "expected a literal"},
		{"a = 'x", 4, "unterminated"},
		{"`a", 0, "unterminated"},
		{"`` = 1", 0, "empty quoted field name"},
		{"a.b = 1", 1, "nested field"},
		{"`a`.b = 1", 3, "nested field"},
		{"a = 1 AND", 9, "expected a field name"},
		{"a = 1 AND OR b = 1", 10, "keyword OR"},
		{"AND = 1", 0, "keyword AND"},
		{"(a = 1", 6, `expected ")"`},
		{"a = 1)", 5, "unexpected \")\""},
		{"a = 1 b = 2", 6, "unexpected \"b\""},
		{"s LIKE 'a%b%'", 7, "prefix pattern"},
		{"s LIKE 'abc'", 7, "prefix pattern"},
		{"s LIKE 'a_%'", 7, "prefix pattern"},
		{"s LIKE 1", 7, "pattern string"},
		{"s STARTS 'a'", 9, "expected WITH"},
		{"s STARTS WITH 1", 14, "expected a string"},
		{"a IN 1", 5, `expected "("`},
		{"a IN (1 2)", 8, `expected ","`},
		{"a IN ()", 6, "at least one value"},
		{"a NOT IN ()", 10, "at least one value"},
		{"a IS NOT 1", 9, "expected NULL"},
		{"a NOT BETWEEN 1", 6, "expected IN or LIKE"},
		{"a = 1.2.3", 4, "malformed number"},
		{"a = 1.", 4, "no digit after the decimal point"},
		{"a = 1e", 4, "exponent without digits"},
		{"a = 1e99999", 4, "exponent out of range"},
		{"a = 12abc", 4, "malformed number"},
		{"a = - 'x'", 6, "expected a number"},
		{"a = DATE '2024-13-01'", 9, "DATE '2024-13-01'"},
		{"a = DATE 1", 9, "expected a string after DATE"},
		{"a = TIME '25:00'", 9, "TIME"},
		{"a = TIMESTAMP 'yesterday'", 14, "TIMESTAMP"},
		{"a = X'abc'", 4, "even number of hex digits"},
		{"a = @", 4, "unexpected character '@'"},
		{"a = 1 & b = 2", 6, "unexpected character '&'"},
		{"\xff = 1", 0, "invalid UTF-8"},
		{strings.Repeat("(", 1000) + "a = 1" + strings.Repeat(")", 1000), 500, "nested more than"},
		{strings.Repeat("NOT ", 1000) + "a = 1", 2000, "nested more than"},
	}
	for _, tt := range tests {
		name := tt.in
		if len(name) > 40 {
			name = name[:40]
		}
		t.Run(name, func(t *testing.T) {
			_, err := p.Parse(tt.in)
			require.Error(t, err)
			require.ErrorIs(t, err, p.ErrSyntax)
			var se *p.SyntaxError
			require.True(t, errors.As(err, &se))
			require.Equal(t, tt.offset, se.Offset, "%v", err)
			require.Contains(t, err.Error(), tt.msg)
		})
	}
}

// TestParseBind checks that parsed literals bind to every filterable type.
func TestParseBind(t *testing.T) {
	ts := time.Date(2026, 8, 1, 12, 30, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want any
	}{
		{"amount = 5", int64(5)},
		{"amount = -9223372036854775808", int64(math.MinInt64)},
		{"amount = 1.0", int64(1)},
		{"amount = 1e3", int64(1000)},
		{"i = 5", int32(5)},
		{"tiny = -128", int8(-128)},
		{"f = 1", 1.0},
		{"f = -1.5e2", -150.0},
		{"r = 0.1", float32(0.1)},
		{"r = 16777217", float32(16777216)},
		{"d = 1.5", data.NewDecimalFromInt64(150, 10, 2)},
		{"d = 15e-1", data.NewDecimalFromInt64(150, 10, 2)},
		{"d = -7", data.NewDecimalFromInt64(-700, 10, 2)},
		{"d = '0.25'", data.NewDecimalFromInt64(25, 10, 2)},
		{"dt = 'x'", "x"},
		{"c = 'a'", "a"},
		{"b = X'01ff'", []byte{1, 0xff}},
		{"day = DATE '1970-01-03'", int32(2)},
		{"day = DATE '1969-12-31'", int32(-1)},
		{"day = 2", int32(2)},
		{"tm = TIME '00:00:01.5'", int32(1500)},
		{"tm = 1000", int32(1000)},
		{"ts = TIMESTAMP '2026-08-01 12:30:00.0000015'", data.Timestamp{Millis: ts.UnixMilli(), NanoOfMilli: 1500}},
		// TIMESTAMP compares wall clocks; TIMESTAMP_LTZ reads the literal as an instant.
		{"ts = TIMESTAMP '2026-08-01 12:30:00+01:00'", data.Timestamp{Millis: ts.UnixMilli()}},
		{"ltz = TIMESTAMP '2026-08-01 12:30:00+01:00'", data.Timestamp{Millis: ts.Add(-time.Hour).UnixMilli()}},
		{"ltz = TIMESTAMP '2026-08-01 12:30:00'", data.Timestamp{Millis: ts.UnixMilli()}},
		{"ts >= DATE '1970-01-02'", data.Timestamp{Millis: 86_400_000}},
		{"ok = TRUE", true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			pr, err := p.Parse(tt.in)
			require.NoError(t, err)
			b, err := p.Bind(pr, testFields)
			require.NoError(t, err)
			got := b.Literals()[0]
			if d, ok := tt.want.(data.Decimal); ok {
				require.Zero(t, d.Cmp(got.(data.Decimal)))
				require.Equal(t, d.Scale, got.(data.Decimal).Scale)
				return
			}
			require.Equal(t, tt.want, got)
		})
	}
}

func TestParseBindErrors(t *testing.T) {
	tests := []struct {
		in, msg string
	}{
		{"i = 1.5", "not a whole number"},
		{"i = 99999999999", "out of range"},
		{"amount = 1e100", "out of range"},
		{"r = 1e39", "out of FLOAT range"},
		{"f = 1e400", "out of DOUBLE range"},
		{"d = 1.234", "fraction digits"},
		{"d = 123456789", "precision 10"},
		{"day = '2024-13-01'", "DATE"},
		{"dt = 1", "VARCHAR"},
		{"ok = 1", "BOOLEAN"},
		{"b = 'x'", "VARBINARY"},
		{"tm = DATE '2024-01-01'", "TIME"},
		{"tm = 86400000", "out of range"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			pr, err := p.Parse(tt.in)
			require.NoError(t, err)
			_, err = p.Bind(pr, testFields)
			require.ErrorIs(t, err, p.ErrTypeMismatch)
			require.Contains(t, err.Error(), tt.msg)
		})
	}
	pr, err := p.Parse("s NOT LIKE 'a%'")
	require.NoError(t, err)
	_, err = p.Bind(pr, []schema.DataField{schema.NewField(0, "s", schema.StringType())})
	require.ErrorIs(t, err, p.ErrUnsupported)
}

// rtFields are filterFields with names that need quoting.
var rtFields = func() []schema.DataField {
	out := append([]schema.DataField(nil), filterFields...)
	out[9].Name = "a `b"
	out[10].Name = "and"
	out[4].Name = "é"
	return out
}()

// parseable reports whether String renders lit in the syntax Parse reads.
func parseable(lit any) bool {
	switch x := lit.(type) {
	case nil:
		return false
	case float32:
		return !math.IsNaN(float64(x)) && !math.IsInf(float64(x), 0)
	case float64:
		return !math.IsNaN(x) && !math.IsInf(x, 0)
	case data.Timestamp:
		return x.Millis > -62_000_000_000_000 && x.Millis < 250_000_000_000_000
	}
	return true
}

func randParseable(r *rand.Rand, depth int) *p.Predicate {
	for {
		pr := randRTPred(r, depth)
		if pr != nil {
			return pr
		}
	}
}

func randRTPred(r *rand.Rand, depth int) *p.Predicate {
	if depth > 0 && r.IntN(2) == 0 {
		a, b := randRTPred(r, depth-1), randRTPred(r, depth-1)
		if a == nil || b == nil {
			return nil
		}
		switch r.IntN(3) {
		case 0:
			return p.And(a, b)
		case 1:
			return p.Or(a, b)
		}
		return p.Not(a)
	}
	leaf := randFilterLeaf(r, filterable())
	// Rebuild the leaf on rtFields' names by reparsing is circular; instead
	// rename through the String form only when literals are parseable.
	return renameLeaf(leaf)
}

// renameLeaf returns leaf on the rtFields name of its field, or nil when a
// literal has no parseable form.
func renameLeaf(leaf *p.Predicate) *p.Predicate {
	b, err := p.Bind(leaf, filterFields)
	if err != nil {
		return nil
	}
	lits := b.Literals()
	// Bound literals are in the data representation; Bind accepts them back.
	for _, l := range lits {
		if !parseable(l) {
			return nil
		}
	}
	name := rtFields[b.FieldIndex()].Name
	switch b.Kind() {
	case p.KindEqual:
		return p.Equal(name, lits[0])
	case p.KindNotEqual:
		return p.NotEqual(name, lits[0])
	case p.KindLessThan:
		return p.LessThan(name, lits[0])
	case p.KindLessOrEqual:
		return p.LessOrEqual(name, lits[0])
	case p.KindGreaterThan:
		return p.GreaterThan(name, lits[0])
	case p.KindGreaterOrEqual:
		return p.GreaterOrEqual(name, lits[0])
	case p.KindIn:
		return p.In(name, lits...)
	case p.KindNotIn:
		return p.NotIn(name, lits...)
	case p.KindIsNull:
		return p.IsNull(name)
	case p.KindIsNotNull:
		return p.IsNotNull(name)
	}
	return p.StartsWith(name, lits[0].(string))
}

// TestParseRoundTrip checks Parse(p.String()) on random predicates over
// every filterable type: the text comes back unchanged and binds to the
// same bound predicate.
func TestParseRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(testSeed(t), 11))
	for it := 0; it < 3000; it++ {
		pr := randParseable(r, 3)
		s := pr.String()
		got, err := p.Parse(s)
		if strings.Contains(s, "IN ()") {
			// An empty IN list has a text form but no parse (refused).
			require.Error(t, err, "iteration %d: %s", it, s)
			continue
		}
		require.NoError(t, err, "iteration %d: %s", it, s)
		require.Equal(t, s, got.String(), "iteration %d", it)
		want, err1 := p.Bind(pr, rtFields)
		b, err2 := p.Bind(got, rtFields)
		if err1 != nil {
			require.ErrorIs(t, err1, p.ErrUnsupported)
			require.ErrorIs(t, err2, p.ErrUnsupported)
			continue
		}
		require.NoError(t, err2, "iteration %d: %s", it, s)
		require.Equal(t, want.String(), b.String(), "iteration %d", it)
	}

	// Go literal types with a parseable String form.
	for _, pr := range []*p.Predicate{
		p.Equal("t9", time.Date(2026, 8, 1, 12, 30, 0, 1500, time.FixedZone("X", 3600))),
		p.Equal("t9", time.Date(2026, 8, 1, 12, 30, 0, 1500, time.UTC)),
		p.Equal("l9", time.Date(2026, 8, 1, 12, 30, 0, 0, time.FixedZone("Y", -(3*3600+1800)))),
		p.Equal("tm", 1500*time.Millisecond),
		p.Equal("by", []byte{0, 0xff}),
		p.LessThan("do", 1e300),
		p.LessThan("fl", float32(0.1)),
	} {
		s := pr.String()
		got, err := p.Parse(s)
		require.NoError(t, err, s)
		require.Equal(t, s, got.String())
		want, err := p.Bind(pr, rtFields)
		require.NoError(t, err, s)
		b, err := p.Bind(got, rtFields)
		require.NoError(t, err, s)
		require.Equal(t, want.Literals(), b.Literals(), s)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"dt = '2026-08-01' AND amount > 100",
		"a=1 and b<>2 or not c is null",
		"x NOT IN (1, -2.5e3, 'y', X'0a', TRUE, DATE '2024-01-02')",
		"s LIKE 'ab%' OR s STARTS WITH 'it''s'",
		"t = TIMESTAMP '2024-01-02 03:04:05.123+01:00' AND tm < TIME '01:02:03'",
		"`a b` IS NOT NULL AND NOT (`and` IS NULL OR c <= .5)",
		"((a = 1)) AND (b = 2 OR c = 3)",
		"in = 1", "a = NULL", "a.b = 1", "a = 1e99999",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		pr, err := p.Parse(s)
		if err != nil {
			var se *p.SyntaxError
			if !errors.As(err, &se) || !errors.Is(err, p.ErrSyntax) || se.Offset < 0 || se.Offset > len(s) {
				t.Fatalf("Parse(%q): bad error %v", s, err)
			}
			return
		}
		// What Parse accepts, String renders parseably, to a fixed point.
		s1 := pr.String()
		again, err := p.Parse(s1)
		if err != nil {
			t.Fatalf("Parse(%q) = %s, which does not parse: %v", s, s1, err)
		}
		if s2 := again.String(); s2 != s1 {
			t.Fatalf("Parse(%q): %s then %s", s, s1, s2)
		}
		_, _ = p.Bind(pr, testFields) // must not panic
		_, _ = p.Bind(pr, filterFields)
	})
}
