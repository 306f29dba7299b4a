//go:build !unix

package offheap

// mapPages returns Go memory where anonymous mappings are not available.
func mapPages(n int) []byte { return make([]byte, n) }

func unmap([]byte) {}
