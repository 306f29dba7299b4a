//go:build unix

package testservers

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// helperEnv makes the test binary act as a toy server (see TestMain).
const helperEnv = "TESTSERVERS_HELPER_PORT"

func TestMain(m *testing.M) {
	if port := os.Getenv(helperEnv); port != "" {
		helperServer(port)
		return
	}
	os.Exit(m.Run())
}

// helperServer answers HTTP on port after starting a child that ignores
// SIGTERM, the case where killing only the leader would leave a process
// behind.
func helperServer(port string) {
	child := exec.Command("sh", "-c", `trap "" TERM; sleep 600`)
	if err := child.Start(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	fmt.Printf("child %d\n", child.Process.Pid)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM)
	go func() {
		<-sig
		os.Exit(0)
	}()
	err := http.ListenAndServe("127.0.0.1:"+port, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		io.WriteString(w, "ok")
	}))
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}

func TestRequired(t *testing.T) {
	for _, tc := range []struct {
		interop, stores string
		want            bool
	}{
		{"", "", false},
		{"1", "", true},
		{"", "1", true},
		{"0", "0", false},
		{"true", "", false},
	} {
		t.Run(tc.interop+"/"+tc.stores, func(t *testing.T) {
			t.Setenv("PAIMON_INTEROP", tc.interop)
			t.Setenv("PAIMON_STORES", tc.stores)
			require.Equal(t, tc.want, Required())
		})
	}
}

func TestFindBinary(t *testing.T) {
	exe := func(path string) {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte("#!/bin/sh\n"), 0o755))
	}
	flat, cache, empty := t.TempDir(), t.TempDir(), t.TempDir()
	exe(filepath.Join(flat, "versitygw"))
	exe(filepath.Join(cache, "bin", "fake-gcs-server"))
	exe(filepath.Join(cache, "azurite", "node_modules", ".bin", "azurite-blob"))

	for _, tc := range []struct {
		name         string
		servers, dir string
		bin          binary
		want         string // "" means not found
	}{
		{"flat dir", flat, empty, versitygwBin, filepath.Join(flat, "versitygw")},
		{"servers dir in cache layout", cache, empty, fakeGCSBin, filepath.Join(cache, "bin", "fake-gcs-server")},
		{"cache", "", cache, fakeGCSBin, filepath.Join(cache, "bin", "fake-gcs-server")},
		{"cache azurite", "", cache, azuriteBlobBin, filepath.Join(cache, "azurite", "node_modules", ".bin", "azurite-blob")},
		{"missing", flat, empty, fakeGCSBin, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("PAIMON_TEST_SERVERS", tc.servers)
			t.Setenv("PAIMON_TEST_SERVERS_CACHE", tc.dir)
			// PATH keeps node (azurite-blob needs it) but no server.
			node, err := exec.LookPath("node")
			pathDirs := empty
			if err == nil {
				pathDirs += string(os.PathListSeparator) + filepath.Dir(node)
			}
			t.Setenv("PATH", pathDirs)
			got, err := tc.bin.find()
			if tc.want == "" {
				require.ErrorIs(t, err, ErrNotInstalled)
				return
			}
			if errors.Is(err, ErrNotInstalled) && tc.bin.needs != "" {
				t.Logf("%v", err)
				require.Contains(t, err.Error(), tc.bin.needs)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
}

// requireGone checks that the stopped server left no process behind.
func requireGone(t *testing.T, pid int) {
	t.Helper()
	require.Positive(t, pid)
	require.False(t, processAlive(pid), "server pid %d still exists", pid)
	// SIGKILL is delivered to the group at once but its members die on
	// their own schedule: give a busy machine a moment before calling one
	// a survivor.
	var left []int
	deadline := time.Now().Add(5 * time.Second)
	for {
		if left = liveGroupMembers(t, pid); len(left) == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	require.Empty(t, left, "process group %d still has running members", pid)
}

// liveGroupMembers lists the processes of group pgid that still run. A
// killed child that init has not reaped yet is a zombie, which kill(2)
// still finds; on Linux /proc tells zombies apart, elsewhere any member
// counts.
func liveGroupMembers(t *testing.T, pgid int) []int {
	t.Helper()
	if runtime.GOOS != "linux" {
		if groupAlive(pgid) {
			return []int{pgid}
		}
		return nil
	}
	entries, err := os.ReadDir("/proc")
	require.NoError(t, err)
	var live []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		state, group, ok := procStat(pid)
		if ok && group == pgid && state != "Z" && state != "X" {
			live = append(live, pid)
		}
	}
	return live
}

// procStat reads the state and process group of pid from /proc/pid/stat
// ("pid (comm) state ppid pgrp ..."; comm may hold spaces and parentheses).
func procStat(pid int) (state string, pgrp int, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", 0, false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return "", 0, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 3 {
		return "", 0, false
	}
	pgrp, err = strconv.Atoi(f[2])
	return f[0], pgrp, err == nil
}

// running reports whether pid exists and is not a zombie.
func running(pid int) bool {
	if runtime.GOOS == "linux" {
		state, _, ok := procStat(pid)
		return ok && state != "Z" && state != "X"
	}
	return processAlive(pid)
}

func TestProcessStopKillsGroup(t *testing.T) {
	t.Setenv(helperEnv, "") // set per start below
	exe, err := os.Executable()
	require.NoError(t, err)
	p := startProcess(t, "helper", exe, func(port int) []string {
		// The environment is inherited: the port travels in it.
		os.Setenv(helperEnv, strconv.Itoa(port))
		return []string{"-test.run=^$"}
	})
	pid := p.PID()
	var child int
	for _, line := range strings.Split(p.Log(), "\n") {
		if s, ok := strings.CutPrefix(line, "child "); ok {
			child, err = strconv.Atoi(strings.TrimSpace(s))
			require.NoError(t, err)
		}
	}
	require.Positive(t, child, "helper output: %s", p.Log())
	require.True(t, running(child))

	p.Stop()
	require.Zero(t, p.PID())
	requireGone(t, pid)
	require.False(t, running(child), "child %d that ignored SIGTERM survived", child)
	p.Stop() // idempotent

	port := p.Port()
	p.Restart()
	require.Equal(t, port, p.Port())
	require.NotEqual(t, pid, p.PID())
	resp, err := http.Get("http://127.0.0.1:" + strconv.Itoa(port) + "/")
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	resp.Body.Close()
}

func TestProcessStartFailure(t *testing.T) {
	dir := t.TempDir()
	script := func(name, body string) string {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755))
		return path
	}
	for _, tc := range []struct {
		name, body string
		inUse      bool
	}{
		{"exits", `echo "broken config" >&2; exit 3`, false},
		{"port taken", `echo "listen tcp 127.0.0.1:$1: bind: address already in use" >&2; exit 1`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &Process{t: t, name: tc.name, bin: script(strings.ReplaceAll(tc.name, " ", "-"), tc.body),
				args: func(port int) []string { return []string{strconv.Itoa(port)} }, log: newLogBuffer(1 << 10)}
			var err error
			p.port, err = freePort()
			require.NoError(t, err)
			err = p.start()
			require.ErrorIs(t, err, ErrStart)
			require.Contains(t, err.Error(), "exited while starting")
			require.Zero(t, p.PID())
			require.Equal(t, tc.inUse, addrInUse(p.Log()), p.Log())
		})
	}
}

