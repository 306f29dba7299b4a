package snapshot

import (
	"fmt"
	"time"
)

// Tag is the content of a tag/tag-<name> file; it mirrors Java
// org.apache.paimon.tag.Tag, a Snapshot with two optional members.
//
// A tag created without a retention time is exactly the tagged snapshot's
// JSON (both fields nil), which keeps it readable by Paimon <= 0.7.
type Tag struct {
	Snapshot
	// CreateTime is tagCreateTime, a Java LocalDateTime: a wall-clock time
	// without zone. Decode returns it in time.UTC; Encode writes the wall-clock
	// fields of whatever location the value carries.
	CreateTime *time.Time
	// TimeRetained is tagTimeRetained, the retention period counted from
	// CreateTime (a Java Duration).
	TimeRetained *time.Duration
}

// DecodeTag parses the JSON of a tag file. Errors are those of Decode, plus
// ErrCorrupt for an impossible tagCreateTime or a tagTimeRetained that is not a
// number of seconds within time.Duration's range.
func DecodeTag(data []byte) (*Tag, error) {
	members, err := readObject(data)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	t := &Tag{}
	rest, err := t.Snapshot.decodeMembers(members)
	if err != nil {
		return nil, err
	}
	for _, m := range rest {
		switch m.name {
		case "tagCreateTime":
			t.CreateTime, err = parseLocalDateTime(m.value)
		case "tagTimeRetained":
			t.TimeRetained, err = parseDurationSeconds(m.value)
		}
		if err != nil {
			return nil, fmt.Errorf("%w: member %q: %v", ErrCorrupt, m.name, err)
		}
	}
	return t, nil
}

// Encode returns the JSON Java Paimon writes for t: the snapshot members, then
// tagCreateTime as a Jackson LocalDateTime array ([y, m, d, h, mi] plus the
// second and nanosecond when non-zero) and tagTimeRetained as decimal seconds
// (5.000000000), each left out when nil.
func (t *Tag) Encode() []byte {
	w := newPrettyWriter()
	w.BeginObject()
	t.Snapshot.encodeMembers(&w)
	if t.CreateTime != nil {
		w.Name("tagCreateTime")
		w.BeginArray()
		for _, v := range localDateTimeArray(*t.CreateTime) {
			w.Int(v)
		}
		w.EndArray()
	}
	if t.TimeRetained != nil {
		w.Name("tagTimeRetained")
		w.Raw(appendDurationSeconds(nil, *t.TimeRetained))
	}
	w.EndObject()
	return w.Bytes()
}
