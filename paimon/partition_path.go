package paimon

import (
	"errors"
	"fmt"

	"github.com/paimon-go/paimon-go/format/binaryrow"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/partpath"
)

// partitionPather turns a partition BinaryRow into the relative directory
// Java writes its data files to ("dt=2024-01-01/hr=3/"). It mirrors Java
// InternalRowPartitionComputer.generatePartValues together with
// PartitionPathUtils.generatePartitionPath and escapePathName.
type partitionPather struct {
	fields      []schema.DataField
	types       []schema.DataType
	defaultName string
	legacy      bool
}

func newPartitionPather(ts *schema.TableSchema) (*partitionPather, error) {
	fields := ts.PartitionFields()
	opts := tableOptions(ts.Options)
	p := &partitionPather{
		fields:      fields,
		defaultName: opts.partitionDefaultName(),
		legacy:      opts.boolean(optPartitionLegacyName, true),
	}
	for _, f := range fields {
		p.types = append(p.types, f.Type)
	}
	return p, nil
}

// values decodes a serialized partition row.
func (p *partitionPather) values(partition []byte) ([]any, error) {
	row, err := binaryrow.ParseSerialized(partition)
	if err != nil {
		return nil, err
	}
	if row.Arity() != len(p.types) {
		return nil, fmt.Errorf("partition row has %d fields, table has %d partition keys", row.Arity(), len(p.types))
	}
	return row.Values(p.types)
}

// path returns the partition directory with a trailing slash, or "" for an
// unpartitioned table.
func (p *partitionPather) path(values []any) (string, error) {
	p2, err := partpath.Path(p.fields, values, p.defaultName, p.legacy)
	if errors.Is(err, partpath.ErrUnsupported) {
		return "", fmt.Errorf("%w: %w", ErrUnsupported, err)
	}
	return p2, err
}
