package schema

import "github.com/apache/arrow-go/v18/arrow/memory"

// ReadDefaults resolves the Allocator and BatchSize of a format reader's
// ReadRequest (format/parquet, format/orc, format/avrofile,
// format/blobfile): mem, or memory.DefaultAllocator when nil, and batch, or
// the reader's default def when not positive. It lives here because every
// format reader imports this package and nothing below it.
func ReadDefaults(mem memory.Allocator, batch, def int) (memory.Allocator, int) {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	if batch <= 0 {
		batch = def
	}
	return mem, batch
}
