package snapshot

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"time"
)

// This file mirrors the two java.time codecs of Jackson's JavaTimeModule
// (jackson-datatype-jsr310 2.14) that tag files use, with JsonSerdeUtil's
// default features WRITE_DATES_AS_TIMESTAMPS, WRITE_DURATIONS_AS_TIMESTAMPS
// and WRITE/READ_DATE_TIMESTAMPS_AS_NANOSECONDS all enabled.

// Java LocalDateTime's year range (Year.MIN_VALUE, Year.MAX_VALUE).
const (
	minJavaYear = -999_999_999
	maxJavaYear = 999_999_999
)

// localDateTimeArray returns the array LocalDateTimeSerializer writes:
// [year, month, day, hour, minute] followed by the second when the second or
// the nanosecond is non-zero, followed by the nanosecond when it is non-zero.
// The wall-clock fields of t are used as they are, in t's own location.
func localDateTimeArray(t time.Time) []int64 {
	out := []int64{
		int64(t.Year()), int64(t.Month()), int64(t.Day()),
		int64(t.Hour()), int64(t.Minute()),
	}
	sec, nano := t.Second(), t.Nanosecond()
	if sec > 0 || nano > 0 {
		out = append(out, int64(sec))
		if nano > 0 {
			out = append(out, int64(nano))
		}
	}
	return out
}

// parseLocalDateTime decodes a LocalDateTime member into a time.Time in UTC
// holding the same wall-clock fields. It accepts what LocalDateTimeDeserializer
// accepts: null, an empty array (both nil), an array of integers
// [year, month, day, hour, minute[, second[, nano]]], or an ISO-8601 local
// date-time string. Arrays of only [year, month, day] or with the hour alone
// are also accepted (missing fields are zero), which Jackson refuses but some
// writers might produce.
func parseLocalDateTime(raw json.RawMessage) (*time.Time, error) {
	raw = bytes.TrimSpace(raw)
	if string(raw) == "null" {
		return nil, nil
	}
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, err
		}
		return parseISOLocalDateTime(strings.TrimSpace(s))
	}
	var elems []json.RawMessage
	if err := json.Unmarshal(raw, &elems); err != nil {
		return nil, errors.New("expected an array or a string")
	}
	if len(elems) == 0 {
		return nil, nil
	}
	if len(elems) < 3 || len(elems) > 7 {
		return nil, fmt.Errorf("date-time array has %d elements, want 5 to 7", len(elems))
	}
	var f [7]int32 // year, month, day, hour, minute, second, nano
	for i, e := range elems {
		v, ok, err := parseInt32(e)
		if err != nil || !ok || bytes.HasPrefix(bytes.TrimSpace(e), []byte{'"'}) {
			return nil, fmt.Errorf("date-time array element %d is not an integer", i)
		}
		f[i] = v
	}
	return newLocalDateTime(f)
}

// newLocalDateTime validates the fields as LocalDateTime.of does.
func newLocalDateTime(f [7]int32) (*time.Time, error) {
	year, month, day := int(f[0]), int(f[1]), int(f[2])
	hour, minute, second, nano := int(f[3]), int(f[4]), int(f[5]), int(f[6])
	switch {
	case year < minJavaYear || year > maxJavaYear:
		return nil, fmt.Errorf("year %d out of range", year)
	case month < 1 || month > 12:
		return nil, fmt.Errorf("month %d out of range", month)
	case hour < 0 || hour > 23:
		return nil, fmt.Errorf("hour %d out of range", hour)
	case minute < 0 || minute > 59:
		return nil, fmt.Errorf("minute %d out of range", minute)
	case second < 0 || second > 59:
		return nil, fmt.Errorf("second %d out of range", second)
	case nano < 0 || nano > 999_999_999:
		return nil, fmt.Errorf("nanosecond %d out of range", nano)
	}
	t := time.Date(year, time.Month(month), day, hour, minute, second, nano, time.UTC)
	if day < 1 || t.Day() != day {
		return nil, fmt.Errorf("day %d out of range for %d-%02d", day, year, month)
	}
	return &t, nil
}

// parseISOLocalDateTime parses DateTimeFormatter.ISO_LOCAL_DATE_TIME text,
// uuuu-MM-ddTHH:mm[:ss[.fffffffff]].
func parseISOLocalDateTime(s string) (*time.Time, error) {
	for _, layout := range []string{"2006-01-02T15:04:05", "2006-01-02T15:04"} {
		if t, err := time.Parse(layout, s); err == nil {
			return &t, nil
		}
	}
	return nil, fmt.Errorf("not an ISO local date-time: %q", s)
}

