package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// maxResponseBytes bounds what the client reads of one response: a table
// schema or a page of names is kilobytes, so a larger body is a broken or
// hostile server, refused before it can exhaust memory.
const maxResponseBytes = 64 << 20

// client sends the REST API's requests: it signs them through the
// AuthProvider, retries what Java's HttpClient retries and turns error
// answers into errors wrapping this package's and the catalog's sentinels
// (Java HttpClient, ExponentialHttpRequestRetryStrategy and
// DefaultErrorHandler).
type client struct {
	base       string // "http://host:port", no trailing slash
	host       string // what DLF signs as the host
	http       *http.Client
	auth       AuthProvider
	headers    map[string]string // header.* options
	maxRetries int
	retryBase  time.Duration
	timeout    time.Duration
	secretsOf  func() []string // the provider's secrets, scrubbed from messages
}

// request is one call: method, the encoded resource path (as ResourcePaths
// builds it), query parameters and an optional JSON body.
type request struct {
	method string
	path   string
	query  map[string]string
	body   any
	// idempotent requests are retried after transport errors; POSTs are
	// not (Java Method.isIdempotent), but every method is retried on 429
	// and 503, which say the server did not act.
	idempotent bool
	// once: the request is sent once, whatever the answer. A commit is:
	// a proxy may answer 503 for a commit the server did publish, and a
	// resent commit would then be refused as a lost race, and the
	// committer would remove files the published snapshot refers to. Its
	// caller resolves an unclear answer by re-reading the latest snapshot
	// instead (Java's HttpClient resends it).
	once bool
}

// normalizeURI mirrors Java HttpClient.normalizeUri: no trailing slash,
// http:// when no scheme is given.
func normalizeURI(raw string) (string, error) {
	if strings.TrimSpace(raw) == "" {
		return "", fmt.Errorf("%w: option %s is empty", ErrInvalidOption, OptionURI)
	}
	u := strings.TrimSuffix(raw, "/")
	if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
		u = "http://" + u
	}
	p, err := url.Parse(u)
	if err != nil || p.Host == "" {
		return "", fmt.Errorf("%w: option %s is not an http(s) URI", ErrInvalidOption, OptionURI)
	}
	return u, nil
}

// hostOf mirrors Java DLFAuthProvider.extractHost: the URI without its
// scheme and path.
func hostOf(uri string) string {
	s := strings.TrimPrefix(strings.TrimPrefix(uri, "http://"), "https://")
	if i := strings.IndexByte(s, '/'); i >= 0 {
		s = s[:i]
	}
	return s
}

// do sends req and decodes a successful answer into out (when not nil).
func (c *client) do(ctx context.Context, req request, out any) error {
	var body []byte
	if req.body != nil {
		var err error
		if body, err = json.Marshal(req.body); err != nil {
			return wrapf(err, "encode %s %s", req.method, req.path)
		}
	}
	target := c.base + req.path
	if len(req.query) > 0 {
		var q []string
		for _, k := range slices.Sorted(maps.Keys(req.query)) {
			q = append(q, encodeString(k)+"="+encodeString(req.query[k]))
		}
		target += "?" + strings.Join(q, "&")
	}
	for attempt := 0; ; attempt++ {
		resp, err := c.send(ctx, req, target, body)
		if errors.Is(err, ErrAuth) {
			return fmt.Errorf("rest catalog: %s %s: %w", req.method, req.path, c.redactSecrets(err))
		}
		if err != nil {
			if ctx.Err() != nil || !req.idempotent || req.once || !retriableTransport(err) || attempt >= c.maxRetries {
				return fmt.Errorf("rest catalog: %s %s: %w: %w", req.method, req.path, ErrTransport, c.redactSecrets(redact(err)))
			}
			if err := c.sleep(ctx, attempt, ""); err != nil {
				return wrapf(err, "%s %s", req.method, req.path)
			}
			continue
		}
		data, rerr := readBody(resp)
		if (resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable) &&
			!req.once && attempt < c.maxRetries {
			if err := c.sleep(ctx, attempt, resp.Header.Get("Retry-After")); err != nil {
				return wrapf(err, "%s %s", req.method, req.path)
			}
			continue
		}
		if rerr != nil {
			return fmt.Errorf("rest catalog: %s %s: %w: %w", req.method, req.path, ErrTransport, redact(rerr))
		}
		if !successful(resp.StatusCode) {
			return c.errorOf(req, resp, data)
		}
		if out == nil {
			return nil
		}
		if len(bytes.TrimSpace(data)) == 0 {
			return fmt.Errorf("rest catalog: %s %s: %w: empty response body", req.method, req.path, ErrProtocol)
		}
		if err := json.Unmarshal(data, out); err != nil {
			return fmt.Errorf("rest catalog: %s %s: %w: %v", req.method, req.path, ErrProtocol, err)
		}
		return nil
	}
}

