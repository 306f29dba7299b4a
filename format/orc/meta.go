package orc

import "fmt"

// The messages of orc_proto.proto this package reads and writes, with the
// fields it uses. Field numbers are the proto's; decoding skips the others.

// CompressionKind is the generic compression of an ORC file
// (orc_proto.proto CompressionKind).
type CompressionKind int

// Compression kinds.
const (
	CompressionNone   CompressionKind = 0
	CompressionZlib   CompressionKind = 1
	CompressionSnappy CompressionKind = 2
	CompressionLZO    CompressionKind = 3
	CompressionLZ4    CompressionKind = 4
	CompressionZstd   CompressionKind = 5
)

func (k CompressionKind) String() string {
	switch k {
	case CompressionNone:
		return "NONE"
	case CompressionZlib:
		return "ZLIB"
	case CompressionSnappy:
		return "SNAPPY"
	case CompressionLZO:
		return "LZO"
	case CompressionLZ4:
		return "LZ4"
	case CompressionZstd:
		return "ZSTD"
	}
	return fmt.Sprintf("CompressionKind(%d)", int(k))
}

type postScript struct {
	footerLength   uint64
	compression    CompressionKind
	blockSize      uint64
	version        []uint64
	metadataLength uint64
	writerVersion  uint64
	stripeStatsLen uint64 // encrypted stripe statistics (ORC-14)
	magic          []byte
}

func decodePostScript(b []byte) (postScript, error) {
	var ps postScript
	p := pbReader{b: b}
	for {
		f, w, ok := p.next()
		if !ok {
			break
		}
		switch f {
		case 1:
			ps.footerLength = p.uint(w)
		case 2:
			ps.compression = CompressionKind(p.uint(w))
		case 3:
			ps.blockSize = p.uint(w)
		case 4:
			ps.version = p.uints(w, ps.version)
		case 5:
			ps.metadataLength = p.uint(w)
		case 6:
			ps.writerVersion = p.uint(w)
		case 7:
			ps.stripeStatsLen = p.uint(w)
		case 8000:
			ps.magic = p.str(w)
		default:
			p.skip(w)
		}
	}
	return ps, p.err
}

func (ps *postScript) encode() []byte {
	var w pbWriter
	w.uint(1, ps.footerLength)
	w.uint(2, uint64(ps.compression))
	if ps.compression != CompressionNone {
		w.uint(3, ps.blockSize)
	}
	w.packed(4, ps.version)
	w.uint(5, ps.metadataLength)
	w.uint(6, ps.writerVersion)
	w.bytes(8000, ps.magic)
	return w.b
}

// typeKind is orc_proto.proto Type.Kind.
type typeKind int

const (
	kindBoolean          typeKind = 0
	kindByte             typeKind = 1
	kindShort            typeKind = 2
	kindInt              typeKind = 3
	kindLong             typeKind = 4
	kindFloat            typeKind = 5
	kindDouble           typeKind = 6
	kindString           typeKind = 7
	kindBinary           typeKind = 8
	kindTimestamp        typeKind = 9
	kindList             typeKind = 10
	kindMap              typeKind = 11
	kindStruct           typeKind = 12
	kindUnion            typeKind = 13
	kindDecimal          typeKind = 14
	kindDate             typeKind = 15
	kindVarchar          typeKind = 16
	kindChar             typeKind = 17
	kindTimestampInstant typeKind = 18
)

var typeKindNames = [...]string{"boolean", "tinyint", "smallint", "int", "bigint", "float", "double",
	"string", "binary", "timestamp", "array", "map", "struct", "uniontype", "decimal", "date", "varchar",
	"char", "timestamp with local time zone"}

func (k typeKind) String() string {
	if k >= 0 && int(k) < len(typeKindNames) {
		return typeKindNames[k]
	}
	return fmt.Sprintf("type kind %d", int(k))
}

// orcType is one node of the flattened type tree (Type).
type orcType struct {
	kind       typeKind
	subtypes   []uint64
	fieldNames []string
	maxLength  uint64
	precision  uint64
	scale      uint64
	attributes [][2]string
}

// attribute returns the value of a type attribute.
func (t *orcType) attribute(key string) (string, bool) {
	for _, kv := range t.attributes {
		if kv[0] == key {
			return kv[1], true
		}
	}
	return "", false
}

func decodeType(p *pbReader, w int) orcType {
	var t orcType
	s := p.sub(w)
	for {
		f, w, ok := s.next()
		if !ok {
			break
		}
		switch f {
		case 1:
			t.kind = typeKind(s.uint(w))
		case 2:
			t.subtypes = s.uints(w, t.subtypes)
		case 3:
			t.fieldNames = append(t.fieldNames, string(s.str(w)))
		case 4:
			t.maxLength = s.uint(w)
		case 5:
			t.precision = s.uint(w)
		case 6:
			t.scale = s.uint(w)
		case 7:
			kv := s.sub(w)
			var pair [2]string
			for {
				f, w, ok := kv.next()
				if !ok {
					break
				}
				switch f {
				case 1:
					pair[0] = string(kv.str(w))
				case 2:
					pair[1] = string(kv.str(w))
				default:
					kv.skip(w)
				}
			}
			if kv.err != nil {
				s.err = kv.err
			}
			t.attributes = append(t.attributes, pair)
		default:
			s.skip(w)
		}
	}
	if s.err != nil {
		p.err = s.err
	}
	return t
}

