// Package orc reads Paimon ORC data files into Arrow record batches. It is
// a pure-Go implementation of the ORC format (specification ORCv1; Java
// org.apache.orc 1.9, the version Paimon 1.4.2 and 2.0.0 bundle), with no
// ORC library underneath: no maintained one exists for Go.
//
// Like format/parquet it takes an io.ReaderAt and a size and never opens
// files itself; every output column has exactly the Arrow type
// schema.ToArrowType gives for its Paimon type, so callers cannot tell the
// formats apart. Schema evolution (missing columns, type promotion) is the
// caller's job; a requested field absent from the file is an ErrSchema.
//
// # File layout
//
// An ORC file is "ORC", stripes, then a tail read backwards from the last
// byte: the PostScript (uncompressed: compression kind, block size, the
// footer's and metadata's lengths), the footer (schema as a pre-order list
// of types, stripe directory, file statistics) and the metadata (stripe
// statistics). All of it except the PostScript is protobuf, decoded by the
// small wire reader in proto.go (no generated code and no protobuf
// runtime: a dozen messages, decoded from untrusted bytes with every length
// checked before anything is allocated). Each stripe holds index streams
// (row index: positions and statistics every rowIndexStride rows, 10,000
// in Java's files), data streams per column, and a footer with the streams'
// kinds and lengths, the columns' encodings and the writer's time zone.
//
// # Algorithm
//
// Open reads the last 16 KiB (Java's ReaderImpl does the same), decodes the
// PostScript and footer and rebuilds the type tree, checking that ids are
// in pre-order and each used once. Read matches the requested fields to the
// root struct's children by the paimon.id attribute Java's OrcTypeUtil
// writes, then by name, builds a columnReader per field (column*.go, Java
// TreeReaderFactory in role), and for each stripe:
//
//   - asks ReadRequest.Select about the stripe's statistics, then, when the
//     file has a row index, about every row group's;
//   - reads the streams of the requested columns (neighbouring streams in
//     one ReadAt) and the stripe footer;
//   - decodes batches: each column reads its PRESENT bits for the slots its
//     parent holds, then its values (byte RLE, bit streams, integer RLE v1
//     and v2 — short repeat, direct, patched base, delta —, IEEE floats,
//     direct or dictionary strings, decimals as 128-bit varints plus scale,
//     timestamps as seconds since 2015 plus encoded nanos), straight into
//     Arrow buffers; runs of selected row groups are reached by seeking every
//     stream to the row index positions.
//
// Compression (NONE, ZLIB, SNAPPY, LZ4, ZSTD, LZO) is applied per chunk of
// at most the PostScript's block size, each with a 3-byte header (codec.go).
//
// Java's behaviours this package reproduces so that it returns Java's rows:
// CHAR values lose their trailing spaces and CHAR/VARCHAR values are cut to
// the type's length (CharTreeReader, VarcharTreeReader); timestamps decode
// with Java's reader arithmetic, including instants in (-1 s, 0), which
// Java's writer stores as the same fraction after the epoch (timestamps.go);
// decimals are rescaled HALF_UP to the requested scale and are NULL when
// they overflow the precision (Decimal.fromBigDecimal).
//
// # Memory
//
// A Reader holds the decoded tail. A Read holds, per stripe, the compressed
// streams of the requested columns, one decompressed chunk per stream, the
// dictionaries of dictionary-encoded columns, and the batch being built.
// Claimed lengths never allocate ahead of the data: string bytes are read
// into a buffer that grows as they arrive, a dictionary may not have more
// entries than its data has bytes, a batch may not hold more than 2^24
// list elements or map entries per column, and every decompressed chunk is
// bounded by the block size (at most 8 MiB).
//
// # Errors
//
// Corrupt or truncated files give ErrCorrupt naming the file (never a
// panic: decoding also recovers, as a last resort, into ErrCorrupt), files
// using what this package does not implement (column encryption, unions,
// other file versions) ErrUnsupported, and mismatched fields ErrSchema.
package orc
