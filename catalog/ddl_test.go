package catalog_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/catalog"
	"github.com/paimon-go/paimon-go/paimon"
)

func TestDDLSentinels(t *testing.T) {
	require.ErrorIs(t, catalog.ErrTableExists, paimon.ErrTableExists)
	require.Equal(t, "catalog: table already exists", catalog.ErrTableExists.Error())
	for _, err := range []error{catalog.ErrDatabaseExists, catalog.ErrDatabaseNotEmpty, catalog.ErrTableExists} {
		require.False(t, errors.Is(err, catalog.ErrDatabaseNotFound), "%v", err)
		require.False(t, errors.Is(err, catalog.ErrTableNotFound), "%v", err)
	}
}

// TestOpenedCatalogHasDDL: the default metastore's catalogs can be
// written through the optional DDL interface.
func TestOpenedCatalogHasDDL(t *testing.T) {
	ctx := context.Background()
	c, err := catalog.Open(ctx, "mem://ddl-test/wh", nil)
	require.NoError(t, err)
	defer c.Close()
	ddl, ok := c.(catalog.DDL)
	require.True(t, ok, "%T does not implement catalog.DDL", c)
	require.NoError(t, ddl.CreateDatabase(ctx, "db", false))
	var dbs []string
	for db, err := range c.ListDatabases(ctx) {
		require.NoError(t, err)
		dbs = append(dbs, db)
	}
	require.Equal(t, []string{"db"}, dbs)
}
