package mergefunc

import (
	"github.com/paimon-go/paimon-go/format/schema"
)

// varBinaryOnly mirrors the type check of the bitmap and sketch factories:
// the field must be VARBINARY (BYTES included), not BINARY.
func varBinaryOnly(t schema.DataType, b aggBase, what string) error {
	if t.Root != schema.VarBinary {
		return invalidf("data type for %s column %s must be 'VarBinaryType' but was '%s'", what, b.field, t)
	}
	return nil
}

// rbm32Agg mirrors FieldRoaringBitmap32Agg: the union of two serialized
// 32-bit RoaringBitmaps (org.roaringbitmap 1.2.1, the version Paimon 1.4.2
// bundles), run-optimized and serialized in the portable format, byte for
// byte as Java produces it. It cannot retract.
type rbm32Agg struct{ aggBase }

func newRbm32Agg(t schema.DataType, b aggBase, _ options) (fieldAgg, error) {
	if err := varBinaryOnly(t, b, "roaring bitmap"); err != nil {
		return nil, err
	}
	return &rbm32Agg{b}, nil
}

func (a *rbm32Agg) agg(acc, in any) (any, error) {
	if acc == nil || in == nil {
		if acc == nil {
			return in, nil
		}
		return acc, nil
	}
	x, y, err := pair[[]byte](schema.BytesType(), acc, in)
	if err != nil {
		return nil, err
	}
	out, err := roaringUnion(x, y)
	if err != nil {
		return nil, mergeErrf("unable to se/deserialize roaring bitmap (field %s): %v", a.field, err)
	}
	return out, nil
}

// opaqueBinaryAgg stands for the binary unions this package does not
// reproduce byte for byte (theta_sketch and hll_sketch from Apache
// DataSketches 4.2.0, rbm64 from Roaring64Bitmap's ART serialization). A
// NULL on either side needs no union and is answered exactly, as Java
// does; merging two values returns ErrUnsupported. None of them retracts.
type opaqueBinaryAgg struct {
	aggBase
	why string
}

func newOpaqueBinaryAgg(why string) aggBuilder {
	return func(t schema.DataType, b aggBase, _ options) (fieldAgg, error) {
		what := map[string]string{aggRbm64: "roaring bitmap", aggThetaSketch: "theta sketch", aggHllSketch: "hll sketch"}[b.fn]
		if err := varBinaryOnly(t, b, what); err != nil {
			return nil, err
		}
		return &opaqueBinaryAgg{aggBase: b, why: why}, nil
	}
}

func (a *opaqueBinaryAgg) agg(acc, in any) (any, error) {
	if acc == nil || in == nil {
		if acc == nil {
			return in, nil
		}
		return acc, nil
	}
	return nil, unsupportedf("aggregate function %s (field %s): %s", a.fn, a.field, a.why)
}
