package paimon

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
)

// Identifier names a table in a catalog: its database, its name, and the
// branch to work on ("" means main). It mirrors Java Paimon's
// org.apache.paimon.catalog.Identifier, whose string form is
// "db.table$branch_name" for branches.
type Identifier struct {
	Database string
	Table    string
	Branch   string
}

// String returns "db.table", or "db.table$branch_<name>" for a branch.
func (id Identifier) String() string {
	s := id.Database + "." + id.Table
	if id.Branch != "" && id.Branch != MainBranch {
		s += "$branch_" + id.Branch
	}
	return s
}

// ParseIdentifier parses "db.table" (the database name may not contain a
// dot; the table name may not be empty).
func ParseIdentifier(s string) (Identifier, error) {
	db, table, ok := strings.Cut(s, ".")
	if !ok || db == "" || table == "" {
		return Identifier{}, fmt.Errorf("paimon: invalid table identifier %q (want database.table)", s)
	}
	if name, branch, ok := strings.Cut(table, "$branch_"); ok {
		return Identifier{Database: db, Table: name, Branch: branch}, nil
	}
	return Identifier{Database: db, Table: table}, nil
}

// ErrTableNotFound reports a table directory without any schema file.
var ErrTableNotFound = errors.New("paimon: table not found")

// TableOptions configures OpenTable. The zero value (or nil) opens the main
// branch.
type TableOptions struct {
	// Branch selects the branch whose schemas and snapshots are read.
	Branch string
	// Identifier is recorded on the table for messages; catalogs set it.
	Identifier Identifier
	// ManifestCache is how many decoded manifest files the table keeps for
	// the scans it plans (least recently used out); 0 keeps none. Manifest
	// files never change once written, so a cached one never goes stale: a
	// service planning the same table again and again reads only the
	// manifests the newer snapshots add (Java's CachingCatalog keeps a
	// manifest cache for the same reason). A manifest costs roughly 0.5 KiB
	// per data file it lists.
	ManifestCache int
	// BlobOpener fetches the bytes of BLOB columns stored as descriptors
	// (blob-descriptor-field): it opens the object a descriptor's URI
	// names, as Java does with the table's FileIO. Without it a scan that
	// returns such a column is refused (ErrUnsupported) before any row.
	BlobOpener BlobOpener
	// SnapshotCommit, when set, publishes the table's commits instead of
	// the file system (see SnapshotCommit); catalogs whose server commits,
	// such as a REST catalog, set it. Nil keeps the file system's
	// create-if-absent of snapshot files.
	SnapshotCommit SnapshotCommit
}

// Table is an opened Paimon table: where its files are and the schema it
// had when it was opened. It is immutable and safe for concurrent use; it
// holds no open files and no context.
type Table struct {
	id         Identifier
	meta       *TableMeta
	schema     *schema.TableSchema
	manifests  *manifestCache // TableOptions.ManifestCache; nil: none
	publisher  SnapshotCommit // TableOptions.SnapshotCommit; nil: the file system
	blobOpener BlobOpener     // TableOptions.BlobOpener; nil: descriptor-stored BLOBs refused
}

// OpenTable opens the table in directory path of fsys by reading its latest
// schema. A directory without schema files yields an error wrapping
// ErrTableNotFound.
func OpenTable(ctx context.Context, fsys fs.FS, path string, opts *TableOptions) (*Table, error) {
	var o TableOptions
	if opts != nil {
		o = *opts
	}
	meta := NewTableMeta(fsys, path).WithBranch(o.Branch)
	s, err := meta.LatestSchema(ctx)
	if errors.Is(err, ErrSchemaNotFound) {
		return nil, fmt.Errorf("%w: %s: %w", ErrTableNotFound, path, err)
	}
	if err != nil {
		return nil, err
	}
	id := o.Identifier
	if id.Branch == "" && meta.Branch() != MainBranch {
		id.Branch = meta.Branch()
	}
	if o.ManifestCache < 0 {
		return nil, fmt.Errorf("%w: table option ManifestCache %d is negative", ErrInvalidOption, o.ManifestCache)
	}
	t := &Table{id: id, meta: meta, schema: s, publisher: o.SnapshotCommit, blobOpener: o.BlobOpener}
	if o.ManifestCache > 0 {
		t.manifests = newManifestCache(o.ManifestCache)
	}
	return t, nil
}

// Identifier returns the name the table was opened under (zero when opened
// by path).
func (t *Table) Identifier() Identifier { return t.id }

// Schema returns the table schema the table was opened with.
func (t *Table) Schema() *schema.TableSchema { return t.schema }

// Meta returns the reader of the table's metadata files.
func (t *Table) Meta() *TableMeta { return t.meta }

// Options returns the table options of the schema (copy-free: do not modify).
func (t *Table) Options() map[string]string { return t.schema.Options }

// PrimaryKeys returns the primary key column names (empty for append tables).
func (t *Table) PrimaryKeys() []string { return t.schema.PrimaryKeys }

// PartitionKeys returns the partition column names.
func (t *Table) PartitionKeys() []string { return t.schema.PartitionKeys }
