package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/internal/interop"
)

// TestRESTCatalogCommands runs the commands against Java's REST catalog
// server (PAIMON_INTEROP=1): the catalog comes from --warehouse <server
// URL> and a --catalog-config file with the token, or from
// --catalog-option alone.
func TestRESTCatalogCommands(t *testing.T) {
	const token = "cli-secret-token-31337"
	srv := interop.StartRESTServer(t, interop.RESTServerOptions{Auth: "bear:" + token})
	conf := filepath.Join(t.TempDir(), "rest.conf")
	require.NoError(t, os.WriteFile(conf, []byte(fmt.Sprintf("# REST catalog\nwarehouse=%s\ntoken.provider=bear\ntoken=%s\n",
		srv.Warehouse, token)), 0o600))
	w := []string{"--warehouse", srv.URL, "--catalog-config", conf}
	cmd := func(args ...string) []string { return append(args, w...) }

	runOK(t, cmd("db", "create", "shop")...)
	require.Equal(t, "database_name\nshop\n", runOK(t, cmd("db", "list", "--output", "csv")...))
	require.Equal(t, "Created table shop.items.\n",
		runOK(t, cmd("table", "create", "--schema", writeTemp(t, "s.json", itemsSchema), "shop.items")...))
	require.Equal(t, "table_name\nitems\n", runOK(t, cmd("table", "list", "shop", "--output", "csv")...))
	require.Contains(t, runOK(t, cmd("table", "describe", "shop.items")...), "items on sale")
	runOK(t, cmd("table", "alter", "shop.items", "--set", "snapshot.num-retained.min=3")...)

	csv := writeTemp(t, "rows.csv", "id,name,qty,extra,dt\n1,a,2,x,d1\n2,b,3,,d2\n")
	require.Equal(t, "Loaded 2 rows from 1 file into shop.items: snapshot 1.\n", runOK(t, cmd("load", "shop.items", csv)...))
	runOK(t, cmd("load", "shop.items", writeTemp(t, "more.csv", "id,name,qty,extra,dt\n3,c,4,y,d1\n"))...)
	require.Equal(t, "id,name\n1,a\n2,b\n3,c\n",
		sortedCSV(runOK(t, cmd("scan", "shop.items", "--select", "id,name", "--output", "csv")...)))
	snaps := jsonRows(t, runOK(t, cmd("snapshots", "shop.items", "--output", "jsonl")...))
	require.Len(t, snaps, 2)
	files := jsonRows(t, runOK(t, cmd("files", "shop.items", "--output", "jsonl")...))
	require.Len(t, files, 3) // d1 and d2 from the first load, d1 from the second
	require.Contains(t, files[0]["file_path"], srv.DataPath, "file paths start at the table's path on the server")

	// The metadata commands read the table's files; tags are files too
	// (Java's TagManager), branches are the server's (Java
	// CatalogBranchManager).
	for _, c := range []string{"schemas", "options", "manifests", "partitions", "buckets", "health"} {
		require.NotEmpty(t, runOK(t, cmd(c, "shop.items")...), c)
	}
	require.Equal(t, "Created tag t1 on snapshot 1 of shop.items.\n", runOK(t, cmd("tag", "create", "--snapshot", "1", "shop.items", "t1")...))
	tags := jsonRows(t, runOK(t, cmd("tag", "list", "--output", "jsonl", "shop.items")...))
	require.Len(t, tags, 1)
	require.Equal(t, "t1", tags[0]["tag_name"])
	require.Equal(t, "Created branch b1 of shop.items (at tag t1).\n", runOK(t, cmd("branch", "create", "--tag", "t1", "shop.items", "b1")...))
	require.Equal(t, "id,name\n1,a\n2,b\n",
		sortedCSV(runOK(t, cmd("scan", "shop.items$branch_b1", "--select", "id,name", "--output", "csv")...)))
	require.Equal(t, "Dropped branch b1 of shop.items.\n", runOK(t, cmd("branch", "drop", "shop.items", "b1")...))
	require.Equal(t, "Branch b1 of shop.items does not exist.\n", runOK(t, cmd("branch", "drop", "--if-exists", "shop.items", "b1")...))

	// Rollback goes through the server.
	runOK(t, cmd("rollback", "--snapshot", "1", "shop.items")...)
	require.Equal(t, "id,name\n1,a\n2,b\n",
		sortedCSV(runOK(t, cmd("scan", "shop.items", "--select", "id,name", "--output", "csv")...)))

	// --catalog-option alone names the server (uri=) and the token.
	opts := []string{"--catalog-option", "uri=" + srv.URL, "--catalog-option", "warehouse=" + srv.Warehouse,
		"--catalog-option", "token.provider=bear", "--catalog-option", "token=" + token}
	require.Equal(t, "table_name\nitems\n", runOK(t, append([]string{"table", "list", "shop", "--output", "csv"}, opts...)...))

	// A wrong token: one clear error, without the token.
	r := runCmd(t, "db", "list", "--warehouse", srv.URL, "--catalog-option", "token.provider=bear",
		"--catalog-option", "token=not-the-token-4242", "--catalog-option", "warehouse="+srv.Warehouse)
	require.NotEqual(t, exitOK, r.code)
	require.Contains(t, r.stderr, "401 unauthorized")
	require.NotContains(t, r.stderr, "not-the-token-4242")
	require.Equal(t, 1, strings.Count(r.stderr, "\n"), "one line: %q", r.stderr)
}

// sortedCSV sorts the data lines of CSV output under its header.
func sortedCSV(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	body := lines[1:]
	for i := range body {
		for j := i + 1; j < len(body); j++ {
			if body[j] < body[i] {
				body[i], body[j] = body[j], body[i]
			}
		}
	}
	return strings.Join(lines, "\n") + "\n"
}
