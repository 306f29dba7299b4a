package orc

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Timestamps in ORC (specification "Timestamp Columns"; Java
// TimestampTreeWriter and TimestampTreeReader):
//
//   - DATA holds seconds since 2015-01-01 00:00:00 in the writer's time zone
//     (UTC for TIMESTAMP_INSTANT, "timestamp with local time zone"); the
//     zone is the stripe footer's writerTimezone.
//   - SECONDARY holds the nanoseconds of the second with trailing decimal
//     zeros removed: value<<3 | (zeros-1) when more than two zeros were
//     dropped.
//   - Java's writer computes the seconds by truncating the epoch
//     milliseconds toward zero (time / 1000), and its reader takes a second
//     off again when the result is negative with more than a millisecond
//     of nanoseconds. Earlier instants round-trip, but one whose epoch
//     milliseconds are in [-999, -1] (an instant in (-1 s, 0) outside its
//     first millisecond) is stored as second 0 plus its positive fraction,
//     and every reader, Java included, returns that fraction after the
//     epoch: the golden corpus's
//     c_ts3 1969-12-31T23:59:59.999 reads as 1970-01-01T00:00:00.999 in
//     every Java version. No (seconds, nanos) pair makes Java's reader
//     return such an instant, so the writer here stores what Java's does
//     and the reader decodes exactly as Java's: both return Java's rows.
//
// Paimon then turns the java.sql.Timestamp-like (millis, nanos) pair into
// its own value: for TIMESTAMP the wall clock in the JVM's zone
// (DateTimeUtils.toInternal), for TIMESTAMP_LTZ with
// orc.timestamp-ltz.legacy.type (the default) the same, else the instant.
// Java readers run in the writer's zone in practice; a reader that wants
// the writer's values uses the writer's zone, which is what this package
// does: wall clock = instant + the writer zone's offset at that instant.

// tsBase is 2015-01-01 00:00:00 UTC in epoch seconds.
const tsBase = 1420070400

// LTZMode says how TIMESTAMP_LTZ columns are stored (Paimon's
// orc.timestamp-ltz.legacy.type).
type LTZMode int

const (
	// LTZLegacy (the default, orc.timestamp-ltz.legacy.type = true): Java
	// stores the instant's UTC wall clock as a local time of the writer's
	// zone.
	LTZLegacy LTZMode = iota
	// LTZInstant (orc.timestamp-ltz.legacy.type = false): Java stores the
	// instant.
	LTZInstant
)

// readConfig holds the read options the column readers need.
type readConfig struct {
	ltz LTZMode
}

// tsConv converts a stored (seconds, encoded nanos) pair into Paimon's
// (epoch milliseconds, nanos of the second) of the requested type.
type tsConv struct {
	base int64          // the writer zone's 2015-01-01 in epoch seconds
	loc  *time.Location // zone whose offset is added; nil: none
}

// newTSConv builds the conversion for a stripe. zone is the stripe
// footer's writer time zone; instant tells the file column's kind;
// ltzTarget whether Paimon's type is TIMESTAMP_LTZ.
func newTSConv(zone string, instant, ltzTarget bool, cfg *readConfig) (tsConv, error) {
	var c tsConv
	var loc *time.Location
	if zone != "" {
		var err error
		if loc, err = loadZone(zone); err != nil {
			return c, err
		}
	}
	if instant {
		c.base = tsBase
	} else if loc != nil {
		c.base = time.Date(2015, 1, 1, 0, 0, 0, 0, loc).Unix()
	} else {
		c.base = tsBase
	}
	switch {
	case !instant:
		// TIMESTAMP (or an old file's TIMESTAMP read as LTZ): the wall
		// clock in the writer's zone.
		c.loc = loc
	case ltzTarget && cfg.ltz == LTZLegacy:
		c.loc = loc
	}
	return c, nil
}

// decode mirrors TimestampTreeReader.readTimestamp (Java int arithmetic
// for the nanos, as Java computes them) and adds the zone's offset.
func (c tsConv) decode(secs int64, enc uint64) (int64, int32) {
	zeros := int32(enc & 7)
	nanos := int32(uint32(enc >> 3))
	if zeros != 0 {
		nanos *= int32(pow10[zeros+1])
	}
	millis := (secs+c.base)*1000 + int64(nanos/1_000_000)
	if millis < 0 && nanos > 999_999 {
		millis -= 1000
	}
	if c.loc != nil {
		millis += offsetMillis(c.loc, millis)
	}
	return millis, nanos
}

// offsetMillis is the zone's offset from UTC at an instant (Java
// TimeZone.getOffset).
func offsetMillis(loc *time.Location, millis int64) int64 {
	_, off := time.UnixMilli(millis).In(loc).Zone()
	return int64(off) * 1000
}

var zones sync.Map // string -> *time.Location (nil for UTC)

// loadZone resolves a Java time zone id. UTC and its aliases, and fixed
// GMT offsets, need no time zone database; other zones come from the
// system's. nil means UTC.
func loadZone(id string) (*time.Location, error) {
	if v, ok := zones.Load(id); ok {
		return v.(*time.Location), nil
	}
	loc, err := resolveZone(id)
	if err != nil {
		return nil, err
	}
	zones.Store(id, loc)
	return loc, nil
}

func resolveZone(id string) (*time.Location, error) {
	switch id {
	case "UTC", "GMT", "Z", "UCT", "Zulu", "Universal", "Greenwich", "GMT0", "Etc/UTC", "Etc/GMT", "Etc/UCT",
		"Etc/Zulu", "Etc/Universal", "Etc/Greenwich", "Etc/GMT0", "Etc/GMT+0", "Etc/GMT-0":
		return nil, nil
	}
	if rest, ok := strings.CutPrefix(id, "GMT"); ok && len(rest) > 1 && (rest[0] == '+' || rest[0] == '-') {
		// Java custom ids: GMT+h, GMT+hh, GMT+hh:mm, GMT+hhmm.
		sign := 1
		if rest[0] == '-' {
			sign = -1
		}
		hm := strings.ReplaceAll(rest[1:], ":", "")
		var h, m int
		var err error
		switch len(hm) {
		case 1, 2:
			h, err = strconv.Atoi(hm)
		case 3, 4:
			h, err = strconv.Atoi(hm[:len(hm)-2])
			if err == nil {
				m, err = strconv.Atoi(hm[len(hm)-2:])
			}
		default:
			err = fmt.Errorf("bad offset")
		}
		if err == nil && h <= 23 && m <= 59 {
			off := sign * (h*3600 + m*60)
			if off == 0 {
				return nil, nil
			}
			return time.FixedZone(id, off), nil
		}
	}
	loc, err := time.LoadLocation(id)
	if err != nil {
		return nil, unsupportedf("writer time zone %q: %v", id, err)
	}
	return loc, nil
}
