package memfs

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"sync"

	"github.com/paimon-go/paimon-go/fs"
)

var (
	namedMu sync.Mutex
	named   = map[string]*FS{}
)

func init() {
	fs.Register("mem", openURL)
}

// Named returns the process-wide in-memory file system called name,
// creating it on first use. "mem://NAME/..." URIs resolve to it, so a test
// can prepare files through Named and hand a URI to code under test. The
// file systems live until the process exits.
func Named(name string) *FS {
	namedMu.Lock()
	defer namedMu.Unlock()
	f := named[name]
	if f == nil {
		f = New(nil)
		named[name] = f
	}
	return f
}

// openURL serves "mem://NAME/path": the FS is Named(NAME) and the location
// is path.
func openURL(_ context.Context, u *url.URL) (fs.FS, string, error) {
	name := strings.Trim(u.Path, "/")
	if name == "" {
		name = "."
	}
	if err := fs.CheckDir("open", name); err != nil {
		return nil, "", fmt.Errorf("memfs: %s: %w", u.String(), err)
	}
	return Named(u.Host), name, nil
}
