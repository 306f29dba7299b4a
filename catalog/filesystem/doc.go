// Package filesystem implements catalog.Catalog over a warehouse directory,
// mirroring Java Paimon's org.apache.paimon.catalog.FileSystemCatalog: the
// directory layout alone says which databases and tables exist, with no
// external metastore.
//
// Layout:
//
//	<warehouse>/<database>.db/<table>/schema/schema-<N>
//
// A directory under the warehouse is a database when its name ends in
// ".db"; a directory under a database is a table when it holds at least one
// schema file (Java AbstractCatalog.tableExistsInFileSystem checks
// schema/schema-0 first and falls back to listing the schema directory).
// Other directories and files are ignored.
//
// Importing the package registers the "filesystem" metastore with
// catalog.RegisterMetastore, so that catalog.Open can build it from a URI.
package filesystem
