package partpath

import (
	"strings"
	"unicode/utf8"
)

// JavaString returns the text Java gets from the bytes of a STRING value:
// Paimon renders partition values with BinaryString.toString, whose
// decodeUTF8 falls back to new String(bytes, UTF_8) when the bytes are not
// valid UTF-8. Valid UTF-8 comes back unchanged. Otherwise every malformed
// sequence becomes one U+FFFD, with the JDK's rules for how many bytes a
// sequence spans, which are not Go's one-U+FFFD-per-byte (OpenJDK
// String.decodeUTF8_UTF16, the same since JDK 8's UTF_8 decoder):
//
//   - a lead byte whose next byte cannot follow it is one sequence by itself
//     (C0, C1 and F5..FF never start a sequence; E0 needs A0..BF next, ED
//     is not special here, F0 needs 90..BF and F4 80..8F);
//   - a 3- or 4-byte sequence that breaks off later spans the bytes that
//     were valid so far (E2 82 41 is one U+FFFD and "A");
//   - a complete 3-byte encoding of a surrogate (ED A0 80) is one U+FFFD for
//     all three bytes;
//   - a sequence cut short by the end of the value swallows the rest of it
//     into one U+FFFD (E2 82 at the end is one U+FFFD, where Go gives two).
//
// The directory Java writes is the UTF-8 of that text, so partition paths
// of values that are not UTF-8 agree with Java's, and are valid file names.
func JavaString(b string) string {
	if utf8.ValidString(b) {
		return b
	}
	var sb strings.Builder
	sb.Grow(len(b) + 8)
	for i := 0; i < len(b); {
		r, n, stop := javaDecodeOne(b[i:])
		sb.WriteRune(r)
		if stop {
			break
		}
		i += n
	}
	return sb.String()
}

func continuation(c byte) bool { return c&0xc0 == 0x80 }

// javaDecodeOne decodes the character at the start of s (not empty) as the
// JDK does: the rune (utf8.RuneError for a malformed sequence), the bytes
// it spans, and whether decoding ends there because the value ended inside
// a sequence.
func javaDecodeOne(s string) (r rune, n int, stop bool) {
	const bad = utf8.RuneError
	b1 := s[0]
	switch {
	case b1 < 0x80:
		return rune(b1), 1, false

	case b1 >= 0xc2 && b1 <= 0xdf: // two bytes
		if len(s) < 2 {
			return bad, 1, true
		}
		if !continuation(s[1]) {
			return bad, 1, false
		}
		return rune(b1&0x1f)<<6 | rune(s[1]&0x3f), 2, false

	case b1 >= 0xe0 && b1 <= 0xef: // three bytes
		// E0 followed by 80..9F would be an overlong encoding.
		badSecond := func(b2 byte) bool { return !continuation(b2) || (b1 == 0xe0 && b2 < 0xa0) }
		if len(s) < 3 {
			if len(s) == 2 && badSecond(s[1]) {
				return bad, 1, false
			}
			return bad, len(s), true
		}
		if badSecond(s[1]) {
			return bad, 1, false
		}
		if !continuation(s[2]) {
			return bad, 2, false
		}
		c := rune(b1&0x0f)<<12 | rune(s[1]&0x3f)<<6 | rune(s[2]&0x3f)
		if c >= 0xd800 && c <= 0xdfff {
			return bad, 3, false // a surrogate: one U+FFFD for all three
		}
		return c, 3, false

	case b1 >= 0xf0 && b1 <= 0xf7: // four bytes (F5..F7 never valid)
		// The second bytes that can follow: F0 would be overlong below
		// 90, F4 beyond U+10FFFF above 8F.
		badSecond := func(b2 byte) bool {
			return b1 > 0xf4 || !continuation(b2) || (b1 == 0xf0 && b2 < 0x90) || (b1 == 0xf4 && b2 > 0x8f)
		}
		if len(s) < 4 {
			if b1 > 0xf4 || (len(s) >= 2 && badSecond(s[1])) {
				return bad, 1, false
			}
			// The JDK takes the lead and second byte as one sequence;
			// a third byte that cannot continue it is decoded on its
			// own, otherwise the value ends here.
			if len(s) == 3 && !continuation(s[2]) {
				return bad, 2, false
			}
			return bad, len(s), true
		}
		switch {
		case badSecond(s[1]):
			return bad, 1, false
		case !continuation(s[2]):
			return bad, 2, false
		case !continuation(s[3]):
			return bad, 3, false
		}
		return rune(b1&0x07)<<18 | rune(s[1]&0x3f)<<12 | rune(s[2]&0x3f)<<6 | rune(s[3]&0x3f), 4, false
	}
	// A continuation byte, C0, C1, F8..FF.
	return bad, 1, false
}
