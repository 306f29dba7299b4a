package paimon

import (
	"errors"
	"fmt"
	"maps"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/coreoptions"
)

// checkOptions refuses a schema whose options this library does not
// implement for op, as internal/coreoptions classifies them (the one place
// that decides; docs/options.md lists the rules). Every read (a scan's state,
// so planning, ReadSplits, the system tables built on scans and the other
// branch of a fallback read) and every write (writers, compaction, commits)
// calls it before the first row, so a table using a feature this library
// lacks fails instead of being read or written differently from Java.
//
// An unsupported value wraps ErrUnsupported, a value that does not parse
// ErrInvalidOption; both name the table, the key and the value.
func checkOptions(ts *schema.TableSchema, op coreoptions.Op, table string) error {
	err := coreoptions.Check(ts.Options, op, len(ts.PrimaryKeys) > 0)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, coreoptions.ErrUnsupported):
		return fmt.Errorf("%w: %s %s: %w", ErrUnsupported, op, table, err)
	default:
		// The value is in the schema file, which may be damaged.
		return fmt.Errorf("%w: %s %s (schema-%d): %w", ErrInvalidOption, op, table, ts.ID, err)
	}
}

// CheckOptionKeys refuses table options whose keys Java Paimon does not
// know, naming the closest known key: "target-file-sizee" would be stored
// and silently do nothing, in Java as here. Keys in custom pass (options
// stored for another system or an application). The error wraps
// ErrInvalidOption. Call it before catalog.DDL's CreateTable (on the
// schema's Options) or Table.Alter (on the keys of SetOption changes); the
// catalog itself accepts any key, as Java's does, so that tables made
// elsewhere stay alterable. The command's table create and table alter
// call it, with --custom-option as the escape.
func CheckOptionKeys(opts map[string]string, custom ...string) error {
	err := coreoptions.CheckKeys(opts, custom)
	var e *coreoptions.Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &e):
		// "invalid option KEY = ...", not "invalid option: option KEY = ...".
		return fmt.Errorf("%w %s = %q: %s", ErrInvalidOption, e.Key, e.Value, e.Reason)
	default:
		return fmt.Errorf("%w: %w", ErrInvalidOption, err)
	}
}

// withoutOptions returns ts, or a shallow copy of it without keys when it
// sets any of them (for checking options a caller has honoured itself).
func withoutOptions(ts *schema.TableSchema, keys []string) *schema.TableSchema {
	var opts map[string]string
	for _, k := range keys {
		if _, ok := ts.Options[k]; !ok {
			continue
		}
		if opts == nil {
			opts = maps.Clone(ts.Options)
		}
		delete(opts, k)
	}
	if opts == nil {
		return ts
	}
	c := *ts
	c.Options = opts
	return &c
}
