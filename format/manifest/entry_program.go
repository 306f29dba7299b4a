package manifest

import (
	"fmt"
	"math"
	"sync"

	"github.com/paimon-go/paimon-go/internal/avro"
	"github.com/paimon-go/paimon-go/internal/jackson"
)

// Manifests are the bulk of what planning reads (one entry per data file),
// so their entries are not decoded by reflection like the other records of
// this package: an entryProgram, compiled once per writer schema into one
// closure per field, walks the Avro binary encoding and stores each field
// straight into a ManifestEntry (Java ManifestEntrySerializer likewise
// reads the fields of the row by position). It resolves the file's writer schema against the 1.4.2 schema
// the way internal/avro's reflective Reader does for the other files:
// fields are matched by name whatever the record names, fields the writer
// lacks read as null (only nullable ones may be missing), fields this
// version does not know are skipped, an int is widened where a long is
// read, bytes and string read as each other, and a record written as
// ["null", record] (Paimon before 0.9) reads a null as the zero record.

// slot names where a decoded value goes.
type slot uint8

const (
	slotNone slot = iota
	slotVersion
	slotKind
	slotPartition
	slotBucket
	slotTotalBuckets
	slotFileName
	slotFileSize
	slotRowCount
	slotMinKey
	slotMaxKey
	slotKeyMin
	slotKeyMax
	slotKeyNulls
	slotValueMin
	slotValueMax
	slotValueNulls
	slotMinSeq
	slotMaxSeq
	slotSchemaID
	slotLevel
	slotExtraFiles
	slotCreationTime
	slotDeleteRowCount
	slotEmbeddedIndex
	slotFileSource
	slotValueStatsCols
	slotExternalPath
	slotFirstRowID
	slotWriteCols
)

// readerKind is the type a field is read as (the 1.4.2 reader schema).
type readerKind uint8

const (
	readSkip    readerKind = iota // a writer field the reader does not know
	readInt                       // int
	readLong                      // long; an int is widened
	readBytes                     // bytes; a string is accepted
	readString                    // string; bytes are accepted
	readStrings                   // array<string>
	readCounts                    // array<["null", long]> (_NULL_COUNTS)
	readRecord                    // record
)

// readerField is one field of the reader schema.
type readerField struct {
	name     string
	kind     readerKind
	nullable bool // ["null", T] with default null: may be missing from the writer
	slot     slot
	fields   []readerField // readRecord
}

func statsFields(min, max, nulls slot) []readerField {
	return []readerField{
		{name: "_MIN_VALUES", kind: readBytes, slot: min},
		{name: "_MAX_VALUES", kind: readBytes, slot: max},
		{name: "_NULL_COUNTS", kind: readCounts, nullable: true, slot: nulls},
	}
}

// entryReader is manifestEntrySchemaJSON as a reader schema.
var entryReader = readerField{kind: readRecord, fields: []readerField{
	{name: "_VERSION", kind: readInt, slot: slotVersion},
	{name: "_KIND", kind: readInt, slot: slotKind},
	{name: "_PARTITION", kind: readBytes, slot: slotPartition},
	{name: "_BUCKET", kind: readInt, slot: slotBucket},
	{name: "_TOTAL_BUCKETS", kind: readInt, slot: slotTotalBuckets},
	{name: "_FILE", kind: readRecord, fields: []readerField{
		{name: "_FILE_NAME", kind: readString, slot: slotFileName},
		{name: "_FILE_SIZE", kind: readLong, slot: slotFileSize},
		{name: "_ROW_COUNT", kind: readLong, slot: slotRowCount},
		{name: "_MIN_KEY", kind: readBytes, slot: slotMinKey},
		{name: "_MAX_KEY", kind: readBytes, slot: slotMaxKey},
		{name: "_KEY_STATS", kind: readRecord, fields: statsFields(slotKeyMin, slotKeyMax, slotKeyNulls)},
		{name: "_VALUE_STATS", kind: readRecord, fields: statsFields(slotValueMin, slotValueMax, slotValueNulls)},
		{name: "_MIN_SEQUENCE_NUMBER", kind: readLong, slot: slotMinSeq},
		{name: "_MAX_SEQUENCE_NUMBER", kind: readLong, slot: slotMaxSeq},
		{name: "_SCHEMA_ID", kind: readLong, slot: slotSchemaID},
		{name: "_LEVEL", kind: readInt, slot: slotLevel},
		{name: "_EXTRA_FILES", kind: readStrings, slot: slotExtraFiles},
		{name: "_CREATION_TIME", kind: readLong, nullable: true, slot: slotCreationTime},
		{name: "_DELETE_ROW_COUNT", kind: readLong, nullable: true, slot: slotDeleteRowCount},
		{name: "_EMBEDDED_FILE_INDEX", kind: readBytes, nullable: true, slot: slotEmbeddedIndex},
		{name: "_FILE_SOURCE", kind: readInt, nullable: true, slot: slotFileSource},
		{name: "_VALUE_STATS_COLS", kind: readStrings, nullable: true, slot: slotValueStatsCols},
		{name: "_EXTERNAL_PATH", kind: readString, nullable: true, slot: slotExternalPath},
		{name: "_FIRST_ROW_ID", kind: readLong, nullable: true, slot: slotFirstRowID},
		{name: "_WRITE_COLS", kind: readStrings, nullable: true, slot: slotWriteCols},
	}},
}}

