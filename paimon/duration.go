package paimon

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// durationUnits maps the unit labels Java's TimeUtils.parseDuration accepts
// to their length.
var durationUnits = map[string]time.Duration{
	"d": 24 * time.Hour, "day": 24 * time.Hour, "days": 24 * time.Hour,
	"h": time.Hour, "hour": time.Hour, "hours": time.Hour,
	"min": time.Minute, "m": time.Minute, "minute": time.Minute, "minutes": time.Minute, "mins": time.Minute,
	"s": time.Second, "sec": time.Second, "secs": time.Second, "second": time.Second, "seconds": time.Second,
	"ms": time.Millisecond, "milli": time.Millisecond, "millis": time.Millisecond,
	"millisecond": time.Millisecond, "milliseconds": time.Millisecond,
	"µs": time.Microsecond, "micro": time.Microsecond, "micros": time.Microsecond,
	"microsecond": time.Microsecond, "microseconds": time.Microsecond,
	"ns": time.Nanosecond, "nano": time.Nanosecond, "nanos": time.Nanosecond,
	"nanosecond": time.Nanosecond, "nanoseconds": time.Nanosecond,
}

// ParseDuration parses a duration table option the way Java Paimon's
// TimeUtils.parseDuration does: a non-negative integer followed by an
// optional unit ("10 s", "1h", "30 min", "500"; no unit means
// milliseconds). Durations beyond time.Duration's range (about 292
// years) are refused.
func ParseDuration(s string) (time.Duration, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, fmt.Errorf("%w: duration %q does not start with a number", ErrInvalidOption, s)
	}
	n, err := strconv.ParseInt(t[:i], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%w: duration %q: number out of range", ErrInvalidOption, s)
	}
	unit := strings.ToLower(strings.TrimSpace(t[i:]))
	d := time.Millisecond
	if unit != "" {
		var ok bool
		if d, ok = durationUnits[unit]; !ok {
			return 0, fmt.Errorf("%w: duration %q: unknown unit %q", ErrInvalidOption, s, unit)
		}
	}
	if n > math.MaxInt64/int64(d) {
		return 0, fmt.Errorf("%w: duration %q overflows", ErrInvalidOption, s)
	}
	return time.Duration(n) * d, nil
}

// duration reads a duration option, def when absent.
func (o tableOptions) duration(key string, def time.Duration) (time.Duration, error) {
	v, ok := o[key]
	if !ok {
		return def, nil
	}
	d, err := ParseDuration(v)
	if err != nil {
		return 0, fmt.Errorf("table option %s: %w", key, err)
	}
	return d, nil
}

// integer reads an int option, def when absent.
func (o tableOptions) integer(key string, def int) (int, error) {
	v, ok := o[key]
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return 0, fmt.Errorf("%w: table option %s=%q is not an integer", ErrInvalidOption, key, v)
	}
	return n, nil
}
