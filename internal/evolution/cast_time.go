package evolution

import (
	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/javacompat"
)

// Date, time and timestamp casts: TimestampToTimestampCastRule,
// TimestampToDateCastRule, TimestampToTimeCastRule, DateToTimestampCastRule,
// TimeToTimestampCastRule, TimestampToNumericPrimitiveCastRule,
// NumericPrimitiveToTimestamp, the TIMESTAMP/TIME/DATE to STRING rules and
// StringToDate/Time/TimestampCastRule.

func timestampOf(v any) (data.Timestamp, error) {
	ts, ok := v.(data.Timestamp)
	if !ok {
		return data.Timestamp{}, badValue(v)
	}
	return ts, nil
}

func int32Of(v any) (int32, error) {
	n, ok := v.(int32)
	if !ok {
		return 0, badValue(v)
	}
	return n, nil
}

// timestampToTimestamp converts between TIMESTAMP and TIMESTAMP_LTZ through
// the default zone, then truncates when the precision shrinks.
func timestampToTimestamp(from, to schema.DataType, e *env) castFunc {
	op := func(ts data.Timestamp) data.Timestamp { return ts }
	switch {
	case from.Root == schema.Timestamp && to.Root == schema.TimestampLTZ:
		op = func(ts data.Timestamp) data.Timestamp { return tsToLTZ(ts, e.loc) }
	case from.Root == schema.TimestampLTZ && to.Root == schema.Timestamp:
		op = func(ts data.Timestamp) data.Timestamp { return ltzToTS(ts, e.loc) }
	}
	truncate := from.Precision > to.Precision
	return func(v any) (any, error) {
		ts, err := timestampOf(v)
		if err != nil {
			return nil, err
		}
		ts = op(ts)
		if truncate {
			ts = truncateTimestamp(ts, to.Precision)
		}
		return ts, nil
	}
}

// timestampToDate: TIMESTAMP divides the millis by a day (truncating toward
// zero, so instants before 1970 land a day late); TIMESTAMP_LTZ takes the
// local date in the default zone.
func timestampToDate(from schema.DataType, e *env) castFunc {
	ltz := from.Root == schema.TimestampLTZ
	return func(v any) (any, error) {
		ts, err := timestampOf(v)
		if err != nil {
			return nil, err
		}
		if ltz {
			return int32(floorDiv(toLocal(ts.Millis, e.loc), millisPerDay)), nil
		}
		return int32(ts.Millis / millisPerDay), nil
	}
}

// timestampToTime: TIMESTAMP keeps the millis modulo a day (negative before
// 1970, as Java's %); TIMESTAMP_LTZ the local time of day.
func timestampToTime(from schema.DataType, e *env) castFunc {
	ltz := from.Root == schema.TimestampLTZ
	return func(v any) (any, error) {
		ts, err := timestampOf(v)
		if err != nil {
			return nil, err
		}
		if ltz {
			local := toLocal(ts.Millis, e.loc)
			return int32(local - floorDiv(local, millisPerDay)*millisPerDay), nil
		}
		return int32(ts.Millis % millisPerDay), nil
	}
}

func dateToTimestamp(to schema.DataType, e *env) castFunc {
	ltz := to.Root == schema.TimestampLTZ
	return func(v any) (any, error) {
		d, err := int32Of(v)
		if err != nil {
			return nil, err
		}
		local := int64(d) * millisPerDay
		if ltz {
			return data.Timestamp{Millis: fromLocal(local, e.loc)}, nil
		}
		return data.Timestamp{Millis: local}, nil
	}
}

func timeToTimestamp(to schema.DataType, e *env) castFunc {
	ltz := to.Root == schema.TimestampLTZ
	return func(v any) (any, error) {
		t, err := int32Of(v)
		if err != nil {
			return nil, err
		}
		if ltz {
			// DateTimeUtils.toLocalDateTime(time) reads the millis as an
			// instant in the default zone; atZone maps the result back.
			return data.Timestamp{Millis: fromLocal(toLocal(int64(t), e.loc), e.loc)}, nil
		}
		return data.Timestamp{Millis: int64(t)}, nil
	}
}

// timestampToNumeric returns the epoch seconds (millis / 1000, truncating).
// TIMESTAMP_LTZ goes through toLocalDateTime and back, which changes nothing.
func timestampToNumeric(to schema.DataType) castFunc {
	return func(v any) (any, error) {
		ts, err := timestampOf(v)
		if err != nil {
			return nil, err
		}
		secs := ts.Millis / 1000
		if to.Root == schema.Int {
			return int32(secs), nil
		}
		return secs, nil
	}
}

