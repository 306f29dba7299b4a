package testtable

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
)

// Table options that shape partition directories (Java CoreOptions).
const (
	optPartitionDefaultName = "partition.default-name"
	optPartitionLegacyName  = "partition.legacy-name"
	defaultPartitionName    = "__DEFAULT_PARTITION__"
)

// partitioner turns partition values into the serialized BinaryRow stored in
// manifests and the directory Java writes the partition's files to.
type partitioner struct {
	fields      []schema.DataField
	types       []schema.DataType
	defaultName string
	legacy      bool
}

func newPartitioner(ts *schema.TableSchema) (*partitioner, error) {
	p := &partitioner{
		fields:      ts.PartitionFields(),
		defaultName: defaultPartitionName,
		legacy:      true,
	}
	if v, ok := ts.Options[optPartitionDefaultName]; ok {
		p.defaultName = v
	}
	if v, ok := ts.Options[optPartitionLegacyName]; ok {
		b, err := strconv.ParseBool(strings.TrimSpace(v))
		if err != nil {
			return nil, fmt.Errorf("%w: option %s=%q", ErrInvalid, optPartitionLegacyName, v)
		}
		p.legacy = b
	}
	for _, f := range p.fields {
		p.types = append(p.types, f.Type.Copy(true))
	}
	return p, nil
}

// row returns the serialized partition row (4-byte arity prefix, then the
// BinaryRow; Java SerializationUtils.serializeBinaryRow).
func (p *partitioner) row(values []any) ([]byte, error) {
	if len(values) != len(p.fields) {
		return nil, fmt.Errorf("%w: %d partition values for %d partition keys", ErrInvalid, len(values), len(p.fields))
	}
	row, err := binaryrow.Encode(data.Insert, p.types, values)
	if err != nil {
		return nil, fmt.Errorf("%w: partition %v: %w", ErrInvalid, values, err)
	}
	return binaryrow.MarshalSerialized(row, len(values)), nil
}

// dir returns the partition directory with a trailing slash ("dt=1/hr=2/"),
// or "" for an unpartitioned table. It mirrors Java
// InternalRowPartitionComputer.generatePartValues followed by
// PartitionPathUtils.generatePartitionPath.
func (p *partitioner) dir(values []any) (string, error) {
	var sb strings.Builder
	for i, f := range p.fields {
		s := ""
		if values[i] != nil {
			var err error
			if s, err = partitionString(values[i], f.Type, p.legacy); err != nil {
				return "", fmt.Errorf("partition key %s: %w", f.Name, err)
			}
		}
		if blank(s) {
			s = p.defaultName
		}
		if i > 0 {
			sb.WriteByte('/')
		}
		escapePath(&sb, f.Name)
		sb.WriteByte('=')
		escapePath(&sb, s)
	}
	if len(p.fields) > 0 {
		sb.WriteByte('/')
	}
	return sb.String(), nil
}

// partitionString renders one non-null partition value. With legacy names
// (Java's default) that is the toString of Java's internal value, so DATE
// is its day number and TIMESTAMP a LocalDateTime; otherwise the value cast
// to STRING. Types nobody partitions by (floating point, binary, nested) are
// refused rather than approximated.
func partitionString(v any, t schema.DataType, legacy bool) (string, error) {
	switch x := v.(type) {
	case string:
		return x, nil
	case bool:
		return strconv.FormatBool(x), nil
	case int8:
		return strconv.Itoa(int(x)), nil
	case int16:
		return strconv.Itoa(int(x)), nil
	case int32:
		if t.Root == schema.Date && !legacy {
			return time.Unix(int64(x)*86400, 0).UTC().Format("2006-01-02"), nil
		}
		if t.Root == schema.Time && !legacy {
			break
		}
		return strconv.Itoa(int(x)), nil
	case int64:
		return strconv.FormatInt(x, 10), nil
	case data.Decimal:
		return x.String(), nil
	case data.Timestamp:
		if legacy {
			return localDateTime(x), nil
		}
	}
	return "", fmt.Errorf("%w: partition value %T of type %s", ErrUnsupported, v, t)
}

// localDateTime prints a timestamp as java.time.LocalDateTime.toString does:
// seconds only when they or the fraction are non-zero, the fraction in
// groups of three digits.
func localDateTime(ts data.Timestamp) string {
	t := time.UnixMilli(ts.Millis).UTC().Add(time.Duration(ts.NanoOfMilli))
	s := t.Format("2006-01-02T15:04")
	ns := t.Nanosecond()
	if t.Second() == 0 && ns == 0 {
		return s
	}
	s += fmt.Sprintf(":%02d", t.Second())
	switch {
	case ns == 0:
	case ns%1_000_000 == 0:
		s += fmt.Sprintf(".%03d", ns/1_000_000)
	case ns%1000 == 0:
		s += fmt.Sprintf(".%06d", ns/1000)
	default:
		s += fmt.Sprintf(".%09d", ns)
	}
	return s
}

// blank mirrors Java StringUtils.isNullOrWhitespaceOnly, which tests every
// character with Character.isWhitespace.
func blank(s string) bool {
	for _, r := range s {
		if !javaWhitespace(r) {
			return false
		}
	}
	return true
}

// javaWhitespace is Java's Character.isWhitespace: Unicode space, line and
// paragraph separators except the non-breaking ones, plus the ASCII
// controls \t \n \v \f \r and the file/group/record/unit separators.
func javaWhitespace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', 0x1c, 0x1d, 0x1e, 0x1f:
		return true
	case 0xa0, 0x2007, 0x202f:
		return false
	}
	return unicode.In(r, unicode.Zs, unicode.Zl, unicode.Zp)
}

// escapePath percent-encodes what Java PartitionPathUtils.escapePathName
// escapes: ASCII controls, DEL and "#%'*/:=?\{}[]^ (upper-case hex).
func escapePath(sb *strings.Builder, s string) {
	const hexDigits = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == 0x7f || strings.IndexByte("\"#%'*/:=?\\{}[]^", c) >= 0 {
			sb.WriteByte('%')
			sb.WriteByte(hexDigits[c>>4])
			sb.WriteByte(hexDigits[c&15])
			continue
		}
		sb.WriteByte(c)
	}
}
