package datafile

import (
	"io"

	"github.com/apache/arrow-go/v18/arrow"
)

// formatWriter encodes the rows of one data file into a sink (Java's
// FormatWriter). The sink is not closed by it: publishing the file is the
// caller's business.
type formatWriter interface {
	// write encodes the rows of rec, which has the table's Arrow schema.
	write(rec arrow.RecordBatch) error
	// buffered is the number of encoded bytes held in memory, not yet
	// handed to the sink; with what the sink received it estimates the
	// file size for rolling.
	buffered() int64
	// memory estimates the memory the open file holds, for a Budget.
	memory() int64
	// close writes what is buffered and the file's trailer to the sink.
	close() error
	// discard releases the buffers of a file that will not be published.
	discard()
}

// countingWriter counts the bytes that reach w. It has no Close, so that a
// format library that closes its sink cannot publish the file by itself.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
