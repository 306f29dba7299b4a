package interop

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// RESTServerVersion is the Java Paimon version whose test jar provides the
// REST catalog server (org.apache.paimon.rest.RESTCatalogServer).
const RESTServerVersion = "1.4.2"

// RESTServer is Java Paimon's REST catalog test server, started on the
// loopback interface by interop/java/RestCatalogServerMain.java.
type RESTServer struct {
	// URL is the server's base URL ("http://localhost:port/").
	URL string
	// Warehouse is the warehouse name the server answers /v1/config for.
	Warehouse string
	// DataPath is the directory its tables are stored in.
	DataPath string

	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   *bufio.Scanner
	mu    sync.Mutex
}

// RESTServerOptions configures StartRESTServer.
type RESTServerOptions struct {
	// Auth is "bear:<token>" or "dlf:<region>:<akId>:<akSecret>[:<sts>]".
	Auth string
	// Config are extra config defaults the server hands out
	// ("data-token.enabled=true", ...).
	Config []string
}

// javaArgv is the java command line of the 1.4.2 harness with main class
// main.
func javaArgv(main string) ([]string, error) {
	r, err := Java(RESTServerVersion)
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(Home(), "java", RESTServerVersion, "classes")
	if _, err := os.Stat(filepath.Join(dir, main+".class")); err != nil {
		return nil, fmt.Errorf("interop: %s is not compiled in %s (run interop/setup.sh): %w", main, dir, err)
	}
	argv := append([]string{}, r.argv...)
	argv[len(argv)-1] = main // replaces PaimonInterop
	return argv, nil
}

// StartRESTServer starts the server for the test and stops it when the
// test ends. Without PAIMON_INTEROP=1 the test is skipped; with it, a
// missing tool fails the test.
func StartRESTServer(t testing.TB, o RESTServerOptions) *RESTServer {
	t.Helper()
	if !Enabled() {
		t.Skip("live interop test: set PAIMON_INTEROP=1 after running interop/setup.sh to run it against Java's REST catalog server")
	}
	argv, err := javaArgv("RestCatalogServerMain")
	if err != nil {
		t.Fatal(err)
	}
	s := &RESTServer{DataPath: t.TempDir(), Warehouse: "wh" + strings.ReplaceAll(t.Name(), "/", "_")}
	if len(s.Warehouse) > 60 {
		s.Warehouse = s.Warehouse[:60]
	}
	argv = append(argv, "serve", "file:"+s.DataPath, s.Warehouse, o.Auth)
	argv = append(argv, o.Config...)
	s.cmd = exec.Command(argv[0], argv[1:]...)
	s.cmd.Env = append(os.Environ(), "TZ=UTC")
	var stderr strings.Builder
	s.cmd.Stderr = &limitedWriter{w: &stderr, n: 1 << 16}
	stdout, err := s.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if s.stdin, err = s.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = s.stdin.Close()
		done := make(chan struct{})
		go func() { _ = s.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			_ = s.cmd.Process.Kill()
			<-done
		}
	})
	s.out = bufio.NewScanner(stdout)
	line := make(chan string, 1)
	go func() {
		if s.out.Scan() {
			line <- s.out.Text()
		}
		close(line)
	}()
	select {
	case l, ok := <-line:
		u, found := strings.CutPrefix(l, "url=")
		if !ok || !found {
			_ = s.cmd.Process.Kill()
			t.Fatalf("interop: REST server did not start: %q\n%s", l, stderr.String())
		}
		s.URL = u
	case <-time.After(2 * time.Minute):
		_ = s.cmd.Process.Kill()
		t.Fatalf("interop: REST server did not start within 2 minutes\n%s", stderr.String())
	}
	return s
}

// Command sends one control line ("fail-next-commit": the next commit
// the server publishes is answered 500) and waits for "ok".
func (s *RESTServer) Command(line string) error {
	got, err := s.Query(line)
	if err == nil && got != "" {
		err = fmt.Errorf("interop: REST server answered %q to %q", got, line)
	}
	return err
}

// Query sends one control line and returns the answer after "ok"
// ("fail-pending" answers whether the injected failure is still to come).
func (s *RESTServer) Query(line string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := io.WriteString(s.stdin, line+"\n"); err != nil {
		return "", err
	}
	if !s.out.Scan() {
		return "", fmt.Errorf("interop: REST server exited")
	}
	got := s.out.Text()
	rest, ok := strings.CutPrefix(got, "ok")
	if !ok {
		return "", fmt.Errorf("interop: REST server answered %q to %q", got, line)
	}
	return strings.TrimSpace(rest), nil
}

// CatalogOptionsFile writes the options a Java catalog needs to reach the
// server into a file and returns the warehouse argument that makes
// PaimonInterop open it ("catalog-options:<file>").
func (s *RESTServer) CatalogOptionsFile(t testing.TB, opts map[string]string) string {
	t.Helper()
	var sb strings.Builder
	fmt.Fprintf(&sb, "metastore=rest\nuri=%s\nwarehouse=%s\n", s.URL, s.Warehouse)
	for k, v := range opts {
		fmt.Fprintf(&sb, "%s=%s\n", k, v)
	}
	p := filepath.Join(t.TempDir(), "catalog.properties")
	if err := os.WriteFile(p, []byte(sb.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return "catalog-options:" + p
}

// JavaSign signs a request with Java's DLF signer (RestCatalogServerMain
// sign) and returns its "name: value" header lines.
func JavaSign(ctx context.Context, args ...string) (string, error) {
	argv, err := javaArgv("RestCatalogServerMain")
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], append(append(argv[1:], "sign"), args...)...)
	var stderr strings.Builder
	cmd.Stderr = &limitedWriter{w: &stderr, n: 1 << 16}
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("interop: java sign: %w\n%s", err, stderr.String())
	}
	return string(out), nil
}

type limitedWriter struct {
	w io.Writer
	n int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if l.n > 0 {
		k := min(len(p), l.n)
		l.n -= k
		_, _ = l.w.Write(p[:k])
	}
	return len(p), nil
}
