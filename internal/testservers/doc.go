// Package testservers runs real object-store servers on the loopback
// interface for tests: versitygw (S3, posix backend), fake-gcs-server (GCS
// JSON API) and Azurite (Azure Blob). Java Paimon tests its paimon-s3,
// paimon-gs and paimon-azure FileIOs against the same kind of emulators
// (MinIO and friends in testcontainers); we run the servers as plain child
// processes because this project's machines have no container runtime.
//
// Each constructor (S3, GCS, Azure) picks a free port on 127.0.0.1, keeps
// the server's data in t.TempDir(), waits until the server answers HTTP,
// creates an empty bucket (container) with the store's own REST API, sets
// the environment variables that gocloud's drivers read (t.Setenv, so the
// calling test must not be parallel), and stops the server at t.Cleanup by
// signalling its whole process group: no server outlives the test. The
// server's combined stdout and stderr are kept and logged when the test
// fails.
//
// The package speaks to the servers with net/http and crypto only (AWS
// Signature V4 and Azure SharedKey signing are written here): it must not
// link a cloud SDK, which only fs/blobfs may (internal/lint
// TestCoreHasNoCloudSDK).
//
// # Binaries
//
// The servers are looked up in $PAIMON_TEST_SERVERS (a directory holding
// the binaries, or laid out like the cache below), then in the cache that
// .ci/install-test-servers.sh fills ($PAIMON_TEST_SERVERS_CACHE, by default
// ~/.cache/paimon-go-servers: bin/versitygw, bin/fake-gcs-server,
// azurite/node_modules/.bin/azurite-blob), then on PATH. A missing binary
// skips the test with the install command in the message, unless
// [Required] says the run must exercise the stores, in which case the test
// fails.
package testservers
