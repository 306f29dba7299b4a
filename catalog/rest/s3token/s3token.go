// Package s3token opens the tables of a REST catalog that hands out data
// tokens (data-token.enabled) on S3 and S3-compatible stores, with the
// token's credentials: importing it registers an opener with
// rest.RegisterDataFS for s3://, s3a:// and oss:// table paths (Java
// RESTTokenFileIO with paimon-s3's and paimon-oss's FileIO).
//
//	import _ "github.com/paimon-go/paimon-go/catalog/rest/s3token"
//
// The token's keys are read under the names Java's and pypaimon's file
// systems accept: for S3 fs.s3.accessKeyId / fs.s3a.access.key /
// s3.access-key (and the secret, session token, endpoint, region and
// path-style variants alike), for OSS fs.oss.accessKeyId,
// fs.oss.accessKeySecret, fs.oss.securityToken, fs.oss.endpoint and
// fs.oss.region (OSS through its S3-compatible API, virtual-hosted
// addressing). A token without an access key falls back to the default
// AWS configuration.
package s3token

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/paimon-go/paimon-go/catalog/rest"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/blobfs/s3fs"
)

func init() {
	for _, scheme := range []string{"s3", "s3a", "s3n", "oss"} {
		rest.RegisterDataFS(scheme, Open)
	}
}

// first returns the first non-empty value among keys.
func first(props map[string]string, keys ...string) string {
	for _, k := range keys {
		if v := strings.TrimSpace(props[k]); v != "" {
			return v
		}
	}
	return ""
}

// s3Keys lists the names of one S3 setting: pypaimon's fs.s3.<camel>,
// then Hadoop's fs.s3a.<dotted> and Paimon's s3.<dashed>.
func s3Keys(camel, dotted, dashed string) []string {
	return []string{"fs.s3." + camel, "fs.s3a." + dotted, "fs.s3a." + dashed, "s3." + dashed, "s3." + dotted}
}

// Open is the rest.DataFSOpener: it opens the bucket of path with the
// token's credentials and returns the path's key prefix in it.
func Open(ctx context.Context, path string, props map[string]string) (fs.FS, string, error) {
	u, err := url.Parse(path)
	if err != nil || u.Host == "" {
		return nil, "", fmt.Errorf("s3token: table path %q is not scheme://bucket/path", path)
	}
	var o s3fs.Options
	if strings.EqualFold(u.Scheme, "oss") {
		o.AccessKey = first(props, "fs.oss.accessKeyId")
		o.SecretKey = first(props, "fs.oss.accessKeySecret")
		o.SessionToken = first(props, "fs.oss.securityToken")
		o.Endpoint = first(props, "fs.oss.endpoint")
		o.Region = first(props, "fs.oss.region")
	} else {
		o.AccessKey = first(props, s3Keys("accessKeyId", "access.key", "access-key")...)
		o.SecretKey = first(props, s3Keys("accessKeySecret", "secret.key", "secret-key")...)
		o.SessionToken = first(props, append(s3Keys("securityToken", "session.token", "session-token"),
			"fs.s3a.security.token", "s3.security-token")...)
		o.Endpoint = first(props, s3Keys("endpoint", "endpoint", "endpoint")...)
		o.Region = first(props, append(s3Keys("region", "endpoint.region", "region"), "fs.s3a.region")...)
		ps := first(props, "s3.path-style-access", "s3.path.style.access", "fs.s3a.path.style.access")
		o.UsePathStyle = strings.EqualFold(ps, "true")
	}
	if o.Endpoint != "" && !strings.Contains(o.Endpoint, "://") {
		o.Endpoint = "https://" + o.Endpoint
	}
	if o.AccessKey != "" && o.SecretKey == "" {
		return nil, "", fmt.Errorf("s3token: the data token of %s has an access key but no secret", path)
	}
	f, err := s3fs.Open(ctx, u.Host, "", &o)
	if err != nil {
		return nil, "", fmt.Errorf("s3token: %w", err)
	}
	name := strings.Trim(u.Path, "/")
	if name == "" {
		name = "."
	}
	return f, name, nil
}
