package parquet

import (
	"fmt"

	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/paimon-go/paimon-go/format/schema"
)

// Names of the children of a VARIANT group, as Java's Parquet writer
// (ParquetSchemaConverter, PaimonShreddingUtils) names them.
const (
	variantValue      = "value"
	variantMetadata   = "metadata"
	variantTypedValue = "typed_value"
)

// checkShredded refuses a VARIANT column that the file stores shredded
// (Parquet variant shredding, written by Java when variant.shreddingSchema
// is set or inferred): part of each value then lives in typed_value and
// must be rebuilt into the variant encoding (Java ShreddingUtils.rebuild),
// which this package does not do yet. Reading only value and metadata
// would return wrong values, so the file is refused before any of its rows,
// as ErrUnsupported: the file is well formed.
func (r *Reader) checkShredded(sf *pqarrow.SchemaField, f schema.DataField) error {
	if !hasVariant(f.Type) {
		return nil
	}
	if path, ok := shreddedGroup(sf, f.Name); ok {
		name := r.name
		if name == "" {
			name = "file"
		}
		return fmt.Errorf("%w: %s: shredded VARIANT column %s (typed_value): only unshredded variants are read", ErrUnsupported, name, path)
	}
	return nil
}

func hasVariant(t schema.DataType) bool {
	if t.Root == schema.Variant {
		return true
	}
	for _, c := range []*schema.DataType{t.Element, t.Key, t.Value} {
		if c != nil && hasVariant(*c) {
			return true
		}
	}
	for _, f := range t.Fields {
		if hasVariant(f.Type) {
			return true
		}
	}
	return false
}

// shreddedGroup finds a group holding metadata and typed_value children
// (a shredded variant) under sf, and returns its path.
func shreddedGroup(sf *pqarrow.SchemaField, path string) (string, bool) {
	if sf.IsLeaf() {
		return "", false
	}
	var metadata, typed bool
	for i := range sf.Children {
		switch sf.Children[i].Field.Name {
		case variantMetadata:
			metadata = true
		case variantTypedValue:
			typed = true
		}
	}
	if metadata && typed {
		return path, true
	}
	for i := range sf.Children {
		if p, ok := shreddedGroup(&sf.Children[i], path+"."+sf.Children[i].Field.Name); ok {
			return p, true
		}
	}
	return "", false
}
