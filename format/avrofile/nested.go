package avrofile

import (
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/paimon-go/paimon-go/internal/avro"
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

func (d *recordDecoder) decode(c *avro.Cursor) error {
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
			start := c.Pos()
			for _, t := range s.targets {
				c.Seek(start)
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

func (d *listDecoder) decode(c *avro.Cursor) error {
	d.b.Append(true)
	budget := c.Budget()
	for {
		n, _, err := c.Block(&budget)
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

func (d *fixedListDecoder) decode(c *avro.Cursor) error {
	d.b.Append(true)
	budget := c.Budget()
	var total int64
	for {
		n, _, err := c.Block(&budget)
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

func (d *mapDecoder) decode(c *avro.Cursor) error {
	d.b.Append(true)
	budget := c.Budget()
	for {
		n, _, err := c.Block(&budget)
		if err != nil || n == 0 {
			return err
		}
		for ; n > 0; n-- {
			k, err := c.Bytes()
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

func (d *arrayMapDecoder) decode(c *avro.Cursor) error {
	d.b.Append(true)
	budget := c.Budget()
	for {
		n, _, err := c.Block(&budget)
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

// skipValue consumes one value of a writer schema node without producing
// anything (Java FieldReader.skip), with internal/avro's Skipper.
type skipValue struct{ s *avro.Skipper }

func (d skipValue) decode(c *avro.Cursor) error { return d.s.Skip(c) }
