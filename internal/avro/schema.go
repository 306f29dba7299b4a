package avro

import (
	"fmt"
	"sync"

	"github.com/twmb/avro"
)

// Schema is a parsed Avro schema. It is immutable and safe for concurrent
// use; parse each schema once and reuse it.
type Schema struct {
	s    *avro.Schema
	root *avro.SchemaNode // the tree alignReader copies from; read-only

	// aligned caches reader schemas aligned to writer schemas seen so far,
	// keyed by the writer schema JSON. Manifests of one table share a handful
	// of writer schemas, so this saves a tree walk and a parse per file.
	alignedMu sync.Mutex
	aligned   map[string]*avro.Schema
}

// maxAlignedCache bounds Schema.aligned so that hostile inputs with ever
// new writer schemas cannot grow it without limit.
const maxAlignedCache = 32

// rawLogical registers a custom type with no Decode function for every
// logical type whose Go conversion would change the stored value, which makes
// the library hand out the underlying Avro value (int32, int64, []byte).
// Encoding still accepts those raw values.
var rawLogical = []avro.SchemaOpt{
	avro.CustomType{LogicalType: "timestamp-millis", AvroType: "long"},
	avro.CustomType{LogicalType: "timestamp-micros", AvroType: "long"},
	avro.CustomType{LogicalType: "timestamp-nanos", AvroType: "long"},
	avro.CustomType{LogicalType: "local-timestamp-millis", AvroType: "long"},
	avro.CustomType{LogicalType: "local-timestamp-micros", AvroType: "long"},
	avro.CustomType{LogicalType: "local-timestamp-nanos", AvroType: "long"},
	avro.CustomType{LogicalType: "date", AvroType: "int"},
	avro.CustomType{LogicalType: "time-millis", AvroType: "int"},
	avro.CustomType{LogicalType: "time-micros", AvroType: "long"},
	avro.CustomType{LogicalType: "decimal", AvroType: "bytes"},
}

// ParseSchema parses an Avro schema from its JSON text. The text is kept
// verbatim and becomes the avro.schema header of files written with it.
func ParseSchema(schemaJSON string) (*Schema, error) {
	s, err := avro.Parse(schemaJSON, rawLogical...)
	if err != nil {
		return nil, fmt.Errorf("avro: parsing schema: %w", err)
	}
	return &Schema{s: s, root: s.Root()}, nil
}

// MustParseSchema is like ParseSchema but panics on error. Use it only for
// package-level schema constants.
func MustParseSchema(schemaJSON string) *Schema {
	s, err := ParseSchema(schemaJSON)
	if err != nil {
		panic(err)
	}
	return s
}

// String returns the schema JSON as it was given to ParseSchema.
func (s *Schema) String() string { return s.s.String() }

// alignedFor returns s aligned to the writer schema w (see alignReader),
// from the cache when possible.
func (s *Schema) alignedFor(w *avro.Schema) (*avro.Schema, error) {
	key := w.String()
	if key == s.s.String() {
		return s.s, nil
	}
	s.alignedMu.Lock()
	cached, ok := s.aligned[key]
	s.alignedMu.Unlock()
	if ok {
		return cached, nil
	}
	wroot := w.Root().ExpandReferences()
	if err := checkNames(s.root, wroot); err != nil {
		return nil, err
	}
	node := alignReader(s.root, wroot)
	out, err := node.Schema(rawLogical...)
	if err != nil {
		return nil, err
	}
	s.alignedMu.Lock()
	if s.aligned == nil {
		s.aligned = make(map[string]*avro.Schema)
	}
	if len(s.aligned) < maxAlignedCache {
		s.aligned[key] = out
	}
	s.alignedMu.Unlock()
	return out, nil
}
