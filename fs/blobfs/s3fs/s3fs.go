package s3fs

import (
	"context"
	"errors"
	"fmt"
	"net/url"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"gocloud.dev/blob/s3blob"

	"github.com/paimon-go/paimon-go/fs/blobfs"
)

// Scheme is the URI scheme this package registers with fs.
const Scheme = "s3"

func init() { blobfs.Register(Scheme, openURL) }

// openURL opens "s3://bucket?params" with gocloud's s3blob URL opener,
// which loads the default AWS configuration and applies the query
// parameters on top (see the package documentation). It rejects unknown
// parameters before loading anything, so a mistyped URI fails offline.
func openURL(ctx context.Context, u *url.URL) (*blobfs.FS, error) {
	b, err := (&s3blob.URLOpener{}).OpenBucketURL(ctx, u)
	if err != nil {
		return nil, err
	}
	return blobfs.Own(b, "", fsOptions(nil))
}

// fsOptions returns opts (or defaults) with the S3 error classification.
func fsOptions(opts *blobfs.Options) *blobfs.Options {
	var o blobfs.Options
	if opts != nil {
		o = *opts
	}
	o.ErrorCode = errorCode
	return &o
}

// Options tunes [Open]. A nil *Options means the default AWS
// configuration, unchanged.
type Options struct {
	// Config is the AWS configuration to start from; nil loads the
	// default one (environment, shared config and credentials files).
	Config *aws.Config
	// Endpoint, if set, replaces the configured S3 endpoint, for example
	// "http://127.0.0.1:7070" for a local S3-compatible server.
	Endpoint string
	// Region, if set, replaces the configured region.
	Region string
	// UsePathStyle addresses the bucket as endpoint/bucket instead of
	// bucket.endpoint, as most S3-compatible servers reached by host name
	// require. (For an endpoint given as an IP address the SDK does so on
	// its own.)
	UsePathStyle bool
	// AccessKey, SecretKey and SessionToken, when AccessKey is set, are
	// the credentials to use instead of the configuration's (a REST
	// catalog's data token, say).
	AccessKey, SecretKey, SessionToken string
	// FS tunes the file system. Its ErrorCode is always this package's.
	FS *blobfs.Options
}

// Open returns a file system over the S3 bucket called bucket, with every
// name below prefix ("" for the whole bucket). The FS owns the bucket
// handle; Close releases it.
func Open(ctx context.Context, bucket, prefix string, opts *Options) (*blobfs.FS, error) {
	if bucket == "" {
		return nil, errors.New("s3fs: empty bucket name")
	}
	var o Options
	if opts != nil {
		o = *opts
	}
	var cfg aws.Config
	if o.Config != nil {
		cfg = o.Config.Copy()
	} else {
		var err error
		if cfg, err = config.LoadDefaultConfig(ctx); err != nil {
			return nil, fmt.Errorf("s3fs: load AWS configuration: %w", err)
		}
	}
	if o.Region != "" {
		cfg.Region = o.Region
	}
	if o.AccessKey != "" {
		cfg.Credentials = aws.NewCredentialsCache(credentials.NewStaticCredentialsProvider(o.AccessKey, o.SecretKey, o.SessionToken))
	}
	client := s3.NewFromConfig(cfg, func(so *s3.Options) {
		if o.Endpoint != "" {
			so.BaseEndpoint = aws.String(o.Endpoint)
		}
		if o.UsePathStyle {
			so.UsePathStyle = true
		}
	})
	b, err := s3blob.OpenBucket(ctx, client, bucket, &s3blob.Options{
		// The upload manager does not inherit this from the client.
		RequestChecksumCalculation: cfg.RequestChecksumCalculation,
	})
	if err != nil {
		return nil, fmt.Errorf("s3fs: open bucket %s: %w", bucket, err)
	}
	return blobfs.Own(b, prefix, fsOptions(o.FS))
}
