package snapshot

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"unicode/utf8"
)

// This file holds the reading half of the JSON dialect Java Paimon uses for
// its metadata files (JsonSerdeUtil.fromJson over a shaded Jackson 2.14
// ObjectMapper): it walks objects member by member so that keys are matched
// case-sensitively (as Jackson does, unlike encoding/json) and the order of
// map members survives decoding. The writing half is internal/jackson.

// member is one name/value pair of a JSON object, in document order.
type member struct {
	name  string
	value json.RawMessage
}

// errNotObject is returned by readObject when the document is valid JSON but
// not an object (for example "null" or "[]").
var errNotObject = errors.New("not a JSON object")

// readObject splits a JSON object into its members in document order. It
// fails on malformed JSON, on a document that is not an object, and on
// trailing data after the object.
func readObject(data []byte) ([]member, error) {
	if !utf8.Valid(data) {
		// Java writes UTF-8; a damaged byte would otherwise be decoded as
		// U+FFFD and a damaged key could pass for an unknown one.
		return nil, errors.New("not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errNotObject
	}
	var out []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		name, ok := tok.(string)
		if !ok {
			return nil, fmt.Errorf("unexpected token %v", tok)
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		out = append(out, member{name: name, value: raw})
	}
	if _, err := dec.Token(); err != nil { // the closing '}'
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("trailing data after the JSON object")
	}
	return out, nil
}

// trimSpace trims JSON white space around a raw value.
func trimSpace(raw json.RawMessage) []byte {
	return bytes.TrimSpace(raw)
}

// isNull reports whether a raw JSON value is the literal null.
func isNull(raw json.RawMessage) bool {
	return string(bytes.TrimSpace(raw)) == "null"
}

// parseInt64 decodes a Java long member. Jackson accepts an integer number or,
// by scalar coercion, a string holding one (Paimon <= 0.2 wrote
// commitIdentifier as a string); null yields ok == false.
func parseInt64(raw json.RawMessage) (v int64, ok bool, err error) {
	raw = bytes.TrimSpace(raw)
	if string(raw) == "null" {
		return 0, false, nil
	}
	text := string(raw)
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return 0, false, err
		}
		text = s
	}
	v, err = strconv.ParseInt(text, 10, 64)
	if err != nil {
		return 0, false, fmt.Errorf("not a 64-bit integer: %s", raw)
	}
	return v, true, nil
}

// parseInt32 is parseInt64 for a Java int member.
func parseInt32(raw json.RawMessage) (v int32, ok bool, err error) {
	l, ok, err := parseInt64(raw)
	if err != nil || !ok {
		return 0, ok, err
	}
	if l != int64(int32(l)) {
		return 0, false, fmt.Errorf("not a 32-bit integer: %s", bytes.TrimSpace(raw))
	}
	return int32(l), true, nil
}

// parseString decodes a Java String member; null yields ok == false.
func parseString(raw json.RawMessage) (s string, ok bool, err error) {
	if isNull(raw) {
		return "", false, nil
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false, fmt.Errorf("not a string: %s", bytes.TrimSpace(raw))
	}
	return s, true, nil
}

// optInt64 is parseInt64 returning a pointer (nil for null).
func optInt64(raw json.RawMessage) (*int64, error) {
	v, ok, err := parseInt64(raw)
	if err != nil || !ok {
		return nil, err
	}
	return &v, nil
}

// optString is parseString returning a pointer (nil for null).
func optString(raw json.RawMessage) (*string, error) {
	s, ok, err := parseString(raw)
	if err != nil || !ok {
		return nil, err
	}
	return &s, nil
}

// parseStringMap decodes a Map<String, String> member, returning the map
// (nil for null) and the keys in document order. A null value decodes as "".
func parseStringMap(raw json.RawMessage) (map[string]string, []string, error) {
	if isNull(raw) {
		return nil, nil, nil
	}
	members, err := readObject(raw)
	if err != nil {
		return nil, nil, err
	}
	m := make(map[string]string, len(members))
	order := make([]string, 0, len(members))
	for _, mb := range members {
		v, _, err := parseString(mb.value)
		if err != nil {
			return nil, nil, fmt.Errorf("map entry %q: %w", mb.name, err)
		}
		if _, dup := m[mb.name]; !dup {
			order = append(order, mb.name)
		}
		m[mb.name] = v
	}
	return m, order, nil
}

// decodedOrder returns the document order of a decoded map, or nil when it is
// the sorted order Encode falls back to anyway: values decoded from sorted (or
// single-entry) maps then compare equal to hand-built ones.
func decodedOrder(order []string) []string {
	if slices.IsSorted(order) {
		return nil
	}
	return order
}
