package jackson_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/internal/jackson"
)

// The expectations follow Jackson's default escaping (CharTypes'
// sOutputEscapes128 with upper-case hex, ESCAPE_NON_ASCII off).
func TestAppendString(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"empty", "", `""`},
		{"plain", "abc 123", `"abc 123"`},
		{"quote", `say "hi"`, `"say \"hi\""`},
		{"backslash", `C:\tmp`, `"C:\\tmp"`},
		{"short escapes", "\b\t\n\f\r", `"\b\t\n\f\r"`},
		{"other control chars", "\x00\x01\x0b\x0e\x1f", `"\u0000\u0001\u000B\u000E\u001F"`},
		{"space, slash and DEL as is", " /\x7f", "\" /\x7f\""},
		{"non-ASCII as raw UTF-8", "é中😀", `"é中😀"`},
		{"U+2028 and U+2029 not escaped", "a\u2028b\u2029c", "\"a\u2028b\u2029c\""},
		{"U+FFFD kept", "\uFFFD", "\"\uFFFD\""},
		{"invalid UTF-8 becomes U+FFFD", "a\xffb\xc3", "\"a\uFFFDb\uFFFD\""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, string(jackson.AppendString(nil, tt.in)))
			// Appends to what is already there.
			require.Equal(t, "x"+tt.want, string(jackson.AppendString([]byte("x"), tt.in)))
		})
	}
}

func TestWriterStringUsesAppendString(t *testing.T) {
	in := "k\x1f\"\\\u2028é"
	for _, pretty := range []bool{true, false} {
		w := jackson.NewWriter(pretty)
		w.String(in)
		require.Equal(t, string(jackson.AppendString(nil, in)), string(w.Bytes()))
	}
}
