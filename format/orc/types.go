package orc

import (
	"strconv"

	"github.com/paimon-go/paimon-go/format/schema"
)

// FieldIDAttribute is the ORC type attribute in which Java Paimon records a
// column's field id (OrcTypeUtil.PAIMON_ORC_FIELD_ID_KEY). List elements and
// map keys and values carry the ids Java's SpecialFields derives from the
// enclosing column's id, as in Paimon's Parquet files.
const FieldIDAttribute = "paimon.id"

// node is one column of the file's type tree: the footer's flattened types
// rebuilt into a tree, ids in pre-order as the format requires.
type node struct {
	id       int
	t        *orcType
	children []*node
	maxID    int // the largest column id in this subtree
}

// buildTree checks the footer's types and builds the tree. Every id must be
// reachable exactly once from the root, children after their parent: a
// corrupt footer cannot create cycles or shared subtrees.
func buildTree(types []orcType) (*node, error) {
	if len(types) == 0 {
		return nil, corruptf("footer has no types")
	}
	if types[0].kind != kindStruct {
		return nil, corruptf("root type is %s, not struct", types[0].kind)
	}
	seen := make([]bool, len(types))
	var build func(id, depth int) (*node, error)
	build = func(id, depth int) (*node, error) {
		if depth > 1000 {
			return nil, corruptf("type tree deeper than 1000 levels")
		}
		if seen[id] {
			return nil, corruptf("type %d referenced twice", id)
		}
		seen[id] = true
		t := &types[id]
		n := &node{id: id, t: t, maxID: id}
		switch t.kind {
		case kindStruct:
			if len(t.fieldNames) != len(t.subtypes) {
				return nil, corruptf("struct type %d has %d names for %d fields", id, len(t.fieldNames), len(t.subtypes))
			}
		case kindList:
			if len(t.subtypes) != 1 {
				return nil, corruptf("list type %d has %d children", id, len(t.subtypes))
			}
		case kindMap:
			if len(t.subtypes) != 2 {
				return nil, corruptf("map type %d has %d children", id, len(t.subtypes))
			}
		case kindUnion:
		default:
			if t.kind < 0 || t.kind > kindTimestampInstant {
				return nil, corruptf("type %d has unknown kind %d", id, int(t.kind))
			}
			if len(t.subtypes) != 0 {
				return nil, corruptf("%s type %d has children", t.kind, id)
			}
		}
		for _, c := range t.subtypes {
			if c <= uint64(n.maxID) || c >= uint64(len(types)) || c != uint64(n.maxID)+1 {
				return nil, corruptf("type %d has child %d out of pre-order", id, c)
			}
			child, err := build(int(c), depth+1)
			if err != nil {
				return nil, err
			}
			n.children = append(n.children, child)
			n.maxID = child.maxID
		}
		return n, nil
	}
	root, err := build(0, 0)
	if err != nil {
		return nil, err
	}
	if root.maxID != len(types)-1 {
		return nil, corruptf("types %d..%d are not part of the schema", root.maxID+1, len(types)-1)
	}
	return root, nil
}

// fieldID returns the paimon.id attribute of a column.
func (n *node) fieldID() (int, bool) {
	v, ok := n.t.attribute(FieldIDAttribute)
	if !ok {
		return 0, false
	}
	id, err := strconv.Atoi(v)
	if err != nil {
		return 0, false
	}
	return id, true
}

// structChild finds the child of a struct column holding field f: by field
// id first (what Paimon writers record), then by name (files without ids;
// Java's OrcReaderFactory matches by name). A column of that name carrying
// another id is another field (dropped and re-added), not a match.
func (n *node) structChild(f schema.DataField) (*node, bool) {
	byName := -1
	for i, c := range n.children {
		if id, ok := c.fieldID(); ok {
			if id == f.ID {
				return c, true
			}
			continue
		}
		if byName < 0 && n.t.fieldNames[i] == f.Name {
			byName = i
		}
	}
	if byName >= 0 {
		return n.children[byName], true
	}
	return nil, false
}

// compatible reports whether a column of kind k can be read as Paimon type t.
func compatible(k typeKind, t schema.DataType) bool {
	switch t.Root {
	case schema.Boolean:
		return k == kindBoolean
	case schema.TinyInt:
		return k == kindByte
	case schema.SmallInt:
		return k == kindShort
	case schema.Int, schema.Time:
		return k == kindInt
	case schema.BigInt:
		return k == kindLong
	case schema.Float:
		return k == kindFloat
	case schema.Double:
		return k == kindDouble
	case schema.Decimal:
		return k == kindDecimal
	case schema.Char, schema.VarChar:
		return k == kindString || k == kindChar || k == kindVarchar
	case schema.Binary, schema.VarBinary, schema.Blob:
		return k == kindBinary
	case schema.Date:
		return k == kindDate
	case schema.Timestamp, schema.TimestampLTZ:
		return k == kindTimestamp || k == kindTimestampInstant
	case schema.Array:
		return k == kindList
	case schema.Map, schema.Multiset:
		return k == kindMap
	case schema.Row:
		return k == kindStruct
	}
	return false
}
