//go:build linux && (amd64 || arm64 || 386 || riscv64 || loong64 || s390x || mips || mipsle || mips64 || mips64le || ppc64 || ppc64le)

package localfs

import (
	"os"
	"syscall"
)

// syncFileRangeWrite is SYNC_FILE_RANGE_WRITE: start writing the dirty
// pages of the range, do not wait.
const syncFileRangeWrite = 2

// startWriteback starts writing n bytes of f from off to disk. It is a
// hint: an error (a file system without the call, say) is ignored, since
// the fsync before publishing reports real failures.
func startWriteback(f *os.File, off, n int64) {
	_ = syscall.SyncFileRange(int(f.Fd()), off, n, syncFileRangeWrite)
}
