package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/paimon-go/paimon-go/internal/jackson"
)

// jsonObject is a decoded JSON object that remembers the order of its
// members, which Encode uses to write options back in the order they were
// read. A repeated key is refused (Jackson's ObjectNode would keep the last
// value; Java never writes one).
type jsonObject struct {
	keys []string
	vals map[string]json.RawMessage
}

// get returns the member called key; an explicit JSON null counts as absent.
func (o *jsonObject) get(key string) (json.RawMessage, bool) {
	v, ok := o.vals[key]
	if !ok || isJSONNull(v) {
		return nil, false
	}
	return v, true
}

func isJSONNull(raw []byte) bool { return bytes.Equal(bytes.TrimSpace(raw), []byte("null")) }

// jsonKind names the kind of a JSON value for error messages.
func jsonKind(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// readObject decodes raw, which must be valid JSON, as an object.
func readObject(raw []byte) (*jsonObject, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("expected an object, found %s", jsonKind(raw))
	}
	o := &jsonObject{vals: map[string]json.RawMessage{}}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string) // object keys are always strings
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		if _, seen := o.vals[key]; seen {
			// Java never writes a member twice (Jackson's ObjectNode
			// would keep the last value): a repeated key is damage.
			return nil, fmt.Errorf("member %q appears twice", key)
		}
		o.keys = append(o.keys, key)
		o.vals[key] = v
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	return o, nil
}

// readArray decodes raw, which must be valid JSON, as an array.
func readArray(raw []byte) ([]json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '[' {
		return nil, fmt.Errorf("expected an array, found %s", jsonKind(raw))
	}
	var elems []json.RawMessage
	if err := json.Unmarshal(raw, &elems); err != nil {
		return nil, err
	}
	return elems, nil
}

func readString(raw []byte) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '"' {
		return "", fmt.Errorf("expected a string, found %s", jsonKind(raw))
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", err
	}
	return s, nil
}

// readScalarText returns a string member as is and a number or boolean as
// its JSON text, the way Jackson's asText and its String coercion read
// option values ({"bucket": 2} means "2").
func readScalarText(raw []byte) (string, error) {
	raw = bytes.TrimSpace(raw)
	switch jsonKind(raw) {
	case "a string":
		return readString(raw)
	case "a number", "a boolean":
		return string(raw), nil
	}
	return "", fmt.Errorf("expected a string, found %s", jsonKind(raw))
}

// readInt reads an integral JSON number that fits in bits bits. Java reads
// these members with asInt/asLong; fractions and exponents never occur in
// files Java writes, so they are rejected rather than truncated.
func readInt(raw []byte, bits int) (int64, error) {
	raw = bytes.TrimSpace(raw)
	if jsonKind(raw) != "a number" {
		return 0, fmt.Errorf("expected an integer, found %s", jsonKind(raw))
	}
	n, err := strconv.ParseInt(string(raw), 10, bits)
	if err != nil {
		return 0, fmt.Errorf("expected a %d-bit integer, found %s", bits, raw)
	}
	return n, nil
}

func readStringArray(raw []byte) ([]string, error) {
	elems, err := readArray(raw)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(elems))
	for i, e := range elems {
		if out[i], err = readString(e); err != nil {
			return nil, fmt.Errorf("element %d: %w", i, err)
		}
	}
	return out, nil
}

// checkMembers refuses a member of o that is not one of known but one
// changed, inserted or removed character away from one of them: a damaged
// key (a single flipped bit) that would otherwise be ignored as unknown
// while the member it was goes missing or takes its default.
func checkMembers(o *jsonObject, known ...string) error {
	for _, k := range o.keys {
		if slices.Contains(known, k) {
			continue
		}
		for _, want := range known {
			if jackson.OneEdit(k, want) {
				return fmt.Errorf("unknown member %q looks like a damaged %q", k, want)
			}
		}
	}
	return nil
}
