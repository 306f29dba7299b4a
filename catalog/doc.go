// Package catalog defines how Paimon tables are found by name: the Catalog
// interface (list databases, list tables, load a table), its error
// sentinels, and Open, which builds a catalog from a warehouse URI.
//
// It mirrors the read side of Java Paimon's org.apache.paimon.catalog.Catalog.
// DDL (creating and dropping databases and tables) will be added as optional
// capability interfaces discovered by type assertion, so that the Catalog
// interface itself stays small and stable.
//
// # Opening a catalog by URI
//
// Open resolves the warehouse location with fs.OpenURI and hands the file
// system to a metastore implementation chosen by name, the way database/sql
// hands a DSN to a driver. Both the file system scheme and the metastore
// must be registered first, by importing their packages:
//
//	import (
//		_ "github.com/paimon-go/paimon-go/catalog/filesystem" // metastore "filesystem"
//		_ "github.com/paimon-go/paimon-go/fs/localfs"         // file:// and plain paths
//	)
//
//	cat, err := catalog.Open(ctx, "file:///data/warehouse", nil)
//	if err != nil { ... }
//	defer cat.Close()
//	tbl, err := cat.LoadTable(ctx, paimon.Identifier{Database: "sales", Table: "orders"})
//
// Cloud object stores (s3://, gs://, azblob://) work after the program has
// blank-imported fs/blobfs/s3fs, gcsfs or azurefs; this package never
// imports fs/blobfs itself, so programs that only read local files do not
// link any cloud SDK.
//
// # Why a registry
//
// The filesystem metastore returns this package's sentinels, so it imports
// catalog; catalog therefore cannot import it back. A registry
// (RegisterMetastore, called from the implementation's init) breaks the
// cycle and lets later metastores (Hive, REST) plug in the same way without
// catalog depending on their clients. Programs that prefer no global state
// construct a catalog directly instead, for example
// filesystem.New(fsys, "warehouse", nil).
package catalog
