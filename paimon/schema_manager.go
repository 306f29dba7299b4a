package paimon

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	iofs "io/fs"
	"time"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/internal/javacompat"
)

// Errors of table creation and schema evolution (Java SchemaManager,
// SchemaValidation and the Catalog exceptions they throw).
var (
	// ErrTableExists reports a table directory that already holds a schema
	// file, or whose schema-0 another writer created first.
	ErrTableExists = errors.New("paimon: table already exists")

	// ErrInvalidSchema reports a table definition Java would refuse:
	// malformed columns or keys, or options that break SchemaValidation's
	// rules (bucket-key without fixed buckets, unknown merge engine, ...).
	ErrInvalidSchema = errors.New("paimon: invalid table schema")

	// ErrColumnExists reports a schema change adding or renaming to a
	// column name already in use (Java Catalog.ColumnAlreadyExistException).
	ErrColumnExists = errors.New("paimon: column already exists")

	// ErrSchemaChangeRefused reports a schema change Java refuses: changing
	// an immutable option, dropping or retyping a key column, a type change
	// Java cannot cast, ...
	ErrSchemaChangeRefused = errors.New("paimon: schema change refused")
)

// maxCommitAttempts bounds the retries of CommitSchemaChanges when other
// writers keep winning the race for the next schema id (Java retries
// forever); it also stops a loop on a store whose listing lags its writes.
const maxCommitAttempts = 100

// nowMillis is the creation time recorded in new schema files (Java
// System.currentTimeMillis).
var nowMillis = func() int64 { return time.Now().UnixMilli() }

// AlterTable applies changes to the table in directory path of fsys and
// returns the new schema; see CommitSchemaChanges.
func AlterTable(ctx context.Context, fsys fs.FS, path string, changes ...SchemaChange) (*schema.TableSchema, error) {
	return CommitSchemaChanges(ctx, NewTableMeta(fsys, path), changes)
}

// CommitSchemaChanges applies changes, in order, to the latest schema of
// the table (on meta's branch) and writes the result as the next schema
// file, as Java's SchemaManager.commitChanges does: the new schema is
// validated, then created with create-if-absent; when another writer took
// that id first, the latest schema is read again and the changes reapplied.
//
// A table without schema yields ErrTableNotFound. Refused changes yield
// errors wrapping ErrColumnNotFound, ErrColumnExists or ErrSchemaChangeRefused; a
// result Java would not accept wraps ErrInvalidSchema. Option changes are
// checked against Java's immutable options only once the table has a
// snapshot, as Java does.
func CommitSchemaChanges(ctx context.Context, meta *TableMeta, changes []SchemaChange) (*schema.TableSchema, error) {
	var (
		snapshotsKnown, snapshots bool
	)
	hasSnapshots := func() (bool, error) {
		if !snapshotsKnown {
			_, ok, err := meta.LatestSnapshotID(ctx)
			if err != nil {
				return false, fmt.Errorf("paimon: alter table %s: %w", meta.Root(), err)
			}
			snapshotsKnown, snapshots = true, ok
		}
		return snapshots, nil
	}
	for attempt := 1; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		old, err := meta.LatestSchema(ctx)
		if errors.Is(err, ErrSchemaNotFound) {
			return nil, fmt.Errorf("%w: %s: %w", ErrTableNotFound, meta.Root(), err)
		}
		if err != nil {
			return nil, err
		}
		oldOrder, err := optionOrderOf(old)
		if err != nil {
			return nil, err
		}
		next, order, err := applySchemaChanges(old, oldOrder, changes, hasSnapshots)
		if err != nil {
			return nil, fmt.Errorf("paimon: alter table %s: %w", meta.Root(), err)
		}
		if next, err = withOptionOrder(next, order); err != nil {
			return nil, err
		}
		if err := validateTableSchema(ctx, meta, next); err != nil {
			return nil, err
		}
		err = writeSchema(ctx, meta, next)
		if errors.Is(err, iofs.ErrExist) {
			if attempt >= maxCommitAttempts {
				return nil, fmt.Errorf("paimon: alter table %s: schema %d: gave up after %d concurrent commits: %w",
					meta.Root(), next.ID, attempt, err)
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		return next, nil
	}
}

// writeSchema publishes schema-<id> with create-if-absent (Java
// FileIO.tryToWriteAtomic); losing the race is an error wrapping
// io/fs.ErrExist.
func writeSchema(ctx context.Context, meta *TableMeta, ts *schema.TableSchema) error {
	data, err := ts.Encode()
	if err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidSchema, err)
	}
	p := meta.SchemaPath(ts.ID)
	if err := fs.WriteFile(ctx, meta.FS(), p, data, &fs.CreateOptions{IfNotExist: true}); err != nil {
		return fmt.Errorf("paimon: write %s: %w", p, err)
	}
	return nil
}

