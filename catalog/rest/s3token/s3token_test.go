package s3token_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/catalog/rest/s3token"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/internal/testservers"
)

// TestOpenWithTokenCredentials opens a bucket of a local S3 server
// (versitygw) with the credentials of a data token, under the key names
// the REST servers use, while the environment holds wrong ones: only the
// token's can work.
func TestOpenWithTokenCredentials(t *testing.T) {
	srv := testservers.S3(t)
	t.Setenv("AWS_ACCESS_KEY_ID", "not-the-key")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "not-the-secret")
	ctx := context.Background()
	for _, props := range []map[string]string{
		{"fs.s3.accessKeyId": srv.AccessKey, "fs.s3.accessKeySecret": srv.SecretKey,
			"fs.s3.endpoint": srv.Endpoint, "fs.s3.region": srv.Region, "s3.path-style-access": "true"},
		{"fs.s3a.access.key": srv.AccessKey, "fs.s3a.secret.key": srv.SecretKey,
			"fs.s3a.endpoint": srv.Endpoint, "fs.s3a.endpoint.region": srv.Region, "fs.s3a.path.style.access": "true"},
	} {
		f, name, err := s3token.Open(ctx, "s3://"+srv.Bucket+"/wh/db.db/t", props)
		require.NoError(t, err)
		require.Equal(t, "wh/db.db/t", name)
		p := fs.Join(name, "schema/probe")
		require.NoError(t, fs.WriteFile(ctx, f, p, []byte("x"), nil))
		got, err := fs.ReadFile(ctx, f, p)
		require.NoError(t, err)
		require.Equal(t, "x", string(got))
		require.NoError(t, f.Close())
	}

	// Wrong token credentials are refused by the server.
	f, name, err := s3token.Open(ctx, "s3://"+srv.Bucket+"/wh", map[string]string{
		"fs.s3.accessKeyId": "bad", "fs.s3.accessKeySecret": "bad", "fs.s3.endpoint": srv.Endpoint,
		"fs.s3.region": srv.Region, "s3.path-style-access": "true",
	})
	require.NoError(t, err)
	defer f.Close()
	require.Error(t, fs.WriteFile(ctx, f, fs.Join(name, "x"), []byte("x"), nil))

	_, _, err = s3token.Open(ctx, "s3://"+srv.Bucket+"/wh", map[string]string{"fs.s3.accessKeyId": "k"})
	require.ErrorContains(t, err, "no secret")
}
