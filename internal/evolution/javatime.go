package evolution

import (
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/internal/javacompat"
)

// This file reproduces the date/time helpers of Java Paimon's DateTimeUtils
// and Timestamp that the casts use, including their quirks (truncating
// division on negative epoch values, the 4-digit year printer), and the
// JVM's rules for mapping a local date-time onto an instant.

const (
	millisPerDay = 86_400_000
	epochJulian  = 2_440_588
)

// daysFromCivil is the inverse of civilFromDays (LocalDate.toEpochDay).
func daysFromCivil(year int64, month, day int) int64 {
	y := year
	if month <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era--
	}
	yoe := y - era*400
	m := int64(month)
	if m > 2 {
		m -= 3
	} else {
		m += 9
	}
	doy := (153*m+2)/5 + int64(day) - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// localDateTime is java.time.LocalDateTime's fields.
type localDateTime struct {
	year                 int64
	month, day           int
	hour, minute, second int
	nano                 int // of second
}

// tsLocal mirrors Timestamp.toLocalDateTime (the millis read as UTC), with
// its int casts of the day number and time of day.
func tsLocal(ts data.Timestamp) localDateTime {
	date := int32(ts.Millis / millisPerDay)
	tod := int32(ts.Millis % millisPerDay)
	if tod < 0 {
		date--
		tod += millisPerDay
	}
	y, m, d := javacompat.CivilFromDays(int64(date))
	return localDateTime{
		year: y, month: m, day: d,
		hour: int(tod / 3_600_000), minute: int(tod / 60_000 % 60), second: int(tod / 1000 % 60),
		nano: int(tod%1000)*1_000_000 + int(ts.NanoOfMilli),
	}
}

// timestamp is Timestamp.fromLocalDateTime: the local date-time as epoch
// millis read as UTC (long arithmetic, wrapping like Java's).
func (l localDateTime) timestamp() data.Timestamp {
	nanoOfDay := int64(l.hour)*3_600_000_000_000 + int64(l.minute)*60_000_000_000 + int64(l.second)*1_000_000_000 + int64(l.nano)
	return data.Timestamp{
		Millis:      daysFromCivil(l.year, l.month, l.day)*millisPerDay + nanoOfDay/1_000_000,
		NanoOfMilli: int32(nanoOfDay % 1_000_000),
	}
}

// truncateTimestamp mirrors DateTimeUtils.truncate, including its test on
// the number of digits of the nano-of-second value (so 1 µs survives a
// truncation to precision 4) and its truncating division of negative millis.
func truncateTimestamp(ts data.Timestamp, precision int) data.Timestamp {
	if len(strconv.Itoa(tsLocal(ts).nano)) <= precision {
		return ts
	}
	if precision <= 3 {
		return data.Timestamp{Millis: zeroLastDigits(ts.Millis, 3-precision)}
	}
	return data.Timestamp{Millis: ts.Millis, NanoOfMilli: int32(zeroLastDigits(int64(ts.NanoOfMilli), 9-precision))}
}

func zeroLastDigits(l int64, n int) int64 {
	p := int64(1)
	for range n {
		p *= 10
	}
	return l / p * p
}

// zoneOffset returns the UTC offset in seconds of loc at the instant sec.
func zoneOffset(sec int64, loc *time.Location) int64 {
	_, off := time.Unix(sec, 0).In(loc).Zone()
	return int64(off)
}

