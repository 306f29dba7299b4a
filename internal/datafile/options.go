package datafile

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/parquet/compress"

	"github.com/paimon-go/paimon-go/format/avrofile"
	"github.com/paimon-go/paimon-go/format/orc"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/coreoptions"
)

// Table options a Writer reads (Java CoreOptions, and the format-prefixed
// options Java's FileFormat.getIdentifierPrefixOptions hands to a format).
const (
	optFileFormat        = coreoptions.FileFormat
	optFileCompression   = coreoptions.FileCompression
	optZstdLevel         = coreoptions.FileCompressionZstdLevel
	optDataFilePrefix    = coreoptions.DataFilePrefix
	optSuffixCompression = coreoptions.FileSuffixIncludeCompression
	optTargetFileSize    = coreoptions.TargetFileSize
	optFileBlockSize     = coreoptions.FileBlockSize
	optParquetBlockSize  = coreoptions.ParquetBlockSize
	optParquetCodec      = coreoptions.ParquetCompression
	optParquetZstdLevel  = coreoptions.ParquetCompressionZstdLevel
	optAvroCodec         = coreoptions.AvroCodec

	optFileFormatPerLevel      = coreoptions.FileFormatPerLevel
	optFileCompressionPerLevel = coreoptions.FileCompressionPerLevel
	optStatsModePerLevel       = coreoptions.MetadataStatsModePerLevel
	optChangelogFormat         = coreoptions.ChangelogFileFormat
	optChangelogCompression    = coreoptions.ChangelogFileCompression
	optChangelogStatsMode      = coreoptions.ChangelogFileStatsMode
	optChangelogPrefix         = coreoptions.ChangelogFilePrefix
)

// Defaults of those options.
const (
	// DefaultTargetFileSize is target-file-size of append tables (Java
	// CoreOptions.targetFileSize(false)).
	DefaultTargetFileSize = 256 << 20
	// DefaultPrimaryKeyTargetFileSize is target-file-size of primary-key
	// tables (CoreOptions.targetFileSize(true)).
	DefaultPrimaryKeyTargetFileSize = 128 << 20
	// DefaultBlockSize is parquet-java's row-group size
	// (ParquetWriter.DEFAULT_BLOCK_SIZE).
	DefaultBlockSize   = 128 << 20
	defaultCompression = "zstd"
	defaultZstdLevel   = 1
)

// Format identifiers (Java FileFormat.getFormatIdentifier), which are also
// the data files' extensions.
const (
	FormatParquet = "parquet"
	FormatAvro    = "avro"
	FormatORC     = "orc"
)

// config is everything a Writer takes from the table options, parsed once.
type config struct {
	format     string // FormatParquet, FormatORC or FormatAvro
	prefix     string // data-file.prefix
	extension  string // ".parquet", ".zst.parquet", ".avro", ...
	targetSize int64
	blobTarget int64 // blob.target-file-size, with BLOB columns (blob.go)

	parquetCodec compress.Compression
	parquetLevel int
	blockSize    int64

	avro avrofile.WriterOptions
	orc  orc.WriterOptions

	modes []statsMode
	dense bool

	index *indexConfig // append files only; nil: no file index
}

// Validate checks that a Writer can write data files of the table: its
// format, compression and stats options are valid and supported, and every
// column has a type the format can hold. Errors wrap ErrInvalid or
// ErrUnsupported and name the option or column. NewWriter runs the same
// checks; Validate lets a caller fail before any data arrives.
func Validate(ts *schema.TableSchema) error {
	_, err := parseConfig(ts, appendLayout(ts))
	return err
}

// ValidateKeyValue is Validate for the key-value files of a primary-key
// table at the given level (changelog files when changelog is set).
func ValidateKeyValue(ts *schema.TableSchema, kv KeyValue) error {
	l, err := newKVLayout(ts, &kv)
	if err != nil {
		return err
	}
	_, err = parseConfig(ts, l)
	return err
}

