package coreoptions

import (
	"slices"
	"sort"
	"strings"
)

// Kind is the Java type of an option's value (the ConfigOptions builder
// method that declares it: booleanType, intType, ...).
type Kind uint8

const (
	KindBoolean Kind = iota + 1
	KindInteger
	KindLong
	KindFloat
	KindDouble
	KindString
	KindEnum
	KindDuration
	KindMemorySize
	KindMap
	KindPassword
)

var typeNames = [...]string{"", "Boolean", "Integer", "Long", "Float", "Double", "String", "Enum", "Duration",
	"MemorySize", "Map", "Password"}

func (t Kind) String() string {
	if int(t) < len(typeNames) {
		return typeNames[t]
	}
	return "?"
}

// Version is a set of Java Paimon releases.
type Version uint8

const (
	V1_4_2 Version = 1 << iota
	V2_0_0
)

func (v Version) String() string {
	var parts []string
	if v&V1_4_2 != 0 {
		parts = append(parts, "1.4.2")
	}
	if v&V2_0_0 != 0 {
		parts = append(parts, "2.0.0")
	}
	return strings.Join(parts, ", ")
}

// Source is the Java class that declares an option.
type Source uint8

const (
	CoreOptions Source = iota + 1
	FlinkConnectorOptions
	IcebergOptions
	// Dynamic marks the option families Java builds from a name at run
	// time (fields.<field>.aggregate-function, parquet.<key>, ...).
	Dynamic
)

var sourceNames = [...]string{"", "CoreOptions", "FlinkConnectorOptions", "IcebergOptions", "dynamic"}

func (s Source) String() string {
	if int(s) < len(sourceNames) {
		return sourceNames[s]
	}
	return "?"
}

// Option describes one table option: what Java declares (the generated
// java_options.go) and what this library does with it (classification.go).
// Options are values shared by every caller; treat them as read-only.
type Option struct {
	// Key is the option's key. For Dynamic options it is a pattern in
	// which '*' stands for a name (a column, a file format, an index
	// type), e.g. "fields.*.aggregate-function".
	Key  string
	Type Kind
	// Default is Java's default as text that the parser of Type accepts
	// ("1 h", "128 mb", "deduplicate"); meaningful only when HasDefault.
	Default    string
	HasDefault bool
	Versions   Version
	Source     Source
	// Fallback are the older keys Java reads, in order, when Key is
	// absent (withFallbackKeys, withDeprecatedKeys).
	Fallback []string
	// Values are an enum's constants as Java prints them; Java matches
	// them case-insensitively.
	Values []string
	// Immutable options cannot be changed once the table exists (Java's
	// @Immutable, enforced by SchemaManager on alter).
	Immutable  bool
	Deprecated bool
	Summary    string

	// Read and Write say what this library does with the option when it
	// reads or writes a table, Tables which tables the rules concern.
	Read, Write Rule
	Tables      Tables
	// Note explains the classification where it is not obvious.
	Note string
}

// Class is how this library treats an option.
type Class uint8

const (
	// Implemented: the library honours the option (for the values the
	// rule allows; any other value is refused).
	Implemented Class = iota + 1
	// Refused: the library does not implement the option; a read or write
	// of a table that sets it to a value other than Java's default (or one
	// the rule allows) fails with ErrUnsupported before any row.
	Refused
	// Ignorable: the option does not change the rows read or the files
	// written as far as Java's readers can tell (parallelism, caches,
	// memory, metrics, engine-side scheduling, maintenance a writer of
	// this library never runs).
	Ignorable
)

var classNames = [...]string{"", "implemented", "refused", "ignorable"}

func (c Class) String() string {
	if int(c) < len(classNames) {
		return classNames[c]
	}
	return "?"
}

// Rule is the classification of an option for one kind of access.
type Rule struct {
	Class Class
	// Allow lists the values accepted (compared as values of the option's
	// type: enums and booleans case-insensitively, sizes and durations by
	// magnitude). For Implemented, nil means every value. For Refused,
	// Java's default is always accepted besides these.
	Allow []string
}

// Op is a kind of access to a table.
type Op uint8

const (
	Read Op = iota + 1
	Write
)

func (o Op) String() string {
	if o == Write {
		return "write"
	}
	return "read"
}

// Rule returns the option's rule for op.
func (o *Option) Rule(op Op) Rule {
	if op == Write {
		return o.Write
	}
	return o.Read
}

// registry is every option, Java's and the dynamic families, sorted by key;
// patterns are the options whose key holds a wildcard, longest first.
var registry, byKey, patterns = build()

func build() ([]*Option, map[string]*Option, []*Option) {
	var all, pats []*Option
	m := map[string]*Option{}
	for i := range javaOptions {
		o := &javaOptions[i]
		all = append(all, o)
		m[o.Key] = o
		if strings.ContainsAny(o.Key, "*#") {
			pats = append(pats, o)
		}
	}
	for i := range dynamicOptions {
		o := &dynamicOptions[i]
		o.Source = Dynamic
		all = append(all, o)
		m[o.Key] = o
		if strings.ContainsAny(o.Key, "*#") {
			pats = append(pats, o)
		}
	}
	for _, lines := range [][]line{classification[:], dynamicClassification[:]} {
		for _, c := range lines {
			// A line without an option is reported by the tests.
			if o := m[c.key]; o != nil {
				o.Read, o.Write, o.Tables, o.Note = c.read, c.write, c.tables, c.note
			}
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Key < all[j].Key })
	// Longer patterns first: "fields.*.map.storage-layout" is tried before
	// "fields.*.pk-vector.*" could claim a key.
	sort.SliceStable(pats, func(i, j int) bool { return len(pats[i].Key) > len(pats[j].Key) })
	return all, m, pats
}

// All returns every known option sorted by key: Java's options and the
// dynamic families.
func All() []*Option { return slices.Clone(registry) }

// Lookup returns the option a key belongs to: the option itself, the option
// it is a fallback key of, or the dynamic family whose pattern matches it.
// ok is false for a key Java does not know (a misspelling, or a key some
// other system stores in the table).
func Lookup(key string) (*Option, bool) {
	if o, ok := byKey[key]; ok {
		return o, true
	}
	if o, ok := byFallback[key]; ok {
		return o, true
	}
	for _, p := range patterns {
		if matchPattern(p.Key, key) {
			return p, true
		}
	}
	return nil, false
}

// byFallback maps each fallback key to its option.
var byFallback = func() map[string]*Option {
	m := map[string]*Option{}
	for i := range javaOptions {
		for _, f := range javaOptions[i].Fallback {
			if _, own := byKey[f]; !own {
				m[f] = &javaOptions[i]
			}
		}
	}
	return m
}()

// matchPattern reports whether key matches a pattern in which each '*' (and
// '#', Java's placeholder for a class name) stands for one or more
// characters.
func matchPattern(pattern, key string) bool {
	star := strings.IndexAny(pattern, "*#")
	if star < 0 {
		return pattern == key
	}
	prefix, rest := pattern[:star], pattern[star+1:]
	if !strings.HasPrefix(key, prefix) {
		return false
	}
	key = key[len(prefix):]
	if rest == "" {
		return key != ""
	}
	// The name is as long as it must be for the rest to match: try every
	// split (names may contain the separator).
	for i := 1; i <= len(key); i++ {
		if matchPattern(rest, key[i:]) {
			return true
		}
	}
	return false
}