// toLocal converts an instant (epoch millis) into the local date-time of loc,
// as "local millis" (the local wall clock read as UTC); nanoseconds within
// the millisecond are unaffected by zones.
func toLocal(millis int64, loc *time.Location) int64 {
	sec := floorDiv(millis, 1000)
	return millis + zoneOffset(sec, loc)*1000
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// fromLocal converts local millis of loc into an instant the way
// java.time's LocalDateTime.atZone does: in an overlap the earlier offset
// wins; in a gap the wall clock moves forward by the gap's length.
func fromLocal(local int64, loc *time.Location) int64 {
	L := floorDiv(local, 1000)
	type period struct{ start, end, off int64 }
	const window = 30 * 3600
	var periods []period
	t := time.Unix(L-window, 0).In(loc)
	for range 8 {
		start, end := t.ZoneBounds()
		_, off := t.Zone()
		p := period{start: minInt64, end: maxInt64, off: int64(off)}
		if !start.IsZero() {
			p.start = start.Unix()
		}
		if !end.IsZero() {
			p.end = end.Unix()
		}
		periods = append(periods, p)
		if end.IsZero() || p.end > L+window {
			break
		}
		t = end.In(loc)
	}
	for _, p := range periods {
		if i := L - p.off; i >= p.start && i < p.end {
			return local - p.off*1000 // periods are in time order: earliest valid first
		}
	}
	for k := 0; k+1 < len(periods); k++ {
		before, after := periods[k], periods[k+1]
		if L-before.off >= after.start && L-after.off < after.start {
			return local - before.off*1000
		}
	}
	return local - zoneOffset(L, loc)*1000
}

const (
	minInt64 = -1 << 63
	maxInt64 = 1<<63 - 1
)

// tsToLTZ mirrors DateTimeUtils.timestampToTimestampWithLocalZone.
func tsToLTZ(ts data.Timestamp, loc *time.Location) data.Timestamp {
	return data.Timestamp{Millis: fromLocal(ts.Millis, loc), NanoOfMilli: ts.NanoOfMilli}
}

// ltzToTS mirrors DateTimeUtils.timestampWithLocalZoneToTimestamp.
func ltzToTS(ts data.Timestamp, loc *time.Location) data.Timestamp {
	return data.Timestamp{Millis: toLocal(ts.Millis, loc), NanoOfMilli: ts.NanoOfMilli}
}

// javaIsNumeric mirrors StringUtils.isNumeric: an optional '-' and one or
// more Unicode decimal digits (Character.isDigit).
func javaIsNumeric(s string) bool {
	if s == "" || s == "-" {
		return false
	}
	s = strings.TrimPrefix(s, "-")
	for _, r := range s {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return utf8.ValidString(s)
}

// isInteger mirrors DateTimeUtils.isInteger: one or more ASCII digits.
func isInteger(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isASCIIDigit(s[i]) {
			return false
		}
	}
	return true
}

// parseIntDigits is Integer.parseInt of a string isInteger accepted.
func parseIntDigits(s string) (int32, bool) {
	n, err := strconv.ParseInt(s, 10, 32)
	return int32(n), err == nil
}

// parseDate mirrors DateTimeUtils.parseDate ("yyyy[-m[-d]]", anything after
// the first space ignored); ok = false where Java returns null or throws.
func parseDate(s string) (int32, bool) {
	if ws := strings.IndexByte(s, ' '); ws > 0 {
		s = s[:ws]
	}
	num := func(part string) (int32, bool) {
		part = javaTrim(part)
		if !isInteger(part) {
			return 0, false
		}
		return parseIntDigits(part)
	}
	var y, m, d int32 = 0, 1, 1
	var ok bool
	h1 := strings.IndexByte(s, '-')
	if h1 < 0 {
		if y, ok = num(s); !ok {
			return 0, false
		}
	} else {
		if y, ok = num(s[:h1]); !ok {
			return 0, false
		}
		rest := s[h1+1:]
		h2 := strings.IndexByte(rest, '-')
		if h2 < 0 {
			if m, ok = num(rest); !ok {
				return 0, false
			}
		} else {
			if m, ok = num(rest[:h2]); !ok {
				return 0, false
			}
			if d, ok = num(rest[h2+1:]); !ok {
				return 0, false
			}
		}
	}
	if !validDate(y, m, d) {
		return 0, false
	}
	return ymdToUnixDate(y, m, d), true
}

// validDate mirrors DateTimeUtils.isIllegalDate (which returns true for
// legal dates): years 0..9999, real month lengths.
func validDate(y, m, d int32) bool {
	if y < 0 || y > 9999 || m < 1 || m > 12 || d < 1 || d > 31 {
		return false
	}
	if m == 2 && d > 28 && !(isLeapYear(y) && d == 29) {
		return false
	}
	if d == 31 {
		switch m {
		case 1, 3, 5, 7, 8, 10, 12:
			return true
		}
		return false
	}
	return true
}

func isLeapYear(y int32) bool { return y%400 == 0 || (y%4 == 0 && y%100 != 0) }

func ymdToUnixDate(year, month, day int32) int32 {
	a := (14 - month) / 12
	y := year + 4800 - a
	m := month + 12*a - 3
	return day + (153*m+2)/5 + 365*y + y/4 - y/100 + y/400 - 32045 - epochJulian
}

// parseTime mirrors DateTimeUtils.parseTime ("h[:m[:s[.fff]]]" with an
// optional "+hh[:mm]" or "-hh[:mm]" zone that is applied naively); no range
// checks, int arithmetic.
func parseTime(v string) (int32, bool) {
	num := func(part string) (int32, bool) {
		part = javaTrim(part)
		if !isInteger(part) {
			return 0, false
		}
		return parseIntDigits(part)
	}
	colon1 := strings.IndexByte(v, ':')
	operator := int32(-1)
	end := len(v)
	tz := strings.IndexByte(v, '-')
	if tz < 0 {
		tz = strings.IndexByte(v, '+')
		operator = 1
	}
	var tzHour, tzMinute int32
	var ok bool
	if tz >= 0 {
		end = tz
		colon3 := strings.IndexByte(v[tz:], ':')
		if colon3 < 0 {
			if tzHour, ok = num(v[tz+1:]); !ok {
				return 0, false
			}
		} else {
			colon3 += tz
			if tzHour, ok = num(v[tz+1 : colon3]); !ok {
				return 0, false
			}
			if tzMinute, ok = num(v[colon3+1:]); !ok {
				return 0, false
			}
		}
	}
	var hour, minute, second, milli int32
	sub := func(a, b int) (string, bool) {
		if a > b || b > len(v) {
			// Java's substring throws StringIndexOutOfBoundsException.
			return "", false
		}
		return v[a:b], true
	}
	if colon1 < 0 {
		part, ok := sub(0, end)
		if !ok {
			return 0, false
		}
		if hour, ok = num(part); !ok {
			return 0, false
		}
	} else {
		part, ok := sub(0, colon1)
		if !ok {
			return 0, false
		}
		if hour, ok = num(part); !ok {
			return 0, false
		}
		colon2 := strings.IndexByte(v[colon1+1:], ':')
		if colon2 < 0 {
			part, ok := sub(colon1+1, end)
			if !ok {
				return 0, false
			}
			if minute, ok = num(part); !ok {
				return 0, false
			}
		} else {
			colon2 += colon1 + 1
			if minute, ok = num(v[colon1+1 : colon2]); !ok {
				return 0, false
			}
			dot := strings.IndexByte(v[colon2:], '.')
			if dot < 0 {
				part, ok := sub(colon2+1, end)
				if !ok {
					return 0, false
				}
				if second, ok = num(part); !ok {
					return 0, false
				}
			} else {
				dot += colon2
				if second, ok = num(v[colon2+1 : dot]); !ok {
					return 0, false
				}
				part, ok := sub(dot+1, end)
				if !ok {
					return 0, false
				}
				milli = parseFraction(javaTrim(part))
			}
		}
	}
	hour += operator * tzHour
	minute += operator * tzMinute
	return hour*3_600_000 + minute*60_000 + second*1000 + milli, true
}

// parseFraction mirrors DateTimeUtils.parseFraction: the first three digits
// as milliseconds (non-digits count as 0), rounded up by a fourth digit >= 5.
func parseFraction(v string) int32 {
	multiplier, r := int32(100), int32(0)
	for i := 0; i < len(v); i++ {
		c := v[i]
		x := int32(0)
		if isASCIIDigit(c) {
			x = int32(c - '0')
		}
		r += multiplier * x
		if multiplier < 10 {
			if i+1 < len(v) && v[i+1] >= '5' {
				r++
			}
			break
		}
		multiplier /= 10
	}
	return r
}