// parseConfig reads the options of the files a Writer writes: the table's
// own fields for append tables, or (kv set) the key-value layout fields of
// one level of a primary-key table, whose format, compression and stats
// mode may be chosen per level or for changelog files
// (KeyValueFileWriterFactory's key2Format, key2Compress and key2Stats).
func parseConfig(ts *schema.TableSchema, l *layout) (*config, error) {
	opts, fields, kv := ts.Options, l.fileFields, l.kv
	c := &config{format: FormatParquet, prefix: "data-", targetSize: DefaultTargetFileSize, blockSize: DefaultBlockSize}
	if len(ts.PrimaryKeys) > 0 {
		c.targetSize = DefaultPrimaryKeyTargetFileSize
	}
	format, formatKey, err := kvOption(opts, kv, optFileFormat, optFileFormatPerLevel, optChangelogFormat)
	if err != nil {
		return nil, err
	}
	if format != "" {
		c.format = strings.ToLower(strings.TrimSpace(format))
	}
	if c.format != FormatParquet && c.format != FormatAvro && c.format != FormatORC {
		return nil, fmt.Errorf("%w: option %s=%q (parquet, orc and avro are written)", ErrUnsupported, formatKey, format)
	}
	if kv != nil && c.format == FormatORC {
		return nil, fmt.Errorf("%w: option %s=%q for primary-key tables (parquet and avro key-value files are written)", ErrUnsupported, formatKey, format)
	}
	if len(l.blobIdx) > 0 && c.format == FormatORC {
		return nil, fmt.Errorf("%w: BLOB columns beside %s data files", ErrUnsupported, c.format)
	}
	for _, f := range fields {
		if err := checkWritable(c.format, f.Type); err != nil {
			return nil, fmt.Errorf("column %s: %w", f.Name, err)
		}
	}
	switch {
	case kv == nil:
		if c.index, err = parseFileIndex(opts, fields, 0); err != nil {
			return nil, err
		}
	case !kv.Changelog:
		// Java KeyValueFileWriterFactory: data files index the value
		// columns, changelog files are read sequentially and get none.
		first := l.keyCols() + kvSystemCols
		if c.index, err = parseFileIndex(opts, fields[first:], first); err != nil {
			return nil, err
		}
	}
	compression, _, err := kvOption(opts, kv, optFileCompression, optFileCompressionPerLevel, optChangelogCompression)
	if err != nil {
		return nil, err
	}
	if compression == "" {
		compression = defaultCompression
	}
	zstdLevel, err := intOption(opts, optZstdLevel, defaultZstdLevel)
	if err != nil {
		return nil, err
	}
	switch c.format {
	case FormatParquet:
		err = c.parquetOptions(opts, compression, zstdLevel)
	case FormatORC:
		err = c.orcOptions(opts, compression, zstdLevel)
	default:
		err = c.avroOptions(ts, fields, compression, zstdLevel)
	}
	if err != nil {
		return nil, err
	}
	if kv != nil && kv.Changelog {
		c.prefix = "changelog-"
		if v, ok := opts[optChangelogPrefix]; ok {
			c.prefix = v
		}
	} else if v, ok := opts[optDataFilePrefix]; ok {
		c.prefix = v
	}
	suffix, err := boolOption(opts, optSuffixCompression, false)
	if err != nil {
		return nil, err
	}
	c.extension = extension(c.format, compression, suffix)
	if v, ok := opts[optTargetFileSize]; ok {
		if c.targetSize, err = ParseMemorySize(v); err != nil {
			return nil, fmt.Errorf("option %s: %w", optTargetFileSize, err)
		}
	}
	if len(l.blobIdx) > 0 {
		if c.blobTarget, err = parseBlobTarget(opts, c.targetSize); err != nil {
			return nil, err
		}
	}
	statsMode, _, err := kvOption(opts, kv, optStatsMode, optStatsModePerLevel, optChangelogStatsMode)
	if err != nil {
		return nil, err
	}
	if statsMode == "" {
		statsMode = defaultStatsMode
	}
	if c.modes, err = statsModesFor(opts, statsMode, fields, c.format, kv != nil, l.thinKeys); err != nil {
		return nil, err
	}
	if c.dense, err = boolOption(opts, optStatsDenseStore, true); err != nil {
		return nil, err
	}
	return c, nil
}

