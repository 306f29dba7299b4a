package main

import (
	"context"
	"time"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/paimon"
)

// schemasColumns are the columns of Java's $schemas system table
// (org.apache.paimon.table.system.SchemasTable, Paimon 1.4.2), in order.
var schemasColumns = []column{
	{"schema_id", bigintNotNull},
	{"fields", stringNotNull},
	{"partition_keys", stringNotNull},
	{"primary_keys", stringNotNull},
	{"options", stringNotNull},
	{"comment", stringNull},
	{"update_time", tsNotNull},
}

func runSchemas(ctx context.Context, e *env, c *command, args []string) error {
	return runMeta(ctx, e, c, args, schemasColumns, schemaRows)
}

// schemaRows emits one row per schema file present, by ascending id. The
// fields, keys and options are compact JSON as Java's JsonSerdeUtil writes
// them, options in the order Java's HashMap iterates them.
func schemaRows(ctx context.Context, meta *paimon.TableMeta, emit func([]any) error) error {
	ids, err := meta.SchemaIDs(ctx)
	if err != nil {
		return err
	}
	for _, id := range ids {
		s, err := meta.ReadSchema(ctx, id)
		if err != nil {
			return err
		}
		row, err := schemaRow(s)
		if err != nil {
			return err
		}
		if err := emit(row); err != nil {
			return err
		}
	}
	return nil
}

func schemaRow(s *schema.TableSchema) ([]any, error) {
	fields := s.Fields
	if fields == nil {
		fields = []schema.DataField{}
	}
	fieldsJSON, err := flatJSON(fields)
	if err != nil {
		return nil, err
	}
	partJSON, err := flatJSON(nonNil(s.PartitionKeys))
	if err != nil {
		return nil, err
	}
	pkJSON, err := flatJSON(nonNil(s.PrimaryKeys))
	if err != nil {
		return nil, err
	}
	keys, err := javaOptionOrder(s)
	if err != nil {
		return nil, err
	}
	opts := orderedMap{keys: keys, m: s.Options}
	optsJSON, err := flatJSON(opts)
	if err != nil {
		return nil, err
	}
	return []any{
		s.ID,
		fieldsJSON,
		partJSON,
		pkJSON,
		optsJSON,
		optString(s.Comment),
		localTimestamp(s.TimeMillis, time.Local),
	}, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// orderedMap is a string map that encodes to JSON with its keys in a given
// order.
type orderedMap struct {
	keys []string
	m    map[string]string
}

// MarshalJSON writes the members in o.keys order.
func (o orderedMap) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, k := range o.keys {
		if i > 0 {
			b = append(b, ',')
		}
		kj, err := flatJSON(k)
		if err != nil {
			return nil, err
		}
		vj, err := flatJSON(o.m[k])
		if err != nil {
			return nil, err
		}
		b = append(b, kj...)
		b = append(b, ':')
		b = append(b, vj...)
	}
	return append(b, '}'), nil
}
