package testservers

import (
	"fmt"
	"sync"
)

// logBuffer keeps the last max bytes a server printed. It is safe for
// concurrent use: the server writes while a failing test reads.
type logBuffer struct {
	mu      sync.Mutex
	max     int
	buf     []byte
	dropped int64
}

func newLogBuffer(max int) *logBuffer { return &logBuffer{max: max} }

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if over := len(b.buf) - b.max; over > 0 {
		b.dropped += int64(over)
		b.buf = append(b.buf[:0], b.buf[over:]...)
	}
	return len(p), nil
}

func (b *logBuffer) printf(format string, args ...any) {
	_, _ = fmt.Fprintf(b, format, args...)
}

// String returns the kept output, noting how much was dropped before it.
func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.dropped > 0 {
		return fmt.Sprintf("[... %d bytes dropped ...]\n%s", b.dropped, b.buf)
	}
	return string(b.buf)
}