// kvOption returns the value of a file option for the files a Writer
// writes, and the key it came from: for changelog files the changelog key
// when set, for key-value files the entry of the per-level map for their
// level when it has one, else the plain key ("" when unset).
func kvOption(opts map[string]string, kv *KeyValue, key, perLevel, changelog string) (string, string, error) {
	if kv != nil {
		if v, ok := opts[changelog]; ok && kv.Changelog {
			return v, changelog, nil
		}
		if m, ok := opts[perLevel]; ok {
			levels, err := parseMapOption(perLevel, m)
			if err != nil {
				return "", "", err
			}
			if v, ok := levels[strconv.Itoa(int(kv.Level))]; ok {
				return v, perLevel, nil
			}
		}
	}
	return opts[key], key, nil
}

// parseMapOption reads a map option ("0:avro,3:parquet") as Java's
// ConfigOptions mapType does for plain keys and values: comma-separated
// key:value pairs.
func parseMapOption(key, v string) (map[string]string, error) {
	out := map[string]string{}
	if strings.TrimSpace(v) == "" {
		return out, nil
	}
	for _, pair := range strings.Split(v, ",") {
		k, val, ok := strings.Cut(pair, ":")
		if !ok || strings.ContainsAny(pair, `'"`) {
			return nil, fmt.Errorf("%w: option %s=%q is not a list of key:value pairs", ErrInvalid, key, v)
		}
		out[strings.TrimSpace(k)] = strings.TrimSpace(val)
	}
	return out, nil
}

// parquetOptions mirrors ParquetFileFormat and RowDataParquetBuilder: the
// codec is parquet.compression if set, else file.compression ("none" meaning
// uncompressed), looked up as parquet-java's CompressionCodecName; the zstd
// level is parquet.compression.codec.zstd.level, else
// file.compression.zstd-level; the row-group size file.block-size, else
// parquet.block.size.
func (c *config) parquetOptions(opts map[string]string, compression string, zstdLevel int) error {
	name := compression
	if strings.EqualFold(name, "none") {
		name = "uncompressed"
	}
	if v, ok := opts[optParquetCodec]; ok {
		name = v
	}
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "uncompressed":
		c.parquetCodec = compress.Codecs.Uncompressed
	case "snappy":
		c.parquetCodec = compress.Codecs.Snappy
	case "gzip":
		c.parquetCodec = compress.Codecs.Gzip
	case "brotli":
		c.parquetCodec = compress.Codecs.Brotli
	case "zstd":
		c.parquetCodec = compress.Codecs.Zstd
	case "lz4_raw":
		c.parquetCodec = compress.Codecs.Lz4Raw
	case "lz4":
		// Hadoop-framed, as parquet-java writes it (format/parquet
		// registers the codec).
		c.parquetCodec = compress.Codecs.Lz4
	case "lzo":
		return fmt.Errorf("%w: Parquet compression %q", ErrUnsupported, name)
	default:
		return fmt.Errorf("%w: Parquet compression %q", ErrInvalid, name)
	}
	c.parquetLevel = compress.DefaultCompressionLevel
	if c.parquetCodec == compress.Codecs.Zstd {
		level, err := intOption(opts, optParquetZstdLevel, zstdLevel)
		if err != nil {
			return err
		}
		c.parquetLevel = level
	}
	if v, ok := opts[optParquetBlockSize]; ok {
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil || n <= 0 {
			return fmt.Errorf("%w: option %s=%q", ErrInvalid, optParquetBlockSize, v)
		}
		c.blockSize = n
	}
	if v, ok := opts[optFileBlockSize]; ok {
		n, err := ParseMemorySize(v)
		if err != nil {
			return fmt.Errorf("option %s: %w", optFileBlockSize, err)
		}
		if n <= 0 {
			return fmt.Errorf("%w: option %s=%q", ErrInvalid, optFileBlockSize, v)
		}
		c.blockSize = n
	}
	return nil
}

