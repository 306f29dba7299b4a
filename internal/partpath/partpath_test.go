package partpath

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestJavaFloatString(t *testing.T) {
	for _, tc := range []struct {
		f    float64
		bits int
		want string
	}{
		{1, 64, "1.0"}, {0.5, 64, "0.5"}, {1e7, 64, "1.0E7"}, {1.5e-4, 64, "1.5E-4"}, {123456.75, 64, "123456.75"},
		{0, 64, "0.0"}, {-2.5, 32, "-2.5"}, {0.001, 64, "0.001"},
	} {
		require.Equal(t, tc.want, javaFloatString(tc.f, tc.bits), "%v", tc.f)
	}
}

func TestBlankUsesJavaWhitespace(t *testing.T) {
	require.True(t, blank(""))
	require.True(t, blank(" \t\u2003\u001c"))
	require.False(t, blank("\u00a0"), "Java does not count the no-break space as whitespace")
	require.False(t, blank(" x "))
}
