package avrofile

import (
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/array"
)

// fieldStep decodes one field of a writer record: into every projected
// column that reads it (usually one, several when a projection repeats a
// field), or past it when none does.
type fieldStep struct {
	targets []decoder
	skip    decoder
}

// recordDecoder reads an Avro record field by field in writing order, like
// Java's RowReader: fields the reader wants are decoded into their columns,
// the others are skipped. With b set it is a ROW column (one struct slot
// per record); with b nil it is the top-level row of a data file.
type recordDecoder struct {
	b     *array.StructBuilder
	steps []fieldStep
}

func (d *recordDecoder) decode(c *cursor) error {
	if d.b != nil {
		d.b.Append(true)
	}
	for i := range d.steps {
		s := &d.steps[i]
		switch len(s.targets) {
		case 0:
			if err := s.skip.decode(c); err != nil {
				return err
			}
		case 1:
			if err := s.targets[0].decode(c); err != nil {
				return err
			}
		default:
			start := c.pos
			for _, t := range s.targets {
				c.pos = start
				if err := t.decode(c); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// listDecoder reads an Avro array into ARRAY's list (Java ArrayReader).
type listDecoder struct {
	b    *array.ListBuilder
	elem decoder
}

func (d *listDecoder) decode(c *cursor) error {
	d.b.Append(true)
	budget := c.budget()
	for {
		n, err := c.block(&budget)
		if err != nil || n == 0 {
			return err
		}
		for ; n > 0; n-- {
			if err := d.elem.decode(c); err != nil {
				return err
			}
		}
	}
}

// fixedListDecoder reads an Avro array into VECTOR's fixed-size list (Java
// ArrayVectorReader); every array must have the declared length.
type fixedListDecoder struct {
	b    *array.FixedSizeListBuilder
	n    int64
	elem decoder
}

func (d *fixedListDecoder) decode(c *cursor) error {
	d.b.Append(true)
	budget := c.budget()
	var total int64
	for {
		n, err := c.block(&budget)
		if err != nil {
			return err
		}
		if n == 0 {
			break
		}
		total += n
		if total > d.n {
			return fmt.Errorf("vector longer than %d", d.n)
		}
		for ; n > 0; n-- {
			if err := d.elem.decode(c); err != nil {
				return err
			}
		}
	}
	if total != d.n {
		return fmt.Errorf("vector of length %d, want %d", total, d.n)
	}
	return nil
}

// mapDecoder reads an Avro map (string keys) into MAP or MULTISET (Java
// MapReader). Entries keep the file's order; duplicate keys, which an Avro
// map cannot hold when written by Java from a Map, are kept as they are.
type mapDecoder struct {
	b     *array.MapBuilder
	keys  *array.BinaryBuilder
	value decoder
}

func (d *mapDecoder) decode(c *cursor) error {
	d.b.Append(true)
	budget := c.budget()
	for {
		n, err := c.block(&budget)
		if err != nil || n == 0 {
			return err
		}
		for ; n > 0; n-- {
			k, err := c.bytes()
			if err != nil {
				return err
			}
			d.keys.Append(k)
			if err := d.value.decode(c); err != nil {
				return err
			}
		}
	}
}

// arrayMapDecoder reads the array of {key, value} records Paimon writes for
// maps and multisets whose keys are not strings (Java ArrayMapReader; the
// array carries logicalType "map", but like Java we go by the column type).
// entry decodes one record into the key and item builders.
type arrayMapDecoder struct {
	b     *array.MapBuilder
	keys  array.Builder
	entry decoder
}

var errNullKey = errors.New("null map key")

func (d *arrayMapDecoder) decode(c *cursor) error {
	d.b.Append(true)
	budget := c.budget()
	for {
		n, err := c.block(&budget)
		if err != nil || n == 0 {
			return err
		}
		for ; n > 0; n-- {
			nulls := d.keys.NullN()
			if err := d.entry.decode(c); err != nil {
				return err
			}
			if d.keys.NullN() != nulls {
				// Arrow map keys cannot be null.
				return errNullKey
			}
		}
	}
}

// skipDecoder consumes one value of a writer schema node without producing
// anything (Java FieldReader.skip).
type skipDecoder struct {
	kind     skipKind
	size     int           // fixed
	elem     *skipDecoder  // array items, map values
	fields   []skipDecoder // record fields
	branches []skipDecoder // union branches
}

type skipKind uint8

const (
	skipNothing skipKind = iota
	skipBoolean
	skipVarint
	skipFloat
	skipDouble
	skipBytes
	skipFixed
	skipArray
	skipMap
	skipRecord
	skipUnion
)

func (d *skipDecoder) decode(c *cursor) error {
	switch d.kind {
	case skipNothing:
		return nil
	case skipBoolean:
		_, err := c.boolean()
		return err
	case skipVarint:
		_, err := c.long()
		return err
	case skipFloat:
		return c.skip(4)
	case skipDouble:
		return c.skip(8)
	case skipBytes:
		n, err := c.long()
		if err != nil {
			return err
		}
		return c.skip(n)
	case skipFixed:
		return c.skip(int64(d.size))
	case skipArray, skipMap:
		budget := c.budget()
		for {
			n, size, err := c.blockWithSize(&budget)
			if err != nil || n == 0 {
				return err
			}
			if size >= 0 {
				// The writer recorded the block's byte size: jump.
				if err := c.skip(size); err != nil {
					return err
				}
				continue
			}
			for ; n > 0; n-- {
				if d.kind == skipMap {
					k, err := c.long()
					if err != nil {
						return err
					}
					if err := c.skip(k); err != nil {
						return err
					}
				}
				if err := d.elem.decode(c); err != nil {
					return err
				}
			}
		}
	case skipRecord:
		for i := range d.fields {
			if err := d.fields[i].decode(c); err != nil {
				return err
			}
		}
		return nil
	case skipUnion:
		i, err := c.index(len(d.branches))
		if err != nil {
			return err
		}
		return d.branches[i].decode(c)
	}
	return fmt.Errorf("unknown skip kind %d", d.kind)
}
