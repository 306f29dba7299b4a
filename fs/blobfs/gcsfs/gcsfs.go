package gcsfs

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strconv"

	"cloud.google.com/go/storage"
	"gocloud.dev/blob/gcsblob"
	"gocloud.dev/gcp"
	"golang.org/x/oauth2/google"

	"github.com/paimon-go/paimon-go/fs/blobfs"
)

// Scheme is the URI scheme this package registers with fs.
const Scheme = "gs"

// emulatorEnv names the variable pointing the Google Cloud Storage client
// at an emulator such as fake-gcs-server ("127.0.0.1:4443").
const emulatorEnv = "STORAGE_EMULATOR_HOST"

func init() { blobfs.Register(Scheme, openURL) }

// openURL opens "gs://bucket?params" with gocloud's gcsblob URL opener.
// Unlike gcsblob's default opener it looks the credentials up on every
// open and returns a failure to find them instead of printing a warning to
// standard output and going on without.
func openURL(ctx context.Context, u *url.URL) (*blobfs.FS, error) {
	q := u.Query()
	anonymous := false
	if v := q.Get("anonymous"); v != "" {
		var err error
		if anonymous, err = strconv.ParseBool(v); err != nil {
			return nil, fmt.Errorf("gcsfs: query parameter anonymous=%q: %w", v, err)
		}
	}
	for k := range q {
		// Checked here too so that a mistyped URI fails before any
		// credential lookup.
		if k != "anonymous" && k != "access_id" && k != "private_key_path" && k != "universe_domain" {
			return nil, fmt.Errorf("gcsfs: unknown query parameter %q", k)
		}
	}
	client, err := httpClient(ctx, anonymous || q.Get("access_id") == "-", q.Get("universe_domain"))
	if err != nil {
		return nil, err
	}
	b, err := (&gcsblob.URLOpener{Client: client}).OpenBucketURL(ctx, u)
	if err != nil {
		return nil, err
	}
	return blobfs.Own(b, "", nil)
}

// httpClient returns an unauthenticated client for emulators and public
// buckets, and one with Application Default Credentials otherwise.
func httpClient(ctx context.Context, anonymous bool, universeDomain string) (*gcp.HTTPClient, error) {
	if anonymous || os.Getenv(emulatorEnv) != "" {
		return gcp.NewAnonymousHTTPClient(gcp.DefaultTransport()), nil
	}
	var creds *google.Credentials
	var err error
	if universeDomain != "" {
		creds, err = gcp.DefaultCredentialsWithParams(ctx, google.CredentialsParams{UniverseDomain: universeDomain})
	} else {
		creds, err = gcp.DefaultCredentials(ctx)
	}
	if err != nil {
		return nil, fmt.Errorf("gcsfs: no Google Cloud credentials (set GOOGLE_APPLICATION_CREDENTIALS or run `gcloud auth application-default login`; add ?anonymous=true for a public bucket): %w", err)
	}
	return gcp.NewHTTPClient(gcp.DefaultTransport(), creds.TokenSource)
}

// Options tunes [Open]. A nil *Options means Application Default
// Credentials, or no credentials when STORAGE_EMULATOR_HOST is set.
type Options struct {
	// Client is the storage client to use. Nil builds one as described
	// in the package documentation. The FS does not close it.
	Client *storage.Client
	// Anonymous makes the default client unauthenticated (public
	// buckets). Ignored when Client is set.
	Anonymous bool
	// FS tunes the file system.
	FS *blobfs.Options
}

// Open returns a file system over the GCS bucket called bucket, with every
// name below prefix ("" for the whole bucket). The FS owns the bucket
// handle; Close releases it.
func Open(ctx context.Context, bucket, prefix string, opts *Options) (*blobfs.FS, error) {
	if bucket == "" {
		return nil, errors.New("gcsfs: empty bucket name")
	}
	var o Options
	if opts != nil {
		o = *opts
	}
	var client *gcp.HTTPClient
	gopts := &gcsblob.Options{Client: o.Client}
	if o.Client == nil {
		var err error
		if client, err = httpClient(ctx, o.Anonymous, ""); err != nil {
			return nil, err
		}
	}
	b, err := gcsblob.OpenBucket(ctx, client, bucket, gopts)
	if err != nil {
		return nil, fmt.Errorf("gcsfs: open bucket %s: %w", bucket, err)
	}
	return blobfs.Own(b, prefix, o.FS)
}
