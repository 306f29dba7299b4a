package storetest_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/fs"
	_ "github.com/paimon-go/paimon-go/fs/blobfs/azurefs" // azblob://
	_ "github.com/paimon-go/paimon-go/fs/blobfs/gcsfs"   // gs://
	_ "github.com/paimon-go/paimon-go/fs/blobfs/s3fs"    // s3://
	"github.com/paimon-go/paimon-go/internal/storetest"
	"github.com/paimon-go/paimon-go/internal/testservers"
)

// runOnServer runs the table-level suite on one server, every subtest in
// a location of its own, opened through fs.OpenURI exactly as a user's
// warehouse URI would be.
func runOnServer(t *testing.T, url func(prefix string) string) {
	var n atomic.Int64
	storetest.Run(t, func(t *testing.T) fs.FS {
		uri := url(fmt.Sprintf("suite-%d", n.Add(1)))
		fsys, name, err := fs.OpenURI(context.Background(), uri)
		require.NoError(t, err, "open %s", uri)
		sub, err := fs.Sub(fsys, name)
		require.NoError(t, err)
		// Run closes the returned FS; a Sub does not own its parent.
		t.Cleanup(func() { require.NoError(t, fsys.Close()) })
		return sub
	})
}

func TestS3(t *testing.T) { runOnServer(t, testservers.S3(t).URL) }

func TestGCS(t *testing.T) { runOnServer(t, testservers.GCS(t).URL) }

func TestAzure(t *testing.T) { runOnServer(t, testservers.Azure(t).URL) }
