package javacompat

import "strings"

// Split mirrors Java's String.split with a literal (non-regex) separator:
// trailing empty strings are removed, and an input without the separator
// yields itself (even when empty).
func Split(s, sep string) []string {
	parts := strings.Split(s, sep)
	if len(parts) == 1 {
		return parts
	}
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return parts
}

// Trim mirrors String.trim: it strips the characters <= U+0020 at both
// ends (not Unicode white space).
func Trim(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
}
