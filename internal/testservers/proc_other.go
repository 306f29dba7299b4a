//go:build !unix

package testservers

import "os/exec"

// Without process groups only the server process itself can be stopped;
// the servers of this package are only run on unix machines.

func ownGroup(*exec.Cmd) {}

func terminateGroup(cmd *exec.Cmd) error { return cmd.Process.Kill() }

func killGroup(cmd *exec.Cmd) error {
	err := cmd.Process.Kill()
	if err != nil && cmd.ProcessState != nil {
		return nil // already exited
	}
	return err
}

// processAlive cannot be told cheaply here; Stop then relies on Wait.
func processAlive(int) bool { return true }