// decodeFn decodes one writer value into e.
type decodeFn func(d *entryDecoder, e *ManifestEntry) error

// longItemFn and bytesItemFn read one array item through any union.
type (
	longItemFn  func(d *entryDecoder) (v int64, null bool, err error)
	bytesItemFn func(d *entryDecoder) ([]byte, error)
)

// entryProgram decodes the records of one writer schema.
type entryProgram struct {
	root decodeFn
}

// maxProgramDepth bounds how deep the writer schema may nest where the
// reader reads it (unknown fields are bounded by avro.NewSkipper).
const maxProgramDepth = 16

// programs caches compiled programs by writer schema text: the manifests of
// a table share a handful of writer schemas, and planning reads hundreds of
// manifests.
var programs struct {
	sync.Mutex
	m map[string]*entryProgram
}

// maxPrograms bounds the cache: hostile inputs with ever new schemas cannot
// grow it, and real tables refill it at once.
const maxPrograms = 32

// entryProgramFor returns the program for a writer schema, compiling it on
// first use. Errors wrap avro.ErrCorrupt and avro.ErrIncompatibleSchema.
func entryProgramFor(schemaJSON string, w *avro.Node) (*entryProgram, error) {
	programs.Lock()
	p, ok := programs.m[schemaJSON]
	programs.Unlock()
	if ok {
		return p, nil
	}
	root, err := compileField(w, &entryReader, 0)
	if err != nil {
		return nil, fmt.Errorf("%w: %w: %w", avro.ErrCorrupt, avro.ErrIncompatibleSchema, err)
	}
	p = &entryProgram{root: root}
	programs.Lock()
	if programs.m == nil || len(programs.m) >= maxPrograms {
		programs.m = make(map[string]*entryProgram)
	}
	programs.m[schemaJSON] = p
	programs.Unlock()
	return p, nil
}

func fieldName(r *readerField) string {
	if r.name == "" {
		return "the record"
	}
	return r.name
}