// send signs and sends one attempt. The timeout covers the answer's body
// too: it ends when the body is closed.
func (c *client) send(ctx context.Context, req request, target string, body []byte) (*http.Response, error) {
	cancel := context.CancelFunc(func() {})
	if c.timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
	}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	hr, err := c.newHTTPRequest(ctx, req, target, rd, body)
	if err != nil {
		cancel()
		return nil, err
	}
	resp, err := c.http.Do(hr)
	if err != nil {
		cancel()
		return nil, err
	}
	resp.Body = &cancelOnClose{ReadCloser: resp.Body, cancel: cancel}
	return resp, nil
}

func (c *client) newHTTPRequest(ctx context.Context, req request, target string, rd io.Reader, body []byte) (*http.Request, error) {
	hr, err := http.NewRequestWithContext(ctx, req.method, target, rd)
	if err != nil {
		return nil, err
	}
	encoded := make(map[string]string, len(req.query))
	for k, v := range req.query {
		encoded[k] = encodeString(v)
	}
	headers, err := c.auth.Headers(ctx, AuthRequest{
		Method: req.method, Path: req.path, Query: encoded, Body: string(body), Host: c.host,
	}, c.headers)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrAuth, err)
	}
	for k, v := range headers {
		hr.Header.Set(k, v)
	}
	if body != nil && hr.Header.Get("Content-Type") == "" {
		hr.Header.Set("Content-Type", "application/json")
	}
	return hr, nil
}

type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (c *cancelOnClose) Close() error {
	err := c.ReadCloser.Close()
	c.cancel()
	return err
}

func readBody(resp *http.Response) ([]byte, error) {
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxResponseBytes {
		return nil, fmt.Errorf("response body larger than %d bytes", maxResponseBytes)
	}
	return data, nil
}

// successful mirrors Java RESTUtil.isSuccessful.
func successful(code int) bool {
	return code == http.StatusOK || code == http.StatusAccepted || code == http.StatusNoContent
}

// retriableTransport mirrors the exceptions Java's retry strategy gives up
// on at once: refused connections, unknown hosts and timeouts.
func retriableTransport(err error) bool {
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Op == "dial" {
		return false
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return false
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return false
	}
	return !errors.Is(err, context.DeadlineExceeded)
}

