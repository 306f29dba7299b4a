package javacompat

import "testing"

func TestStringHashCode(t *testing.T) {
	for s, want := range map[string]int32{
		"":            0,
		"hello":       99162322,
		"bucket":      -1378203158, // jshell: "bucket".hashCode()
		"\U0001F600":  31*int32(0xD83D) + int32(0xDE00),
		"file.format": 1135789225,
	} {
		if got := StringHashCode(s); got != want {
			t.Errorf("StringHashCode(%q) = %d, want %d", s, got, want)
		}
	}
	// h ^ (h >>> 16) in jshell.
	if got := HashMapSpread(-1378203158); got != -1378163664 {
		t.Errorf("HashMapSpread = %d", got)
	}
}

func TestCompareStrings(t *testing.T) {
	// U+FF61 sorts before a surrogate pair by code point but after it by
	// UTF-16 code unit, as Java compares.
	if got := CompareStrings("\uFF61", "\U0001F600"); got != 10020 { // jshell
		t.Errorf("CompareStrings(U+FF61, U+1F600) = %d, want 10020", got)
	}
	if CompareStrings("ab", "abc") != -1 || CompareStrings("b", "a") != 1 || CompareStrings("x", "x") != 0 {
		t.Error("CompareStrings disagrees with String.compareTo")
	}
}
