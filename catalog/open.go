package catalog

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/paimon-go/paimon-go/fs"
)

// DefaultMetastore is the metastore Open uses when Options.Metastore is
// empty: tables are discovered from the warehouse directory layout alone,
// as Java Paimon's "metastore=filesystem" catalog does.
const DefaultMetastore = "filesystem"

// ErrNoMetastore reports an Options.Metastore name nobody registered.
var ErrNoMetastore = errors.New("catalog: metastore not registered")

// Options configures Open. A nil *Options is the zero value.
type Options struct {
	// Metastore selects the registered implementation; "" means
	// Properties["metastore"], else "rest" for an http:// or https:// URI,
	// else DefaultMetastore. It mirrors Java Paimon's "metastore" catalog
	// option.
	Metastore string
	// Properties are the catalog options under Java's names (uri,
	// warehouse, token.provider, token, dlf.* ...), for metastores that
	// take any; service metastores receive them all.
	Properties map[string]string
	// BlobOpener is given to the tables the catalog loads
	// (paimon.TableOptions.BlobOpener): it fetches BLOB columns stored as
	// descriptors, by URI of any registered scheme, as Java's FileIO does.
	// fs.NewURIOpener().OpenFile keeps one file system per bucket until
	// its Close; fs.OpenFileURI opens one per value. Nil refuses such
	// columns.
	BlobOpener func(ctx context.Context, uri string) (fs.File, error)
}

// ServiceOpener builds a catalog served by a remote service rather than
// read from a warehouse directory (the REST catalog): uri is the
// service's address (Open's uri argument, else Properties["uri"]).
type ServiceOpener func(ctx context.Context, uri string, opts *Options) (Catalog, error)

var services = map[string]ServiceOpener{}

// RegisterService makes opener available to Open under name, like
// RegisterMetastore for metastores that open no file system (catalog/rest
// registers "rest"). It panics on an empty name or a nil opener.
func RegisterService(name string, opener ServiceOpener) {
	if name == "" || opener == nil {
		panic("catalog: RegisterService: empty name or nil opener")
	}
	metastoreMu.Lock()
	defer metastoreMu.Unlock()
	services[name] = opener
}

// MetastoreOpener builds a catalog over the warehouse directory of fsys.
// The opener takes ownership of fsys: the returned Catalog's Close must
// close it. On error Open closes fsys itself.
type MetastoreOpener func(ctx context.Context, fsys fs.FS, warehouse string, opts *Options) (Catalog, error)

var (
	metastoreMu sync.RWMutex
	metastores  = map[string]MetastoreOpener{}
)

// RegisterMetastore makes opener available to Open under name.
// Implementation packages call it from init (catalog/filesystem registers
// "filesystem"); a later registration for the same name replaces the
// earlier one. It panics on an empty name or a nil opener, both programmer
// errors.
func RegisterMetastore(name string, opener MetastoreOpener) {
	if name == "" {
		panic("catalog: RegisterMetastore: empty name")
	}
	if opener == nil {
		panic("catalog: RegisterMetastore: nil opener for " + name)
	}
	metastoreMu.Lock()
	defer metastoreMu.Unlock()
	metastores[name] = opener
}

// Metastores returns the registered metastore names, sorted.
func Metastores() []string {
	metastoreMu.RLock()
	defer metastoreMu.RUnlock()
	out := make([]string, 0, len(metastores)+len(services))
	for n := range metastores {
		out = append(out, n)
	}
	for n := range services {
		if metastores[n] == nil {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// Open returns the catalog whose warehouse (or, for a service metastore
// such as "rest", whose server) is at uri: a "scheme://..." URI
// of any file system registered with fs.Register, "file:/path", or a plain
// path (see fs.OpenURI). The metastore named by opts (default
// DefaultMetastore) must have been registered, usually by a blank import of
// its package. The catalog owns the file system it opened; Close releases
// it.
func Open(ctx context.Context, uri string, opts *Options) (Catalog, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Metastore == "" {
		o.Metastore = o.Properties["metastore"]
	}
	if uri == "" && o.Metastore != "rest" {
		uri = o.Properties["warehouse"]
	}
	if o.Metastore == "" {
		o.Metastore = DefaultMetastore
		if lu := strings.ToLower(uri); strings.HasPrefix(lu, "http://") || strings.HasPrefix(lu, "https://") {
			o.Metastore = "rest"
		}
	}
	metastoreMu.RLock()
	opener := metastores[o.Metastore]
	service := services[o.Metastore]
	metastoreMu.RUnlock()
	if service != nil {
		if uri == "" {
			uri = o.Properties["uri"]
		}
		// The service's errors name it already ("rest catalog: ...").
		return service(ctx, uri, &o)
	}
	if opener == nil {
		hint := ""
		switch o.Metastore {
		case DefaultMetastore:
			hint = " (import _ \"github.com/paimon-go/paimon-go/catalog/filesystem\")"
		case "rest":
			hint = " (import _ \"github.com/paimon-go/paimon-go/catalog/rest\")"
		}
		return nil, fmt.Errorf("%w: %q%s", ErrNoMetastore, o.Metastore, hint)
	}
	fsys, warehouse, err := fs.OpenURI(ctx, uri)
	if err != nil {
		return nil, fmt.Errorf("catalog: open %s: %w", uri, err)
	}
	cat, err := opener(ctx, fsys, warehouse, &o)
	if err != nil {
		_ = fsys.Close()
		return nil, fmt.Errorf("catalog: open %s: %w", uri, err)
	}
	return cat, nil
}
