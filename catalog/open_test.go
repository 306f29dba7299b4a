package catalog_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/catalog"
	_ "github.com/paimon-go/paimon-go/catalog/filesystem"
	"github.com/paimon-go/paimon-go/fs"
	_ "github.com/paimon-go/paimon-go/fs/memfs"
	"github.com/paimon-go/paimon-go/paimon"
)

func TestErrTableNotFoundMatchesPaimon(t *testing.T) {
	require.ErrorIs(t, catalog.ErrTableNotFound, paimon.ErrTableNotFound)
	require.Equal(t, "catalog: table not found", catalog.ErrTableNotFound.Error())
}

func TestOpenErrors(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		uri  string
		opts *catalog.Options
		want error
	}{
		{"unknown metastore", "mem://x/wh", &catalog.Options{Metastore: "hive"}, catalog.ErrNoMetastore},
		{"unknown scheme", "nosuch://bucket/wh", nil, fs.ErrNoScheme},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := catalog.Open(ctx, tt.uri, tt.opts)
			require.ErrorIs(t, err, tt.want)
		})
	}
}

func TestOpenMem(t *testing.T) {
	ctx := context.Background()
	c, err := catalog.Open(ctx, "mem://catalog-open-test/empty", nil)
	require.NoError(t, err)
	defer c.Close()
	for range c.ListDatabases(ctx) {
		t.Fatal("empty warehouse lists a database")
	}
	for _, err := range c.ListTables(ctx, "db") {
		require.ErrorIs(t, err, catalog.ErrDatabaseNotFound)
	}
}

func TestMetastores(t *testing.T) {
	require.Contains(t, catalog.Metastores(), catalog.DefaultMetastore)
	require.Panics(t, func() { catalog.RegisterMetastore("", nil) })
	require.Panics(t, func() { catalog.RegisterMetastore("x", nil) })
}
