package testservers

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

// S3Server is a versitygw gateway with its posix backend: every top-level
// directory of its data directory is a bucket. It answers path-style
// requests signed with AWS Signature V4, and honours If-None-Match: * on
// PutObject, the create-if-absent that Paimon commits rely on.
type S3Server struct {
	*Process
	// Endpoint is the server's base URL, "http://127.0.0.1:<port>".
	Endpoint string
	// Region is the signing region, "us-east-1".
	Region string
	// AccessKey and SecretKey are the root user's credentials.
	AccessKey, SecretKey string
	// Bucket is created empty when the server starts.
	Bucket string
	// Dir is the posix backend's root directory (Dir/Bucket holds the
	// objects).
	Dir string
}

// Fixed credentials: the AWS SDK reads them from the environment, which
// holds one value at a time, so every S3Server shares them.
const (
	s3AccessKey = "paimontest"
	s3SecretKey = "paimontestsecret"
	s3Region    = "us-east-1"
	testBucket  = "paimon-test"
)

// S3 starts a versitygw server for the test, creates its bucket and sets
// the AWS_* variables of [S3Server.Env] in the test's environment
// (t.Setenv: the test must not be parallel). It is stopped at t.Cleanup.
// A missing binary skips the test (fails it when [Required]).
func S3(t testing.TB) *S3Server {
	t.Helper()
	bin := versitygwBin.require(t)
	dir := t.TempDir()
	s := &S3Server{Region: s3Region, AccessKey: s3AccessKey, SecretKey: s3SecretKey, Bucket: testBucket, Dir: dir}
	s.Process = startProcess(t, "versitygw", bin, func(port int) []string {
		return []string{
			"--port", "127.0.0.1:" + strconv.Itoa(port),
			"--access", s.AccessKey, "--secret", s.SecretKey, "--region", s.Region,
			"--quiet",
			"posix", dir,
		}
	})
	s.Endpoint = "http://127.0.0.1:" + strconv.Itoa(s.Port())
	ready(t, "versitygw", s.Process, s.Env(), func() error {
		resp, err := s.Do(context.Background(), http.MethodPut, "", nil, nil)
		if err != nil {
			return err
		}
		return expectStatus(resp, "create bucket "+s.Bucket, http.StatusOK)
	})
	return s
}

// URL is the gocloud s3blob URL of prefix inside the bucket, for
// blobfs.RegisterSchemes and fs.OpenURI: the endpoint, region and
// path-style addressing travel in the query (gocloud.dev v0.46.0
// aws.V2ConfigFromURLParams and s3blob's use_path_style); the credentials
// come from the environment.
func (s *S3Server) URL(prefix string) string {
	q := url.Values{}
	q.Set("endpoint", s.Endpoint)
	q.Set("region", s.Region)
	q.Set("use_path_style", "true")
	return (&url.URL{Scheme: "s3", Host: s.Bucket, Path: slashPrefix(prefix), RawQuery: q.Encode()}).String()
}

// Env returns the variables a child process (Java Paimon, pypaimon, the
// paimon command) needs to reach the server with an AWS SDK, as
// "KEY=value". S3 also sets them in the test's own environment.
func (s *S3Server) Env() []string {
	return []string{
		"AWS_ACCESS_KEY_ID=" + s.AccessKey,
		"AWS_SECRET_ACCESS_KEY=" + s.SecretKey,
		"AWS_REGION=" + s.Region,
		"AWS_DEFAULT_REGION=" + s.Region,
		"AWS_ENDPOINT_URL=" + s.Endpoint,
		"AWS_ENDPOINT_URL_S3=" + s.Endpoint,
		// Never ask an instance metadata service for anything: there is
		// none, and the probe would leave the machine.
		"AWS_EC2_METADATA_DISABLED=true",
	}
}

// Do sends a request signed with the server's credentials for key in the
// bucket ("" addresses the bucket itself), with optional extra headers, as
// a test needs to look at objects behind an fs.FS's back. The caller
// closes the response body.
func (s *S3Server) Do(ctx context.Context, method, key string, body []byte, header http.Header) (*http.Response, error) {
	u := s.Endpoint + "/" + s.Bucket
	if key != "" {
		u += "/" + escapeKey(key)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	for k, v := range header {
		req.Header[k] = v
	}
	req.ContentLength = int64(len(body))
	signV4(req, body, s.AccessKey, s.SecretKey, s.Region, time.Now())
	return httpClient.Do(req)
}

// httpClient talks to the servers; the timeout guards against a hung
// server, it is not a performance check.
var httpClient = &http.Client{Timeout: time.Minute}

// slashPrefix turns a prefix into a URL path ("" for none).
func slashPrefix(prefix string) string {
	prefix = strings.Trim(prefix, "/")
	if prefix == "" {
		return ""
	}
	return "/" + prefix
}

// escapeKey percent-encodes each segment of an object key.
func escapeKey(key string) string {
	segs := strings.Split(key, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// expectStatus closes resp and returns an error naming what was attempted
// unless the status is one of want.
func expectStatus(resp *http.Response, what string, want ...int) error {
	defer resp.Body.Close()
	for _, w := range want {
		if resp.StatusCode == w {
			_, _ = io.Copy(io.Discard, resp.Body)
			return nil
		}
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
	return fmt.Errorf("%s: HTTP %s: %s", what, resp.Status, body)
}
