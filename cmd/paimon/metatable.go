package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/paimon-go/paimon-go/format/data"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/paimon"
)

// metaDetails is the help text shared by the system-table commands.
const metaDetails = `
The table is "database.table" or "database.table$branch_NAME". Flags may come
before or after it.

Times are shown as wall-clock times in the local time zone, as Java's system
tables show them (ZoneId.systemDefault()).

Exit status: 0 ok, 1 runtime error, 2 usage error.`

// metaArgs is the parsed command line of a system-table command.
type metaArgs struct {
	warehouse string
	table     paimon.Identifier
	output    string
}

func parseMetaArgs(e *env, c *command, args []string) (*metaArgs, error) {
	var a metaArgs
	fs := newFlagSet(c)
	fs.StringVar(&a.warehouse, "warehouse", "", "warehouse `URI`: a path, file://, mem://, s3://, gs:// or azblob:// (default $"+warehouseEnv+")")
	fs.StringVar(&a.output, "output", formatTable, "output `format`: "+strings.Join(rowFormats, ", "))
	pos, err := parseArgs(e, c, fs, args)
	if err != nil {
		return nil, err
	}
	switch len(pos) {
	case 0:
		return nil, usagef(c.name, "missing table name (database.table)")
	case 1:
	default:
		return nil, usagef(c.name, "expected one table name, got %d arguments: %s", len(pos), strings.Join(pos, " "))
	}
	if a.table, err = paimon.ParseIdentifier(pos[0]); err != nil {
		return nil, usagef(c.name, "%v", err)
	}
	if a.warehouse = warehouseFlag(a.warehouse); a.warehouse == "" {
		return nil, usagef(c.name, "no warehouse: pass --warehouse URI or set $%s", warehouseEnv)
	}
	if !slices.Contains(rowFormats, a.output) {
		return nil, usagef(c.name, "--output %q: want one of %s", a.output, strings.Join(rowFormats, ", "))
	}
	return &a, nil
}

// metaRows is the body of a system-table command: it reads the table
// metadata and calls emit once per row.
type metaRows func(ctx context.Context, meta *paimon.TableMeta, emit func([]any) error) error

// runMeta parses the command line, loads the table and prints the rows that
// rows produces under cols. The output is flushed even when rows fails part
// way.
func runMeta(ctx context.Context, e *env, c *command, args []string, cols []column, rows metaRows) (err error) {
	a, err := parseMetaArgs(e, c, args)
	if err != nil {
		return err
	}
	tbl, closeCatalog, err := loadTable(ctx, a.warehouse, a.table)
	if err != nil {
		return err
	}
	defer closeCatalog()
	out, err := newRowWriter(a.output, e.stdout, cols)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := out.close(); err == nil {
			err = cerr
		}
	}()
	return rows(ctx, tbl.Meta(), out.writeRow)
}

// Column types shared by the system tables.
var (
	bigintNotNull = schema.BigIntType().NotNull()
	bigintNull    = schema.BigIntType()
	stringNotNull = schema.StringType().NotNull()
	stringNull    = schema.StringType()
	tsNotNull     = schema.TimestampType(3).NotNull()
	tsNull        = schema.TimestampType(3)
)

// localTimestamp is epoch milliseconds as a TIMESTAMP(3) holding the
// wall-clock time in loc: Java's system tables turn commit times into
// LocalDateTime with ZoneId.systemDefault().
func localTimestamp(ms int64, loc *time.Location) data.Timestamp {
	return wallClock(time.UnixMilli(ms).In(loc))
}

// wallClock is t's wall-clock fields as a zone-less TIMESTAMP, the way
// data.Timestamp stores one (read as UTC).
func wallClock(t time.Time) data.Timestamp {
	u := time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
	return data.Timestamp{Millis: u.UnixMilli(), NanoOfMilli: int32(u.Nanosecond() % 1_000_000)}
}

// optInt64 is a nullable BIGINT cell.
func optInt64(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}

// optString is a nullable STRING cell.
func optString(p *string) any {
	if p == nil {
		return nil
	}
	return *p
}

// flatJSON encodes v compactly without HTML escaping, as Jackson (Java
// JsonSerdeUtil.toFlatJson) does.
func flatJSON(v any) (string, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(buf.String(), "\n"), nil
}

// javaHashMapOrder returns keys (given in insertion order) in the order a
// java.util.HashMap filled by put in that order iterates them: Java's
// schema options live in such a map, so its system tables list them in
// that order. Buckets are indexed by the spread String.hashCode masked by
// the table size; the table starts at 16 slots and doubles whenever the
// size exceeds three quarters of it; a bucket keeps insertion order (a
// resize splits buckets without reordering). Buckets large enough to turn
// into trees (8 or more colliding keys) are not modelled.
func javaHashMapOrder(keys []string) []string {
	size := 16
	for len(keys) > size*3/4 {
		size *= 2
	}
	bucket := func(k string) int {
		h := javaStringHash(k)
		return int((h ^ (h >> 16)) & uint32(size-1))
	}
	out := slices.Clone(keys)
	sort.SliceStable(out, func(i, j int) bool { return bucket(out[i]) < bucket(out[j]) })
	return out
}

// javaStringHash is Java's String.hashCode over UTF-16 code units, as an
// unsigned 32-bit value (so >> is Java's >>>).
func javaStringHash(s string) uint32 {
	var h uint32
	for _, r := range s {
		if r >= 0x10000 {
			r -= 0x10000
			h = 31*h + uint32(0xD800+(r>>10))
			h = 31*h + uint32(0xDC00+(r&0x3FF))
			continue
		}
		h = 31*h + uint32(r)
	}
	return h
}

// optionsInFileOrder returns the option keys of s in the order of its file:
// encoding a decoded TableSchema keeps that order.
func optionsInFileOrder(s *schema.TableSchema) ([]string, error) {
	b, err := s.MarshalJSON()
	if err != nil {
		return nil, err
	}
	var doc struct {
		Options json.RawMessage `json:"options"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, err
	}
	keys, err := objectKeys(doc.Options)
	if err != nil {
		return nil, err
	}
	if len(keys) != len(s.Options) {
		return nil, fmt.Errorf("schema %d: options encode to %d keys, want %d", s.ID, len(keys), len(s.Options))
	}
	return keys, nil
}

// objectKeys lists the member names of a JSON object in document order.
func objectKeys(raw json.RawMessage) ([]string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		k, ok := tok.(string)
		if !ok {
			return nil, fmt.Errorf("object key %v is not a string", tok)
		}
		keys = append(keys, k)
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, err
		}
	}
	return keys, nil
}

// javaOptionOrder is the order in which Java lists the options of s.
func javaOptionOrder(s *schema.TableSchema) ([]string, error) {
	keys, err := optionsInFileOrder(s)
	if err != nil {
		return nil, err
	}
	return javaHashMapOrder(keys), nil
}
