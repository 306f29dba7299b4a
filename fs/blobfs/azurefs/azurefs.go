package azurefs

import (
	"context"
	"errors"
	"fmt"
	"net/url"

	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/container"
	"gocloud.dev/blob/azureblob"

	"github.com/paimon-go/paimon-go/fs/blobfs"
)

// Scheme is the URI scheme this package registers with fs.
const Scheme = "azblob"

func init() { blobfs.Register(Scheme, openURL) }

// openURL opens "azblob://container?params" with gocloud's azureblob URL
// opener. Unlike azureblob's default opener, which reads the environment
// once per process, it reads it on every open.
func openURL(ctx context.Context, u *url.URL) (*blobfs.FS, error) {
	opener := &azureblob.URLOpener{
		MakeClient:        azureblob.NewDefaultClient,
		ServiceURLOptions: *azureblob.NewDefaultServiceURLOptions(),
	}
	b, err := opener.OpenBucketURL(ctx, u)
	if err != nil {
		return nil, err
	}
	return blobfs.Own(b, "", fsOptions(nil))
}

// Options tunes [Open]. A nil *Options means everything comes from the
// environment, as for URIs.
type Options struct {
	// Client is the container client to use; nil builds one for the
	// named container from the environment (see the package
	// documentation).
	Client *container.Client
	// Service, used when Client is nil, describes the account endpoint;
	// nil reads it from the environment. Azurite, for example:
	// {AccountName: "devstoreaccount1", StorageDomain: "127.0.0.1:10000",
	// Protocol: "http"}.
	Service *azureblob.ServiceURLOptions
	// FS tunes the file system. Its Markers are always Azure's.
	FS *blobfs.Options
}

// Open returns a file system over the blob container called containerName,
// with every name below prefix ("" for the whole container). The FS owns
// the bucket handle; Close releases it.
func Open(ctx context.Context, containerName, prefix string, opts *Options) (*blobfs.FS, error) {
	if containerName == "" {
		return nil, errors.New("azurefs: empty container name")
	}
	var o Options
	if opts != nil {
		o = *opts
	}
	client := o.Client
	if client == nil {
		svc := o.Service
		if svc == nil {
			svc = azureblob.NewDefaultServiceURLOptions()
		}
		svcURL, err := azureblob.NewServiceURL(svc)
		if err != nil {
			return nil, fmt.Errorf("azurefs: %w", err)
		}
		if client, err = azureblob.NewDefaultClient(svcURL, azureblob.ContainerName(containerName)); err != nil {
			return nil, fmt.Errorf("azurefs: container %s: %w", containerName, err)
		}
	}
	b, err := azureblob.OpenBucket(ctx, client, nil)
	if err != nil {
		return nil, fmt.Errorf("azurefs: open container %s: %w", containerName, err)
	}
	return blobfs.Own(b, prefix, fsOptions(o.FS))
}

// fsOptions returns opts (or defaults) with Azure's directory markers.
func fsOptions(opts *blobfs.Options) *blobfs.Options {
	var o blobfs.Options
	if opts != nil {
		o = *opts
	}
	o.Markers = markers
	return &o
}
