package rest_test

import (
	"context"
	"errors"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/catalog"
	"github.com/paimon-go/paimon-go/catalog/rest"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/paimon"
)

var tid = paimon.Identifier{Database: "db", Table: "t"}

func TestFakeConfigHeadersAndPrefix(t *testing.T) {
	f := newFakeServer(t)
	f.config["header.X-Test"] = "v1"
	var got http.Header
	f.setHook(func(w http.ResponseWriter, r *http.Request, _ []byte) bool {
		if strings.HasSuffix(r.URL.Path, "/databases") {
			got = r.Header.Clone()
		}
		return false
	})
	c := f.open(t, nil)
	var dbs []string
	for d, err := range c.ListDatabases(context.Background()) {
		require.NoError(t, err)
		dbs = append(dbs, d)
	}
	require.Equal(t, []string{"db"}, dbs)
	require.Equal(t, "v1", got.Get("X-Test"), "header.* from the server's config is sent")
	require.Equal(t, "Bearer "+fakeToken, got.Get("Authorization"))
	require.Equal(t, "pfx", c.Options()["prefix"])
	require.Contains(t, f.requests[0], "/v1/config?warehouse=wh")
}

func TestFakeErrors(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		status int
		body   string
		want   []error
	}{
		{"400", 400, `{"message":"bad","code":400}`, []error{rest.ErrBadRequest}},
		{"401", 401, ``, []error{rest.ErrNotAuthorized}},
		{"403", 403, `{"message":"no","resourceType":"TABLE","code":403}`, []error{catalog.ErrForbidden}},
		{"404 table", 404, `{"message":"gone","resourceType":"TABLE","code":404}`, []error{catalog.ErrTableNotFound, paimon.ErrTableNotFound, rest.ErrNotFound}},
		{"409", 409, `{"message":"dup","code":409}`, []error{rest.ErrAlreadyExists}},
		{"500", 500, `{"message":"boom","code":500}`, []error{rest.ErrServer}},
		{"500 text", 500, `java.lang.NullPointerException`, []error{rest.ErrServer}},
		{"501", 501, `{"message":"","code":501}`, []error{rest.ErrNotImplemented, paimon.ErrUnsupported}},
		{"502 html", 502, `<html>bad gateway</html>`, []error{rest.ErrServer}},
		{"200 malformed", 200, `{"id": "x", "path": `, []error{rest.ErrProtocol}},
		{"200 empty", 200, ``, []error{rest.ErrProtocol}},
		{"200 wrong type", 200, `{"path": 42}`, []error{rest.ErrProtocol}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeServer(t)
			c := f.open(t, &rest.Options{MaxRetries: 1, RetryBase: time.Millisecond})
			f.setHook(func(w http.ResponseWriter, r *http.Request, _ []byte) bool {
				w.Header().Set("X-Request-Id", "req-77")
				w.WriteHeader(tc.status)
				_, _ = w.Write([]byte(tc.body))
				return true
			})
			_, err := c.LoadTable(ctx, tid)
			require.Error(t, err)
			for _, want := range tc.want {
				require.ErrorIs(t, err, want)
			}
			require.Contains(t, err.Error(), "db.t")
			require.NotContains(t, err.Error(), fakeToken)
			if tc.status >= 400 {
				require.Contains(t, err.Error(), "req-77", "the request id is reported")
			}
			require.Equal(t, 1, strings.Count(err.Error(), "rest catalog:"), "one prefix: %v", err)
			require.Equal(t, 1, strings.Count(err.Error(), "GET /v1/pfx/databases/db/tables/t"), "the request named once: %v", err)
		})
	}
}

func TestFakeTokenNeverInErrors(t *testing.T) {
	f := newFakeServer(t)
	c := f.open(t, &rest.Options{MaxRetries: 1, RetryBase: time.Millisecond})
	// A server that echoes the request's headers in its message.
	f.setHook(func(w http.ResponseWriter, r *http.Request, _ []byte) bool {
		writeJSON(w, 500, map[string]any{"message": "headers were " + r.Header.Get("Authorization"), "code": 500})
		return true
	})
	_, err := c.LoadTable(context.Background(), tid)
	require.ErrorIs(t, err, rest.ErrServer)
	require.NotContains(t, err.Error(), fakeToken)
	require.Contains(t, err.Error(), "***")

	// A wrong token: refused, and not shown either.
	_, err = rest.New(context.Background(), map[string]string{
		"uri": f.srv.URL, "token.provider": "bear", "token": "the-wrong-token-value",
	}, nil)
	require.ErrorIs(t, err, rest.ErrNotAuthorized)
	require.NotContains(t, err.Error(), "the-wrong-token-value")
}

