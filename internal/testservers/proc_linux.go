package testservers

import "syscall"

// dieWithParent has the kernel kill the server when the test binary dies
// without running its cleanups (a panic, a -timeout abort, SIGKILL), so no
// server outlives the run. The signal is tied to the OS thread that started
// the server; the Go runtime does not retire threads of ordinary
// goroutines, and the process group kill in Stop covers the normal path.
func dieWithParent(attr *syscall.SysProcAttr) {
	attr.Pdeathsig = syscall.SIGKILL
}
