package paimon

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/coreoptions"
	"github.com/paimon-go/paimon-go/internal/javacompat"
)

// SchemaChange is one modification of a table schema, applied in order by
// Table.Alter (Java org.apache.paimon.schema.SchemaChange). The set is
// closed: SetOption, RemoveOption, UpdateComment, AddColumn, RenameColumn,
// DropColumn, UpdateColumnType, UpdateColumnNullability,
// UpdateColumnComment, UpdateColumnPosition and DropPrimaryKey. Pointers to
// them are accepted too.
//
// FieldNames is the path of a column: one name for a top-level column, more
// to reach a field inside a ROW column (through ARRAY elements and MAP
// values, as Java allows).
type SchemaChange interface{ schemaChange() }

// SetOption sets a table option.
type SetOption struct{ Key, Value string }

// RemoveOption removes a table option (Java resetOption).
type RemoveOption struct{ Key string }

// UpdateComment replaces the table comment; nil removes it.
type UpdateComment struct{ Comment *string }

// AddColumn adds a column, or a field of a ROW column. The type must be
// nullable; its ROW fields are renumbered after the table's highest field
// id. Without Move the column is appended (or, with the table option
// add-column-before-partition, put before the first partition column).
type AddColumn struct {
	FieldNames  []string
	Type        schema.DataType
	Description *string
	Move        *ColumnMove
}

// RenameColumn renames a column; options naming it (bucket-key,
// sequence.field, fields.<name>.* ...) follow. Partition columns cannot be
// renamed.
type RenameColumn struct {
	FieldNames []string
	NewName    string
}

// DropColumn drops a column. Partition and primary-key columns cannot be
// dropped, nor the last column.
type DropColumn struct{ FieldNames []string }

// UpdateColumnType changes the type of a column to one its values can be
// cast to (Java DataTypeCasts.supportsCast, explicit casts included unless
// the table sets disable-explicit-type-casting). KeepNullability keeps the
// column's nullability instead of taking the new type's.
type UpdateColumnType struct {
	FieldNames      []string
	Type            schema.DataType
	KeepNullability bool
}

// UpdateColumnNullability makes a column nullable or NOT NULL. NOT NULL is
// refused unless the table sets alter-column-null-to-not-null.disabled to
// false; primary-key columns cannot become nullable.
type UpdateColumnNullability struct {
	FieldNames []string
	Nullable   bool
}

// UpdateColumnComment replaces a column's description; nil removes it.
type UpdateColumnComment struct {
	FieldNames []string
	Comment    *string
}

// UpdateColumnPosition moves a top-level column.
type UpdateColumnPosition struct{ Move ColumnMove }

// DropPrimaryKey removes the primary key of a table without snapshots.
type DropPrimaryKey struct{}

func (SetOption) schemaChange()               {}
func (RemoveOption) schemaChange()            {}
func (UpdateComment) schemaChange()           {}
func (AddColumn) schemaChange()               {}
func (RenameColumn) schemaChange()            {}
func (DropColumn) schemaChange()              {}
func (UpdateColumnType) schemaChange()        {}
func (UpdateColumnNullability) schemaChange() {}
func (UpdateColumnComment) schemaChange()     {}
func (UpdateColumnPosition) schemaChange()    {}
func (DropPrimaryKey) schemaChange()          {}

// MoveType says where ColumnMove puts a column (Java SchemaChange.Move).
type MoveType int

// The positions of ColumnMove.
const (
	MoveFirst  MoveType = iota + 1 // first column
	MoveAfter                      // right after ReferenceFieldName
	MoveBefore                     // right before ReferenceFieldName
	MoveLast                       // last column
)

// ColumnMove is a column position. For AddColumn only Type and
// ReferenceFieldName matter; UpdateColumnPosition moves FieldName.
type ColumnMove struct {
	Type               MoveType
	FieldName          string
	ReferenceFieldName string
}

