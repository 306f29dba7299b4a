package javacompat

import (
	"strconv"
	"strings"
)

// Java Paimon's DateTimeUtils printers (the casts to STRING and the
// partition names use them), with their quirks: truncating division on
// negative epoch values and the 4-digit year printer.

const (
	millisPerDay = 86_400_000
	epochJulian  = 2_440_588
)

// CivilFromDays converts days since 1970-01-01 into a proleptic Gregorian
// date (java.time.LocalDate.ofEpochDay).
func CivilFromDays(days int64) (year int64, month, day int) {
	z := days + 719468
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era--
	}
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y := yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d := doy - (153*mp+2)/5 + 1
	m := mp + 3
	if m > 12 {
		m -= 12
	}
	if m <= 2 {
		y++
	}
	return y, int(m), int(d)
}

type localDateTime struct {
	year                       int64
	month, day                 int
	hour, minute, second, nano int
}

// localOf splits epoch millis of a local date-time into its fields
// (LocalDateTime.ofEpochSecond in UTC).
func localOf(millis int64, nanoOfMilli int32) localDateTime {
	date := int32(millis / millisPerDay)
	tod := int32(millis % millisPerDay)
	if tod < 0 {
		date--
		tod += millisPerDay
	}
	y, m, d := CivilFromDays(int64(date))
	return localDateTime{
		year: y, month: m, day: d,
		hour: int(tod / 3_600_000), minute: int(tod / 60_000 % 60), second: int(tod / 1000 % 60),
		nano: int(tod%1000)*1_000_000 + int(nanoOfMilli),
	}
}

// appendInt4 and appendInt2 mirror DateTimeUtils.int4/int2, which print the
// low digits of the value and misprint negative ones the same way Java does.
func appendInt4(b []byte, i int64) []byte {
	return append(b, byte('0'+i/1000%10), byte('0'+i/100%10), byte('0'+i/10%10), byte('0'+i%10))
}

func appendInt2(b []byte, i int64) []byte {
	return append(b, byte('0'+i/10%10), byte('0'+i%10))
}

// FormatTimestamp mirrors DateTimeUtils.formatTimestamp(ts, precision) for
// the timestamp millis + nanoOfMilli (epoch millis of the local date-time):
// "yyyy-MM-dd HH:mm:ss" plus the nanoseconds with trailing zeros removed down
// to precision digits.
func FormatTimestamp(millis int64, nanoOfMilli int32, precision int) string {
	l := localOf(millis, nanoOfMilli)
	fraction := strconv.Itoa(l.nano)
	fraction = strings.Repeat("0", 9-len(fraction)) + fraction
	for len(fraction) > precision && strings.HasSuffix(fraction, "0") {
		fraction = fraction[:len(fraction)-1]
	}
	b := make([]byte, 0, 30)
	b = appendInt4(b, l.year)
	b = append(b, '-')
	b = appendInt2(b, int64(l.month))
	b = append(b, '-')
	b = appendInt2(b, int64(l.day))
	b = append(b, ' ')
	b = appendInt2(b, int64(l.hour))
	b = append(b, ':')
	b = appendInt2(b, int64(l.minute))
	b = append(b, ':')
	b = appendInt2(b, int64(l.second))
	if fraction != "" {
		b = append(b, '.')
		b = append(b, fraction...)
	}
	return string(b)
}

// FormatTimeMillis mirrors DateTimeUtils.formatTimestampMillis(time,
// precision): "HH:mm:ss" and up to precision fraction digits, stopping at the
// first point where the remaining millis are zero.
func FormatTimeMillis(t int32, precision int) string {
	for t < 0 {
		t += millisPerDay
	}
	h, rest := t/3_600_000, t%3_600_000
	m, rest := rest/60_000, rest%60_000
	s, ms := rest/1000, rest%1000
	b := make([]byte, 0, 16)
	b = appendInt2(b, int64(h))
	b = append(b, ':')
	b = appendInt2(b, int64(m))
	b = append(b, ':')
	b = appendInt2(b, int64(s))
	if precision > 0 {
		b = append(b, '.')
		for precision > 0 {
			b = append(b, byte('0'+ms/100))
			ms = ms % 100 * 10
			if ms == 0 {
				break
			}
			precision--
		}
	}
	return string(b)
}

// FormatDate mirrors DateTimeUtils.formatDate (Calcite's julianToString).
func FormatDate(date int32) string {
	j := date + epochJulian + 32044
	g := j / 146097
	dg := j % 146097
	c := (dg/36524 + 1) * 3 / 4
	dc := dg - c*36524
	bb := dc / 1461
	db := dc % 1461
	a := (db/365 + 1) * 3 / 4
	da := db - a*365
	y := g*400 + c*100 + bb*4 + a
	m := (da*5+308)/153 - 2
	d := da - (m+4)*153/5 + 122
	year := y - 4800 + (m+2)/12
	month := (m+2)%12 + 1
	day := d + 1
	b := make([]byte, 0, 10)
	b = appendInt4(b, int64(year))
	b = append(b, '-')
	b = appendInt2(b, int64(month))
	b = append(b, '-')
	b = appendInt2(b, int64(day))
	return string(b)
}
