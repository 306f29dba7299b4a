package rest_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/catalog/rest"
	"github.com/paimon-go/paimon-go/format/snapshot"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/paimon"
)

// fakeServer is a small REST catalog server for fault tests: one database
// "db" with one table "t" stored in a local directory, commits published
// with create-if-absent like Java's RESTCatalogServer. Hooks inject
// faults.
type fakeServer struct {
	t    *testing.T
	srv  *httptest.Server
	fsys fs.FS
	dir  string // table directory inside fsys
	root string // fsys root on disk

	mu       sync.Mutex
	requests []string
	// hook, when set, may answer a request itself (return true).
	hook    func(w http.ResponseWriter, r *http.Request, body []byte) bool
	commits atomic.Int32
	config  map[string]string
	tokens  atomic.Int32
	now     func() time.Time
}

const fakeToken = "fake-bearer-secret-1234"

func newFakeServer(t *testing.T) *fakeServer {
	t.Helper()
	root := t.TempDir()
	fsys, err := localfs.New(root, nil)
	require.NoError(t, err)
	t.Cleanup(func() { fsys.Close() })
	f := &fakeServer{t: t, fsys: fsys, dir: "db.db/t", root: root, config: map[string]string{"prefix": "pfx"}}
	f.now = time.Now
	_, err = paimon.CreateTable(context.Background(), fsys, f.dir, liveSchema(t))
	require.NoError(t, err)
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeServer) open(t *testing.T, o *rest.Options) *rest.Catalog {
	t.Helper()
	c, err := rest.New(context.Background(), map[string]string{
		"uri": f.srv.URL, "warehouse": "wh", "token.provider": "bear", "token": fakeToken,
	}, o)
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	return c
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

func (f *fakeServer) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	f.requests = append(f.requests, r.Method+" "+r.URL.RequestURI())
	hook := f.hook
	f.mu.Unlock()
	if r.Header.Get("Authorization") != "Bearer "+fakeToken {
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	if hook != nil && hook(w, r, body) {
		return
	}
	ctx := r.Context()
	meta := paimon.NewTableMeta(f.fsys, f.dir)
	switch p := r.URL.Path; {
	case p == "/v1/config":
		writeJSON(w, 200, map[string]any{"defaults": f.config, "overrides": map[string]string{}})
	case p == "/v1/pfx/databases" && r.Method == "GET":
		writeJSON(w, 200, map[string]any{"databases": []string{"db"}})
	case p == "/v1/pfx/databases/db/tables" && r.Method == "GET":
		writeJSON(w, 200, map[string]any{"tables": []string{"t"}})
	case p == "/v1/pfx/databases/db/tables/t" && r.Method == "GET":
		ts, err := meta.LatestSchema(ctx)
		require.NoError(f.t, err)
		writeJSON(w, 200, map[string]any{"id": "uuid-t", "name": "t", "path": "file:" + f.root + "/" + f.dir,
			"schemaId": ts.ID, "schema": map[string]any{}})
	case p == "/v1/pfx/databases/db/tables/t/snapshot":
		id, ok, err := meta.LatestSnapshotID(ctx)
		require.NoError(f.t, err)
		if !ok {
			writeJSON(w, 404, map[string]any{"resourceType": "SNAPSHOT", "message": "No Snapshot", "code": 404})
			return
		}
		s, err := meta.ReadSnapshot(ctx, id)
		require.NoError(f.t, err)
		writeJSON(w, 200, map[string]any{"snapshot": map[string]any{"snapshot": json.RawMessage(s.Encode())}})
	case p == "/v1/pfx/databases/db/tables/t/commit":
		ok, err := f.publish(ctx, body)
		require.NoError(f.t, err)
		writeJSON(w, 200, map[string]any{"success": ok})
	case p == "/v1/pfx/databases/db/tables/t/token":
		n := f.tokens.Add(1)
		writeJSON(w, 200, map[string]any{"token": map[string]string{"key": fmt.Sprint("k", n)},
			"expiresAtMillis": f.now().Add(2 * time.Hour).UnixMilli()})
	default:
		writeJSON(w, 404, map[string]any{"resourceType": "TABLE", "message": "no such thing", "code": 404})
	}
}

// publish creates the snapshot file of a commit request if absent.
func (f *fakeServer) publish(ctx context.Context, body []byte) (bool, error) {
	f.commits.Add(1)
	var req struct {
		TableID  string          `json:"tableId"`
		Snapshot json.RawMessage `json:"snapshot"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return false, err
	}
	if req.TableID != "uuid-t" {
		return false, fmt.Errorf("table id %q", req.TableID)
	}
	s, err := snapshot.Decode(req.Snapshot)
	if err != nil {
		return false, err
	}
	meta := paimon.NewTableMeta(f.fsys, f.dir)
	err = fs.WriteFile(ctx, f.fsys, meta.SnapshotPath(s.ID), s.Encode(), &fs.CreateOptions{IfNotExist: true})
	if errors.Is(err, iofs.ErrExist) {
		return false, nil
	}
	return err == nil, err
}

func (f *fakeServer) setHook(h func(w http.ResponseWriter, r *http.Request, body []byte) bool) {
	f.mu.Lock()
	f.hook = h
	f.mu.Unlock()
}

func (f *fakeServer) snapshots(t *testing.T) []int64 {
	t.Helper()
	ids, err := paimon.NewTableMeta(f.fsys, f.dir).SnapshotIDs(context.Background())
	require.NoError(t, err)
	return ids
}

// dropConnection closes the connection without an answer.
func dropConnection(t *testing.T, w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	require.True(t, ok)
	conn, _, err := hj.Hijack()
	require.NoError(t, err)
	conn.Close()
}
