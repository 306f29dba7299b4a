// Package s3fs serves Paimon warehouses on Amazon S3 and S3-compatible
// stores through fs/blobfs and gocloud's s3blob driver, in the role of
// Java Paimon's paimon-s3 FileIO (S3Loader).
//
// Importing the package registers the "s3" scheme with package fs:
//
//	import _ "github.com/paimon-go/paimon-go/fs/blobfs/s3fs"
//
//	fsys, name, err := fs.OpenURI(ctx, "s3://bucket/warehouse")
//
// Programs that build their own configuration call [Open] instead.
//
// # Configuration
//
// Where to connect and as whom comes from the standard AWS configuration,
// never from Paimon table or catalog options (Java Paimon's s3.endpoint,
// s3.access-key and friends have no counterpart here):
//
//   - Credentials: AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY
//     (/ AWS_SESSION_TOKEN), AWS_PROFILE with ~/.aws/credentials and
//     ~/.aws/config, web identity, SSO, container and instance roles — the
//     SDK's default chain.
//   - Region: AWS_REGION (or AWS_DEFAULT_REGION), or the profile's region.
//   - Endpoint: AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL, or endpoint_url
//     in the profile, for S3-compatible servers.
//
// A URI may override these with gocloud's query parameters (see
// gocloud.dev/aws.V2ConfigFromURLParams and gocloud.dev/blob/s3blob):
// region, endpoint, profile, use_path_style (or s3ForcePathStyle),
// disable_https, anonymous, dualstack, fips, hostname_immutable, role,
// ssetype, kmskeyid, accelerate, request_checksum_calculation and
// response_checksum_validation. An unknown parameter is an error, raised
// before any configuration is loaded. For example, a local server:
//
//	s3://bucket/warehouse?endpoint=http://127.0.0.1:7070&region=us-east-1&use_path_style=true
//
// Path-style addressing (endpoint/bucket) is needed by most S3-compatible
// servers reached by host name; the AWS SDK has no environment variable
// for it, so pass use_path_style=true or Options.UsePathStyle. Endpoints
// given as an IP address use path style automatically.
//
// # Semantics
//
// Create-if-absent, Paimon's commit primitive, is a PutObject (or
// CompleteMultipartUpload) with If-None-Match: *, which AWS S3 and
// servers such as versitygw honour; blobfs verifies ambiguous answers by
// reading the object back (see blobfs.ErrUnverifiedConflict). Stores that
// ignore If-None-Match cannot host a warehouse safely: two committers could
// both believe they wrote snapshot N.
package s3fs