func (t *orcType) encode(w *pbWriter) {
	w.uint(1, uint64(t.kind))
	w.packed(2, t.subtypes)
	for _, n := range t.fieldNames {
		w.str(3, n)
	}
	switch t.kind {
	case kindChar, kindVarchar:
		w.uint(4, t.maxLength)
	case kindDecimal:
		w.uint(5, t.precision)
		w.uint(6, t.scale)
	}
	for _, kv := range t.attributes {
		w.message(7, func(w *pbWriter) {
			w.str(1, kv[0])
			w.str(2, kv[1])
		})
	}
}

// stripeInfo is StripeInformation.
type stripeInfo struct {
	offset       uint64
	indexLength  uint64
	dataLength   uint64
	footerLength uint64
	numRows      uint64
	encrypted    bool // encryptStripeId or encryptedLocalKeys present
}

func decodeStripeInfo(p *pbReader, w int) stripeInfo {
	var si stripeInfo
	s := p.sub(w)
	for {
		f, w, ok := s.next()
		if !ok {
			break
		}
		switch f {
		case 1:
			si.offset = s.uint(w)
		case 2:
			si.indexLength = s.uint(w)
		case 3:
			si.dataLength = s.uint(w)
		case 4:
			si.footerLength = s.uint(w)
		case 5:
			si.numRows = s.uint(w)
		case 6, 7:
			si.encrypted = true
			s.skip(w)
		default:
			s.skip(w)
		}
	}
	if s.err != nil {
		p.err = s.err
	}
	return si
}

// footer is the file Footer.
type footer struct {
	headerLength    uint64
	contentLength   uint64
	stripes         []stripeInfo
	types           []orcType
	metadata        [][2]string
	numRows         uint64
	statistics      []ColumnStatistics
	rowIndexStride  uint64
	writer          uint64
	hasWriter       bool
	encrypted       bool
	calendar        uint64
	softwareVersion string
}

func decodeFooter(b []byte) (footer, error) {
	var ft footer
	p := pbReader{b: b}
	for {
		f, w, ok := p.next()
		if !ok {
			break
		}
		switch f {
		case 1:
			ft.headerLength = p.uint(w)
		case 2:
			ft.contentLength = p.uint(w)
		case 3:
			ft.stripes = append(ft.stripes, decodeStripeInfo(&p, w))
		case 4:
			ft.types = append(ft.types, decodeType(&p, w))
		case 5:
			kv := p.sub(w)
			var item [2]string
			for {
				f, w, ok := kv.next()
				if !ok {
					break
				}
				switch f {
				case 1:
					item[0] = string(kv.str(w))
				case 2:
					item[1] = string(kv.str(w))
				default:
					kv.skip(w)
				}
			}
			if kv.err != nil {
				p.err = kv.err
			}
			ft.metadata = append(ft.metadata, item)
		case 6:
			ft.numRows = p.uint(w)
		case 7:
			ft.statistics = append(ft.statistics, decodeColumnStatistics(&p, w))
		case 8:
			ft.rowIndexStride = p.uint(w)
		case 9:
			ft.writer = p.uint(w)
			ft.hasWriter = true
		case 10:
			ft.encrypted = true
			p.skip(w)
		case 11:
			ft.calendar = p.uint(w)
		case 12:
			ft.softwareVersion = string(p.str(w))
		default:
			p.skip(w)
		}
	}
	return ft, p.err
}

// decodeMetadata decodes the file Metadata: the statistics of every column
// of every stripe.
func decodeMetadata(b []byte) ([][]ColumnStatistics, error) {
	var out [][]ColumnStatistics
	p := pbReader{b: b}
	for {
		f, w, ok := p.next()
		if !ok {
			break
		}
		if f != 1 {
			p.skip(w)
			continue
		}
		s := p.sub(w)
		var cols []ColumnStatistics
		for {
			f, w, ok := s.next()
			if !ok {
				break
			}
			if f == 1 {
				cols = append(cols, decodeColumnStatistics(&s, w))
			} else {
				s.skip(w)
			}
		}
		if s.err != nil {
			p.err = s.err
		}
		out = append(out, cols)
	}
	return out, p.err
}

// streamKind is Stream.Kind.
type streamKind int

const (
	streamPresent        streamKind = 0
	streamData           streamKind = 1
	streamLength         streamKind = 2
	streamDictionaryData streamKind = 3
	streamDictionaryCnt  streamKind = 4
	streamSecondary      streamKind = 5
	streamRowIndex       streamKind = 6
	streamBloomFilter    streamKind = 7
	streamBloomFilterUTF streamKind = 8
	streamEncryptedIndex streamKind = 9
	streamEncryptedData  streamKind = 10
)

