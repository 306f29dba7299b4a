package gcsfs

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"

	"gocloud.dev/blob"
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

// openURL opens "gs://bucket?params". It accepts gocloud gcsblob's query
// parameters so that URIs stay portable between the two, and looks the
// credentials up on every open, returning a failure to find them instead
// of going on without (gcsblob's default opener prints a warning).
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
		// Checked before any credential lookup so that a mistyped URI
		// fails first. access_id and private_key_path only serve signed
		// URLs in gcsblob, which Paimon does not need.
		if k != "anonymous" && k != "access_id" && k != "private_key_path" && k != "universe_domain" {
			return nil, fmt.Errorf("gcsfs: unknown query parameter %q", k)
		}
	}
	client, err := httpClient(ctx, anonymous || q.Get("access_id") == "-", q.Get("universe_domain"))
	if err != nil {
		return nil, err
	}
	b, err := openBucket(ctx, client, u.Host, q.Get("universe_domain"))
	if err != nil {
		return nil, err
	}
	return blobfs.Own(b, "", nil)
}

// httpClient returns an unauthenticated client for emulators and public
// buckets, and one with Application Default Credentials otherwise.
func httpClient(ctx context.Context, anonymous bool, universeDomain string) (*http.Client, error) {
	if anonymous || os.Getenv(emulatorEnv) != "" {
		return &gcp.NewAnonymousHTTPClient(gcp.DefaultTransport()).Client, nil
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
	c, err := gcp.NewHTTPClient(gcp.DefaultTransport(), creds.TokenSource)
	if err != nil {
		return nil, fmt.Errorf("gcsfs: %w", err)
	}
	return &c.Client, nil
}

// openBucket builds the JSON API client over client (which carries the
// credentials) and the bucket handle. STORAGE_EMULATOR_HOST
// ("host:port", or a URL) replaces the endpoint, as in the storage
// package.
func openBucket(ctx context.Context, client *http.Client, name, universeDomain string) (*blob.Bucket, error) {
	if name == "" {
		return nil, errors.New("gcsfs: empty bucket name")
	}
	b := &bucket{name: name, client: client, universeDomain: universeDomain}
	if host := os.Getenv(emulatorEnv); host != "" {
		if !strings.Contains(host, "://") {
			host = "http://" + host
		}
		b.endpoint = strings.TrimSuffix(host, "/") + "/storage/v1/"
	}
	// Fails now on options the client refuses.
	if _, err := b.objects(ctx); err != nil {
		return nil, fmt.Errorf("gcsfs: open bucket %s: %w", name, err)
	}
	return blob.NewBucket(b), nil
}

// Options tunes [Open]. A nil *Options means Application Default
// Credentials, or no credentials when STORAGE_EMULATOR_HOST is set.
type Options struct {
	// HTTPClient sends the requests and authenticates them (for example
	// one from golang.org/x/oauth2/google). Nil builds one as described
	// in the package documentation. The FS does not close it.
	HTTPClient *http.Client
	// Anonymous makes the default client unauthenticated (public
	// buckets). Ignored when HTTPClient is set.
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
	client := o.HTTPClient
	if client == nil {
		var err error
		if client, err = httpClient(ctx, o.Anonymous, ""); err != nil {
			return nil, err
		}
	}
	b, err := openBucket(ctx, client, bucket, "")
	if err != nil {
		return nil, err
	}
	return blobfs.Own(b, prefix, o.FS)
}
