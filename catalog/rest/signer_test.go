package rest

import (
	"flag"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/dlf-signatures.golden from Java's signers (needs PAIMON_INTEROP=1)")

// signerVector is one fixed request signed by Java's and our DLF signers.
type signerVector struct {
	Name, Algo, Region, AK, SK, STS string
	Millis                          int64
	Method, Path, Query, Body       string
	Nonce                           string
}

var signerVectors = []signerVector{
	{"default-get", "default", "cn-hangzhou", "akid", "secret", "", 1735732800123, "GET", "/v1/paimon/databases", "", "", ""},
	{"default-get-query-sts", "default", "cn-hangzhou", "akid", "secret", "sts-token", 1735732800123, "GET",
		"/v1/paimon/databases/db1/tables", "maxResults=10&pageToken=dt%3D20230101", "", ""},
	{"default-post-body", "default", "cn-beijing", "LTAI5t", "s3cr3t/+=", "", 1700000000999, "POST",
		"/v1/paimon/databases/db%241/tables/t%24branch_b/commit", "", `{"tableId":"x","snapshot":{"id":1},"statistics":[]}`, ""},
	{"default-delete-unicode", "default", "ap-southeast-1", "ak", "sk", "st", 946684800000, "DELETE",
		"/v1/paimon/databases/%E6%95%B0%E6%8D%AE", "", "", ""},
	{"openapi-get", "openapi", "cn-hangzhou", "akid", "secret", "", 1735732800123, "GET", "/v1/paimon/databases",
		"maxResults=5", "", "nonce-1"},
	{"openapi-post-sts", "openapi", "cn-hangzhou", "akid", "secret", "sts", 1735732800123, "POST",
		"/v1/paimon/databases/db%241", "", `{"name":"db$1","options":{}}`, "nonce-2"},
}

// JavaArgs are the arguments of "RestCatalogServerMain sign".
func (v signerVector) JavaArgs() []string {
	dash := func(s string) string {
		if s == "" {
			return "-"
		}
		return s
	}
	args := []string{v.Algo, v.Region, v.AK, v.SK, dash(v.STS), fmt.Sprint(v.Millis), v.Method, v.Path, dash(v.Query), dash(v.Body)}
	if v.Nonce != "" {
		args = append(args, v.Nonce)
	}
	return args
}

// GoHeaders signs the vector with this package's signers and renders the
// headers as the Java program prints them.
func (v signerVector) GoHeaders() string {
	query := map[string]string{}
	if v.Query != "" {
		for _, kv := range strings.Split(v.Query, "&") {
			k, val, _ := strings.Cut(kv, "=")
			query[k] = encodeString(val) // as the client holds them (Java RESTAuthParameter)
		}
	}
	req := AuthRequest{Method: v.Method, Path: v.Path, Query: query, Body: v.Body, Host: "dlfnext.cn-hangzhou.aliyuncs.com"}
	tok := &DLFToken{AccessKeyID: v.AK, AccessKeySecret: v.SK, SecurityToken: v.STS}
	now := time.UnixMilli(v.Millis)
	var h map[string]string
	if v.Algo == dlfSignerOpenAPI {
		h = openAPISignHeaders(v.Body, now, v.STS, req.Host, v.Nonce)
		h["Authorization"] = openAPIAuthorization(req, tok, h)
	} else {
		h = dlfSignHeaders(v.Body, now, v.STS)
		h["Authorization"] = dlfAuthorization(req, v.Region, tok, h)
	}
	var sb strings.Builder
	for _, k := range slices.Sorted(maps.Keys(h)) {
		sb.WriteString(k + ": " + h[k] + "\n")
	}
	return sb.String()
}

const signerGolden = "testdata/dlf-signatures.golden"

// TestSignerGolden checks our DLF signers against what Java's signers
// produced for the same requests (testdata/dlf-signatures.golden, written
// by TestSignerGoldenUpdate through the interop harness).
func TestSignerGolden(t *testing.T) {
	data, err := os.ReadFile(signerGolden)
	require.NoError(t, err)
	want := map[string]string{}
	for _, block := range strings.Split(string(data), "### ")[1:] {
		name, body, _ := strings.Cut(block, "\n")
		want[name] = body
	}
	for _, v := range signerVectors {
		t.Run(v.Name, func(t *testing.T) {
			w, ok := want[v.Name]
			require.True(t, ok, "no golden signature for %s: regenerate with -update", v.Name)
			require.Equal(t, w, v.GoHeaders())
		})
	}
}