// Table options read while applying changes (Java CoreOptions).
const (
	ddlOptDisableNullToNotNull  = coreoptions.DisableAlterColumnNullToNotNull
	ddlOptDisableExplicitCast   = coreoptions.DisableExplicitTypeCasting
	ddlOptAddColumnBeforePart   = coreoptions.AddColumnBeforePartition
	ddlOptBucketKey             = coreoptions.BucketKey
	ddlOptSequenceField         = coreoptions.SequenceField
	ddlOptDeletionVectorsModify = coreoptions.DeletionVectorsModifiable
	ddlOptIgnoreDelete          = coreoptions.IgnoreDelete
	ddlOptIgnoreUpdateBefore    = coreoptions.IgnoreUpdateBefore
	ddlOptClusteringColumns     = coreoptions.ClusteringColumns
	ddlOptPkClusteringOverride  = coreoptions.PkClusteringOverride
)

// immutableOptions are the options Java marks @Immutable in CoreOptions:
// they cannot change once a table has snapshots.
var immutableOptions = map[string]bool{
	coreoptions.BucketKey: true, coreoptions.BucketFunctionType: true, coreoptions.DataFilePathDirectory: true,
	coreoptions.MergeEngine: true, coreoptions.AggregationRemoveRecordOnDelete: true,
	coreoptions.PartialUpdateRemoveRecordOnDelete: true, coreoptions.PartialUpdateRemoveRecordOnSequenceGroup: true,
	coreoptions.RowkindField: true, coreoptions.PrimaryKey: true, coreoptions.Partition: true, coreoptions.ForceLookup: true,
	coreoptions.RowTrackingEnabled: true, coreoptions.DataEvolutionEnabled: true, coreoptions.IndexFileInDataFileDir: true,
	coreoptions.BlobDescriptorField: true, coreoptions.BlobExternalStoragePath: true, coreoptions.BlobExternalStorageField: true,
	coreoptions.PkClusteringOverride: true,
}

// schemaEditor holds the state of Java's SchemaManager.generateTableSchema
// while it applies the changes one by one.
type schemaEditor struct {
	old          *schema.TableSchema
	hasSnapshots func() (bool, error)
	oldOptions   map[string]string
	options      *javacompat.StringMap
	fields       []schema.DataField
	highest      int
	comment      *string
	primaryKeys  []string
	renames      []RenameColumn

	disableNullToNotNull bool
	disableExplicitCast  bool
	addBeforePartition   bool
}

// applySchemaChanges returns the schema that follows old once changes are
// applied (id old.ID+1, current time, options in the order of Java's
// HashMap), as Java's generateTableSchema computes it.
func applySchemaChanges(old *schema.TableSchema, changes []SchemaChange,
	hasSnapshots func() (bool, error)) (*schema.TableSchema, error) {
	// Java copies the decoded options (a HashMap filled in file order).
	decoded := javacompat.NewStringMap()
	for _, k := range old.OptionOrder() {
		decoded.Put(k, old.Options[k])
	}
	e := &schemaEditor{
		old:          old,
		hasSnapshots: hasSnapshots,
		oldOptions:   old.Options,
		options:      decoded.Copy(),
		highest:      old.HighestFieldID,
		comment:      old.Comment,
		primaryKeys:  old.PrimaryKeys,
	}
	for _, f := range old.Fields {
		e.fields = append(e.fields, f.Clone())
	}
	e.disableNullToNotNull = javaParseBool(old.Options, ddlOptDisableNullToNotNull, "true")
	e.disableExplicitCast = javaParseBool(old.Options, ddlOptDisableExplicitCast, "false")
	e.addBeforePartition = javaParseBool(old.Options, ddlOptAddColumnBeforePart, "false")
	for i, c := range changes {
		if err := e.apply(c); err != nil {
			return nil, fmt.Errorf("change %d (%T): %w", i+1, c, err)
		}
	}
	return e.result()
}

// javaParseBool is Boolean.parseBoolean(options.getOrDefault(key, def)):
// anything but "true" (any case) is false.
func javaParseBool(opts map[string]string, key, def string) bool {
	v, ok := opts[key]
	if !ok {
		v = def
	}
	return strings.EqualFold(v, "true")
}

func (e *schemaEditor) apply(c SchemaChange) error {
	if v := reflect.ValueOf(c); v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return fmt.Errorf("%w: nil change", ErrSchemaChangeRefused)
		}
		c = v.Elem().Interface().(SchemaChange)
	}
	switch c := c.(type) {
	case SetOption:
		return e.setOption(c)
	case RemoveOption:
		return e.removeOption(c)
	case UpdateComment:
		e.comment = cloneString(c.Comment)
		return nil
	case AddColumn:
		return e.addColumn(c)
	case RenameColumn:
		return e.renameColumn(c)
	case DropColumn:
		return e.dropColumn(c)
	case UpdateColumnType:
		return e.updateColumnType(c)
	case UpdateColumnNullability:
		return e.updateColumnNullability(c)
	case UpdateColumnComment:
		if err := checkPath(c.FieldNames); err != nil {
			return err
		}
		return e.updateNested(c.FieldNames, func(f schema.DataField, _ int) (schema.DataField, error) {
			f.Description = cloneString(c.Comment)
			return f, nil
		})
	case UpdateColumnPosition:
		return applyMove(e.fields, c.Move)
	case DropPrimaryKey:
		snap, err := e.hasSnapshots()
		if err != nil {
			return err
		}
		if snap {
			return fmt.Errorf("%w: cannot drop primary keys on a non-empty table", ErrSchemaChangeRefused)
		}
		e.primaryKeys = []string{}
		return nil
	case nil:
		return fmt.Errorf("%w: nil change", ErrSchemaChangeRefused)
	default:
		return fmt.Errorf("%w: unsupported change %T", ErrSchemaChangeRefused, c)
	}
}

func checkPath(path []string) error {
	if len(path) == 0 {
		return fmt.Errorf("%w: empty column path", ErrSchemaChangeRefused)
	}
	return nil
}

func (e *schemaEditor) setOption(c SetOption) error {
	snap, err := e.hasSnapshots()
	if err != nil {
		return err
	}
	if snap {
		old, ok := e.oldOptions[c.Key]
		var oldValue *string
		if ok {
			oldValue = &old
		}
		if err := checkAlterTableOption(e.oldOptions, c.Key, oldValue, c.Value); err != nil {
			return err
		}
	}
	e.options.Put(c.Key, c.Value)
	return nil
}

func (e *schemaEditor) removeOption(c RemoveOption) error {
	snap, err := e.hasSnapshots()
	if err != nil {
		return err
	}
	if snap {
		if err := checkResetTableOption(e.oldOptions, c.Key); err != nil {
			return err
		}
	}
	e.options.Remove(c.Key)
	return nil
}

// checkAlterTableOption mirrors Java SchemaManager.checkAlterTableOption,
// applied to tables that have snapshots.
func checkAlterTableOption(opts map[string]string, key string, oldValue *string, newValue string) error {
	if immutableOptions[key] {
		return fmt.Errorf("%w: change '%s' is not supported yet", ErrSchemaChangeRefused, key)
	}
	switch key {
	case optBucket:
		oldBucket := -1
		if oldValue != nil {
			n, err := strconv.ParseInt(*oldValue, 10, 32)
			if err != nil {
				return fmt.Errorf("%w: bucket=%q is not an integer", ErrSchemaChangeRefused, *oldValue)
			}
			oldBucket = int(n)
		}
		newBucket, err := strconv.ParseInt(newValue, 10, 32)
		if err != nil {
			return fmt.Errorf("%w: bucket=%q is not an integer", ErrSchemaChangeRefused, newValue)
		}
		if oldBucket == -1 {
			return fmt.Errorf("%w: cannot change bucket when it is -1", ErrSchemaChangeRefused)
		}
		if newBucket == -1 {
			return fmt.Errorf("%w: cannot change bucket to -1", ErrSchemaChangeRefused)
		}
	case optDeletionVectors:
		if !javaParseBool(opts, ddlOptDeletionVectorsModify, "false") {
			oldDV := oldValue != nil && strings.EqualFold(*oldValue, "true")
			if newDV := strings.EqualFold(newValue, "true"); oldDV != newDV {
				return fmt.Errorf("%w: cannot change deletion vectors mode from %t to %t without full compaction "+
					"(set '%s' = 'true' to allow it)", ErrSchemaChangeRefused, oldDV, newDV, ddlOptDeletionVectorsModify)
			}
		}
	case ddlOptIgnoreDelete, ddlOptIgnoreUpdateBefore:
		if oldValue != nil && strings.EqualFold(*oldValue, "true") && !strings.EqualFold(newValue, "true") {
			return fmt.Errorf("%w: cannot change %s from true to false", ErrSchemaChangeRefused, key)
		}
	case ddlOptClusteringColumns:
		if _, ok := opts[ddlOptPkClusteringOverride]; ok {
			return fmt.Errorf("%w: cannot change %s when %s is enabled", ErrSchemaChangeRefused, key, ddlOptPkClusteringOverride)
		}
	}
	return nil
}

// checkResetTableOption mirrors Java SchemaManager.checkResetTableOption.
func checkResetTableOption(opts map[string]string, key string) error {
	if immutableOptions[key] {
		return fmt.Errorf("%w: change '%s' is not supported yet", ErrSchemaChangeRefused, key)
	}
	if key == optBucket {
		return fmt.Errorf("%w: cannot reset %s", ErrSchemaChangeRefused, key)
	}
	if _, ok := opts[ddlOptPkClusteringOverride]; ok && key == ddlOptClusteringColumns {
		return fmt.Errorf("%w: cannot reset %s when %s is enabled", ErrSchemaChangeRefused, key, ddlOptPkClusteringOverride)
	}
	return nil
}

func (e *schemaEditor) addColumn(c AddColumn) error {
	if err := checkPath(c.FieldNames); err != nil {
		return err
	}
	if !c.Type.Nullable {
		return fmt.Errorf("%w: column %s cannot be NOT NULL when added", ErrSchemaChangeRefused, strings.Join(c.FieldNames, "."))
	}
	if err := c.Type.Validate(); err != nil {
		return fmt.Errorf("%w: column %s: %w", ErrSchemaChangeRefused, strings.Join(c.FieldNames, "."), err)
	}
	e.highest++
	id := e.highest
	t := schema.ReassignFieldIDs(c.Type, &e.highest)
	m := &nestedModifier{path: c.FieldNames}
	m.last = func(_ int, fields *[]schema.DataField, name string) error {
		if indexOfField(*fields, name) >= 0 {
			return fmt.Errorf("%w: %s", ErrColumnExists, m.lastName(name))
		}
		f := schema.DataField{ID: id, Name: name, Type: t, Description: cloneString(c.Description)}
		at := len(*fields)
		switch {
		case c.Move != nil:
			switch c.Move.Type {
			case MoveFirst:
				at = 0
			case MoveAfter, MoveBefore:
				ref := lastIndexOfField(*fields, c.Move.ReferenceFieldName)
				if ref < 0 {
					return fmt.Errorf("%w: %s", ErrColumnNotFound, c.Move.ReferenceFieldName)
				}
				at = ref
				if c.Move.Type == MoveAfter {
					at++
				}
			case MoveLast:
			default:
				return fmt.Errorf("%w: unsupported move type %d", ErrSchemaChangeRefused, c.Move.Type)
			}
		case e.addBeforePartition && len(e.old.PartitionKeys) > 0 && len(c.FieldNames) == 1:
			for i, f := range *fields {
				if slices.Contains(e.old.PartitionKeys, f.Name) {
					at = i
					break
				}
			}
		}
		*fields = slices.Insert(*fields, at, f)
		return nil
	}
	return m.run(&e.fields)
}

func (e *schemaEditor) renameColumn(c RenameColumn) error {
	if err := checkPath(c.FieldNames); err != nil {
		return err
	}
	if err := e.notKeyColumn(c.FieldNames, "rename", true, false); err != nil {
		return err
	}
	if len(c.FieldNames) == 1 {
		if i := indexOfField(e.fields, c.FieldNames[0]); i >= 0 && e.fields[i].Type.Root == schema.Blob {
			return fmt.Errorf("%w: cannot rename BLOB column [%s]", ErrSchemaChangeRefused, c.FieldNames[0])
		}
	}
	m := &nestedModifier{path: c.FieldNames}
	m.last = func(_ int, fields *[]schema.DataField, name string) error {
		i := indexOfField(*fields, name)
		if i < 0 {
			return fmt.Errorf("%w: %s", ErrColumnNotFound, m.lastName(name))
		}
		if indexOfField(*fields, c.NewName) >= 0 {
			return fmt.Errorf("%w: %s", ErrColumnExists, m.lastName(c.NewName))
		}
		(*fields)[i].Name = c.NewName
		return nil
	}
	if err := m.run(&e.fields); err != nil {
		return err
	}
	e.renames = append(e.renames, c)
	return nil
}

func (e *schemaEditor) dropColumn(c DropColumn) error {
	if err := checkPath(c.FieldNames); err != nil {
		return err
	}
	if len(c.FieldNames) == 1 {
		name := c.FieldNames[0]
		if slices.Contains(e.old.PartitionKeys, name) || slices.Contains(e.old.PrimaryKeys, name) {
			return fmt.Errorf("%w: cannot drop partition key or primary key [%s]", ErrSchemaChangeRefused, name)
		}
	}
	m := &nestedModifier{path: c.FieldNames}
	m.last = func(_ int, fields *[]schema.DataField, name string) error {
		if indexOfField(*fields, name) < 0 {
			return fmt.Errorf("%w: %s", ErrColumnNotFound, m.lastName(name))
		}
		*fields = slices.DeleteFunc(*fields, func(f schema.DataField) bool { return f.Name == name })
		if len(*fields) == 0 {
			return fmt.Errorf("%w: cannot drop all fields in table", ErrSchemaChangeRefused)
		}
		return nil
	}
	return m.run(&e.fields)
}

func (e *schemaEditor) updateColumnType(c UpdateColumnType) error {
	if err := checkPath(c.FieldNames); err != nil {
		return err
	}
	if err := e.notKeyColumn(c.FieldNames, "update", true, true); err != nil {
		return err
	}
	if err := c.Type.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrSchemaChangeRefused, err)
	}
	depthMax := len(c.FieldNames)
	return e.updateNested(c.FieldNames, func(f schema.DataField, depth int) (schema.DataField, error) {
		source := rootTypeAt(f.Type, depth, depthMax)
		target := c.Type.Clone()
		if c.KeepNullability {
			target.Nullable = source.Nullable
		} else if err := e.checkNullability(source.Nullable, target.Nullable, c.FieldNames); err != nil {
			return f, err
		}
		if !supportsCast(source, target, !e.disableExplicitCast) || !castExecutorExists(source, target) {
			return f, fmt.Errorf("%w: column type %s[%s] cannot be converted to %s without losing information",
				ErrSchemaChangeRefused, f.Name, source, target)
		}
		f.Type = replaceTypeAt(f.Type, target, depth, depthMax)
		return f, nil
	})
}

func (e *schemaEditor) updateColumnNullability(c UpdateColumnNullability) error {
	if err := checkPath(c.FieldNames); err != nil {
		return err
	}
	if c.Nullable {
		if err := e.notKeyColumn(c.FieldNames, "change nullability of", false, true); err != nil {
			return err
		}
	}
	depthMax := len(c.FieldNames)
	return e.updateNested(c.FieldNames, func(f schema.DataField, depth int) (schema.DataField, error) {
		source := rootTypeAt(f.Type, depth, depthMax)
		if err := e.checkNullability(source.Nullable, c.Nullable, c.FieldNames); err != nil {
			return f, err
		}
		f.Type = replaceTypeAt(f.Type, source.Copy(c.Nullable), depth, depthMax)
		return f, nil
	})
}

// checkNullability refuses turning a nullable column NOT NULL unless the
// table allows it (Java assertNullabilityChange).
func (e *schemaEditor) checkNullability(oldNullable, newNullable bool, path []string) error {
	if e.disableNullToNotNull && oldNullable && !newNullable {
		return fmt.Errorf("%w: cannot make nullable column %s NOT NULL (set '%s' = 'false' to allow it)",
			ErrSchemaChangeRefused, strings.Join(path, "."), ddlOptDisableNullToNotNull)
	}
	return nil
}

