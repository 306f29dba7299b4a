package catalog

import (
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/paimon-go/paimon-go/paimon"
)

// The name rules every catalog of this module applies, so that a database,
// table or branch name is always one directory name of the warehouse
// (Java's catalogs write them as directories too). The errors carry no
// package prefix: each catalog adds its own.

// branchMarker separates a table name from a branch name in Java's
// "table$branch_name" notation; any other '$' names a system table.
const branchMarker = "$branch_"

// CheckName refuses names that cannot be a single directory name: empty,
// with a path separator, or containing "..", so an identifier can never
// reach outside the warehouse. Errors wrap ErrInvalidIdentifier.
func CheckName(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("%w: empty name", ErrInvalidIdentifier)
	case strings.ContainsAny(name, `/\`):
		return fmt.Errorf("%w: path separator in %q", ErrInvalidIdentifier, name)
	case name == "." || strings.Contains(name, ".."):
		return fmt.Errorf("%w: %q", ErrInvalidIdentifier, name)
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		// A newline or other control character in a directory name
		// breaks every listing and log that shows it (issue 24).
		return fmt.Errorf("%w: control character in %q", ErrInvalidIdentifier, name)
	}
	return nil
}

// NormalizeIdentifier validates id, splits a "table$branch_name" table
// name into table and branch, and turns the branch "main" into "". Other
// names containing '$' (system tables such as "orders$snapshots") fail
// with an error wrapping paimon.ErrUnsupported.
func NormalizeIdentifier(id paimon.Identifier) (paimon.Identifier, error) {
	if err := CheckName(id.Database); err != nil {
		return id, fmt.Errorf("database %q: %w", id.Database, err)
	}
	if name, branch, ok := strings.Cut(id.Table, branchMarker); ok && id.Branch == "" &&
		!strings.Contains(name, "$") && !strings.Contains(branch, "$") {
		id.Table, id.Branch = name, branch
	}
	if strings.Contains(id.Table, "$") {
		return id, fmt.Errorf("system table %s.%s: %w", id.Database, id.Table, paimon.ErrUnsupported)
	}
	if err := CheckName(id.Table); err != nil {
		return id, fmt.Errorf("table %q: %w", id.Table, err)
	}
	if id.Branch == paimon.MainBranch {
		id.Branch = ""
	}
	if id.Branch != "" {
		if err := CheckName(id.Branch); err != nil {
			return id, fmt.Errorf("branch %q: %w", id.Branch, err)
		}
	}
	return id, nil
}

// CheckDatabaseName is CheckName that also refuses the system database
// (Java CatalogUtils.checkNotSystemDatabase), for DDL.
func CheckDatabaseName(name string) error {
	if err := CheckName(name); err != nil {
		return fmt.Errorf("database %q: %w", name, err)
	}
	if name == SystemDatabase {
		return fmt.Errorf("%w: %q is the system database", ErrInvalidIdentifier, name)
	}
	return nil
}

// DDLIdentifier validates id for a DDL operation: names checked as by
// NormalizeIdentifier, the system database and system tables refused, and
// a branch only where the operation allows one (Java checkNotSystemTable,
// checkNotBranch).
func DDLIdentifier(id paimon.Identifier, allowBranch bool) (paimon.Identifier, error) {
	if err := CheckDatabaseName(id.Database); err != nil {
		return id, err
	}
	n, err := NormalizeIdentifier(id)
	if errors.Is(err, paimon.ErrUnsupported) {
		return id, fmt.Errorf("%w: %s.%s is a system table", ErrInvalidIdentifier, id.Database, id.Table)
	}
	if err != nil {
		return id, err
	}
	if n.Branch != "" && !allowBranch {
		return id, fmt.Errorf("%w: %s names a branch, not a table", ErrInvalidIdentifier, n)
	}
	return n, nil
}