// avroOptions mirrors AvroFileFormat.createCodecFactory: avro.codec, when
// set, names the Avro codec exactly (Avro's CodecFactory.fromString: null,
// deflate, snappy, zstandard at Avro's level 3, bzip2, xz); otherwise
// file.compression is handed to format/avrofile, which reads it as Java
// does ("zstd" in any case is zstandard at file.compression.zstd-level,
// anything else must be an Avro codec name). The codec and column types
// are then checked by writing a header to nowhere, so format/avrofile stays
// the one judge of what it can write.
func (c *config) avroOptions(ts *schema.TableSchema, fields []schema.DataField, compression string, zstdLevel int) error {
	c.avro = avrofile.WriterOptions{Compression: compression, ZstdLevel: zstdLevel}
	if name, ok := ts.Options[optAvroCodec]; ok {
		if strings.EqualFold(name, "zstd") {
			// Avro's own registry has no "zstd"; only Paimon's
			// file.compression maps it.
			return fmt.Errorf("%w: option %s=%q is not an Avro codec (use zstandard)", ErrInvalid, optAvroCodec, name)
		}
		c.avro = avrofile.WriterOptions{Compression: name}
	}
	w, err := avrofile.NewWriter(io.Discard, fields, &c.avro)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrUnsupported, err)
	}
	return w.Close()
}

// extension is DataFilePathFactory.makeExtension for Parquet and Avro:
// ".<format>", or ".<compression extension>.<format>" when
// file.suffix.include.compression is set and file.compression has one. The
// compression extension is the Hadoop codec's (HadoopCompressionType, so
// "zstd" gives "zst" and "none" nothing), or the compression name itself
// when Hadoop has no such codec.
func extension(format, compression string, suffix bool) string {
	ext := "." + format
	if !suffix || compression == "" {
		return ext
	}
	cext, known := hadoopExtensions[strings.ToLower(compression)]
	if !known {
		cext = compression
	}
	if cext == "" {
		return ext
	}
	return "." + cext + ext
}

// hadoopExtensions are the file extensions of Java's HadoopCompressionType.
var hadoopExtensions = map[string]string{
	"none": "", "gzip": "gz", "bzip2": "bz2", "deflate": "deflate", "snappy": "snappy", "lz4": "lz4", "zstd": "zst",
}

// checkWritable refuses the column types this package cannot write as Java
// does: VARIANT outside Parquet (Java's ORC and Avro writers have no
// VARIANT; in Parquet it is written unshredded, Java's default layout, which
// Java reads whatever variant.shreddingSchema says), BLOB (Java keeps it in
// separate .blob files), VECTOR (a separate vector file format), and, in
// Parquet and Avro, TIMESTAMP with precision above 6 (ORC holds
// nanoseconds). format/avrofile adds its own checks for Avro (TIME(p > 3),
// Avro names).
func checkWritable(format string, t schema.DataType) error {
	switch t.Root {
	case schema.Timestamp, schema.TimestampLTZ:
		if t.Precision > 6 && format != FormatORC {
			// Java writes them as Parquet INT96, which pqarrow cannot do
			// per column; Java's Avro converter refuses them.
			return fmt.Errorf("%w: %s in %s files", ErrUnsupported, t, format)
		}
	case schema.Variant:
		if format != FormatParquet {
			return fmt.Errorf("%w: %s columns in %s files", ErrUnsupported, t, format)
		}
	case schema.Blob, schema.Vector:
		return fmt.Errorf("%w: %s columns", ErrUnsupported, t)
	}
	for _, child := range []*schema.DataType{t.Element, t.Key, t.Value} {
		if child != nil {
			if err := checkWritable(format, *child); err != nil {
				return err
			}
		}
	}
	for _, f := range t.Fields {
		if err := checkWritable(format, f.Type); err != nil {
			return err
		}
	}
	return nil
}

// intOption reads an integer option, or def when it is absent.
func intOption(opts map[string]string, key string, def int) (int, error) {
	v, ok := opts[key]
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return 0, fmt.Errorf("%w: option %s=%q", ErrInvalid, key, v)
	}
	return n, nil
}

// boolOption reads a boolean option as Java's Options do: "true" or
// "false" in any case; def when absent.
func boolOption(opts map[string]string, key string, def bool) (bool, error) {
	v, ok := opts[key]
	if !ok {
		return def, nil
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, fmt.Errorf("%w: option %s=%q", ErrInvalid, key, v)
}
