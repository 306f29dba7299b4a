package paimon_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/fs/memfs"
	"github.com/paimon-go/paimon-go/paimon"
)

func TestIdentifier(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want paimon.Identifier
	}{
		{"db.t", paimon.Identifier{Database: "db", Table: "t"}},
		{"db.t$branch_b1", paimon.Identifier{Database: "db", Table: "t", Branch: "b1"}},
	} {
		id, err := paimon.ParseIdentifier(tc.in)
		require.NoError(t, err)
		require.Equal(t, tc.want, id)
		require.Equal(t, tc.in, id.String())
	}
	for _, bad := range []string{"", "db", ".t", "db."} {
		_, err := paimon.ParseIdentifier(bad)
		require.Error(t, err, bad)
	}
}

func TestOpenTable(t *testing.T) {
	ctx := context.Background()
	fsys, _ := buildTable(t)
	tbl, err := paimon.OpenTable(ctx, fsys, tableDir, &paimon.TableOptions{Identifier: paimon.Identifier{Database: "db", Table: "t"}})
	require.NoError(t, err)
	require.Equal(t, []string{"id"}, tbl.PrimaryKeys())
	require.Equal(t, "1", tbl.Options()["bucket"])
	require.Equal(t, "db.t", tbl.Identifier().String())

	_, err = paimon.OpenTable(ctx, memfs.New(nil), "wh/db.db/missing", nil)
	require.ErrorIs(t, err, paimon.ErrTableNotFound)
}
