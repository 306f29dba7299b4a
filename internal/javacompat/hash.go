package javacompat

import "unicode/utf16"

// StringHashCode is Java's String.hashCode: h = 31*h + c over the string's
// UTF-16 code units (a rune above U+FFFF counts as its surrogate pair).
func StringHashCode(s string) int32 {
	var h int32
	for _, r := range s {
		if r >= 0x10000 {
			r -= 0x10000
			h = 31*h + int32(0xD800+(r>>10))
			h = 31*h + int32(0xDC00+(r&0x3FF))
			continue
		}
		h = 31*h + int32(r)
	}
	return h
}

// HashMapSpread is java.util.HashMap.hash: a key's hashCode with its high
// half folded into the low half; the bin of a key is HashMapSpread(h) &
// (capacity-1).
func HashMapSpread(h int32) int32 { return h ^ int32(uint32(h)>>16) }

// CompareStrings is Java's String.compareTo: the difference of the first
// differing UTF-16 code units, else of the lengths in code units.
func CompareStrings(a, b string) int {
	x, y := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
	for i := 0; i < len(x) && i < len(y); i++ {
		if x[i] != y[i] {
			return int(x[i]) - int(y[i])
		}
	}
	return len(x) - len(y)
}
