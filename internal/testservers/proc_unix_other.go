//go:build unix && !linux

package testservers

import "syscall"

// dieWithParent does nothing where the kernel offers no parent-death
// signal; Stop at t.Cleanup is the only way servers end.
func dieWithParent(*syscall.SysProcAttr) {}
