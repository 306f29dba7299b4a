package main

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/internal/testservers"
)

// TestDatabasesOnObjectStores: "paimon db create" on s3://, gs:// and
// azblob:// warehouses makes the database exist (a directory marker, as
// Java's FileSystemCatalog gets from Hadoop's connectors), so that it is
// listed, refused a second time, and "table create" works in it (issue 24
// failure 7: the database was reported created but nothing was written).
// Runs against the local test servers; skipped without them unless
// testservers.Required.
func TestDatabasesOnObjectStores(t *testing.T) {
	schemaFile := writeTemp(t, "s.json", itemsSchema)
	for _, store := range []struct {
		name string
		url  func(t *testing.T) string
	}{
		{"s3", func(t *testing.T) string { return testservers.S3(t).URL("wh") }},
		// The emulator's filesystem backend drops objects named "dir/"
		// (see testservers.GCSInMemory); GCS keeps them, as its memory
		// backend does.
		{"gs", func(t *testing.T) string { return testservers.GCSInMemory(t).URL("wh") }},
		{"azblob", func(t *testing.T) string { return testservers.Azure(t).URL("wh") }},
	} {
		t.Run(store.name, func(t *testing.T) {
			w := "--warehouse=" + store.url(t)
			require.Equal(t, "Created database shop.\n", runOK(t, "db", "create", w, "shop"))
			require.Equal(t, "database_name\nshop\n", runOK(t, "db", "list", w, "--output", "csv"))
			runFail(t, "database already exists: shop", "db", "create", w, "shop")
			runOK(t, "table", "create", w, "--schema", schemaFile, "shop.items")
			require.Contains(t, runOK(t, "table", "list", w, "shop", "--output", "csv"), "items")
			runFail(t, "database is not empty: shop", "db", "drop", w, "shop")
			require.Equal(t, "Dropped database shop.\n", runOK(t, "db", "drop", w, "shop", "--cascade"))
			require.Equal(t, "database_name\n", runOK(t, "db", "list", w, "--output", "csv"))
			runFail(t, "database not found", "table", "create", w, "--schema", schemaFile, "shop.items")
		})
	}
}