// compileField resolves writer node w against reader field r.
func compileField(w *avro.Node, r *readerField, depth int) (decodeFn, error) {
	if depth > maxProgramDepth {
		return nil, fmt.Errorf("schema nested deeper than %d", maxProgramDepth)
	}
	if w.Type == "union" {
		// Every branch must be readable, as the reflective reader's
		// compatibility check demands.
		branches := make([]decodeFn, len(w.Branches))
		for i := range w.Branches {
			b := &w.Branches[i]
			if b.Type == "union" {
				return nil, fmt.Errorf("%s: union directly inside a union", fieldName(r))
			}
			if b.Type == "null" && r.kind == readRecord {
				// The zero record: Paimon before 0.9 wrote nullable
				// records, and checkManifestEntry refuses a null _FILE
				// as it refuses the reflective reader's zero struct.
				branches[i] = func(*entryDecoder, *ManifestEntry) error { return nil }
				continue
			}
			fn, err := compileField(b, r, depth+1)
			if err != nil {
				return nil, err
			}
			branches[i] = fn
		}
		return func(d *entryDecoder, e *ManifestEntry) error {
			i, err := d.c.Index(len(branches))
			if err != nil {
				return err
			}
			return branches[i](d, e)
		}, nil
	}
	if w.Type == "null" {
		if !r.nullable {
			return nil, fmt.Errorf("%s: writer null read as %s", fieldName(r), kindName(r))
		}
		return func(*entryDecoder, *ManifestEntry) error { return nil }, nil
	}
	switch r.kind {
	case readInt, readLong:
		set := longSetter(r.slot)
		switch {
		case w.Type == "int":
			return func(d *entryDecoder, e *ManifestEntry) error {
				v, err := d.c.Int()
				if err != nil {
					return err
				}
				return set(d, e, int64(v))
			}, nil
		case w.Type == "long" && r.kind == readLong:
			return func(d *entryDecoder, e *ManifestEntry) error {
				v, err := d.c.Long()
				if err != nil {
					return err
				}
				return set(d, e, v)
			}, nil
		}
	case readBytes, readString:
		if w.Type == "bytes" || w.Type == "string" {
			set := bytesSetter(r.slot)
			return func(d *entryDecoder, e *ManifestEntry) error {
				b, err := d.c.Bytes()
				if err != nil {
					return err
				}
				set(d, e, b)
				return nil
			}, nil
		}
	case readStrings:
		if w.Type == "array" && w.Items != nil {
			item, err := compileBytesItem(w.Items, r.name+" item", depth+1)
			if err != nil {
				return nil, err
			}
			set := stringsSetter(r.slot)
			return func(d *entryDecoder, e *ManifestEntry) error {
				v, err := d.stringArray(item)
				if err != nil {
					return err
				}
				set(e, v)
				return nil
			}, nil
		}
	case readCounts:
		if w.Type == "array" && w.Items != nil {
			item, err := compileLongItem(w.Items, r.name+" item", depth+1)
			if err != nil {
				return nil, err
			}
			set := countsSetter(r.slot)
			return func(d *entryDecoder, e *ManifestEntry) error {
				v, err := d.countsArray(item)
				if err != nil {
					return err
				}
				set(e, v)
				return nil
			}, nil
		}
	case readRecord:
		if w.Type == "record" {
			return compileRecord(w, r, depth)
		}
	}
	return nil, fmt.Errorf("%s: writer type %s cannot be read as %s", fieldName(r), w.Type, kindName(r))
}

// compileRecord matches the writer's fields to the reader's by name.
func compileRecord(w *avro.Node, r *readerField, depth int) (decodeFn, error) {
	fields := make([]decodeFn, len(w.Fields))
	seen := make([]bool, len(r.fields))
	for i := range w.Fields {
		wf := &w.Fields[i]
		j := -1
		for k := range r.fields {
			if r.fields[k].name == wf.Name {
				j = k
				break
			}
		}
		if j >= 0 && seen[j] {
			return nil, fmt.Errorf("field %s appears twice", wf.Name)
		}
		if j < 0 {
			// A damaged name (one flipped bit) would be skipped as
			// unknown while the field it was reads as missing: null for
			// the optional ones, silently (see internal/avro checkNames).
			for k := range r.fields {
				if jackson.OneEdit(wf.Name, r.fields[k].name) {
					return nil, fmt.Errorf("unknown field %q looks like a damaged %q", wf.Name, r.fields[k].name)
				}
			}
			sk, err := avro.NewSkipper(&wf.Type)
			if err != nil {
				return nil, fmt.Errorf("field %s: %w", wf.Name, err)
			}
			fields[i] = func(d *entryDecoder, _ *ManifestEntry) error { return sk.Skip(&d.c) }
			continue
		}
		seen[j] = true
		fn, err := compileField(&wf.Type, &r.fields[j], depth+1)
		if err != nil {
			return nil, err
		}
		fields[i] = fn
	}
	for k := range r.fields {
		if !seen[k] && !r.fields[k].nullable {
			return nil, fmt.Errorf("field %s has no default and is missing from the writer schema", r.fields[k].name)
		}
	}
	return func(d *entryDecoder, e *ManifestEntry) error {
		for _, f := range fields {
			if err := f(d, e); err != nil {
				return err
			}
		}
		return nil
	}, nil
}

