package rest_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/catalog"
	"github.com/paimon-go/paimon-go/catalog/rest"
)

// headerServer answers /v1/config and records the headers of each request.
func headerServer(t *testing.T) (*httptest.Server, func() []http.Header) {
	t.Helper()
	var mu sync.Mutex
	var seen []http.Header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Clone())
		mu.Unlock()
		writeJSON(w, 200, map[string]any{"defaults": map[string]string{}, "overrides": map[string]string{}})
	}))
	t.Cleanup(srv.Close)
	return srv, func() []http.Header {
		mu.Lock()
		defer mu.Unlock()
		return append([]http.Header(nil), seen...)
	}
}

// TestDLFKeysFromEnvironment: token.provider=dlf without keys in the
// options signs with Alibaba Cloud's standard variables; keys in the
// options win over them.
func TestDLFKeysFromEnvironment(t *testing.T) {
	t.Setenv("ALIBABA_CLOUD_ACCESS_KEY_ID", "LTAIfromenv")
	t.Setenv("ALIBABA_CLOUD_ACCESS_KEY_SECRET", "env-secret-value")
	t.Setenv("ALIBABA_CLOUD_SECURITY_TOKEN", "env-sts-value")
	srv, seen := headerServer(t)
	ctx := context.Background()
	c, err := catalog.Open(ctx, srv.URL, &catalog.Options{Properties: map[string]string{
		"warehouse": "wh", "token.provider": "dlf", "dlf.region": "cn-shanghai",
	}})
	require.NoError(t, err)
	require.NoError(t, c.Close())
	h := seen()[0]
	require.True(t, strings.HasPrefix(h.Get("Authorization"), "DLF4-HMAC-SHA256 Credential=LTAIfromenv/"), h.Get("Authorization"))
	require.Contains(t, h.Get("Authorization"), "/cn-shanghai/DlfNext/aliyun_v4_request,Signature=")
	require.Equal(t, "env-sts-value", h.Get("X-Dlf-Security-Token"))

	c, err = catalog.Open(ctx, srv.URL, &catalog.Options{Properties: map[string]string{
		"warehouse": "wh", "token.provider": "dlf", "dlf.region": "cn-shanghai",
		"dlf.access-key-id": "LTAIfromopts", "dlf.access-key-secret": "opts-secret",
	}})
	require.NoError(t, err)
	require.NoError(t, c.Close())
	h = seen()[1]
	require.True(t, strings.HasPrefix(h.Get("Authorization"), "DLF4-HMAC-SHA256 Credential=LTAIfromopts/"), h.Get("Authorization"))
	require.Empty(t, h.Get("X-Dlf-Security-Token"))

	// Neither: one clear error naming what is missing.
	t.Setenv("ALIBABA_CLOUD_ACCESS_KEY_ID", "")
	_, err = rest.New(ctx, map[string]string{"uri": srv.URL, "token.provider": "dlf", "dlf.region": "cn-shanghai"}, nil)
	require.ErrorIs(t, err, rest.ErrInvalidOption)
	require.Len(t, seen(), 2, "nothing sent without keys")
}

// TestOpenOptions: metastore=rest with uri opens the catalog as an
// http(s):// URI does; header.* options are sent with every request.
func TestOpenOptions(t *testing.T) {
	srv, seen := headerServer(t)
	ctx := context.Background()
	c, err := catalog.Open(ctx, "", &catalog.Options{Properties: map[string]string{
		"metastore": "rest", "uri": srv.URL, "warehouse": "wh", "token.provider": "bear", "token": "tkn-1234",
		"header.X-Tenant": "blue",
	}})
	require.NoError(t, err)
	require.NoError(t, c.Close())
	h := seen()[0]
	require.Equal(t, "Bearer tkn-1234", h.Get("Authorization"))
	require.Equal(t, "blue", h.Get("X-Tenant"))
}
