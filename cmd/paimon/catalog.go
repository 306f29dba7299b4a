package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/paimon-go/paimon-go/catalog"
	_ "github.com/paimon-go/paimon-go/catalog/filesystem" // metastore "filesystem"
	"github.com/paimon-go/paimon-go/catalog/rest"         // metastore "rest" (http:// and https://)
	"github.com/paimon-go/paimon-go/fs"
	_ "github.com/paimon-go/paimon-go/fs/localfs" // file:// and plain paths
	_ "github.com/paimon-go/paimon-go/fs/memfs"   // mem://
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

// catalogConfigEnv names the environment variable --catalog-config
// defaults to.
const catalogConfigEnv = "PAIMON_CATALOG_CONFIG"

// catalogFlags are the catalog options of the command line, under Java's
// names: --catalog-config FILE ("key=value" lines, # comments; keeps
// secrets off the command line) then each --catalog-option key=value over
// it. With them every command works against a REST catalog:
//
//	paimon db list --warehouse http://host:8080 --catalog-config rest.conf
//
// where rest.conf holds warehouse=<name>, token.provider=bear and token=...
type catalogFlags struct {
	options []string
	config  string
	props   map[string]string
	last    catalog.Catalog // the catalog open opened last
}

func (f *catalogFlags) register(fs *flag.FlagSet) {
	fs.Func("catalog-option", "catalog option `KEY=VALUE` under Java's name (repeatable): metastore, uri, warehouse, token.provider, token, dlf.*, header.*", func(v string) error {
		f.options = append(f.options, v)
		return nil
	})
	fs.StringVar(&f.config, "catalog-config", "", "catalog options `FILE` of KEY=VALUE lines (default $"+catalogConfigEnv+")")
}

// resolve reads the config file and the options into props.
func (f *catalogFlags) resolve() error {
	f.props = map[string]string{}
	path := f.config
	if path == "" {
		path = os.Getenv(catalogConfigEnv)
	}
	if path != "" {
		if err := readCatalogConfig(path, f.props); err != nil {
			return err
		}
	}
	for _, kv := range f.options {
		k, v, ok := strings.Cut(kv, "=")
		if k = strings.TrimSpace(k); !ok || k == "" {
			return fmt.Errorf("--catalog-option %q: want KEY=VALUE", redactOption(kv))
		}
		f.props[k] = strings.TrimSpace(v)
	}
	return nil
}

// redactOption hides the value of an option that may be a secret.
func redactOption(kv string) string {
	k, _, ok := strings.Cut(kv, "=")
	if ok {
		return k + "=***"
	}
	if len(kv) > 3 {
		return kv[:3] + "***"
	}
	return "***"
}

// readCatalogConfig reads "key=value" lines (Java properties without
// escapes); blank lines and lines starting with # or ! are skipped.
func readCatalogConfig(path string, into map[string]string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("catalog config: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == '!' {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if k = strings.TrimSpace(k); !ok || k == "" {
			return fmt.Errorf("catalog config %s line %d: want KEY=VALUE", path, n)
		}
		into[k] = strings.TrimSpace(v)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("catalog config %s: %w", path, err)
	}
	return nil
}

// locates reports whether the options say where the catalog is.
func (f *catalogFlags) locates() bool {
	return f.props["uri"] != "" || f.props["warehouse"] != ""
}

// open opens the catalog at warehouse (an http(s) URI for a REST
// server) with the options.
func (f *catalogFlags) open(ctx context.Context, warehouse string) (catalog.Catalog, error) {
	if warehouse == "" && f.props["metastore"] == "" && f.props["uri"] != "" {
		warehouse = f.props["uri"] // a REST server given only as uri=
	}
	// BLOB columns stored as descriptors are fetched from wherever the
	// descriptors point, through the file systems this command links, as
	// Java fetches them through the table's FileIO.
	cat, err := catalog.Open(ctx, warehouse, &catalog.Options{Properties: f.props, BlobOpener: blobOpener.OpenFile})
	f.last = cat
	return cat, err
}

// blobOpener opens the objects BLOB descriptors name, keeping one file
// system per bucket for the life of the process (a command is one process;
// the in-process tests share it, which only keeps file systems open).
var blobOpener = fs.NewURIOpener()

// loadTable opens the catalog and loads the named table. The returned
// close function releases the catalog (and its file system); the table
// must not be used after it.
func (f *catalogFlags) loadTable(ctx context.Context, warehouse string, id paimon.Identifier) (*paimon.Table, func(), error) {
	if err := checkLocalWarehouse(warehouse, false); err != nil {
		return nil, nil, err
	}
	cat, err := f.open(ctx, warehouse)
	if err != nil {
		return nil, nil, err
	}
	tbl, err := cat.LoadTable(ctx, id)
	if err != nil {
		err = tableNotFound(ctx, cat, id, warehouse, err)
		_ = cat.Close()
		return nil, nil, err
	}
	return tbl, func() { _ = cat.Close() }, nil
}

// tableLocation is the table's location as Java prints it: the path a
// REST server gives, else the warehouse as given then <db>.db/<table>.
func tableLocation(ctx context.Context, f *catalogFlags, warehouse string, id paimon.Identifier) string {
	if rc, ok := f.last.(*rest.Catalog); ok {
		if info, err := rc.GetTable(ctx, id); err == nil {
			return strings.TrimRight(info.Path, "/")
		}
	}
	return strings.TrimRight(warehouse, "/") + "/" + id.Database + ".db/" + id.Table
}

// loadTable opens the catalog at warehouse, without catalog options, and
// loads the named table (see catalogFlags.loadTable).
func loadTable(ctx context.Context, warehouse string, id paimon.Identifier) (*paimon.Table, func(), error) {
	return (&catalogFlags{}).loadTable(ctx, warehouse, id)
}
