package rowio

import "strings"

// SanitizeCell keeps a cell on one line: line breaks and tabs become
// backslash escapes, other control characters '?'.
func SanitizeCell(s string) string {
	if !strings.ContainsFunc(s, isControl) {
		return s
	}
	var sb strings.Builder
	for _, r := range s {
		switch {
		case r == '\n':
			sb.WriteString(`\n`)
		case r == '\r':
			sb.WriteString(`\r`)
		case r == '\t':
			sb.WriteString(`\t`)
		case isControl(r):
			sb.WriteByte('?')
		default:
			sb.WriteRune(r)
		}
	}
	return sb.String()
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }
