package paimon

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"strings"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/internal/coreoptions"
)

// CreateTable creates the table in directory path of fsys by writing
// schema/schema-0, as Java's SchemaManager.createTable does: the schema is
// normalized (schema.Schema.Normalized), numbered as schema 0 with the
// current time, validated like Java's SchemaValidation (errors wrap
// ErrInvalidSchema) and written with create-if-absent. A directory that
// already holds a schema file, or that another writer claims first, yields
// an error wrapping ErrTableExists.
//
// s is the table definition of package format/schema, however it was made:
// schema.NewSchemaBuilder, schema.DecodeSchema or a literal. Catalogs
// (catalog.DDL.CreateTable) take the same type. The file is byte for byte
// what Java writes for the same schema, including the order of the options
// (that of Java's HashMap), except for timeMillis.
func CreateTable(ctx context.Context, fsys fs.FS, path string, s *schema.Schema) (*Table, error) {
	if s == nil {
		return nil, fmt.Errorf("%w: nil schema", ErrInvalidSchema)
	}
	n, err := s.Normalized()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidSchema, err)
	}
	meta := NewTableMeta(fsys, path)
	ids, err := meta.SchemaIDs(ctx)
	if err != nil {
		return nil, fmt.Errorf("paimon: create table %s: %w", path, err)
	}
	if len(ids) > 0 {
		return nil, fmt.Errorf("%w: %s already has schema %d", ErrTableExists, path, ids[len(ids)-1])
	}
	ts, err := schema.NewTableSchema(0, n, nowMillis())
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidSchema, err)
	}
	if err := validateTableSchema(ctx, meta, ts); err != nil {
		return nil, err
	}
	err = writeSchema(ctx, meta, ts)
	if errors.Is(err, iofs.ErrExist) {
		return nil, fmt.Errorf("%w: %s: schema 0 was created concurrently", ErrTableExists, path)
	}
	if err != nil {
		return nil, err
	}
	return &Table{meta: meta, schema: ts}, nil
}

// ddlOptPartitionKeys and ddlOptPrimaryKey are the options Java's Schema
// constructor turns into key lists.
const (
	ddlOptPartitionKeys = coreoptions.Partition
	ddlOptPrimaryKey    = coreoptions.PrimaryKey
)

// trimmedSplit splits a comma-separated list and trims its elements.
func splitTrimmed(s string) []string {
	parts := strings.Split(s, ",")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}