// notKeyColumn refuses operation on a top-level partition or primary-key
// column (keys are never nested).
func (e *schemaEditor) notKeyColumn(path []string, operation string, partition, primary bool) error {
	if len(path) > 1 {
		return nil
	}
	if partition && slices.Contains(e.old.PartitionKeys, path[0]) {
		return fmt.Errorf("%w: cannot %s partition column [%s]", ErrSchemaChangeRefused, operation, path[0])
	}
	if primary && slices.Contains(e.old.PrimaryKeys, path[0]) {
		return fmt.Errorf("%w: cannot %s primary key [%s]", ErrSchemaChangeRefused, operation, path[0])
	}
	return nil
}

// updateNested replaces the field path names by update(field, depth) (Java
// SchemaManager.updateNestedColumn).
func (e *schemaEditor) updateNested(path []string, update func(schema.DataField, int) (schema.DataField, error)) error {
	m := &nestedModifier{path: path}
	m.last = func(depth int, fields *[]schema.DataField, name string) error {
		i := indexOfField(*fields, name)
		if i < 0 {
			return fmt.Errorf("%w: %s", ErrColumnNotFound, strings.Join(path, "."))
		}
		f, err := update((*fields)[i], depth)
		if err != nil {
			return err
		}
		(*fields)[i] = f
		return nil
	}
	return m.run(&e.fields)
}

// result builds the new TableSchema the way Java does after the loop:
// renames applied to the primary key and the options, then the Schema
// constructor (options copied, key options moved, primary-key columns NOT
// NULL) and the TableSchema constructor's checks.
func (e *schemaEditor) result() (*schema.TableSchema, error) {
	pk := renameColumns(e.primaryKeys, e.topLevelRenames())
	opts, err := e.renamedOptions()
	if err != nil {
		return nil, err
	}
	final := opts.Copy()
	final.Remove(ddlOptPartitionKeys)
	final.Remove(ddlOptPrimaryKey)
	n, err := (&schema.Schema{
		Fields:        e.fields,
		PartitionKeys: e.old.PartitionKeys,
		PrimaryKeys:   pk,
		Options:       opts.Values(),
		Comment:       e.comment,
	}).Normalized()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidSchema, err)
	}
	ts := &schema.TableSchema{
		Version:        schema.CurrentSchemaVersion,
		ID:             e.old.ID + 1,
		Fields:         n.Fields,
		HighestFieldID: e.highest,
		PartitionKeys:  n.PartitionKeys,
		PrimaryKeys:    n.PrimaryKeys,
		Options:        n.Options,
		Comment:        n.Comment,
		TimeMillis:     nowMillis(),
	}
	if err := ts.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidSchema, err)
	}
	return ts.WithOptionOrder(final.Keys()), nil
}

func (e *schemaEditor) topLevelRenames() map[string]string {
	m := map[string]string{}
	for _, r := range e.renames {
		if len(r.FieldNames) == 1 {
			m[r.FieldNames[0]] = r.NewName
		}
	}
	return m
}

func renameColumns(cols []string, renames map[string]string) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		if n, ok := renames[c]; ok {
			c = n
		}
		out[i] = c
	}
	return out
}

// Suffixes of the per-field options Java renames with their column.
var (
	fieldOptionSuffixes  = []string{"aggregate-function", "ignore-retract", "distinct", "list-agg-delimiter"}
	fieldGroupSuffixes   = []string{"sequence-group", "nested-key"}
	fieldsOptionPrefix   = "fields"
	fieldsOptionPrefixDt = fieldsOptionPrefix + "."
)

