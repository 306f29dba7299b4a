// Package rest is a catalog.Catalog served by a Paimon REST catalog server:
// Paimon's open REST API as Java Paimon 1.4.2 and 2.0.0 speak it
// (org.apache.paimon.rest.RESTCatalog, RESTApi, ResourcePaths and the
// request/response classes), which managed services such as Alibaba Cloud
// DLF implement.
//
// # Opening
//
//	import _ "github.com/paimon-go/paimon-go/catalog/rest"
//
//	cat, err := catalog.Open(ctx, "http://127.0.0.1:8080", &catalog.Options{Properties: map[string]string{
//		"warehouse": "my_catalog", "token.provider": "bear", "token": os.Getenv("PAIMON_TOKEN"),
//	}})
//
// An http:// or https:// URI selects this catalog ("metastore=rest" does
// too); New takes the options directly. The options have Java's names:
// uri, warehouse, token.provider ("bear" with token; "dlf" with
// dlf.access-key-id, dlf.access-key-secret, dlf.security-token, or
// dlf.token-path, or dlf.token-loader=ecs; dlf.region, dlf.signing-algorithm),
// header.<name> for extra request headers, table-default.<key> for options
// every new table gets. New first asks the server's /v1/config for the
// warehouse: the server's defaults, then the caller's options, then the
// server's overrides are the options in force (prefix, data-token.enabled
// ...). A "dlf" provider without keys in the options takes Alibaba Cloud's
// standard variables ALIBABA_CLOUD_ACCESS_KEY_ID, ALIBABA_CLOUD_ACCESS_KEY_SECRET
// and ALIBABA_CLOUD_SECURITY_TOKEN. Other providers plug in through
// RegisterAuthProvider or Options.Auth.
//
// # What goes through the server
//
// Databases (list with paging, get, create, alter, drop), tables (list,
// get, create, drop, rename, alter with schema changes the server
// applies), snapshots (the latest, as the server knows it), the commit
// endpoint, rollback, partitions the server tracks, tags and branches. A
// loaded table's CreateBranch, DropBranch and FastForward go to the
// server too (paimon.CatalogBranches, Java CatalogBranchManager); its
// tags are files on the table's path, as Java's TagManager writes them.
// Table data and metadata files are read and written by this library on
// the table's path, as the server gives it.
//
// # Commits
//
// A table loaded from this catalog commits through the server (Java
// CatalogSnapshotCommit): the committer writes data and manifest files,
// reads the latest snapshot from the server, and posts the new snapshot
// with per-partition statistics to .../commit; the server publishes it
// atomically or answers success=false when another writer took the
// snapshot id, and the committer retries on the new latest snapshot as
// Java's FileStoreCommitImpl does. When the answer is lost (a dropped
// connection, a timeout, a 5xx, a 408 or 429, a malformed answer) the
// commit's outcome is unknown: the files are kept and the next attempt
// first looks for the commit among the server's newer snapshots, so it is
// never published twice. For that the commit request is sent once and
// never resent by the HTTP layer (Java's client resends it on 429 and
// 503: a resent commit the first request did publish is refused as a lost
// race, and the committer would then remove files the published snapshot
// refers to). Any other 4xx answer is a certain refusal: the commit fails
// and removes its files.
//
// # Data tokens
//
// When the server hands out data tokens (data-token.enabled), a table's
// file system is opened with its token's storage options merged over the
// catalog options (Java RESTTokenFileIO), by an opener registered for the
// path's scheme (RegisterDataFS) or Options.DataFS, and reopened with a
// fresh token an hour before the old one expires. Blank-importing
// catalog/rest/s3token registers openers for s3://, s3a:// and oss://
// paths that use the token's keys (fs.s3.accessKeyId, fs.s3a.access.key,
// fs.oss.accessKeyId ...); this package itself links no cloud SDK.
//
// # Errors and secrets
//
// Answers map to sentinels: 404 to catalog.ErrDatabaseNotFound or
// catalog.ErrTableNotFound (ErrNotFound otherwise), 409 to
// catalog.ErrDatabaseExists or catalog.ErrTableExists (ErrAlreadyExists),
// 403 to catalog.ErrForbidden, 401 to ErrNotAuthorized, 501 to
// ErrNotImplemented (paimon.ErrUnsupported), 5xx to ErrServer; no answer to
// ErrTransport and a malformed one to ErrProtocol. Each error names the
// request and carries the server's message and request id. Tokens, keys and
// signatures never appear in errors: the client sends them only in headers
// and scrubs the provider's secrets from any message it builds.
//
// Like Java's HTTP client, requests answered 429 or 503 are retried up to
// five times with exponential backoff (or the server's Retry-After), and
// GET and DELETE requests also after a broken connection; commits are the
// exception (see Commits). Answers are read
// up to 64 MiB.
//
// # Testing
//
// The live tests run Java Paimon's own REST catalog server
// (org.apache.paimon.rest.RESTCatalogServer from the paimon-core 1.4.2 test
// jar, on okhttp's MockWebServer 4.12.0) through interop/java and need
// PAIMON_INTEROP=1: the catalog conformance suite, the rest of the API
// (TestLiveCatalogAPI: paging, database properties, rename, schema
// changes, tags, branches), tables written here and read by Java's
// RESTCatalog and the other way round, concurrent commits from both, an
// unknown commit outcome, DLF-signed requests and data tokens. Faults a
// real server cannot be made to produce (dropped connections, timeouts,
// 503s after publishing) run against a fake server in faults_test.go. DLF signatures are also checked against Java's signers on fixed
// inputs (testdata/dlf-signatures.golden).
package rest
