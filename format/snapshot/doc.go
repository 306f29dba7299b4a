// Package snapshot encodes and decodes the small JSON and text files that
// record a Paimon table's history: snapshot-N and changelog-N files
// (Java org.apache.paimon.Snapshot / Changelog), tag files (tag.Tag), consumer
// files (consumer.Consumer), the EARLIEST / LATEST hint files
// (utils.HintFileUtils) and statistics files (stats.Statistics).
//
// # Compatibility
//
// Decoding accepts every shape Java Paimon has written since 0.1: snapshots
// without a "version" member (version 1, Paimon <= 0.2), version 2 snapshots
// (Paimon 0.3) without record counts, members that later versions dropped
// ("logOffsets"), members added by Paimon 2.0 ("uuid", "operation"), and any
// unknown member, which is ignored as Java's
// @JsonIgnoreProperties(ignoreUnknown = true) does. Keys are matched
// case-sensitively, like Jackson.
//
// Encoding reproduces JsonSerdeUtil.toJson byte for byte: Jackson's default
// pretty printer, members in @JsonCreator order, and @JsonInclude(NON_NULL)
// members left out when they are nil. Decoding a file written by Java Paimon
// 1.4.2 or 2.0 and encoding it again gives the same bytes. The exceptions, all
// outside what those versions write: a map that Go code modified after
// decoding is written with its new keys sorted (Java writes its maps in
// iteration order, which Go cannot know); a string member Java always writes
// (baseManifestList, deltaManifestList, commitUser) is written as null when
// empty, because Java writes null there but never ""; "version" : 0 is written
// as the current version; files of older Paimon versions lose the members
// current Java drops ("logOffsets", null optional members).
//
// # Versions
//
// Java ignores the "version" member when reading: Paimon 1.4.2 would load a
// snapshot claiming version 4. This package refuses versions above
// CurrentVersion with ErrUnsupportedVersion instead, because a future format
// version would only be introduced for a change readers must understand, and
// silently misreading table metadata is worse than failing.
//
// # Errors
//
// Malformed input yields an error wrapping ErrCorrupt; nothing panics on
// corrupt input. Decoders work on bytes and do not know file names: callers
// that read a file add its path to the error.
package snapshot

import "errors"

var (
	// ErrCorrupt marks a metadata file that cannot be decoded: malformed JSON,
	// a member of the wrong JSON kind, an unknown commit kind, an impossible
	// date, a hint that is not a number.
	ErrCorrupt = errors.New("snapshot: corrupt metadata file")

	// ErrUnsupportedVersion marks a snapshot (or changelog, or tag) whose
	// "version" is newer than CurrentVersion.
	ErrUnsupportedVersion = errors.New("snapshot: unsupported snapshot version")
)
