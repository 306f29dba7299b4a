package testtable

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/coreoptions"
	"github.com/paimon-go/paimon-go/internal/partpath"
)

// Table options that shape partition directories (Java CoreOptions).
const (
	optPartitionDefaultName = coreoptions.PartitionDefaultName
	optPartitionLegacyName  = coreoptions.PartitionGenerateLegacyName
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
// or "" for an unpartitioned table (internal/partpath, as Java computes it).
func (p *partitioner) dir(values []any) (string, error) {
	d, err := partpath.Path(p.fields, values, p.defaultName, p.legacy)
	if errors.Is(err, partpath.ErrUnsupported) {
		return "", fmt.Errorf("%w: %w", ErrUnsupported, err)
	}
	return d, err
}