func TestLogBuffer(t *testing.T) {
	b := newLogBuffer(8)
	b.printf("0123")
	require.Equal(t, "0123", b.String())
	b.printf("456789ab")
	require.Equal(t, "[... 4 bytes dropped ...]\n456789ab", b.String())
}

// objectTest is what each store's test does with raw HTTP: create an
// object, read it back, refuse to create it again when told it must not
// exist, stop the server and check that no process is left.
type objectStore struct {
	put       func(key string, data []byte, ifAbsent bool) (*http.Response, error)
	get       func(key string) (*http.Response, error)
	existCode int // the status of a refused create-if-absent
}

func checkObjects(t *testing.T, st objectStore) {
	t.Helper()
	const key = "dir/sub/hello world.txt"
	resp, err := st.put(key, []byte("hello"), true)
	require.NoError(t, err)
	require.NoError(t, expectStatus(resp, "put", http.StatusOK, http.StatusCreated))

	resp, err = st.get(key)
	require.NoError(t, err)
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s", body)
	require.Equal(t, "hello", string(body))

	resp, err = st.put(key, []byte("again"), true)
	require.NoError(t, err)
	require.NoError(t, expectStatus(resp, "put if absent", st.existCode))

	resp, err = st.get("dir/missing")
	require.NoError(t, err)
	require.NoError(t, expectStatus(resp, "get missing", http.StatusNotFound))
}

// envMap returns the KEY=value list as a map, checking every entry is set
// in the test's environment.
func requireEnvSet(t *testing.T, env []string) map[string]string {
	t.Helper()
	m := map[string]string{}
	for _, kv := range env {
		k, v, ok := strings.Cut(kv, "=")
		require.True(t, ok, kv)
		require.Equal(t, v, os.Getenv(k), k)
		m[k] = v
	}
	return m
}

