package paimon

import (
	"fmt"

	"github.com/paimon-go/paimon-go/internal/coreoptions"
)

// Compaction of primary-key tables with changelog-producer =
// full-compaction (Java FullChangelogMergeTreeCompactRewriter): a
// compaction into the highest level also writes changelog files, the
// differences between the level's rows before and after, which the
// COMPACT snapshot lists in its changelog manifest list; compactions below
// it write none. Java's rewriter is the full-compaction one whatever
// else the table sets, so picking stays the table's (universal, or
// force-up-level-0 where Java's needLookup would choose it, which this
// library refuses with deletion vectors below).

const (
	optRowDeduplicate = coreoptions.ChangelogProducerRowDeduplicate
)

// checkFullChangelog refuses what the full-compaction changelog is not
// produced for as Java produces it.
func checkFullChangelog(o tableOptions) error {
	if o.boolean(optRowDeduplicate, false) {
		// Java then leaves out -U/+U pairs of equal values
		// (FullChangelogMergeFunctionWrapper's valueEqualiser).
		return fmt.Errorf("%w: compacting a primary-key table with %s=full-compaction and %s", ErrUnsupported, optChangelogProducer, optRowDeduplicate)
	}
	if o.deletionVectors() {
		// Java compacts such a table with lookups (ForceUpLevel0Compaction)
		// but writes its changelog with the full-compaction rewriter,
		// which keeps no deletion vectors.
		return fmt.Errorf("%w: compacting a primary-key table with %s=full-compaction and %s", ErrUnsupported, optChangelogProducer, optDeletionVectors)
	}
	return nil
}