// renamedOptions mirrors Java applyRenameColumnsToOptions: column names in
// bucket-key and sequence.field, in fields.<col>.<suffix> keys, and in both
// key and value of fields.<cols>.sequence-group / nested-key follow the
// renames.
func (e *schemaEditor) renamedOptions() (*javacompat.StringMap, error) {
	if len(e.renames) == 0 {
		return e.options, nil
	}
	src := e.options
	out := src.Copy()
	mapping := map[string]string{}
	for _, r := range e.renames {
		mapping[r.FieldNames[0]] = r.NewName
	}
	for _, key := range []string{ddlOptBucketKey, ddlOptSequenceField} {
		if v, ok := src.Get(key); ok && strings.TrimSpace(v) != "" {
			out.Put(key, strings.Join(renameColumns(javaSplit(v, ","), mapping), ","))
		}
	}
	for _, r := range e.renames {
		for _, suffix := range fieldOptionSuffixes {
			key := fieldsOptionPrefixDt + r.FieldNames[0] + "." + suffix
			if v, ok := out.Remove(key); ok {
				out.Put(fieldsOptionPrefixDt+r.NewName+"."+suffix, v)
			}
		}
	}
	for _, key := range src.Keys() {
		if !strings.HasPrefix(key, fieldsOptionPrefix) {
			continue
		}
		for _, suffix := range fieldGroupSuffixes {
			if !strings.HasSuffix(key, suffix) {
				continue
			}
			lo, hi := len(fieldsOptionPrefix)+1, len(key)-len(suffix)-1
			if lo > hi {
				return nil, fmt.Errorf("%w: malformed option key %q", ErrSchemaChangeRefused, key)
			}
			v, ok := out.Remove(key)
			if !ok {
				break
			}
			keyFields := renameColumns(javaSplit(key[lo:hi], ","), mapping)
			valueFields := renameColumns(javaSplit(v, ","), mapping)
			out.Put(fieldsOptionPrefixDt+strings.Join(keyFields, ",")+"."+suffix, strings.Join(valueFields, ","))
			break
		}
	}
	return out, nil
}

// javaSplit is Java's String.split for a literal separator: no match gives
// the whole string, trailing empty strings are dropped.
func javaSplit(s, sep string) []string {
	if !strings.Contains(s, sep) {
		return []string{s}
	}
	parts := strings.Split(s, sep)
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return parts
}

// nestedModifier walks a column path as Java's
// SchemaManager.NestedColumnModifier does: through ROW fields, ARRAY
// elements and MAP values, calling last on the field list that holds the
// final name, and rebuilding the enclosing types on the way back.
type nestedModifier struct {
	path []string
	last func(depth int, fields *[]schema.DataField, name string) error
}

func (m *nestedModifier) run(fields *[]schema.DataField) error {
	return m.walk(fields, fields, 0, 0)
}

func (m *nestedModifier) walk(fields, previous *[]schema.DataField, depth, prevDepth int) error {
	if depth == len(m.path)-1 {
		return m.last(depth, fields, m.path[depth])
	}
	if depth >= len(m.path) {
		// The path named an ARRAY element or MAP value ("v.element"):
		// update the column that holds it.
		return m.last(prevDepth, previous, m.path[prevDepth])
	}
	for i := range *fields {
		f := (*fields)[i]
		if f.Name != m.path[depth] {
			continue
		}
		var nested []schema.DataField
		newDepth := depth + rowFieldsOf(f.Type, &nested)
		if err := m.walk(&nested, fields, newDepth, depth); err != nil {
			return err
		}
		// last may have replaced or removed the field itself; rebuild
		// only the field still standing at i.
		if i < len(*fields) && (*fields)[i].ID == f.ID {
			(*fields)[i].Type = wrapRowFields((*fields)[i].Type, nested)
		}
		return nil
	}
	return fmt.Errorf("%w: %s", ErrColumnNotFound, strings.Join(m.path[:depth+1], "."))
}

// lastName is the dotted path of name at the final depth.
func (m *nestedModifier) lastName(name string) string {
	return strings.Join(append(slices.Clone(m.path[:len(m.path)-1]), name), ".")
}

// rowFieldsOf appends the ROW fields reached from t through ARRAY elements
// and MAP values, and returns how many path levels that takes (Java
// extractRowDataFields).
func rowFieldsOf(t schema.DataType, nested *[]schema.DataField) int {
	switch t.Root {
	case schema.Row:
		for _, f := range t.Fields {
			*nested = append(*nested, f.Clone())
		}
		return 1
	case schema.Array:
		return rowFieldsOf(*t.Element, nested) + 1
	case schema.Map:
		return rowFieldsOf(*t.Value, nested) + 1
	}
	return 1
}