// compileLongItem compiles the reader of a _NULL_COUNTS item: a nullable
// long.
func compileLongItem(w *avro.Node, name string, depth int) (longItemFn, error) {
	if depth > maxProgramDepth {
		return nil, fmt.Errorf("schema nested deeper than %d", maxProgramDepth)
	}
	switch w.Type {
	case "union":
		branches := make([]longItemFn, len(w.Branches))
		for i := range w.Branches {
			if w.Branches[i].Type == "union" {
				return nil, fmt.Errorf("%s: union directly inside a union", name)
			}
			fn, err := compileLongItem(&w.Branches[i], name, depth+1)
			if err != nil {
				return nil, err
			}
			branches[i] = fn
		}
		return func(d *entryDecoder) (int64, bool, error) {
			i, err := d.c.Index(len(branches))
			if err != nil {
				return 0, false, err
			}
			return branches[i](d)
		}, nil
	case "null":
		return func(*entryDecoder) (int64, bool, error) { return 0, true, nil }, nil
	case "int":
		return func(d *entryDecoder) (int64, bool, error) {
			v, err := d.c.Int()
			return int64(v), false, err
		}, nil
	case "long":
		return func(d *entryDecoder) (int64, bool, error) {
			v, err := d.c.Long()
			return v, false, err
		}, nil
	}
	return nil, fmt.Errorf("%s: writer type %s cannot be read as a long", name, w.Type)
}

// compileBytesItem compiles the reader of a string array item (not
// nullable: a writer union with a null branch cannot be read).
func compileBytesItem(w *avro.Node, name string, depth int) (bytesItemFn, error) {
	if depth > maxProgramDepth {
		return nil, fmt.Errorf("schema nested deeper than %d", maxProgramDepth)
	}
	switch w.Type {
	case "union":
		branches := make([]bytesItemFn, len(w.Branches))
		for i := range w.Branches {
			if w.Branches[i].Type == "union" {
				return nil, fmt.Errorf("%s: union directly inside a union", name)
			}
			fn, err := compileBytesItem(&w.Branches[i], name, depth+1)
			if err != nil {
				return nil, err
			}
			branches[i] = fn
		}
		return func(d *entryDecoder) ([]byte, error) {
			i, err := d.c.Index(len(branches))
			if err != nil {
				return nil, err
			}
			return branches[i](d)
		}, nil
	case "bytes", "string":
		return func(d *entryDecoder) ([]byte, error) { return d.c.Bytes() }, nil
	}
	return nil, fmt.Errorf("%s: writer type %s cannot be read as a string", name, w.Type)
}

// longSetter stores an int or long into a slot.
func longSetter(s slot) func(d *entryDecoder, e *ManifestEntry, v int64) error {
	switch s {
	case slotVersion:
		return func(d *entryDecoder, _ *ManifestEntry, v int64) error { d.version = int32(v); return nil }
	case slotKind:
		return func(_ *entryDecoder, e *ManifestEntry, v int64) error {
			if v < math.MinInt8 || v > math.MaxInt8 {
				return fmt.Errorf("%w: _KIND %d out of range", ErrCorrupt, v)
			}
			e.Kind = FileKind(v)
			return nil
		}
	case slotBucket:
		return func(_ *entryDecoder, e *ManifestEntry, v int64) error { e.Bucket = int32(v); return nil }
	case slotTotalBuckets:
		return func(_ *entryDecoder, e *ManifestEntry, v int64) error { e.TotalBuckets = int32(v); return nil }
	case slotFileSize:
		return func(_ *entryDecoder, e *ManifestEntry, v int64) error { e.File.FileSize = v; return nil }
	case slotRowCount:
		return func(_ *entryDecoder, e *ManifestEntry, v int64) error { e.File.RowCount = v; return nil }
	case slotMinSeq:
		return func(_ *entryDecoder, e *ManifestEntry, v int64) error { e.File.MinSequenceNumber = v; return nil }
	case slotMaxSeq:
		return func(_ *entryDecoder, e *ManifestEntry, v int64) error { e.File.MaxSequenceNumber = v; return nil }
	case slotSchemaID:
		return func(_ *entryDecoder, e *ManifestEntry, v int64) error { e.File.SchemaID = v; return nil }
	case slotLevel:
		return func(_ *entryDecoder, e *ManifestEntry, v int64) error { e.File.Level = int32(v); return nil }
	case slotCreationTime:
		return func(d *entryDecoder, e *ManifestEntry, v int64) error {
			e.File.CreationTime = d.longs.one(v)
			return nil
		}
	case slotDeleteRowCount:
		return func(d *entryDecoder, e *ManifestEntry, v int64) error {
			e.File.DeleteRowCount = d.longs.one(v)
			return nil
		}
	case slotFirstRowID:
		return func(d *entryDecoder, e *ManifestEntry, v int64) error { e.File.FirstRowID = d.longs.one(v); return nil }
	case slotFileSource:
		return func(d *entryDecoder, e *ManifestEntry, v int64) error {
			if v < math.MinInt8 || v > math.MaxInt8 {
				return fmt.Errorf("%w: _FILE_SOURCE %d out of range", ErrCorrupt, v)
			}
			e.File.FileSource = d.sources.one(FileSource(v))
			return nil
		}
	}
	panic(fmt.Sprintf("manifest: slot %d holds no long", s))
}

