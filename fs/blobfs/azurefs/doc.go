// Package azurefs serves Paimon warehouses on Azure Blob Storage through
// fs/blobfs and gocloud's azureblob driver, in the role of Java Paimon's
// paimon-azure FileIO.
//
// Importing the package registers the "azblob" scheme with package fs;
// the URI host is the container:
//
//	import _ "github.com/paimon-go/paimon-go/fs/blobfs/azurefs"
//
//	fsys, name, err := fs.OpenURI(ctx, "azblob://container/warehouse")
//
// Programs that bring their own *container.Client call [Open] instead.
//
// # Configuration
//
// The account, its endpoint and the credentials come from the
// environment, never from Paimon table or catalog options (gocloud's
// azureblob conventions):
//
//   - AZURE_STORAGE_ACCOUNT names the account (or the URI parameter
//     storage_account).
//   - Credentials, first match wins: AZURE_STORAGE_ACCOUNT with
//     AZURE_STORAGE_KEY (shared key); AZURE_STORAGE_SAS_TOKEN;
//     AZURE_STORAGE_CONNECTION_STRING; otherwise azidentity's default
//     credential chain (AZURE_CLIENT_ID/AZURE_TENANT_ID/..., managed
//     identity, Azure CLI).
//   - The endpoint is https://ACCOUNT.blob.core.windows.net unless
//     AZURE_STORAGE_DOMAIN, AZURE_STORAGE_PROTOCOL,
//     AZURE_STORAGE_IS_LOCAL_EMULATOR or AZURE_STORAGE_IS_CDN say
//     otherwise; the URI parameters domain, protocol, localemu and cdn
//     override them. A domain starting with 127.0.0.1 or localhost, or
//     localemu=true, gives the emulator form http://DOMAIN/ACCOUNT.
//
// Azurite, for example, with its well-known account and key in
// AZURE_STORAGE_ACCOUNT and AZURE_STORAGE_KEY:
//
//	azblob://container/warehouse?domain=127.0.0.1:10000&protocol=http
//
// Unknown URI parameters are an error. The account key has no URI
// parameter, so that it never ends up in a warehouse path or a log.
//
// # Semantics
//
// Create-if-absent, Paimon's commit primitive, is a block-blob upload with
// If-None-Match: *; blobfs verifies ambiguous answers by reading the blob
// back (see blobfs.ErrUnverifiedConflict) and always uploads through
// Bucket.Upload (see the blobfs documentation for why).
//
// Directory markers: azureblob stores the trailing slash of a "dir/" key
// escaped ("dir__0x2f__"), and Hadoop's WASB and ABFS connectors mark
// directories with zero-byte blobs carrying the metadata hdi_isfolder=true
// (so do accounts with a hierarchical namespace). This package tells
// blobfs about both, so either kind shows up as a directory and never as
// a file; listings therefore ask for blob metadata.
package azurefs
