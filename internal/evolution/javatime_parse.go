package evolution

import (
	"errors"
	"math/big"

	"github.com/paimon-go/paimon-go/internal/javacompat"
)

// parseTimestampText parses s with Java Paimon's DEFAULT_TIMESTAMP_FORMATTER
// ("yyyy-[MM][M]-[dd][d][ [HH][H]:[mm][m]:[ss][s][.fraction]]", strict
// parsing, SMART resolving) followed by DateTimeUtils.fromTemporalAccessor,
// which defaults missing fields (1970, 1, 1, 0, 0, 0) and floors the
// nanoseconds to precision digits.
//
// The emulation covers what the pattern accepts: a year of 4 digits (more
// only with a leading '+'), months/days/hours/minutes/seconds of one or two
// digits (a longer run must repeat the two-digit value, as the optional [M]
// after [MM] does), 0-9 fraction digits after '.', range checks, SMART's
// clamping of the day to the month's length and "24:00:00" as the next
// midnight.
func parseTimestampText(s string, precision int) (localDateTime, error) {
	p := &tsParser{s: s}
	out := localDateTime{year: 1970, month: 1, day: 1}
	year, ok := p.year()
	if !ok || !p.literal('-') {
		return out, errDateTime
	}
	month, hasMonth, ok := p.twoThenAny()
	if !ok || !p.literal('-') {
		return out, errDateTime
	}
	day, hasDay, ok := p.twoThenAny()
	if !ok {
		return out, errDateTime
	}
	// The time section is optional: on any failure it is rolled back.
	var hour, minute, second, nano int64
	var hasHour, hasMinute, hasSecond, hasNano bool
	save := p.pos
	timeOK := func() bool {
		if !p.literal(' ') {
			return false
		}
		var ok bool
		if hour, hasHour, ok = p.twoThenAny(); !ok || !p.literal(':') {
			return false
		}
		if minute, hasMinute, ok = p.twoThenAny(); !ok || !p.literal(':') {
			return false
		}
		if second, hasSecond, ok = p.twoThenAny(); !ok {
			return false
		}
		nano, hasNano = p.fraction()
		return true
	}()
	if !timeOK {
		p.pos = save
		hour, minute, second, nano = 0, 0, 0, 0
		hasHour, hasMinute, hasSecond, hasNano = false, false, false, false
	}
	if p.pos != len(s) {
		return out, errDateTime
	}

	// Resolve (IsoChronology / Parsed, SMART).
	if year < 1 || year > 999_999_999 {
		return out, errDateTime
	}
	out.year = year
	dateResolved := false
	if hasMonth {
		if month < 1 || month > 12 {
			return out, errDateTime
		}
		out.month = int(month)
	}
	if hasDay {
		if day < 1 || day > 31 {
			return out, errDateTime
		}
		out.day = int(day)
	}
	if hasMonth && hasDay {
		dateResolved = true
		if n := monthLength(year, out.month); out.day > n {
			out.day = n
		}
	}
	if hasNano && (nano < 0 || nano > 999_999_999) {
		return out, errDateTime
	}
	// Parsed.resolveTimeLenient builds a time from the hour only when the
	// present fields leave no hole before a present one.
	resolvable := !(!hasMinute && (hasSecond || hasNano)) && !(hasMinute && !hasSecond && hasNano)
	if hasHour && resolvable {
		if hour == 24 && minute == 0 && second == 0 && nano == 0 {
			// SMART resolves 24:00 to midnight of the next day; the day is
			// only added when the date itself was resolved.
			if dateResolved {
				next := daysFromCivil(out.year, out.month, out.day) + 1
				out.year, out.month, out.day = javacompat.CivilFromDays(next)
			}
			hour = 0
		}
	}
	if hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59 {
		return out, errDateTime
	}
	out.hour, out.minute, out.second = int(hour), int(minute), int(second)
	switch {
	case precision == 0:
		nano = 0
	case precision < 9:
		unit := int64(1)
		for range 9 - precision {
			unit *= 10
		}
		nano = nano / unit * unit
	}
	out.nano = int(nano)
	return out, nil
}

