package avro

import (
	"fmt"
	"sync"

	"github.com/twmb/avro"
)

// Node is a plain-data view of one node of a parsed Avro schema, for callers
// that walk a writer schema themselves (format/avrofile compiles one into a
// decoder that writes straight into Arrow builders). It exposes only what a
// reader needs and no type of the Avro library.
//
// Type is one of the primitive names ("null", "boolean", "int", "long",
// "float", "double", "bytes", "string") or "record", "enum", "array", "map",
// "union", "fixed". Named types are expanded in place wherever they are
// referenced; only a reference to a recursive type (which cannot be expanded
// into a finite tree) stays a reference, with the type's full name as Type.
type Node struct {
	// Type is the Avro type name, see above.
	Type string
	// LogicalType is the logicalType attribute ("date", "decimal",
	// "timestamp-micros", Paimon's "map" on arrays, ...); empty when absent.
	LogicalType string
	// Name is the full name (namespace.name) of a record, enum or fixed.
	Name string
	// Fields are a record's fields, in writing order.
	Fields []NodeField
	// Items is an array's element schema.
	Items *Node
	// Values is a map's value schema (Avro map keys are always strings).
	Values *Node
	// Branches are a union's member schemas, in index order.
	Branches []Node
	// Symbols are an enum's symbols, in index order.
	Symbols []string
	// Size is a fixed's byte size.
	Size int
	// Precision and Scale are the decimal logical type's parameters (only
	// set when LogicalType is "decimal" on bytes or fixed).
	Precision, Scale int
}

// NodeField is one field of a record Node.
type NodeField struct {
	// Name is the field name.
	Name string
	// Type is the field's schema.
	Type Node
}

// ParseNode parses an Avro schema from its JSON text into a Node tree with
// named types expanded. Errors wrap ErrCorrupt: the text normally comes from
// a file header.
//
// Results are cached by schema text, because parsing costs milliseconds and
// the data files of a table share a handful of writer schemas: the returned
// Node is shared and must not be modified.
func ParseNode(schemaJSON string) (*Node, error) {
	nodeCache.Lock()
	n, ok := nodeCache.m[schemaJSON]
	nodeCache.Unlock()
	if ok {
		return n, nil
	}
	n, err := parseNode(schemaJSON)
	if err != nil {
		return nil, err
	}
	nodeCache.Lock()
	if nodeCache.m == nil || len(nodeCache.m) >= maxNodeCache {
		// Crude but bounded: hostile inputs with ever new schemas cannot
		// grow the cache, and real tables refill it at once.
		nodeCache.m = make(map[string]*Node)
	}
	nodeCache.m[schemaJSON] = n
	nodeCache.Unlock()
	return n, nil
}

// nodeCache holds the Nodes ParseNode returned, by schema text.
var nodeCache struct {
	sync.Mutex
	m map[string]*Node
}

// maxNodeCache bounds nodeCache.
const maxNodeCache = 64

func parseNode(schemaJSON string) (_ *Node, err error) {
	defer func() {
		// The library's tree accessors panic on states Parse should have
		// ruled out; a hostile header must not crash the caller.
		if p := recover(); p != nil {
			err = fmt.Errorf("%w: parsing schema: panic: %v", ErrCorrupt, p)
		}
	}()
	s, err := avro.Parse(schemaJSON, rawLogical...)
	if err != nil {
		return nil, fmt.Errorf("%w: parsing schema: %w", ErrCorrupt, err)
	}
	n := nodeOf(s.Root().ExpandReferences())
	return &n, nil
}

func nodeOf(n *avro.SchemaNode) Node {
	out := Node{Type: n.Type, LogicalType: n.LogicalType, Size: n.Size}
	switch n.Type {
	case "record", "error":
		out.Type = "record"
		out.Name = fullName(n)
		out.Fields = make([]NodeField, len(n.Fields))
		for i := range n.Fields {
			out.Fields[i] = NodeField{Name: n.Fields[i].Name, Type: nodeOf(&n.Fields[i].Type)}
		}
	case "enum":
		out.Name = fullName(n)
		out.Symbols = append([]string(nil), n.Symbols...)
	case "fixed":
		out.Name = fullName(n)
	case "array":
		if n.Items != nil {
			items := nodeOf(n.Items)
			out.Items = &items
		}
	case "map":
		if n.Values != nil {
			values := nodeOf(n.Values)
			out.Values = &values
		}
	case "union":
		out.Branches = make([]Node, len(n.Branches))
		for i := range n.Branches {
			out.Branches[i] = nodeOf(&n.Branches[i])
		}
	}
	if n.LogicalType == "decimal" {
		out.Precision, out.Scale = n.Precision, n.Scale
	}
	return out
}

func fullName(n *avro.SchemaNode) string {
	if n.Namespace == "" {
		return n.Name
	}
	for i := 0; i < len(n.Name); i++ {
		if n.Name[i] == '.' { // a dotted name already is the full name
			return n.Name
		}
	}
	return n.Namespace + "." + n.Name
}
