package azurefs

import (
	"context"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/bloberror"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/container"
	"gocloud.dev/blob"

	"github.com/paimon-go/paimon-go/fs/blobfs"
)

// folderKey is the metadata key with which Hadoop's Azure connectors (WASB
// and ABFS, the storage behind Java Paimon's paimon-azure FileIO) mark a
// zero-byte blob as a directory. Accounts with a hierarchical namespace
// report their real directories this way on the Blob API too.
const folderKey = "hdi_isfolder"

// markers tells blobfs about Azure's directory markers (see
// blobfs.Markers): azureblob escapes the trailing slash of "dir/" keys, and
// Hadoop marks directories with hdi_isfolder blobs.
var markers = blobfs.Markers{
	EscapedSlash: true,
	DeleteRaw:    deleteRaw,
	BeforeList:   includeMetadata,
	Listed:       listedFolder,
	Attributes: func(a *blob.Attributes) bool {
		return a.Size == 0 && isTrue(a.Metadata[folderKey])
	},
}

// includeMetadata asks the listing for blob metadata, which listedFolder
// reads.
func includeMetadata(as func(any) bool) error {
	var o *container.ListBlobsHierarchyOptions
	if as(&o) {
		o.Include.Metadata = true
	}
	return nil
}

// listedFolder reports whether a listed blob is an hdi_isfolder marker.
func listedFolder(obj *blob.ListObject) bool {
	if obj.Size != 0 {
		return false
	}
	var item container.BlobItem
	if !obj.As(&item) {
		return false
	}
	for k, v := range item.Metadata {
		if strings.EqualFold(k, folderKey) && v != nil && isTrue(*v) {
			return true
		}
	}
	return false
}

// deleteRaw deletes the blob called exactly key through the container
// client, which, unlike gocloud, does not escape a trailing slash.
func deleteRaw(ctx context.Context, b *blob.Bucket, key string) error {
	var c *container.Client
	if !b.As(&c) {
		return nil
	}
	_, err := c.NewBlobClient(key).Delete(ctx, nil)
	if bloberror.HasCode(err, bloberror.BlobNotFound) {
		return nil
	}
	return err
}

func isTrue(s string) bool { return strings.EqualFold(s, "true") }
