package testservers

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// ErrStart is wrapped by errors about a server that exited or never
// answered while starting.
var ErrStart = errors.New("testservers: server did not start")

const (
	// startTimeout bounds how long a server may take to answer its first
	// HTTP request. Azurite (node) is the slowest, a few seconds on a busy
	// machine; this is a limit for a hung start, not a performance check.
	startTimeout = 90 * time.Second
	// stopGrace is how long a server may take to exit after SIGTERM before
	// its process group is killed.
	stopGrace = 10 * time.Second
	// portAttempts bounds the retries when the free port picked was taken
	// by someone else before the server bound it.
	portAttempts = 3
)

// Process is a running server: one child process in its own process group,
// listening on 127.0.0.1:Port(). Its methods must be called from the
// test's goroutine (they may end the test).
type Process struct {
	t    testing.TB
	name string
	bin  string
	args func(port int) []string
	log  *logBuffer

	mu   sync.Mutex
	port int
	run  *run // nil when stopped
}

// run is one execution of the server binary.
type run struct {
	cmd  *exec.Cmd
	done chan struct{} // closed when cmd.Wait returned
	err  error         // cmd.Wait's result, valid once done is closed
}

// exited reports whether the server process has ended (and been reaped).
func (r *run) exited() bool {
	select {
	case <-r.done:
		return true
	default:
		return !processAlive(r.cmd.Process.Pid)
	}
}

// startProcess starts bin with args(port) on a free port, waits until it
// answers HTTP, and registers its stop (and, on failure, the dump of its
// output) with t.Cleanup.
func startProcess(t testing.TB, name, bin string, args func(port int) []string) *Process {
	t.Helper()
	p := &Process{t: t, name: name, bin: bin, args: args, log: newLogBuffer(256 << 10)}
	t.Cleanup(func() {
		p.Stop()
		if t.Failed() {
			t.Logf("%s output:\n%s", name, p.log.String())
		}
	})
	var err error
	for attempt := 0; attempt < portAttempts; attempt++ {
		if p.port, err = freePort(); err != nil {
			break
		}
		if err = p.start(); err == nil || !addrInUse(p.log.String()) {
			break
		}
	}
	if err != nil {
		t.Fatalf("%v\n%s output:\n%s", err, name, p.log.String())
	}
	return p
}

// Port is the TCP port the server listens on; it stays the same across
// Restart.
func (p *Process) Port() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.port
}

// PID is the process id of the running server (also its process group
// id), 0 when it is stopped.
func (p *Process) PID() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.run == nil {
		return 0
	}
	return p.run.cmd.Process.Pid
}

// Log returns the server's combined stdout and stderr so far (the tail,
// when it is long).
func (p *Process) Log() string { return p.log.String() }

// Stop ends the server: SIGTERM to its process group, SIGKILL to the group
// if it has not exited after a grace period, and SIGKILL to whatever is left
// in the group after the leader exited. Data stays in its directory for
// Restart. Stopping a stopped server does nothing.
func (p *Process) Stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stopLocked()
}

func (p *Process) stopLocked() {
	r := p.run
	if r == nil {
		return
	}
	p.run = nil
	pid := r.cmd.Process.Pid
	_ = terminateGroup(r.cmd)
	// Wait for the leader itself, not for r.done: Wait also waits for the
	// output pipes, which a child that ignored SIGTERM still holds.
	deadline := time.Now().Add(stopGrace)
	for !r.exited() && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	_ = killGroup(r.cmd) // the leader after the grace period, or children that outlived it
	<-r.done
	p.log.printf("=== %s (pid %d) stopped: %v\n", p.name, pid, r.err)
}

// Restart stops the server if it runs and starts it again on the same port
// with the same data directory, as for a network outage followed by
// recovery. It fails the test if the server does not come back.
func (p *Process) Restart() {
	p.t.Helper()
	p.Stop()
	if err := p.start(); err != nil {
		p.t.Fatalf("restart: %v\n%s output:\n%s", err, p.name, p.log.String())
	}
}

// start runs the binary on p.port and waits until it answers HTTP or exits.
func (p *Process) start() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	port := p.port
	args := p.args(port)
	cmd := exec.Command(p.bin, args...)
	cmd.Stdout = p.log
	cmd.Stderr = p.log
	// Output pipes held open by a grandchild must not block Wait forever.
	cmd.WaitDelay = stopGrace
	ownGroup(cmd)
	p.log.printf("=== %s %s\n", p.bin, strings.Join(args, " "))
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("%w: %s: %w", ErrStart, p.name, err)
	}
	r := &run{cmd: cmd, done: make(chan struct{})}
	go func() {
		r.err = cmd.Wait()
		close(r.done)
	}()
	p.run = r
	p.log.printf("=== %s started, pid %d, port %d\n", p.name, cmd.Process.Pid, port)

	base := "http://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(port)) + "/"
	client := &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	deadline := time.Now().Add(startTimeout)
	for {
		select {
		case <-r.done:
			p.run = nil
			_ = killGroup(cmd)
			return fmt.Errorf("%w: %s exited while starting: %v", ErrStart, p.name, r.err)
		default:
		}
		// Any HTTP answer, even 403, means the server is serving.
		if resp, err := client.Get(base); err == nil {
			resp.Body.Close()
			return nil
		}
		if time.Now().After(deadline) {
			p.stopLocked()
			return fmt.Errorf("%w: %s did not answer on %s within %v", ErrStart, p.name, base, startTimeout)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// freePort asks the kernel for a port on 127.0.0.1 that is free now. The
// server binds it a moment later; startProcess retries if someone else was
// faster.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("%w: no free port: %w", ErrStart, err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// addrInUse reports whether a server's output says its port was taken.
func addrInUse(log string) bool {
	l := strings.ToLower(log)
	return strings.Contains(l, "address already in use") || strings.Contains(l, "eaddrinuse")
}

// ready finishes starting a server: it puts env ("KEY=value") in the test's
// environment (t.Setenv) and runs create, which makes the bucket or
// container; a failure ends the test with the server's output.
func ready(t testing.TB, name string, p *Process, env []string, create func() error) {
	t.Helper()
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	if err := create(); err != nil {
		t.Fatalf("%s: %v\noutput:\n%s", name, err, p.Log())
	}
}
