// Package gcsfs serves Paimon warehouses on Google Cloud Storage through
// fs/blobfs and a gocloud blob driver over the GCS JSON API
// (google.golang.org/api/storage/v1), in the role of Java Paimon's
// paimon-gs FileIO. gocloud's gcsblob is not used: its storage client
// links gRPC with xDS and OpenTelemetry exporters, most of the weight of
// the paimon binary, for a transport Paimon does not use.
//
// Importing the package registers the "gs" scheme with package fs:
//
//	import _ "github.com/paimon-go/paimon-go/fs/blobfs/gcsfs"
//
//	fsys, name, err := fs.OpenURI(ctx, "gs://bucket/warehouse")
//
// Programs that bring their own authenticated *http.Client call [Open]
// instead.
//
// # Configuration
//
// Credentials come from the environment, never from Paimon table or
// catalog options:
//
//   - Application Default Credentials: GOOGLE_APPLICATION_CREDENTIALS
//     (a service-account or external-account JSON file), the file written
//     by `gcloud auth application-default login`, or the metadata server
//     on Google Cloud. Missing credentials fail the open with an error.
//   - STORAGE_EMULATOR_HOST=host:port points the client at an emulator
//     such as fake-gcs-server (started with -scheme http) and drops
//     authentication.
//
// A URI accepts the query parameters of gocloud's gcsblob URLs: anonymous=true for
// public buckets, access_id and private_key_path (only used for signed
// URLs, which Paimon does not need) and universe_domain. Anything else is
// an error, raised before credentials are looked up.
//
// # Semantics
//
// Create-if-absent, Paimon's commit primitive, is an upload with the
// precondition ifGenerationMatch=0, which GCS and fake-gcs-server enforce;
// blobfs verifies ambiguous answers by reading the object back (see
// blobfs.ErrUnverifiedConflict). GCS has no directories; objects named
// "dir/" (written by the console's "create folder" and by Hadoop's GCS
// connector) are shown as directories.
package gcsfs
