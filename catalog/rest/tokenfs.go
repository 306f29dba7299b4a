package rest

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"maps"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/paimon"
)

// DataFSOpener opens the file system of a table path with the storage
// options of a data token (Java RESTTokenFileIO's FileIO.get with the
// token merged into the catalog options): props holds the catalog options
// overridden by the token's keys, such as fs.oss.accessKeyId or
// fs.s3a.access.key. It returns the file system and the path's name in it.
type DataFSOpener func(ctx context.Context, path string, props map[string]string) (fs.FS, string, error)

var (
	dataFSMu sync.RWMutex
	dataFS   = map[string]DataFSOpener{}
)

// RegisterDataFS makes opener open table paths with the given URI scheme
// when the catalog hands out data tokens. A later registration replaces an
// earlier one; it panics on an empty scheme or nil opener.
func RegisterDataFS(scheme string, opener DataFSOpener) {
	if scheme == "" || opener == nil {
		panic("rest: RegisterDataFS: empty scheme or nil opener")
	}
	dataFSMu.Lock()
	defer dataFSMu.Unlock()
	dataFS[strings.ToLower(scheme)] = opener
}

func (c *Catalog) dataOpener(path string) (DataFSOpener, error) {
	if c.o.DataFS != nil {
		return c.o.DataFS, nil
	}
	scheme := "file"
	if u, err := url.Parse(path); err == nil && len(u.Scheme) > 1 {
		scheme = strings.ToLower(u.Scheme)
	}
	dataFSMu.RLock()
	o := dataFS[scheme]
	dataFSMu.RUnlock()
	if o == nil {
		return nil, fmt.Errorf("%w: data tokens for %q paths (no opener registered with rest.RegisterDataFS)", paimon.ErrUnsupported, scheme)
	}
	return o, nil
}

// tokenFS is the file system of one table under data tokens (Java
// RESTTokenFileIO): every call first makes sure the token has more than
// an hour left, fetching a new one from the server otherwise, and goes to
// the file system opened with the current token. File systems of older
// tokens stay open for files already opened on them, and are closed with
// the catalog (at most keepTokenFS of them are kept).
type tokenFS struct {
	c      *Catalog
	id     paimon.Identifier
	path   string
	opener DataFSOpener

	mu      sync.Mutex
	cur     fs.FS
	name    string
	expires time.Time
	old     []fs.FS
}

const keepTokenFS = 4

var _ fs.FS = (*tokenFS)(nil)

func (c *Catalog) newTokenFS(ctx context.Context, id paimon.Identifier, path string) (fs.FS, string, error) {
	opener, err := c.dataOpener(path)
	if err != nil {
		return nil, "", err
	}
	t := &tokenFS{c: c, id: id, path: path, opener: opener}
	if _, err := t.fs(ctx); err != nil {
		return nil, "", err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		_ = t.closeAll()
		return nil, "", errors.New("catalog is closed")
	}
	c.tokens = append(c.tokens, t)
	return t, t.name, nil
}

// fs returns the file system of a token with more than an hour left.
func (t *tokenFS) fs(ctx context.Context) (fs.FS, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.cur != nil && t.expires.Sub(t.c.now()) >= tokenRefreshMargin {
		return t.cur, nil
	}
	tok, err := t.c.LoadDataToken(ctx, t.id)
	if err != nil {
		if t.cur != nil && t.c.now().Before(t.expires) {
			return t.cur, nil // still valid: try again on the next call
		}
		return nil, err
	}
	props := maps.Clone(t.c.options)
	maps.Copy(props, tok.Token)
	if ep := t.c.options[OptionDLFOSSEndpoint]; ep != "" {
		props["fs.oss.endpoint"] = ep
	}
	f, name, err := t.opener(ctx, t.path, props)
	if err != nil {
		return nil, wrapf(err, "open %s with the data token of %s", t.path, t.id)
	}
	if t.cur != nil {
		t.old = append(t.old, t.cur)
		if len(t.old) > keepTokenFS {
			_ = t.old[0].Close()
			t.old = t.old[1:]
		}
	}
	t.cur, t.name, t.expires = f, name, tok.ExpiresAt
	return f, nil
}

func (t *tokenFS) closeAll() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	var errs []error
	for _, f := range append(t.old, t.cur) {
		if f != nil {
			errs = append(errs, f.Close())
		}
	}
	t.old, t.cur = nil, nil
	return errors.Join(errs...)
}

func (t *tokenFS) Open(ctx context.Context, name string) (fs.File, error) {
	f, err := t.fs(ctx)
	if err != nil {
		return nil, err
	}
	return f.Open(ctx, name)
}

func (t *tokenFS) Create(ctx context.Context, name string, opts *fs.CreateOptions) (fs.Writer, error) {
	f, err := t.fs(ctx)
	if err != nil {
		return nil, err
	}
	return f.Create(ctx, name, opts)
}

func (t *tokenFS) Remove(ctx context.Context, name string) error {
	f, err := t.fs(ctx)
	if err != nil {
		return err
	}
	return f.Remove(ctx, name)
}

func (t *tokenFS) Stat(ctx context.Context, name string) (fs.FileInfo, error) {
	f, err := t.fs(ctx)
	if err != nil {
		return fs.FileInfo{}, err
	}
	return f.Stat(ctx, name)
}

func (t *tokenFS) List(ctx context.Context, dir string) iter.Seq2[fs.FileInfo, error] {
	return func(yield func(fs.FileInfo, error) bool) {
		f, err := t.fs(ctx)
		if err != nil {
			yield(fs.FileInfo{}, err)
			return
		}
		for fi, err := range f.List(ctx, dir) {
			if !yield(fi, err) {
				return
			}
		}
	}
}

// Close does nothing: the catalog closes the file systems it opened.
func (t *tokenFS) Close() error { return nil }

// DataToken is a table's storage credentials (Java RESTToken).
type DataToken struct {
	Token     map[string]string
	ExpiresAt time.Time
}

// LoadDataToken fetches the table's data token (Java RESTApi.loadTableToken).
func (c *Catalog) LoadDataToken(ctx context.Context, id paimon.Identifier) (*DataToken, error) {
	var resp tokenResponse
	if err := c.get(ctx, c.paths.table(id.Database, objectName(id), "token"), nil, &resp); err != nil {
		return nil, tableError(id, err)
	}
	if resp.ExpiresAtMillis <= 0 {
		return nil, fmt.Errorf("rest catalog: data token of %s: %w: no expiry", id, ErrProtocol)
	}
	return &DataToken{Token: resp.Token, ExpiresAt: time.UnixMilli(resp.ExpiresAtMillis)}, nil
}
