//go:build unix

package testservers

import (
	"errors"
	"os/exec"
	"syscall"
)

// ownGroup makes the server the leader of a new process group, so that
// stopping it also reaches any process it forks.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	dieWithParent(cmd.SysProcAttr)
}

// terminateGroup asks every process of the server's group to exit.
func terminateGroup(cmd *exec.Cmd) error {
	return signalGroup(cmd.Process.Pid, syscall.SIGTERM)
}

// killGroup kills every process left in the server's group.
func killGroup(cmd *exec.Cmd) error {
	return signalGroup(cmd.Process.Pid, syscall.SIGKILL)
}

func signalGroup(pgid int, sig syscall.Signal) error {
	err := syscall.Kill(-pgid, sig)
	if errors.Is(err, syscall.ESRCH) {
		return nil // nothing left
	}
	return err
}

// groupAlive reports whether any process of the group pgid exists.
func groupAlive(pgid int) bool {
	err := syscall.Kill(-pgid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// processAlive reports whether the process pid exists.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