func TestFakeRetries(t *testing.T) {
	f := newFakeServer(t)
	c := f.open(t, &rest.Options{MaxRetries: 3, RetryBase: time.Millisecond})
	var n atomic.Int32
	f.setHook(func(w http.ResponseWriter, r *http.Request, _ []byte) bool {
		if r.URL.Path == "/v1/pfx/databases" && n.Add(1) <= 2 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return true
		}
		return false
	})
	for _, err := range c.ListDatabases(context.Background()) {
		require.NoError(t, err)
	}
	require.Equal(t, int32(3), n.Load(), "two 503s retried")

	// Retries run out: one clear error.
	n.Store(-100)
	for _, err := range c.ListDatabases(context.Background()) {
		require.ErrorIs(t, err, rest.ErrServer)
	}
}

func TestFakeTimeout(t *testing.T) {
	f := newFakeServer(t)
	c := f.open(t, &rest.Options{Timeout: 200 * time.Millisecond, MaxRetries: 1, RetryBase: time.Millisecond})
	release := make(chan struct{})
	defer close(release)
	f.setHook(func(w http.ResponseWriter, r *http.Request, _ []byte) bool {
		select {
		case <-release:
		case <-r.Context().Done():
		}
		return true
	})
	start := time.Now()
	_, err := c.LoadTable(context.Background(), tid)
	require.ErrorIs(t, err, rest.ErrTransport)
	require.Less(t, time.Since(start), 10*time.Second)
}

func TestFakeHugeAnswerRefused(t *testing.T) {
	f := newFakeServer(t)
	c := f.open(t, nil)
	f.setHook(func(w http.ResponseWriter, r *http.Request, _ []byte) bool {
		w.WriteHeader(200)
		chunk := []byte(strings.Repeat(" ", 1<<20))
		for range 70 {
			if _, err := w.Write(chunk); err != nil {
				return true
			}
		}
		return true
	})
	_, err := c.LoadTable(context.Background(), tid)
	require.ErrorIs(t, err, rest.ErrTransport)
	require.Contains(t, err.Error(), "larger than")
}

func TestFakePagingLoopRefused(t *testing.T) {
	f := newFakeServer(t)
	c := f.open(t, nil)
	f.setHook(func(w http.ResponseWriter, r *http.Request, _ []byte) bool {
		if r.URL.Path == "/v1/pfx/databases" {
			writeJSON(w, 200, map[string]any{"databases": []string{"a"}, "nextPageToken": "same"})
			return true
		}
		return false
	})
	var errs []error
	n := 0
	for _, err := range c.ListDatabases(context.Background()) {
		if err != nil {
			errs = append(errs, err)
		} else {
			n++
		}
	}
	require.Len(t, errs, 1)
	require.ErrorIs(t, errs[0], rest.ErrProtocol)
	require.Equal(t, 2, n)
}