func TestS3(t *testing.T) {
	s := S3(t)
	ctx := context.Background()
	require.True(t, strings.HasPrefix(s.Endpoint, "http://127.0.0.1:"), s.Endpoint)
	env := requireEnvSet(t, s.Env())
	require.Equal(t, s.Endpoint, env["AWS_ENDPOINT_URL"])
	require.Equal(t, s.AccessKey, env["AWS_ACCESS_KEY_ID"])
	require.Equal(t, s.SecretKey, env["AWS_SECRET_ACCESS_KEY"])
	require.Equal(t, "us-east-1", env["AWS_REGION"])

	u, err := url.Parse(s.URL("/warehouse/db/"))
	require.NoError(t, err)
	require.Equal(t, "s3", u.Scheme)
	require.Equal(t, s.Bucket, u.Host)
	require.Equal(t, "/warehouse/db", u.Path)
	require.Equal(t, url.Values{"endpoint": {s.Endpoint}, "region": {"us-east-1"}, "use_path_style": {"true"}}, u.Query())
	require.Equal(t, "s3://"+s.Bucket+"?endpoint="+url.QueryEscape(s.Endpoint)+"&region=us-east-1&use_path_style=true", s.URL(""))

	st := objectStore{
		put: func(key string, data []byte, ifAbsent bool) (*http.Response, error) {
			h := http.Header{}
			if ifAbsent {
				h.Set("If-None-Match", "*")
			}
			return s.Do(ctx, http.MethodPut, key, data, h)
		},
		get:       func(key string) (*http.Response, error) { return s.Do(ctx, http.MethodGet, key, nil, nil) },
		existCode: http.StatusPreconditionFailed,
	}
	checkObjects(t, st)

	// A request signed with the wrong secret is refused: the server checks
	// signatures, so the signing above was really verified.
	bad := *s
	bad.SecretKey = "wrong"
	resp, err := bad.Do(ctx, http.MethodGet, "dir/sub/hello world.txt", nil, nil)
	require.NoError(t, err)
	require.NoError(t, expectStatus(resp, "bad signature", http.StatusForbidden))

	// Stop: the port refuses connections, no process remains; Restart
	// brings the same data back on the same port.
	pid, port := s.PID(), s.Port()
	s.Stop()
	requireGone(t, pid)
	_, err = net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(port))
	require.Error(t, err)
	_, err = s.Do(ctx, http.MethodGet, "dir/sub/hello world.txt", nil, nil)
	require.Error(t, err)

	s.Restart()
	require.Equal(t, port, s.Port())
	resp, err = st.get("dir/sub/hello world.txt")
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, "hello", string(body))
	pid = s.PID()
	s.Stop()
	requireGone(t, pid)
}

func TestGCS(t *testing.T) {
	s := GCS(t)
	env := requireEnvSet(t, s.Env())
	require.Equal(t, strings.TrimPrefix(s.Endpoint, "http://"), env["STORAGE_EMULATOR_HOST"])
	require.Equal(t, "gs://"+s.Bucket+"/warehouse", s.URL("warehouse/"))
	require.Equal(t, "gs://"+s.Bucket, s.URL(""))

	objURL := func(key string) string {
		return s.Endpoint + "/storage/v1/b/" + s.Bucket + "/o/" + url.PathEscape(key)
	}
	st := objectStore{
		put: func(key string, data []byte, ifAbsent bool) (*http.Response, error) {
			q := url.Values{"uploadType": {"media"}, "name": {key}}
			if ifAbsent {
				q.Set("ifGenerationMatch", "0")
			}
			return httpClient.Post(s.Endpoint+"/upload/storage/v1/b/"+s.Bucket+"/o?"+q.Encode(),
				"application/octet-stream", strings.NewReader(string(data)))
		},
		get:       func(key string) (*http.Response, error) { return httpClient.Get(objURL(key) + "?alt=media") },
		existCode: http.StatusPreconditionFailed,
	}
	checkObjects(t, st)

	pid := s.PID()
	s.Stop()
	requireGone(t, pid)
	s.Restart()
	resp, err := st.get("dir/sub/hello world.txt")
	require.NoError(t, err)
	require.NoError(t, expectStatus(resp, "get after restart", http.StatusOK))
}

func TestAzure(t *testing.T) {
	s := Azure(t)
	ctx := context.Background()
	env := requireEnvSet(t, s.Env())
	require.Equal(t, s.Account, env["AZURE_STORAGE_ACCOUNT"])
	require.Equal(t, s.Key, env["AZURE_STORAGE_KEY"])
	host := strings.TrimPrefix(s.Endpoint, "http://")

	u, err := url.Parse(s.URL("warehouse"))
	require.NoError(t, err)
	require.Equal(t, "azblob", u.Scheme)
	require.Equal(t, s.Container, u.Host)
	require.Equal(t, "/warehouse", u.Path)
	require.Equal(t, url.Values{"domain": {host}, "protocol": {"http"}, "localemu": {"true"},
		"storage_account": {"devstoreaccount1"}}, u.Query())

	st := objectStore{
		put: func(key string, data []byte, ifAbsent bool) (*http.Response, error) {
			h := http.Header{"X-Ms-Blob-Type": {"BlockBlob"}}
			if ifAbsent {
				h.Set("If-None-Match", "*")
			}
			return s.Do(ctx, http.MethodPut, key, data, h)
		},
		get:       func(key string) (*http.Response, error) { return s.Do(ctx, http.MethodGet, key, nil, nil) },
		existCode: http.StatusConflict,
	}
	checkObjects(t, st)

	bad := *s
	bad.Key = "d3Jvbmcga2V5" // base64 of "wrong key"
	resp, err := bad.Do(ctx, http.MethodGet, "dir/sub/hello world.txt", nil, nil)
	require.NoError(t, err)
	require.NoError(t, expectStatus(resp, "bad signature", http.StatusForbidden))

	pid := s.PID()
	s.Stop()
	requireGone(t, pid)
}
