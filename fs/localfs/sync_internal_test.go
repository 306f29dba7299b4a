package localfs

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/fs"
)

// TestCreateSyncs counts the fsyncs of a published file: the file and its
// directory by default, none with CreateOptions.NoSync (a hint) or
// Options.NoSync, for replacing and for create-if-absent publishes alike.
func TestCreateSyncs(t *testing.T) {
	var synced []string
	prev := fsync
	fsync = func(f *os.File) error {
		synced = append(synced, f.Name())
		return prev(f)
	}
	t.Cleanup(func() { fsync = prev })

	ctx := context.Background()
	for _, tc := range []struct {
		name    string
		fsNo    bool
		opts    *fs.CreateOptions
		syncs   int
		publish string
	}{
		{"default", false, nil, 2, "a"},
		{"if-not-exist", false, &fs.CreateOptions{IfNotExist: true}, 2, "b"},
		{"hint", false, &fs.CreateOptions{NoSync: true}, 0, "c"},
		{"hint, if-not-exist", false, &fs.CreateOptions{NoSync: true, IfNotExist: true}, 0, "d"},
		{"file system without syncs", true, nil, 0, "e"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			fsys, err := New(dir, &Options{NoSync: tc.fsNo})
			require.NoError(t, err)
			synced = nil
			require.NoError(t, fs.WriteFile(ctx, fsys, "sub/"+tc.publish, []byte("42"), tc.opts))
			require.Len(t, synced, tc.syncs, "fsyncs: %v", synced)
			b, err := fs.ReadFile(ctx, fsys, "sub/"+tc.publish)
			require.NoError(t, err)
			require.Equal(t, "42", string(b))
		})
	}
}
