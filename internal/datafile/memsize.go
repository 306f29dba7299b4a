package datafile

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// memoryUnits are the unit words Java's MemorySize.parse accepts, with the
// power of 1024 each stands for.
var memoryUnits = map[string]uint{
	"": 0, "b": 0, "bytes": 0,
	"k": 10, "kb": 10, "kibibytes": 10,
	"m": 20, "mb": 20, "mebibytes": 20,
	"g": 30, "gb": 30, "gibibytes": 30,
	"t": 40, "tb": 40, "tebibytes": 40,
}

// ParseMemorySize reads a memory size option ("256 mb", "128MB", "1048576")
// as Java's MemorySize.parse does: a non-negative whole number, optionally
// followed by a case-insensitive unit (b, k/kb, m/mb, g/gb, t/tb or their
// long names), all in powers of 1024. Errors wrap ErrInvalid.
func ParseMemorySize(s string) (int64, error) {
	text := strings.ToLower(strings.TrimSpace(s))
	digits := strings.IndexFunc(text, func(r rune) bool { return r < '0' || r > '9' })
	if digits < 0 {
		digits = len(text)
	}
	if digits == 0 {
		return 0, fmt.Errorf("%w: memory size %q does not start with a number", ErrInvalid, s)
	}
	shift, ok := memoryUnits[strings.TrimSpace(text[digits:])]
	if !ok {
		return 0, fmt.Errorf("%w: memory size %q has an unknown unit", ErrInvalid, s)
	}
	n, err := strconv.ParseInt(text[:digits], 10, 64)
	if err != nil || n > math.MaxInt64>>shift {
		return 0, fmt.Errorf("%w: memory size %q is too large", ErrInvalid, s)
	}
	return n << shift, nil
}