// bytesSetter stores bytes or a string into a slot. Bytes fields keep the
// view of the block (see entryDecoder).
func bytesSetter(s slot) func(d *entryDecoder, e *ManifestEntry, b []byte) {
	switch s {
	case slotPartition:
		return func(_ *entryDecoder, e *ManifestEntry, b []byte) { e.Partition = b }
	case slotFileName:
		return func(_ *entryDecoder, e *ManifestEntry, b []byte) { e.File.FileName = string(b) }
	case slotMinKey:
		return func(_ *entryDecoder, e *ManifestEntry, b []byte) { e.File.MinKey = b }
	case slotMaxKey:
		return func(_ *entryDecoder, e *ManifestEntry, b []byte) { e.File.MaxKey = b }
	case slotKeyMin:
		return func(_ *entryDecoder, e *ManifestEntry, b []byte) { e.File.KeyStats.MinValues = b }
	case slotKeyMax:
		return func(_ *entryDecoder, e *ManifestEntry, b []byte) { e.File.KeyStats.MaxValues = b }
	case slotValueMin:
		return func(_ *entryDecoder, e *ManifestEntry, b []byte) { e.File.ValueStats.MinValues = b }
	case slotValueMax:
		return func(_ *entryDecoder, e *ManifestEntry, b []byte) { e.File.ValueStats.MaxValues = b }
	case slotEmbeddedIndex:
		return func(_ *entryDecoder, e *ManifestEntry, b []byte) { e.File.EmbeddedIndex = b }
	case slotExternalPath:
		return func(d *entryDecoder, e *ManifestEntry, b []byte) { e.File.ExternalPath = d.strs.one(string(b)) }
	}
	panic(fmt.Sprintf("manifest: slot %d holds no bytes", s))
}

func stringsSetter(s slot) func(e *ManifestEntry, v []string) {
	switch s {
	case slotExtraFiles:
		return func(e *ManifestEntry, v []string) { e.File.ExtraFiles = v }
	case slotValueStatsCols:
		return func(e *ManifestEntry, v []string) { e.File.ValueStatsCols = v }
	case slotWriteCols:
		return func(e *ManifestEntry, v []string) { e.File.WriteCols = v }
	}
	panic(fmt.Sprintf("manifest: slot %d holds no string array", s))
}

func countsSetter(s slot) func(e *ManifestEntry, v []*int64) {
	switch s {
	case slotKeyNulls:
		return func(e *ManifestEntry, v []*int64) { e.File.KeyStats.NullCounts = v }
	case slotValueNulls:
		return func(e *ManifestEntry, v []*int64) { e.File.ValueStats.NullCounts = v }
	}
	panic(fmt.Sprintf("manifest: slot %d holds no null counts", s))
}

func kindName(r *readerField) string {
	var n string
	switch r.kind {
	case readInt:
		n = "int"
	case readLong:
		n = "long"
	case readBytes:
		n = "bytes"
	case readString:
		n = "string"
	case readStrings:
		n = "array<string>"
	case readCounts:
		n = "array<long>"
	case readRecord:
		n = "record"
	default:
		n = "nothing"
	}
	if r.nullable {
		return "nullable " + n
	}
	return n
}