// wrapRowFields puts nested back as the fields of the ROW reached through
// t's ARRAY elements and MAP values (Java wrapNewRowType).
func wrapRowFields(t schema.DataType, nested []schema.DataField) schema.DataType {
	switch t.Root {
	case schema.Row:
		t.Fields = nested
	case schema.Array:
		e := wrapRowFields(*t.Element, nested)
		t.Element = &e
	case schema.Map:
		v := wrapRowFields(*t.Value, nested)
		t.Value = &v
	}
	return t
}

// rootTypeAt returns the type a path of length depthMax names inside t,
// which the path reaches at depth (Java getRootType): ARRAY elements and
// MAP values for the levels below the column.
func rootTypeAt(t schema.DataType, depth, depthMax int) schema.DataType {
	if depth == depthMax-1 {
		return t
	}
	switch t.Root {
	case schema.Array:
		return rootTypeAt(*t.Element, depth+1, depthMax)
	case schema.Map:
		return rootTypeAt(*t.Value, depth+1, depthMax)
	}
	return t
}

// replaceTypeAt returns t with the type rootTypeAt names replaced by target
// (Java getArrayMapTypeWithTargetTypeRoot).
func replaceTypeAt(t, target schema.DataType, depth, depthMax int) schema.DataType {
	if depth == depthMax-1 {
		return target
	}
	switch t.Root {
	case schema.Array:
		e := replaceTypeAt(*t.Element, target, depth+1, depthMax)
		t.Element = &e
		return t
	case schema.Map:
		v := replaceTypeAt(*t.Value, target, depth+1, depthMax)
		t.Value = &v
		return t
	}
	return target
}

// applyMove mirrors Java SchemaManager.applyMove for UpdateColumnPosition.
func applyMove(fields []schema.DataField, mv ColumnMove) error {
	from := lastIndexOfField(fields, mv.FieldName)
	if from < 0 {
		return fmt.Errorf("%w: %s", ErrColumnNotFound, mv.FieldName)
	}
	itself := func(to int) error {
		if to == from {
			return fmt.Errorf("%w: cannot move column %s relative to itself", ErrSchemaChangeRefused, mv.FieldName)
		}
		return nil
	}
	to := 0
	switch mv.Type {
	case MoveFirst:
		if err := itself(0); err != nil {
			return err
		}
	case MoveLast:
		to = len(fields) - 1
		if err := itself(to); err != nil {
			return err
		}
	case MoveAfter, MoveBefore:
		ref := lastIndexOfField(fields, mv.ReferenceFieldName)
		if ref < 0 {
			return fmt.Errorf("%w: reference column %s", ErrColumnNotFound, mv.ReferenceFieldName)
		}
		if err := itself(ref); err != nil {
			return err
		}
		to = ref
		if mv.Type == MoveAfter && from > ref {
			to++
		}
		if mv.Type == MoveBefore && from < ref {
			to--
		}
		to = min(to, len(fields)-1)
	default:
		return fmt.Errorf("%w: unsupported move type %d", ErrSchemaChangeRefused, mv.Type)
	}
	// Java removes the field, then inserts it at index to.
	f := fields[from]
	if from < to {
		copy(fields[from:to], fields[from+1:to+1])
	} else {
		copy(fields[to+1:from+1], fields[to:from])
	}
	fields[to] = f
	return nil
}

func indexOfField(fields []schema.DataField, name string) int {
	return slices.IndexFunc(fields, func(f schema.DataField) bool { return f.Name == name })
}

// lastFieldIndex is the index a Java name→index HashMap built over fields
// returns: the last field with that name.
func lastIndexOfField(fields []schema.DataField, name string) int {
	for i := len(fields) - 1; i >= 0; i-- {
		if fields[i].Name == name {
			return i
		}
	}
	return -1
}

func cloneString(s *string) *string {
	if s == nil {
		return nil
	}
	c := *s
	return &c
}
