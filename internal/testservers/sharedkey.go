package testservers

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
)

// signSharedKey signs an Azure Storage request with the account key
// ("Authorization: SharedKey account:signature"), the scheme Azurite checks
// for the well-known development account. The request must already carry
// x-ms-date and x-ms-version.
func signSharedKey(req *http.Request, account string, key []byte) {
	length := ""
	if req.ContentLength > 0 {
		length = strconv.FormatInt(req.ContentLength, 10)
	}
	h := req.Header
	var b strings.Builder
	for _, s := range []string{
		req.Method,
		h.Get("Content-Encoding"),
		h.Get("Content-Language"),
		length,
		h.Get("Content-MD5"),
		h.Get("Content-Type"),
		"", // Date: x-ms-date is used instead
		h.Get("If-Modified-Since"),
		h.Get("If-Match"),
		h.Get("If-None-Match"),
		h.Get("If-Unmodified-Since"),
		h.Get("Range"),
	} {
		b.WriteString(s + "\n")
	}

	// Canonicalized headers: every x-ms-* header, lower-case, sorted.
	var names []string
	for k := range h {
		if lk := strings.ToLower(k); strings.HasPrefix(lk, "x-ms-") {
			names = append(names, lk)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		b.WriteString(n + ":" + strings.TrimSpace(h.Get(n)) + "\n")
	}

	// Canonicalized resource: /account/path, then each query parameter as
	// "\nname:v1,v2" with names lower-cased and sorted.
	b.WriteString("/" + account + req.URL.EscapedPath())
	q := req.URL.Query()
	params := make([]string, 0, len(q))
	lower := url.Values{}
	for k, v := range q {
		lk := strings.ToLower(k)
		lower[lk] = append(lower[lk], v...)
	}
	for k := range lower {
		params = append(params, k)
	}
	sort.Strings(params)
	for _, k := range params {
		vals := append([]string(nil), lower[k]...)
		sort.Strings(vals)
		b.WriteString("\n" + k + ":" + strings.Join(vals, ","))
	}

	m := hmac.New(sha256.New, key)
	m.Write([]byte(b.String()))
	req.Header.Set("Authorization", "SharedKey "+account+":"+base64.StdEncoding.EncodeToString(m.Sum(nil)))
}
