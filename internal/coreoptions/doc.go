// Package coreoptions is the one home of Paimon's table options: every key
// Java Paimon 1.4.2 and 2.0.0 declare for tables (CoreOptions, plus the
// FlinkConnectorOptions and IcebergOptions keys that Flink and the Iceberg
// compatibility layer store in table schemas, plus the families Java builds
// at run time such as fields.<column>.aggregate-function), their Java type,
// default and fallback keys, and what this library does with each.
//
// # Files
//
//	java_options.go     generated from the Java source (go run ./internal/coreoptions/gen):
//	                    the key constants and what Java declares; do not edit
//	dynamic.go          the run-time key families (fields.*, file-index.*, format options)
//	classification.go   one line per key: implemented, refused or ignorable, on read
//	                    and on write, edited as features land
//	parse.go            Java's value parsers (booleans, ints, memory sizes, durations, ...)
//	values.go           Values: typed reads of an option map with Java's fallbacks and defaults
//	options.go          Options: the options this library acts on, parsed once per schema
//	check.go            Check: the refusal of options this library does not implement
//
// docs/options.md is generated from the registry and checked by a test
// (go test ./internal/coreoptions -run TestOptionsDoc -update rewrites it).
//
// # Rules
//
// Every option key string lives here and nowhere else: other packages use
// the constants. A malformed value is an error naming the key and the
// value, whatever the option; Java's parsers are followed exactly (a
// boolean is "true" or "false" in any case, an int is what Integer.parseInt
// takes). Options Java declares but this library does not implement are
// refused by Check before any row is read or written, unless they cannot
// change what Java would read.
package coreoptions
