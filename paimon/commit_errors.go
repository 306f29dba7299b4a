package paimon

import "errors"

var (
	// ErrCommitConflict reports a commit that cannot be applied on top of
	// the latest snapshot: a file it deletes is gone, a bucket count
	// changed, or it lost the race for the snapshot id more often than
	// commit.max-retries allows. Nothing of it is visible.
	ErrCommitConflict = errors.New("paimon: commit conflict")

	// ErrCommitUncertain reports a commit whose outcome cannot be
	// decided: it may have landed in a snapshot that has since expired
	// without a record of it (an expiration by Java or by an older
	// version), or its snapshot recreated an id whose successor cannot
	// tell whether it was built on it. The commit's files are kept. Check
	// the table's data before committing the same batch again, under a new
	// commit user if it is missing.
	ErrCommitUncertain = errors.New("paimon: commit outcome uncertain")

	// ErrSchemaChanged reports files written under a schema that is no
	// longer the table's latest: the table was altered while they were
	// written. Rewrite the data with a writer opened on the new schema.
	ErrSchemaChanged = errors.New("paimon: table schema changed")

	// ErrInvalidOption reports a table option (or a write/commit option)
	// whose value Java Paimon would refuse.
	ErrInvalidOption = errors.New("paimon: invalid option")

	// ErrInvalidPartition reports a partition spec or value that does not
	// fit the table's partition keys.
	ErrInvalidPartition = errors.New("paimon: invalid partition")

	// ErrSchemaMismatch reports record batches whose columns do not match
	// the table schema, or a NULL in a NOT NULL column.
	ErrSchemaMismatch = errors.New("paimon: batch does not match the table schema")
)