func (k streamKind) String() string {
	names := [...]string{"PRESENT", "DATA", "LENGTH", "DICTIONARY_DATA", "DICTIONARY_COUNT", "SECONDARY",
		"ROW_INDEX", "BLOOM_FILTER", "BLOOM_FILTER_UTF8", "ENCRYPTED_INDEX", "ENCRYPTED_DATA"}
	if k >= 0 && int(k) < len(names) {
		return names[k]
	}
	return fmt.Sprintf("stream kind %d", int(k))
}

// isIndex reports whether streams of this kind live in the index section.
func (k streamKind) isIndex() bool {
	return k == streamRowIndex || k == streamBloomFilter || k == streamBloomFilterUTF || k == streamEncryptedIndex
}

type streamInfo struct {
	kind   streamKind
	column uint64
	length uint64
}

// encodingKind is ColumnEncoding.Kind.
type encodingKind int

const (
	encDirect       encodingKind = 0
	encDictionary   encodingKind = 1
	encDirectV2     encodingKind = 2
	encDictionaryV2 encodingKind = 3
)

func (k encodingKind) String() string {
	switch k {
	case encDirect:
		return "DIRECT"
	case encDictionary:
		return "DICTIONARY"
	case encDirectV2:
		return "DIRECT_V2"
	case encDictionaryV2:
		return "DICTIONARY_V2"
	}
	return fmt.Sprintf("encoding %d", int(k))
}

func (k encodingKind) v2() bool { return k == encDirectV2 || k == encDictionaryV2 }

func (k encodingKind) dictionary() bool { return k == encDictionary || k == encDictionaryV2 }

type columnEncoding struct {
	kind     encodingKind
	dictSize uint64
}

// stripeFooter is StripeFooter.
type stripeFooter struct {
	streams   []streamInfo
	encodings []columnEncoding
	timezone  string
	encrypted bool
}

func decodeStripeFooter(b []byte) (stripeFooter, error) {
	var sf stripeFooter
	p := pbReader{b: b}
	for {
		f, w, ok := p.next()
		if !ok {
			break
		}
		switch f {
		case 1:
			s := p.sub(w)
			var si streamInfo
			for {
				f, w, ok := s.next()
				if !ok {
					break
				}
				switch f {
				case 1:
					si.kind = streamKind(s.uint(w))
				case 2:
					si.column = s.uint(w)
				case 3:
					si.length = s.uint(w)
				default:
					s.skip(w)
				}
			}
			if s.err != nil {
				p.err = s.err
			}
			sf.streams = append(sf.streams, si)
		case 2:
			s := p.sub(w)
			var ce columnEncoding
			for {
				f, w, ok := s.next()
				if !ok {
					break
				}
				switch f {
				case 1:
					ce.kind = encodingKind(s.uint(w))
				case 2:
					ce.dictSize = s.uint(w)
				default:
					s.skip(w)
				}
			}
			if s.err != nil {
				p.err = s.err
			}
			sf.encodings = append(sf.encodings, ce)
		case 3:
			sf.timezone = string(p.str(w))
		case 4:
			sf.encrypted = true
			p.skip(w)
		default:
			p.skip(w)
		}
	}
	return sf, p.err
}

func (sf *stripeFooter) encode() []byte {
	var w pbWriter
	for _, s := range sf.streams {
		w.message(1, func(w *pbWriter) {
			w.uint(1, uint64(s.kind))
			w.uint(2, s.column)
			w.uint(3, s.length)
		})
	}
	for _, e := range sf.encodings {
		w.message(2, func(w *pbWriter) {
			w.uint(1, uint64(e.kind))
			if e.kind.dictionary() {
				w.uint(2, e.dictSize)
			}
		})
	}
	if sf.timezone != "" {
		w.str(3, sf.timezone)
	}
	return w.b
}

// rowIndexEntry is RowIndexEntry: the stream positions where a row group
// starts and its statistics.
type rowIndexEntry struct {
	positions []uint64
	stats     ColumnStatistics
	hasStats  bool
}

func decodeRowIndex(b []byte) ([]rowIndexEntry, error) {
	var out []rowIndexEntry
	p := pbReader{b: b}
	for {
		f, w, ok := p.next()
		if !ok {
			break
		}
		if f != 1 {
			p.skip(w)
			continue
		}
		s := p.sub(w)
		var e rowIndexEntry
		for {
			f, w, ok := s.next()
			if !ok {
				break
			}
			switch f {
			case 1:
				e.positions = s.uints(w, e.positions)
			case 2:
				e.stats = decodeColumnStatistics(&s, w)
				e.hasStats = true
			default:
				s.skip(w)
			}
		}
		if s.err != nil {
			p.err = s.err
		}
		out = append(out, e)
	}
	return out, p.err
}

func encodeRowIndex(entries []rowIndexEntry) []byte {
	var w pbWriter
	for i := range entries {
		e := &entries[i]
		w.message(1, func(w *pbWriter) {
			w.packed(1, e.positions)
			if e.hasStats {
				w.message(2, e.stats.encode)
			}
		})
	}
	return w.b
}