// numericToTimestamp mirrors NumericPrimitiveToTimestamp: INT and BIGINT are
// epoch seconds; for TIMESTAMP_LTZ the local wall clock of that instant in
// the default zone is stored (as Java does). Other inputs have no cast.
func numericToTimestamp(from, to schema.DataType, e *env) castFunc {
	if from.Root != schema.Int && from.Root != schema.BigInt {
		return nil
	}
	ltz := to.Root == schema.TimestampLTZ
	return func(v any) (any, error) {
		n, ok := intOf(v)
		if !ok {
			return nil, badValue(v)
		}
		millis := n * 1000
		if ltz {
			millis = toLocal(millis, e.loc)
		}
		return data.Timestamp{Millis: millis}, nil
	}
}

func timestampToString(from schema.DataType, e *env) castFunc {
	ltz := from.Root == schema.TimestampLTZ
	p := from.Precision
	return func(v any) (any, error) {
		ts, err := timestampOf(v)
		if err != nil {
			return nil, err
		}
		if ltz {
			ts = ltzToTS(ts, e.loc)
		}
		return javacompat.FormatTimestamp(ts.Millis, ts.NanoOfMilli, p), nil
	}
}

func timeToString(from schema.DataType) castFunc {
	p := from.Precision
	return func(v any) (any, error) {
		t, err := int32Of(v)
		if err != nil {
			return nil, err
		}
		return javacompat.FormatTimeMillis(t, p), nil
	}
}

func dateToString(v any) (any, error) {
	d, err := int32Of(v)
	if err != nil {
		return nil, err
	}
	return javacompat.FormatDate(d), nil
}

// stringToDate mirrors BinaryStringUtils.toDate: a plain integer is the day
// number, anything else goes through DateTimeUtils.parseDate.
func stringToDate(v any) (any, error) {
	s, err := stringOf(v)
	if err != nil {
		return nil, err
	}
	if javaIsNumeric(s) {
		n, err := javaParseInt(s)
		if err != nil {
			return nil, err
		}
		return n, nil
	}
	d, ok := parseDate(s)
	if !ok {
		return nil, castErr("for input string: '%s' (DATE)", s)
	}
	return d, nil
}

// stringToTime mirrors BinaryStringUtils.toTime.
func stringToTime(v any) (any, error) {
	s, err := stringOf(v)
	if err != nil {
		return nil, err
	}
	if javaIsNumeric(s) {
		n, err := javaParseInt(s)
		if err != nil {
			return nil, err
		}
		return n, nil
	}
	t, ok := parseTime(s)
	if !ok {
		return nil, castErr("for input string: '%s' (TIME)", s)
	}
	return t, nil
}

// stringToTimestamp mirrors BinaryStringUtils.toTimestamp: for TIMESTAMP a
// plain integer is an epoch value in the unit of the precision (0, 3, 6 or
// 9 only); otherwise the text is parsed as a local date-time, which
// TIMESTAMP_LTZ then places in the default zone.
func stringToTimestamp(to schema.DataType, e *env) castFunc {
	ltz := to.Root == schema.TimestampLTZ
	p := to.Precision
	return func(v any) (any, error) {
		s, err := stringOf(v)
		if err != nil {
			return nil, err
		}
		if !ltz && javaIsNumeric(s) {
			n, err := javaParseLong(s)
			if err != nil {
				return nil, err
			}
			return timestampFromEpoch(n, p)
		}
		l, err := parseTimestampText(s, p)
		if err != nil {
			return nil, castErr("text '%s' could not be parsed as a timestamp", s)
		}
		ts := l.timestamp()
		if ltz {
			ts.Millis = fromLocal(ts.Millis, e.loc)
		}
		return ts, nil
	}
}

// timestampFromEpoch mirrors BinaryStringUtils.fromMillisToTimestamp.
func timestampFromEpoch(epoch int64, precision int) (any, error) {
	var millis int64
	var nanos int64
	switch precision {
	case 0:
		millis = epoch * 1000
	case 3:
		millis = epoch
	case 6:
		millis, nanos = epoch/1000, epoch%1000*1000
	case 9:
		millis, nanos = epoch/1_000_000, epoch%1_000_000
	default:
		return nil, castErr("unsupported precision %d for an epoch value", precision)
	}
	if nanos < 0 {
		nanos += 1_000_000
		millis--
	}
	return data.Timestamp{Millis: millis, NanoOfMilli: int32(nanos)}, nil
}