// sleep waits before retry attempt+1: the server's Retry-After when it
// gives one, else base·2^attempt (capped at 64·base) plus up to 10% jitter
// (Java ExponentialHttpRequestRetryStrategy.getRetryInterval).
func (c *client) sleep(ctx context.Context, attempt int, retryAfter string) error {
	d := time.Duration(0)
	if retryAfter != "" {
		if s, err := strconv.ParseInt(retryAfter, 10, 64); err == nil && s > 0 {
			d = time.Duration(min(s, 600)) * time.Second
		} else if t, err := http.ParseTime(retryAfter); err == nil {
			d = min(time.Until(t), 10*time.Minute)
		}
	}
	if d <= 0 {
		d = c.retryBase << min(attempt, 6)
		d += time.Duration(rand.Int64N(int64(d)/10 + 1))
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// errorResponse is Java's ErrorResponse.
type errorResponse struct {
	Message      string  `json:"message"`
	ResourceType *string `json:"resourceType"`
	ResourceName *string `json:"resourceName"`
	Code         *int    `json:"code"`
}

// errorOf builds the error of a failed answer (Java HttpClient.exec with
// DefaultErrorHandler): the server's message, its request id when it sent
// one, and sentinels by status code.
func (c *client) errorOf(req request, resp *http.Response, data []byte) error {
	// As Java 2.0.0's HttpClient: a parsed message is shown unless it
	// looks like it holds a secret; an unparseable body is never echoed
	// (it may hold credentials).
	var er errorResponse
	code := resp.StatusCode
	var msg string
	switch err := json.Unmarshal(data, &er); {
	case err != nil:
		msg = fmt.Sprintf("unparseable error response body (HTTP %d)", code)
	case er.Message == "":
		msg = strings.ToLower(http.StatusText(code))
	default:
		msg = redactText(c.scrub(clip(er.Message, 512)))
	}
	if er.Code != nil && *er.Code != 0 {
		code = *er.Code
	}
	if id := requestID(resp.Header); id != "" {
		msg += " (request id " + clip(id, 128) + ")"
	}
	e := &Error{Method: req.method, Path: req.path, Code: code, Message: msg}
	if er.ResourceType != nil {
		e.ResourceType = *er.ResourceType
	}
	if er.ResourceName != nil {
		e.ResourceName = *er.ResourceName
	}
	return e
}

// requestID mirrors Java HttpClient.extractRequestId.
func requestID(h http.Header) string {
	if v := h.Get("x-request-id"); v != "" {
		return v
	}
	for k, v := range h {
		if strings.Contains(strings.ToLower(k), "request-id") && len(v) > 0 {
			return v[0]
		}
	}
	return ""
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// redact drops the URL from net/http's errors: it may carry the warehouse
// and the message must stay short; the caller names method and path.
func redact(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// encodeString mirrors Java RESTUtil.encodeString (URLEncoder.encode with
// UTF-8): letters, digits and ".-*_" stay, a space becomes '+', every
// other byte is %XX with upper-case hex.
func encodeString(s string) string {
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		b := s[i]
		switch {
		case b >= 'a' && b <= 'z', b >= 'A' && b <= 'Z', b >= '0' && b <= '9',
			b == '.', b == '-', b == '*', b == '_':
			sb.WriteByte(b)
		case b == ' ':
			sb.WriteByte('+')
		default:
			const hex = "0123456789ABCDEF"
			sb.WriteByte('%')
			sb.WriteByte(hex[b>>4])
			sb.WriteByte(hex[b&15])
		}
	}
	return sb.String()
}

// decodeString mirrors Java RESTUtil.decodeString (URLDecoder.decode).
func decodeString(s string) (string, error) {
	return url.QueryUnescape(s)
}

// scrub replaces every secret the provider holds by "***": a server or a
// transport error that echoes a request must not leak credentials.
func (c *client) scrub(msg string) string {
	if c.secretsOf == nil {
		return msg
	}
	for _, s := range c.secretsOf() {
		if len(s) >= 4 {
			msg = strings.ReplaceAll(msg, s, "***")
		}
	}
	return msg
}

// redactSecrets is scrub for errors.
func (c *client) redactSecrets(err error) error {
	msg := err.Error()
	if s := c.scrub(msg); s != msg {
		return &redacted{msg: s, err: err}
	}
	return err
}

// redacted shows a scrubbed message and still matches the sentinels of
// the error it replaces.
type redacted struct {
	msg string
	err error
}

func (r *redacted) Error() string { return r.msg }
func (r *redacted) Unwrap() error { return r.err }

// sensitiveMarkers are Java 2.0.0 SensitiveConfigUtils' text markers: a
// server message mentioning one is shown as "******".
var sensitiveMarkers = []string{"password", "secret", "token", "credential", "accesskey", "accountkey",
	"encryptionkey", "authorization", "privatekey", "apikey", "signature", "sas"}

// redactText mirrors Java SensitiveConfigUtils.redactText.
func redactText(s string) string {
	lower := strings.ToLower(s)
	for _, m := range []string{"sig=", `"sig"`, "'sig'"} {
		if strings.Contains(lower, m) {
			return "******"
		}
	}
	var norm strings.Builder
	for _, r := range lower {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			norm.WriteRune(r)
		}
	}
	for _, m := range sensitiveMarkers {
		if strings.Contains(norm.String(), m) {
			return "******"
		}
	}
	return s
}
