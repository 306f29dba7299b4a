package datafile

import (
	"io"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/paimon-go/paimon-go/format/avrofile"
	"github.com/paimon-go/paimon-go/format/schema"
)

// avroWriter writes an Avro data file through format/avrofile, which
// encodes rows as Java's AvroFileFormat writer does and hands a block to
// the sink every ~64000 uncompressed bytes.
type avroWriter struct {
	w *avrofile.Writer
}

func newAvroWriter(w io.Writer, fields []schema.DataField, cfg *config) (*avroWriter, error) {
	aw, err := avrofile.NewWriter(w, fields, &cfg.avro)
	if err != nil {
		return nil, err
	}
	return &avroWriter{w: aw}, nil
}

func (a *avroWriter) write(rec arrow.RecordBatch) error { return a.w.Write(rec) }

// buffered is 0: Java's AvroFileFormat checks the stream position, which
// does not see the block being filled, and so do we.
func (a *avroWriter) buffered() int64 { return 0 }

// avroFileCost estimates an open Avro file: the block being filled (about
// 64 KB before compression, and its compressed copy) and the encoder.
const avroFileCost = 192 << 10

func (a *avroWriter) memory() int64 { return avroFileCost }

func (a *avroWriter) close() error { return a.w.Close() }

func (a *avroWriter) discard() { _ = a.w.Close() }