// TestFakeCommitUnknownOutcome answers a commit with each fault that
// leaves its outcome unknown (a dropped connection, a timeout, a 5xx, a
// 503 the HTTP layer would retry, a malformed answer), once after the
// server published it and once before: a published commit is found by
// re-reading and not sent again, an unpublished one is retried, and
// either way the snapshot is published exactly once and its files stay.
func TestFakeCommitUnknownOutcome(t *testing.T) {
	faults := map[string]func(t *testing.T, w http.ResponseWriter, r *http.Request){
		"dropped connection": func(t *testing.T, w http.ResponseWriter, _ *http.Request) { dropConnection(t, w) },
		"timeout":            func(_ *testing.T, _ http.ResponseWriter, r *http.Request) { <-r.Context().Done() },
		"500": func(_ *testing.T, w http.ResponseWriter, _ *http.Request) {
			writeJSON(w, 500, map[string]any{"message": "boom", "code": 500})
		},
		"503": func(_ *testing.T, w http.ResponseWriter, _ *http.Request) {
			writeJSON(w, 503, map[string]any{"message": "unavailable", "code": 503})
		},
		"429": func(_ *testing.T, w http.ResponseWriter, _ *http.Request) {
			writeJSON(w, 429, map[string]any{"message": "slow down", "code": 429})
		},
		"malformed": func(_ *testing.T, w http.ResponseWriter, _ *http.Request) {
			w.WriteHeader(200)
			_, _ = w.Write([]byte(`{"success": tr`))
		},
		"no success member": func(_ *testing.T, w http.ResponseWriter, _ *http.Request) { writeJSON(w, 200, map[string]any{}) },
	}
	for _, name := range slices.Sorted(maps.Keys(faults)) {
		for _, after := range []bool{true, false} {
			when := map[bool]string{true: "after publishing", false: "before publishing"}[after]
			t.Run(name+" "+when, func(t *testing.T) {
				f := newFakeServer(t)
				c := f.open(t, &rest.Options{Timeout: 300 * time.Millisecond, RetryBase: time.Millisecond})
				tbl, err := c.LoadTable(context.Background(), tid)
				require.NoError(t, err)
				goWrite(t, tbl, "go", 1, liveRows(0, 5))
				var faulted atomic.Bool
				f.setHook(func(w http.ResponseWriter, r *http.Request, body []byte) bool {
					if !strings.HasSuffix(r.URL.Path, "/commit") || faulted.Swap(true) {
						return false
					}
					if after {
						_, err := f.publish(context.Background(), body)
						require.NoError(t, err)
					}
					faults[name](t, w, r)
					return true
				})
				commitsBefore := f.commits.Load()
				res := goWrite(t, tbl, "go", 2, liveRows(5, 10))
				require.Equal(t, int64(2), res.Snapshot.ID)
				require.Equal(t, []int64{1, 2}, f.snapshots(t), "published exactly once")
				if after {
					require.Equal(t, commitsBefore+1, f.commits.Load(), "found by re-reading, not sent again")
					require.Equal(t, 1, res.Attempts)
				} else {
					require.Equal(t, commitsBefore+1, f.commits.Load(), "published by the attempt after re-reading")
					require.Equal(t, 2, res.Attempts)
				}
				require.Equal(t, canonLines(t, liveRows(0, 10)), goRead(t, tbl))
			})
		}
	}
}

// TestFakeCommitRefused: a 4xx answer to a commit is a certain refusal;
// the commit fails at once and removes its files.
func TestFakeCommitRefused(t *testing.T) {
	f := newFakeServer(t)
	c := f.open(t, nil)
	tbl, err := c.LoadTable(context.Background(), tid)
	require.NoError(t, err)
	f.setHook(func(w http.ResponseWriter, r *http.Request, _ []byte) bool {
		if strings.HasSuffix(r.URL.Path, "/commit") {
			writeJSON(w, 403, map[string]any{"message": "read only", "resourceType": "TABLE", "code": 403})
			return true
		}
		return false
	})
	ctx := context.Background()
	w, msgs := prepareWrite(t, tbl, liveRows(0, 5))
	defer w.Close(ctx)
	cm, err := tbl.NewCommit(nil)
	require.NoError(t, err)
	_, err = cm.Commit(ctx, 1, msgs)
	require.ErrorIs(t, err, catalog.ErrForbidden)
	require.ErrorIs(t, err, paimon.ErrNotPublished)
	require.Empty(t, f.snapshots(t))
	left, err := fs.ReadDir(ctx, f.fsys, f.dir+"/manifest")
	require.NoError(t, err)
	require.Empty(t, left, "manifests of the refused commit removed")
}

func TestFakeDataTokenRefresh(t *testing.T) {
	f := newFakeServer(t)
	f.config["data-token.enabled"] = "true"
	var clock atomic.Int64
	clock.Store(time.Now().UnixMilli())
	now := func() time.Time { return time.UnixMilli(clock.Load()) }
	f.now = now
	var opened []string
	opener := func(ctx context.Context, path string, props map[string]string) (fs.FS, string, error) {
		opened = append(opened, props["key"])
		fsys, err := localfs.New(f.root, nil)
		return fsys, f.dir, err
	}
	c := f.open(t, &rest.Options{DataFS: opener, Now: now})
	tbl, err := c.LoadTable(context.Background(), tid)
	require.NoError(t, err)
	goWrite(t, tbl, "go", 1, liveRows(0, 5))
	require.Equal(t, []string{"k1"}, opened, "one token while it has more than an hour left")
	clock.Add((61 * time.Minute).Milliseconds()) // 59 minutes left
	require.Equal(t, canonLines(t, liveRows(0, 5)), goRead(t, tbl))
	require.Equal(t, []string{"k1", "k2"}, opened, "refreshed an hour before expiry")
}

var _ = errors.Is
