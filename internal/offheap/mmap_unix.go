//go:build unix

package offheap

import (
	"fmt"
	"syscall"
)

// mapPages maps n bytes of zeroed anonymous memory.
func mapPages(n int) []byte {
	b, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		// Like a failed Go allocation: the process is out of memory.
		panic(fmt.Sprintf("offheap: mmap %d bytes: %v", n, err))
	}
	return b
}

func unmap(b []byte) {
	_ = syscall.Munmap(b)
}
