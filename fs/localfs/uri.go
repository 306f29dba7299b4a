package localfs

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"

	"github.com/paimon-go/paimon-go/fs"
)

func init() {
	fs.Register("file", openURL)
}

// openURL serves "file:///abs/path", "file:/abs/path" and plain paths (which
// fs.OpenURI turns into file URLs). The FS is rooted at the file system
// root so that callers can reach anything the path's owner could; use
// fs.Sub to confine it.
func openURL(_ context.Context, u *url.URL) (fs.FS, string, error) {
	if u.Host != "" && u.Host != "localhost" {
		return nil, "", fmt.Errorf("localfs: remote host %q in file URI is not supported", u.Host)
	}
	if u.Opaque != "" || u.Path == "" {
		return nil, "", fmt.Errorf("localfs: file URI needs an absolute path: %s", u.String())
	}
	p := u.Path
	if filepath.Separator != '/' && len(p) >= 3 && p[0] == '/' && p[2] == ':' {
		p = p[1:] // "file:///C:/data" names C:/data on Windows
	}
	p = filepath.Clean(filepath.FromSlash(p))
	if !filepath.IsAbs(p) {
		return nil, "", fmt.Errorf("localfs: file URI needs an absolute path: %s", u.String())
	}
	root := filepath.VolumeName(p) + string(filepath.Separator)
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return nil, "", fmt.Errorf("localfs: %w", err)
	}
	fsys, err := New(root, nil)
	if err != nil {
		return nil, "", err
	}
	return fsys, filepath.ToSlash(rel), nil
}
