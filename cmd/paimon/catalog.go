package main

import (
	"context"
	"os"

	"github.com/paimon-go/paimon-go/catalog"
	_ "github.com/paimon-go/paimon-go/catalog/filesystem" // metastore "filesystem"
	_ "github.com/paimon-go/paimon-go/fs/blobfs/azurefs"  // azblob://
	_ "github.com/paimon-go/paimon-go/fs/blobfs/gcsfs"    // gs://
	_ "github.com/paimon-go/paimon-go/fs/blobfs/s3fs"     // s3://
	_ "github.com/paimon-go/paimon-go/fs/localfs"         // file:// and plain paths
	_ "github.com/paimon-go/paimon-go/fs/memfs"           // mem://
	"github.com/paimon-go/paimon-go/paimon"
)

// warehouseEnv names the environment variable --warehouse defaults to.
const warehouseEnv = "PAIMON_WAREHOUSE"

// warehouseFlag returns the --warehouse value, or $PAIMON_WAREHOUSE when the
// flag is empty; "" when neither is set.
func warehouseFlag(flagValue string) string {
	if flagValue != "" {
		return flagValue
	}
	return os.Getenv(warehouseEnv)
}

// loadTable opens the catalog at warehouse and loads the named table. The
// returned close function releases the catalog (and its file system); the
// table must not be used after it.
func loadTable(ctx context.Context, warehouse string, id paimon.Identifier) (*paimon.Table, func(), error) {
	cat, err := catalog.Open(ctx, warehouse, nil)
	if err != nil {
		return nil, nil, err
	}
	tbl, err := cat.LoadTable(ctx, id)
	if err != nil {
		_ = cat.Close()
		return nil, nil, err
	}
	return tbl, func() { _ = cat.Close() }, nil
}
