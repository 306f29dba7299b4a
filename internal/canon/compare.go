package canon

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Canonicalize re-encodes one JSON line: numbers kept exactly (UseNumber),
// object keys sorted, no HTML escaping. Two producers' lines for the same row
// canonicalise to the same bytes whatever their key order and escaping.
func Canonicalize(line []byte) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "", fmt.Errorf("canon: bad JSON line %q: %w", truncate(line), err)
	}
	b, err := marshal(v)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// ReadLines reads JSONL and returns the canonicalised lines sorted, ready for
// Compare. Blank lines are ignored.
func ReadLines(r io.Reader) ([]string, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 256<<20)
	var out []string
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		c, err := Canonicalize(line)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	sort.Strings(out)
	return out, nil
}

// Compare compares two sorted, canonical line sets as multisets and returns a
// readable description of the difference, or "" when they are equal.
func Compare(want, got []string) string {
	var missing, extra []string
	i, j := 0, 0
	for i < len(want) || j < len(got) {
		switch {
		case j >= len(got) || i < len(want) && want[i] < got[j]:
			missing = append(missing, want[i])
			i++
		case i >= len(want) || got[j] < want[i]:
			extra = append(extra, got[j])
			j++
		default:
			i++
			j++
		}
	}
	if len(missing) == 0 && len(extra) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "want %d rows, got %d; %d missing, %d unexpected\n", len(want), len(got), len(missing), len(extra))
	for k, s := range missing {
		if k == 20 {
			fmt.Fprintf(&b, "  ... %d more missing\n", len(missing)-20)
			break
		}
		fmt.Fprintf(&b, "  - %s\n", s)
	}
	for k, s := range extra {
		if k == 20 {
			fmt.Fprintf(&b, "  ... %d more unexpected\n", len(extra)-20)
			break
		}
		fmt.Fprintf(&b, "  + %s\n", s)
	}
	return b.String()
}

func truncate(b []byte) string {
	if len(b) > 200 {
		return string(b[:200]) + "..."
	}
	return string(b)
}