// --- option order -----------------------------------------------------------
//
// Java writes a schema's options in the iteration order of its HashMap,
// which depends on the keys' hash codes, the table capacity and, for keys
// sharing a bucket, the insertion order. javaHashMap replays the HashMap
// operations Java performs so that the files written here list the options
// exactly as Java's would.

// javaHashMap models a java.util.HashMap<String, String>: the values, and
// the key order of javacompat.HashMap, which replays Java's table layout.
type javaHashMap struct {
	vals   map[string]string
	layout *javacompat.HashMap // keys only; their order is Java's
}

func newJavaHashMap() *javaHashMap {
	return &javaHashMap{vals: map[string]string{}, layout: &javacompat.HashMap{}}
}

// copyJavaHashMap is Java's new HashMap<>(m) for a map m that iterates its
// keys in order.
func copyJavaHashMap(order []string, vals map[string]string) *javaHashMap {
	m := &javaHashMap{vals: map[string]string{}, layout: javacompat.NewHashMapFor(len(order))}
	for _, k := range order {
		m.put(k, vals[k])
	}
	return m
}

func (m *javaHashMap) get(k string) (string, bool) {
	v, ok := m.vals[k]
	return v, ok
}

func (m *javaHashMap) put(k, v string) {
	m.vals[k] = v
	// The only error of a HashMap of strings is javacompat.ErrTreeified:
	// 8+ option keys in one bin of a 64-bin table, whose order (by hash,
	// then compareTo) is then approximated by insertion order.
	_ = m.layout.Put(javacompat.StringHashCode(k), k, nil)
}

func (m *javaHashMap) remove(k string) (string, bool) {
	v, ok := m.vals[k]
	if !ok {
		return "", false
	}
	delete(m.vals, k)
	_ = m.layout.Remove(javacompat.StringHashCode(k), k)
	return v, true
}

func (m *javaHashMap) copy() *javaHashMap { return copyJavaHashMap(m.order(), m.vals) }

// order returns the keys as Java iterates them.
func (m *javaHashMap) order() []string {
	es := m.layout.Entries()
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Key.(string)
	}
	return out
}

// optionOrderOf returns the order in which ts's encoder writes its options
// (the order of the file it was decoded from, if any).
func optionOrderOf(ts *schema.TableSchema) ([]string, error) {
	data, err := ts.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidSchema, err)
	}
	members, err := jsonMembers(data)
	if err != nil {
		return nil, err
	}
	for _, m := range members {
		if m.key == "options" {
			opts, err := jsonMembers(m.raw)
			if err != nil {
				return nil, err
			}
			order := make([]string, len(opts))
			for i, o := range opts {
				order[i] = o.key
			}
			return order, nil
		}
	}
	return nil, nil
}

// withOptionOrder returns a copy of ts whose encoder writes the options in
// the given order. The schema package only records an order for decoded
// files, so the copy is made by decoding ts's own encoding with the options
// object rewritten in that order.
func withOptionOrder(ts *schema.TableSchema, order []string) (*schema.TableSchema, error) {
	data, err := ts.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidSchema, err)
	}
	members, err := jsonMembers(data)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range members {
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSONString(&b, m.key)
		b.WriteByte(':')
		if m.key != "options" {
			b.Write(m.raw)
			continue
		}
		b.WriteByte('{')
		for j, k := range orderOf(ts.Options, order) {
			if j > 0 {
				b.WriteByte(',')
			}
			writeJSONString(&b, k)
			b.WriteByte(':')
			writeJSONString(&b, ts.Options[k])
		}
		b.WriteByte('}')
	}
	b.WriteByte('}')
	out, err := schema.Decode(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidSchema, err)
	}
	return out, nil
}

type jsonMember struct {
	key string
	raw json.RawMessage
}

// jsonMembers splits a JSON object produced by the schema encoder into its
// members, in order.
func jsonMembers(data []byte) ([]jsonMember, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("%w: schema encoding is not a JSON object", ErrInvalidSchema)
	}
	var out []jsonMember
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("%w: schema encoding: %w", ErrInvalidSchema, err)
		}
		key, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, fmt.Errorf("%w: schema encoding: %w", ErrInvalidSchema, err)
		}
		out = append(out, jsonMember{key: key, raw: raw})
	}
	return out, nil
}

func writeJSONString(b *bytes.Buffer, s string) {
	enc, _ := json.Marshal(s) // a string always marshals
	b.Write(enc)
}
