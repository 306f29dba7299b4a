// Package avro is the project's only door to an Avro library
// (github.com/twmb/avro). It reads and writes Avro object container files
// (OCF), the format of Paimon's manifest lists, manifests and index manifests
// (Java AvroFileFormat with DataFileWriter / DataFileStream).
//
// # Reading
//
// [NewReader] opens a container, takes the writer schema from its header and
// resolves it against a reader schema chosen by the caller, so records always
// decode into the caller's Go struct (fields tagged `avro:"name"`):
//
//   - fields the writer lacks get the reader's default (null for the nullable
//     fields Paimon adds over time);
//   - fields the reader lacks are skipped;
//   - an int written where the reader wants a long is widened.
//
// Java Paimon matches fields by name and ignores record names
// (AvroRowDatumReader, FieldReaderFactory), and pre-0.9 Paimon wrapped its
// records in ["null", record] unions. Plain Avro resolution rejects both
// differences, so before resolving we align the reader schema with the
// writer: every reader record takes the name of the writer record it reads,
// and becomes nullable where the writer's is. A null written for a record the
// caller's struct holds by value decodes as the zero struct; callers that care
// validate what they decoded.
//
// Logical types are not interpreted: a timestamp-millis long decodes into an
// int64 holding the stored number, a date into an int32, a decimal into its
// bytes. Paimon attaches its own meaning to them (see format/manifest for
// _CREATION_TIME), so silently converting them to time.Time would lose it.
//
// # Block access
//
// [NewBlockReader] is the low-level alternative to [NewReader] for callers
// that decode the Avro binary encoding themselves, driven by the writer
// schema: it hands out each block's decompressed bytes and record count, and
// the writer schema as a plain [Node] tree ([ParseNode]), with no type of the
// Avro library in sight. format/avrofile reads Paimon data files this way,
// straight into Arrow builders, and format/manifest decodes manifest entries
// this way, because reflection dominated planning. [Cursor] reads the
// binary encoding of a block with every read bounds checked, and [Skipper]
// consumes values of fields a reader does not know. A BlockReader's buffers
// go to the next one when it is closed: planning opens one per manifest.
//
// # Writing
//
// [NewWriter] writes a container with the schema JSON exactly as given and
// one of the codecs null, deflate, snappy or zstandard ([CodecName] maps
// Paimon's compression option names to these). Blocks are cut at 64000
// uncompressed bytes like Java's DataFileWriter. The null codec leaves the
// optional avro.codec header key out, which the Avro specification, Java and
// fastavro all read as null. [BlockWriter] writes a container from blocks
// the caller has already encoded (the Avro data-file writer of
// format/avrofile), naming the codec in the header even when it is null, as
// Java's DataFileWriter does.
//
// # Errors
//
// Everything that is wrong with the bytes of a file wraps [ErrCorrupt]; an
// error returned by the underlying io.Reader is passed through unchanged
// instead. Errors never name a file: callers add the path they know.
package avro
