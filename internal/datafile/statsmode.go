package datafile

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/coreoptions"
)

// Table options that choose the value statistics of data files (Java
// CoreOptions METADATA_STATS_*, FIELDS_PREFIX + STATS_MODE_SUFFIX).
const (
	optStatsMode       = coreoptions.MetadataStatsMode
	optStatsKeepFirstN = coreoptions.MetadataStatsKeepFirstNColumns
	optStatsDenseStore = coreoptions.MetadataStatsDenseStore
	defaultStatsMode   = "truncate(16)"
)

// modeKind is a column statistics collector (Java
// org.apache.paimon.statistics.*SimpleColStatsCollector).
type modeKind int

const (
	modeNone modeKind = iota
	modeCounts
	modeFull
	modeTruncate
)

// statsMode is the collector of one column; length is truncate's N.
type statsMode struct {
	kind   modeKind
	length int
}

var truncatePattern = regexp.MustCompile(`^TRUNCATE\((\d+)\)$`)

// parseStatsMode mirrors SimpleColStatsCollector.from: case-insensitive
// none, counts, full or truncate(N) with N > 0.
func parseStatsMode(s string) (statsMode, error) {
	up := strings.ToUpper(s)
	switch up {
	case "NONE":
		return statsMode{kind: modeNone}, nil
	case "COUNTS":
		return statsMode{kind: modeCounts}, nil
	case "FULL":
		return statsMode{kind: modeFull}, nil
	}
	if m := truncatePattern.FindStringSubmatch(up); m != nil {
		n, err := strconv.Atoi(m[1])
		if err == nil && n > 0 {
			return statsMode{kind: modeTruncate, length: n}, nil
		}
	}
	return statsMode{}, fmt.Errorf("%w: stats mode %q", ErrInvalid, s)
}

// statsModes returns the collector of every column of an append table's
// data files (statsModesFor over the table's fields).
func statsModes(ts *schema.TableSchema) ([]statsMode, error) {
	def := defaultStatsMode
	if v, ok := ts.Options[optStatsMode]; ok {
		def = v
	}
	return statsModesFor(ts.Options, def, ts.Fields, FormatParquet, false, nil)
}

// statsModesFor returns the collector of every column of a data file with
// the given columns, as Java assigns them. A fields.<name>.stats-mode option
// wins; otherwise the file's stats mode (def), except that columns beyond
// the first metadata.stats-keep-first-n-columns get none.
//
// For the key-value files of primary-key tables (kv) in Parquet, Java's
// StatsCollectorFactories.createStatsFactories gives system columns
// (_KEY_*, _SEQUENCE_NUMBER, _VALUE_KIND) and, in thin mode, the value
// columns of key fields truncate(128), and does not count them against the
// keep-first-n limit. In Avro (createStatsFactoriesForAvro) every column
// counts and none is special. Append tables have no system columns, so both
// rules agree there.
func statsModesFor(opts map[string]string, def string, fields []schema.DataField, format string, kv bool, thinKeys []string) ([]statsMode, error) {
	defMode, err := parseStatsMode(def)
	if err != nil {
		return nil, err
	}
	keep := -1
	if v, ok := opts[optStatsKeepFirstN]; ok {
		if keep, err = strconv.Atoi(strings.TrimSpace(v)); err != nil {
			return nil, fmt.Errorf("%w: option %s=%q", ErrInvalid, optStatsKeepFirstN, v)
		}
	}
	special := map[string]bool{}
	if kv && format == FormatParquet {
		for _, f := range fields {
			if schema.IsSystemFieldName(f.Name) {
				special[f.Name] = true
			}
		}
		// Thin mode: Java passes the key names (_KEY_<f>) and marks value
		// column <f> when _KEY_<f> is among them.
		for _, name := range thinKeys {
			special[name] = true
		}
	}
	modes := make([]statsMode, len(fields))
	count := 0
	for i, f := range fields {
		if v, ok := opts["fields."+f.Name+".stats-mode"]; ok {
			if modes[i], err = parseStatsMode(v); err != nil {
				return nil, err
			}
		} else if special[f.Name] {
			modes[i] = statsMode{kind: modeTruncate, length: 128}
			continue
		} else if keep >= 0 && count >= keep {
			modes[i] = statsMode{kind: modeNone}
		} else {
			modes[i] = defMode
		}
		count++
	}
	return modes, nil
}

// colStats is Java's SimpleColStats: min, max (format/data values) and the
// null count; nil means null.
type colStats struct {
	min, max  any
	nullCount *int64
}

// isNone is SimpleColStats.isNone: nothing known, so dense storage drops the
// column.
func (c colStats) isNone() bool { return c.min == nil && c.max == nil && c.nullCount == nil }

// convert applies the collector to statistics extracted from a file footer
// (SimpleColStatsCollector.convert).
func (m statsMode) convert(s colStats) colStats {
	switch m.kind {
	case modeNone:
		return colStats{}
	case modeCounts:
		return colStats{nullCount: s.nullCount}
	case modeTruncate:
		// Only strings are truncated; a maximum that cannot be rounded up
		// drops min and max (TruncateSimpleColStatsCollector.convert).
		if str, ok := s.min.(string); ok {
			s.min = truncateMin(str, m.length)
		}
		if str, ok := s.max.(string); ok {
			if r, ok := truncateMax(str, m.length); ok {
				s.max = r
			} else {
				s.max = nil
			}
		}
		if s.max == nil {
			return colStats{nullCount: s.nullCount}
		}
	}
	return s
}

// truncateMin keeps the first n code points (BinaryString.substring).
func truncateMin(s string, n int) string {
	i, c := 0, 0
	for i < len(s) && c < n {
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
		c++
	}
	return s[:i]
}

// truncateMax returns a string of at most n code points that is not less
// than s, mirroring TruncateSimpleColStatsCollector.truncateMax: s itself
// when it is short enough, else its first n code points with the last one
// incremented (walking back over code points that cannot be). ok is false
// when no code point can be incremented.
//
// Java builds the result in a UTF-16 StringBuilder and encodes it with
// BinaryString.encodeUTF8, so an increment that lands on a surrogate (only
// U+D7FF+1) comes out as '?', a Java quirk reproduced here.
func truncateMax(s string, n int) (string, bool) {
	t := truncateMin(s, n)
	if len(t) == len(s) {
		return s, true
	}
	runes := []rune(t)
	for i := len(runes) - 1; i >= 0; i-- {
		next := runes[i] + 1
		if next > utf8.MaxRune {
			continue
		}
		out := string(runes[:i])
		if next >= 0xd800 && next <= 0xdfff {
			return out + "?", true
		}
		return out + string(next), true
	}
	return "", false
}

// javaString is what a string statistic becomes after Java decodes the
// Parquet bytes into a String (invalid UTF-8 sequences become U+FFFD) and
// encodes it back into a BinaryString.
func javaString(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		sb.WriteRune(r)
		i += w
	}
	return sb.String()
}