var errDateTime = errors.New("DateTimeParseException")

func monthLength(year int64, month int) int {
	switch month {
	case 2:
		if year%400 == 0 || (year%4 == 0 && year%100 != 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

type tsParser struct {
	s   string
	pos int
}

func (p *tsParser) literal(c byte) bool {
	if p.pos < len(p.s) && p.s[p.pos] == c {
		p.pos++
		return true
	}
	return false
}

// digits returns the run of up to max ASCII digits at the position.
func (p *tsParser) digits(max int) string {
	i := p.pos
	for i < len(p.s) && i-p.pos < max && isASCIIDigit(p.s[i]) {
		i++
	}
	return p.s[p.pos:i]
}

// year parses "yyyy": YEAR_OF_ERA, 4..19 digits, sign style EXCEEDS_PAD in
// strict mode (a '+' exactly when there are more than 4 digits; a '-' is
// parsed but makes the year invalid).
func (p *tsParser) year() (int64, bool) {
	sign := byte(0)
	if p.pos < len(p.s) && (p.s[p.pos] == '+' || p.s[p.pos] == '-') {
		sign = p.s[p.pos]
		p.pos++
	}
	d := p.digits(19)
	if len(d) < 4 {
		return 0, false
	}
	v, ok := new(big.Int).SetString(d, 10)
	if !ok {
		return 0, false
	}
	if v.BitLen() > 63 {
		d = d[:len(d)-1]
		v.SetString(d, 10)
	}
	p.pos += len(d)
	switch sign {
	case '+':
		if len(d) <= 4 {
			return 0, false
		}
	case '-':
		if v.Sign() == 0 {
			return 0, false
		}
		return -v.Int64(), true
	default:
		if len(d) > 4 {
			return 0, false
		}
	}
	return v.Int64(), true
}

// twoThenAny parses the "[XX][X]" pair of optional sections: two digits,
// then optionally a further run of digits (X: 1..19 digits, sign NORMAL)
// which must repeat the same value or its section is rolled back. ok =
// false means the text cannot match at all (a negative value the [X]
// section accepted, which no range admits).
func (p *tsParser) twoThenAny() (v int64, present, ok bool) {
	two := p.digits(2)
	if len(two) == 2 {
		v = int64(two[0]-'0')*10 + int64(two[1]-'0')
		p.pos += 2
		present = true
	}
	save := p.pos
	neg := false
	if p.pos < len(p.s) && p.s[p.pos] == '-' {
		neg = true
		p.pos++
	}
	run := p.digits(19)
	if run == "" {
		p.pos = save
		return v, present, true
	}
	n, good := new(big.Int).SetString(run, 10)
	if good && n.BitLen() > 63 {
		run = run[:len(run)-1]
		n.SetString(run, 10)
	}
	p.pos += len(run)
	if neg {
		if n.Sign() == 0 {
			p.pos = save // strict parsing rejects "-0": the section fails
			return v, present, true
		}
		// A negative field value: the section succeeds but the value is out
		// of every range, so resolving fails.
		if present {
			p.pos = save // conflicts with the [XX] value: section rolled back
			return v, present, true
		}
		return 0, true, false
	}
	if present {
		if n.Int64() != v {
			p.pos = save
		}
		return v, present, true
	}
	return n.Int64(), true, true
}

// fraction parses appendFraction(NANO_OF_SECOND, 0, 9, true): nothing, or
// '.' and up to nine digits (possibly none).
func (p *tsParser) fraction() (int64, bool) {
	if !p.literal('.') {
		return 0, false
	}
	d := p.digits(9)
	p.pos += len(d)
	var n int64
	for i := 0; i < 9; i++ {
		n *= 10
		if i < len(d) {
			n += int64(d[i] - '0')
		}
	}
	return n, true
}
