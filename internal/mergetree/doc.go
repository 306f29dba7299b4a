// Package mergetree reads the LSM tree of one bucket of a primary-key table:
// it merges the bucket's data files into one row per key, the way Java
// Paimon's batch read does (org.apache.paimon.operation.MergeFileSplitRead
// with the org.apache.paimon.mergetree classes).
//
// # Data files
//
// Every data file of a primary-key table holds KeyValue rows sorted by key:
// the trimmed primary key as _KEY_-prefixed columns (absent in thin mode),
// _SEQUENCE_NUMBER, _VALUE_KIND, then all value fields (KeyValueFields).
// Java readers never use the _KEY_ columns: they read the key from the value
// columns of the same field ids (FormatReaderMapping.trimKeyFields). This
// package does the same, so the caller's OpenFunc yields the columns
// ReadFields lists, whatever the file's layout.
//
// # Algorithm
//
// Sections splits the files into sections whose key ranges do not overlap,
// and each section into sorted runs: lists of files with increasing,
// non-overlapping key ranges (Java IntervalPartition and SortedRun). Read
// then merges each section on its own:
//
//   - a section with one sorted run holds every key once; its rows pass
//     through unchanged (Java's ReducerMergeFunctionWrapper returns a lone
//     version without calling the merge function);
//   - a section with several runs is merged with a hand-rolled min-heap of
//     run cursors ordered by key, then by the user-defined sequence fields
//     (sequence.field, sequence.field.sort-order), then by _SEQUENCE_NUMBER
//     (Java SortMergeReaderWithMinHeap and UserDefinedSeqComparator). The
//     versions of one key are given to the merge function in that order; a
//     key with one version passes through unchanged.
//
// Options.MergeLone turns both shortcuts off: every key, also one with a
// single version, goes through the merge engine itself, as in the steps
// of Java's lookup compaction that hold level-0 files
// (LookupChangelogMergeFunctionWrapper has no single-version shortcut).
//
// Batch reads drop results of kind -U and -D (Java DropDeleteReader); the
// audit log keeps them and reports each row's kind in a leading "rowkind"
// column (Options.KeepDeletes).
//
// Keys compare as Java's generated RecordComparator compares them
// (KeyComparator): field by field, NULL first, strings and binaries by
// unsigned bytes, FLOAT and DOUBLE with < and > (so NaN equals everything),
// decimals and timestamps by value.
//
// # Compaction
//
// Compaction reuses the reader. Levels holds a bucket's files as Java's
// Levels does (level-0 files newest first, one sorted run per level above);
// a Strategy (Universal, ForceUpLevel0, PickFullCompaction) picks a
// CompactUnit; PlanCompactTask splits it into steps as Java's
// MergeTreeCompactTask does (large files only change level, overlapping
// sections are merged); RunCompactTask executes them: Read in key-value
// layout over each rewrite's files, retractions dropped when DropDelete
// says so, written through datafile's key-value writer at the output level
// (Java MergeTreeCompactRewriter). Not implemented: lookup compaction with
// deletion vectors and the changelog that the lookup producer writes while
// compacting.
//
// RunFullChangelogTask is RunCompactTask for changelog-producer =
// full-compaction (full_changelog.go): a task into the highest level also
// writes changelog files, key by key the difference between the version at
// the highest level before and the merged result (Java
// FullChangelogMergeTreeCompactRewriter, FullChangelogMergeFunctionWrapper).
//
// # Memory
//
// Read streams: it holds the current batch of each sorted run of the
// current section (plus up to Options.ReadAhead batches per run decoded
// ahead on the run's own goroutine), the batches that rows waiting in the
// output still refer to, and the output batch being built; never a whole
// file. Merge functions that pick one version unchanged (Selector:
// deduplicate, first-row) never see values: the winning rows are noted by
// batch and position and gathered column by column when the output batch
// is built (gather.go), one typed loop per column instead of a call per
// cell. Other merge functions see each version converted to the
// format/data value model. With ReadAhead above zero a full output batch
// is gathered and finished on a goroutine of its own while the merge goes
// on into a second builder (output.go): one more output batch, and the
// batches its rows refer to, are held, and the merge's goroutine, which
// bounds how fast one bucket is read, no longer does the gathering. At
// most one batch is built at a time and it is yielded before anything
// after it, so the batches and their boundaries are those of a
// synchronous read (TestReadAsyncOutput).
//
// The Writer (a bucket's write buffer, Java's MergeTreeWriter without
// compaction) holds its rows in a SortBuffer whose Size counts every byte,
// the 16-byte-per-row sort index of a flush included. A flush of 65,536
// rows or more sorts that index in up to four chunks at once and reads
// them merged (sortedChunks: no second index), and, without changelog
// files, hands the merged batches to a goroutine that encodes them while
// the merge goes on (writeSink: one batch queued, one being written).
//
// # Invariants
//
// Built with the "invariants" tag, the reader checks the heap order after
// every change and that keys strictly increase within each sorted run
// (mirroring pebble's invariants builds); the checks cost nothing otherwise.
package mergetree
