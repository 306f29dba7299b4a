package coreoptions

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/paimon-go/paimon-go/internal/textdist"
)

// Check returns an error wrapping ErrUnsupported for the first option (in
// key order) that opts sets to a value this library refuses for op, per the
// classification: a Refused option set to anything but Java's default or a
// value its rule allows, or an Implemented option set to a value outside
// the values its rule lists. Options of primary-key tables are skipped when
// primaryKey is false. A refused value that does not even parse yields an
// error wrapping ErrInvalid instead, and so does any other value of a
// CoreOptions option that does not parse as Java's type (a boolean "yes"),
// which Java would refuse when it reads the option. Keys Lookup does not
// know pass: Java ignores them too.
//
// Read and write paths call Check before producing or accepting any row, so
// that a table using a feature this library lacks fails instead of being
// read or written differently from Java.
func Check(opts map[string]string, op Op, primaryKey bool) error {
	for _, key := range slices.Sorted(maps.Keys(opts)) {
		o, ok := Lookup(key)
		if !ok || (o.Tables == PrimaryKeyTables && !primaryKey) {
			continue
		}
		if err := checkRule(o, o.Rule(op), key, opts[key], op); err != nil {
			return err
		}
	}
	return nil
}

func checkRule(o *Option, r Rule, key, value string, op Op) error {
	switch {
	case r.Class == Ignorable && o.Source != CoreOptions:
		// Flink's and Iceberg's options: Java's core never reads them.
		return nil
	case r.Class == Ignorable, r.Class == Implemented && r.Allow == nil:
		// The value may be read (an ignorable option can still steer
		// pruning): one that does not parse is an error here, before any
		// reader could fall back to the default.
		_, err := parseValue(o, key, value)
		return err
	}
	got, err := parseValue(o, key, value)
	if err != nil {
		return err
	}
	allowed := r.Allow
	if r.Class == Refused && o.HasDefault {
		allowed = append([]string{o.Default}, allowed...)
	}
	for _, a := range allowed {
		want, err := parseValue(o, key, a)
		if err != nil {
			continue
		}
		if ws, ok := want.(string); ok && o.Type == KindString {
			// Java lowercases the string options it acts on
			// (file formats, codecs) before looking them up.
			if strings.EqualFold(ws, got.(string)) {
				return nil
			}
		} else if want == got {
			return nil
		}
	}
	reason := fmt.Sprintf("not implemented for %ss", op)
	if r.Class == Implemented || len(allowed) > 0 {
		reason = fmt.Sprintf("%s (%ss take %v)", reason, op, allowed)
	}
	if o.Note != "" {
		reason += ": " + o.Note
	}
	return &Error{Key: key, Value: value, Reason: reason, Err: ErrUnsupported}
}

// ErrUnknown is wrapped by the refusal of a key Java Paimon does not know
// (CheckKeys).
var ErrUnknown = errors.New("unknown table option")

// knownKeys are the literal keys and fallback keys of the registry: the
// candidates of CheckKeys' "did you mean".
var knownKeys = func() []string {
	var keys []string
	for _, o := range registry {
		if !strings.ContainsAny(o.Key, "*#") {
			keys = append(keys, o.Key)
		}
	}
	return append(keys, slices.Sorted(maps.Keys(byFallback))...)
}()

// CheckKeys refuses, with an error wrapping ErrUnknown, the first key of
// opts (in key order) that Lookup does not know and custom does not name,
// suggesting the closest known key. Java itself stores any key, so a
// misspelt one (target-file-sizee) is silently without effect; DDL entry
// points (the command's table create and table alter, and library callers
// through paimon.CheckOptionKeys) call this to catch it, and list the keys
// they mean to store for other systems in custom. Reads and writes do not
// call it: tables written elsewhere may carry any key.
func CheckKeys(opts map[string]string, custom []string) error {
	for _, key := range slices.Sorted(maps.Keys(opts)) {
		if _, ok := Lookup(key); ok || slices.Contains(custom, key) {
			continue
		}
		reason := "not a Java Paimon option"
		if best := textdist.Closest(key, knownKeys); best != "" {
			reason += fmt.Sprintf(" (did you mean %q?)", best)
		}
		return &Error{Key: key, Value: opts[key], Reason: reason, Err: ErrUnknown}
	}
	return nil
}
