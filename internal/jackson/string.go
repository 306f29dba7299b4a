package jackson

import "unicode/utf8"

const hexDigits = "0123456789ABCDEF"

// AppendString appends s quoted and escaped as Jackson's
// WriterBasedJsonGenerator does with default settings (no custom
// CharacterEscapes, ESCAPE_NON_ASCII off): '"' and '\\' get a backslash,
// \b \t \n \f \r their short escapes, other control characters below 0x20
// become \u00XX with upper-case hex digits, and everything else — '/', DEL,
// non-ASCII including U+2028 and U+2029 — is written as raw UTF-8. Invalid
// UTF-8 becomes U+FFFD, as a Java String cannot hold it.
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				dst = utf8.AppendRune(dst, utf8.RuneError)
			} else {
				dst = append(dst, s[i:i+size]...)
			}
			i += size
			continue
		}
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\t':
			dst = append(dst, '\\', 't')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\r':
			dst = append(dst, '\\', 'r')
		default:
			if c < 0x20 {
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			} else {
				dst = append(dst, c)
			}
		}
		i++
	}
	return append(dst, '"')
}
