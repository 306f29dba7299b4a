package testservers

import (
	"bytes"
	"context"
	"encoding/base64"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Azurite's well-known development account; every Azurite accepts it.
const (
	azuriteAccount = "devstoreaccount1"
	azuriteKey     = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
	azureAPI       = "2021-08-06"
)

// AzureServer is an Azurite blob service, addressed path-style
// (Endpoint/Account/Container/blob) and authenticated with SharedKey.
type AzureServer struct {
	*Process
	// Endpoint is the blob service's base URL, "http://127.0.0.1:<port>"
	// (the account's URL is Endpoint + "/" + Account).
	Endpoint string
	// Account and Key are Azurite's well-known development credentials.
	Account, Key string
	// Container is created empty when the server starts.
	Container string
	// Dir is Azurite's workspace (--location).
	Dir string
}

// Azure starts an Azurite blob service for the test, creates its container
// and sets the AZURE_STORAGE_* variables of [AzureServer.Env] in the test's
// environment (t.Setenv: the test must not be parallel). It is stopped at
// t.Cleanup. A missing binary (or node) skips the test (fails it when
// [Required]).
//
// gocloud's azureblob reads the account and key once per process, on the
// first azblob:// URL it opens; they are the same for every Azurite, and
// [AzureServer.URL] carries the address, so later servers work too.
func Azure(t testing.TB) *AzureServer {
	t.Helper()
	bin := azuriteBlobBin.require(t)
	dir := t.TempDir()
	s := &AzureServer{Account: azuriteAccount, Key: azuriteKey, Container: testBucket, Dir: dir}
	s.Process = startProcess(t, "azurite-blob", bin, func(port int) []string {
		return []string{
			"--blobHost", "127.0.0.1",
			"--blobPort", strconv.Itoa(port),
			"--location", dir,
			"--skipApiVersionCheck",
			"--loose",
			"--disableTelemetry",
			"--silent",
		}
	})
	s.Endpoint = "http://127.0.0.1:" + strconv.Itoa(s.Port())
	ready(t, "azurite", s.Process, s.Env(), func() error {
		resp, err := s.Do(context.Background(), http.MethodPut, "?restype=container", nil, nil)
		if err != nil {
			return err
		}
		return expectStatus(resp, "create container "+s.Container, http.StatusCreated)
	})
	return s
}

// URL is the gocloud azureblob URL of prefix inside the container. The
// query names the emulator (gocloud.dev v0.46.0 azureblob
// ServiceURLOptions: domain, protocol, localemu, storage_account); the key
// comes from AZURE_STORAGE_KEY.
func (s *AzureServer) URL(prefix string) string {
	q := url.Values{}
	q.Set("domain", strings.TrimPrefix(s.Endpoint, "http://"))
	q.Set("protocol", "http")
	q.Set("localemu", "true")
	q.Set("storage_account", s.Account)
	return (&url.URL{Scheme: "azblob", Host: s.Container, Path: slashPrefix(prefix), RawQuery: q.Encode()}).String()
}

// Env returns the variables a child process needs to reach the server, as
// "KEY=value": the account and key, the emulator's address, and the same as
// a connection string. Azure also sets them in the test's own environment.
func (s *AzureServer) Env() []string {
	return []string{
		"AZURE_STORAGE_ACCOUNT=" + s.Account,
		"AZURE_STORAGE_KEY=" + s.Key,
		"AZURE_STORAGE_DOMAIN=" + strings.TrimPrefix(s.Endpoint, "http://"),
		"AZURE_STORAGE_PROTOCOL=http",
		"AZURE_STORAGE_IS_LOCAL_EMULATOR=true",
		"AZURE_STORAGE_CONNECTION_STRING=DefaultEndpointsProtocol=http;AccountName=" + s.Account +
			";AccountKey=" + s.Key + ";BlobEndpoint=" + s.Endpoint + "/" + s.Account + ";",
	}
}

// Do sends a SharedKey-signed request to the container: pathQuery is a
// blob name, optionally followed by a query ("?restype=container"
// addresses the container itself), with optional extra headers. The caller
// closes the response body.
func (s *AzureServer) Do(ctx context.Context, method, pathQuery string, body []byte, header http.Header) (*http.Response, error) {
	blob, query, _ := strings.Cut(pathQuery, "?")
	u := s.Endpoint + "/" + s.Account + "/" + s.Container
	if blob != "" {
		u += "/" + escapeKey(blob)
	}
	if query != "" {
		u += "?" + query
	}
	req, err := http.NewRequestWithContext(ctx, method, u, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	for k, v := range header {
		req.Header[k] = v
	}
	req.ContentLength = int64(len(body))
	req.Header.Set("x-ms-date", time.Now().UTC().Format(http.TimeFormat))
	req.Header.Set("x-ms-version", azureAPI)
	key, err := base64.StdEncoding.DecodeString(s.Key)
	if err != nil {
		return nil, err
	}
	signSharedKey(req, s.Account, key)
	return httpClient.Do(req)
}