// appendDurationSeconds appends d the way DurationSerializer writes it: a
// BigDecimal number of seconds built by DecimalUtils.toBigDecimal and printed
// by BigDecimal.toString. Whole seconds get nine zero decimals (5.000000000),
// zero is 0.0, and a value below a microsecond switches to scientific notation
// (1E-9, 1.00E-7) as BigDecimal.toString does for adjusted exponents below -6.
// Negative durations are the negation of their absolute value.
func appendDurationSeconds(dst []byte, d time.Duration) []byte {
	if d == 0 {
		return append(dst, "0.0"...)
	}
	abs := uint64(d)
	if d < 0 {
		dst = append(dst, '-')
		abs = -abs // two's complement; also right for math.MinInt64
	}
	sec, nano := abs/1e9, abs%1e9
	if sec == 0 && nano < 1000 {
		digits := strconv.FormatUint(nano, 10)
		dst = append(dst, digits[0])
		if len(digits) > 1 {
			dst = append(dst, '.')
			dst = append(dst, digits[1:]...)
		}
		dst = append(dst, 'E')
		return strconv.AppendInt(dst, int64(len(digits)-1-9), 10)
	}
	dst = strconv.AppendUint(dst, sec, 10)
	dst = append(dst, '.')
	frac := strconv.FormatUint(nano, 10)
	for range 9 - len(frac) {
		dst = append(dst, '0')
	}
	return append(dst, frac...)
}

// parseDurationSeconds decodes a Duration member: null (nil) or a JSON number
// of seconds, integral or decimal (DurationDeserializer with
// READ_DATE_TIMESTAMPS_AS_NANOSECONDS). Digits beyond the nanosecond are
// truncated toward zero, as DecimalUtils.extractSecondsAndNanos does. A
// duration beyond time.Duration's range (about 292 years) is an error.
func parseDurationSeconds(raw json.RawMessage) (*time.Duration, error) {
	raw = bytes.TrimSpace(raw)
	if string(raw) == "null" {
		return nil, nil
	}
	if len(raw) == 0 || (raw[0] != '-' && (raw[0] < '0' || raw[0] > '9')) {
		return nil, errors.New("expected a number of seconds")
	}
	var num json.Number
	if err := json.Unmarshal(raw, &num); err != nil {
		return nil, err
	}
	nanos, err := decimalToNanos(string(num))
	if err != nil {
		return nil, err
	}
	d := time.Duration(nanos)
	return &d, nil
}

// decimalToNanos converts a JSON number of seconds to nanoseconds, truncating
// toward zero, without the unbounded work big-number parsing of an exponent
// like 1e999999999 would cost.
func decimalToNanos(s string) (int64, error) {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	mant, exp := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant = s[:i]
		e := strings.TrimPrefix(s[i+1:], "+")
		eneg := strings.HasPrefix(e, "-")
		e = strings.TrimLeft(strings.TrimPrefix(e, "-"), "0")
		if len(e) > 6 { // far outside any representable duration
			e = "1000000"
		}
		if e != "" {
			n, err := strconv.Atoi(e)
			if err != nil {
				return 0, fmt.Errorf("bad exponent in %q", s)
			}
			exp = n
		}
		if eneg {
			exp = -exp
		}
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	digits := strings.TrimLeft(intPart+frac, "0")
	shift := exp - len(frac) + 9 // value in nanoseconds = digits × 10^shift
	if digits == "" {
		return 0, nil
	}
	if shift < 0 {
		if -shift >= len(digits) {
			return 0, nil
		}
		digits = digits[:len(digits)+shift]
		shift = 0
	}
	if len(digits)+shift > 19 {
		return 0, fmt.Errorf("duration %s s out of range", s)
	}
	v, err := strconv.ParseUint(digits, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("bad number %q", s)
	}
	for range shift {
		hi, lo := bits.Mul64(v, 10)
		if hi != 0 {
			return 0, fmt.Errorf("duration %s s out of range", s)
		}
		v = lo
	}
	limit := uint64(math.MaxInt64)
	if neg {
		limit++
	}
	if v > limit {
		return 0, fmt.Errorf("duration %s s out of range", s)
	}
	if neg {
		return int64(-v), nil
	}
	return int64(v), nil
}
