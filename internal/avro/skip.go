package avro

import "fmt"

// maxSkipDepth bounds the nesting of schemas a Skipper is compiled from, so
// that a hostile header cannot exhaust the stack.
const maxSkipDepth = 64

// Skipper consumes values of one writer schema without decoding them: the
// fields a reader does not know (Avro schema resolution ignores writer
// fields the reader lacks). Compile one per schema node with NewSkipper and
// reuse it; it is immutable and safe for concurrent use.
type Skipper struct {
	kind     skipKind
	size     int       // fixed
	elem     *Skipper  // array items, map values
	children []Skipper // record fields, union branches
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

// NewSkipper compiles the Skipper of writer schema node n. It fails, with
// an error wrapping ErrCorrupt, for a node that is not a valid expanded
// schema (a recursive type's reference, an array without items).
func NewSkipper(n *Node) (*Skipper, error) {
	s, err := newSkipper(n, 0)
	if err != nil {
		return nil, err
	}
	return &s, nil
}

func newSkipper(n *Node, depth int) (Skipper, error) {
	if depth > maxSkipDepth {
		return Skipper{}, fmt.Errorf("%w: schema nested deeper than %d", ErrCorrupt, maxSkipDepth)
	}
	switch n.Type {
	case "null":
		return Skipper{kind: skipNothing}, nil
	case "boolean":
		return Skipper{kind: skipBoolean}, nil
	case "int", "long", "enum":
		return Skipper{kind: skipVarint}, nil
	case "float":
		return Skipper{kind: skipFloat}, nil
	case "double":
		return Skipper{kind: skipDouble}, nil
	case "bytes", "string":
		return Skipper{kind: skipBytes}, nil
	case "fixed":
		if n.Size < 0 {
			return Skipper{}, fmt.Errorf("%w: fixed of size %d", ErrCorrupt, n.Size)
		}
		return Skipper{kind: skipFixed, size: n.Size}, nil
	case "array", "map":
		sub, kind := n.Items, skipArray
		if n.Type == "map" {
			sub, kind = n.Values, skipMap
		}
		if sub == nil {
			return Skipper{}, fmt.Errorf("%w: %s without element type", ErrCorrupt, n.Type)
		}
		elem, err := newSkipper(sub, depth+1)
		if err != nil {
			return Skipper{}, err
		}
		return Skipper{kind: kind, elem: &elem}, nil
	case "record", "union":
		kind, subs := skipRecord, make([]*Node, len(n.Fields))
		for i := range n.Fields {
			subs[i] = &n.Fields[i].Type
		}
		if n.Type == "union" {
			kind, subs = skipUnion, make([]*Node, len(n.Branches))
			for i := range n.Branches {
				subs[i] = &n.Branches[i]
			}
		}
		s := Skipper{kind: kind, children: make([]Skipper, len(subs))}
		for i, sub := range subs {
			c, err := newSkipper(sub, depth+1)
			if err != nil {
				return Skipper{}, err
			}
			s.children[i] = c
		}
		return s, nil
	}
	return Skipper{}, fmt.Errorf("%w: cannot skip Avro type %q (recursive types are not supported)", ErrCorrupt, n.Type)
}

// Skip consumes one value at the cursor.
func (s *Skipper) Skip(c *Cursor) error {
	switch s.kind {
	case skipNothing:
		return nil
	case skipBoolean:
		return c.Skip(1)
	case skipVarint:
		_, err := c.Long()
		return err
	case skipFloat:
		return c.Skip(4)
	case skipDouble:
		return c.Skip(8)
	case skipBytes:
		_, err := c.Bytes()
		return err
	case skipFixed:
		return c.Skip(int64(s.size))
	case skipArray, skipMap:
		budget := c.Budget()
		for {
			n, size, err := c.Block(&budget)
			if err != nil || n == 0 {
				return err
			}
			if size >= 0 {
				if err := c.Skip(size); err != nil {
					return err
				}
				continue
			}
			for range n {
				if s.kind == skipMap {
					if _, err := c.Bytes(); err != nil {
						return err
					}
				}
				if err := s.elem.Skip(c); err != nil {
					return err
				}
			}
		}
	case skipRecord:
		for i := range s.children {
			if err := s.children[i].Skip(c); err != nil {
				return err
			}
		}
		return nil
	case skipUnion:
		i, err := c.Index(len(s.children))
		if err != nil {
			return err
		}
		return s.children[i].Skip(c)
	}
	return fmt.Errorf("%w: skipper of unknown kind %d", ErrCorrupt, s.kind)
}
