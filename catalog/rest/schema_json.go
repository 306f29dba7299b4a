package rest

import (
	"encoding/json"
	"fmt"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/paimon"
)

// schemaJSON is Java's Schema JSON, the body of CreateTableRequest and the
// "schema" of GetTableResponse.
type schemaJSON struct {
	Fields        []schema.DataField `json:"fields"`
	PartitionKeys []string           `json:"partitionKeys"`
	PrimaryKeys   []string           `json:"primaryKeys"`
	Options       map[string]string  `json:"options"`
	Comment       *string            `json:"comment"`
}

func toSchemaJSON(s *paimon.Schema, defaults map[string]string) schemaJSON {
	opts := make(map[string]string, len(s.Options)+len(defaults))
	for k, v := range defaults {
		opts[k] = v
	}
	for k, v := range s.Options {
		opts[k] = v
	}
	out := schemaJSON{Fields: s.Fields, PartitionKeys: s.PartitionKeys, PrimaryKeys: s.PrimaryKeys,
		Options: opts, Comment: s.Comment}
	if out.PartitionKeys == nil {
		out.PartitionKeys = []string{}
	}
	if out.PrimaryKeys == nil {
		out.PrimaryKeys = []string{}
	}
	return out
}

// Actions of Java's SchemaChange JSON (SchemaChange.Actions).
const (
	actionSetOption               = "setOption"
	actionRemoveOption            = "removeOption"
	actionUpdateComment           = "updateComment"
	actionAddColumn               = "addColumn"
	actionRenameColumn            = "renameColumn"
	actionDropColumn              = "dropColumn"
	actionUpdateColumnType        = "updateColumnType"
	actionUpdateColumnNullability = "updateColumnNullability"
	actionUpdateColumnComment     = "updateColumnComment"
	actionUpdateColumnPosition    = "updateColumnPosition"
	actionDropPrimaryKey          = "dropPrimaryKey"
)

type moveJSON struct {
	FieldName          string  `json:"fieldName"`
	ReferenceFieldName *string `json:"referenceFieldName"`
	Type               string  `json:"type"`
}

func toMoveJSON(m paimon.ColumnMove) (*moveJSON, error) {
	out := &moveJSON{FieldName: m.FieldName}
	switch m.Type {
	case paimon.MoveFirst:
		out.Type = "FIRST"
	case paimon.MoveLast:
		out.Type = "LAST"
	case paimon.MoveAfter, paimon.MoveBefore:
		out.Type = map[paimon.MoveType]string{paimon.MoveAfter: "AFTER", paimon.MoveBefore: "BEFORE"}[m.Type]
		ref := m.ReferenceFieldName
		out.ReferenceFieldName = &ref
	default:
		return nil, fmt.Errorf("%w: column move type %d", paimon.ErrInvalidSchema, m.Type)
	}
	return out, nil
}

// schemaChangeJSON encodes one change as Java's SchemaChange JSON, whose
// "action" member selects the subtype.
func schemaChangeJSON(ch paimon.SchemaChange) (map[string]any, error) {
	switch c := ch.(type) {
	case paimon.SetOption:
		return map[string]any{"action": actionSetOption, "key": c.Key, "value": c.Value}, nil
	case paimon.RemoveOption:
		return map[string]any{"action": actionRemoveOption, "key": c.Key}, nil
	case paimon.UpdateComment:
		return map[string]any{"action": actionUpdateComment, "comment": c.Comment}, nil
	case paimon.AddColumn:
		m := map[string]any{"action": actionAddColumn, "fieldNames": c.FieldNames, "dataType": c.Type,
			"comment": c.Description}
		if c.Move != nil {
			mv, err := toMoveJSON(*c.Move)
			if err != nil {
				return nil, err
			}
			if mv.FieldName == "" && len(c.FieldNames) > 0 {
				mv.FieldName = c.FieldNames[len(c.FieldNames)-1]
			}
			m["move"] = mv
		} else {
			m["move"] = nil
		}
		return m, nil
	case paimon.RenameColumn:
		return map[string]any{"action": actionRenameColumn, "fieldNames": c.FieldNames, "newName": c.NewName}, nil
	case paimon.DropColumn:
		return map[string]any{"action": actionDropColumn, "fieldNames": c.FieldNames}, nil
	case paimon.UpdateColumnType:
		return map[string]any{"action": actionUpdateColumnType, "fieldNames": c.FieldNames, "newDataType": c.Type,
			"keepNullability": c.KeepNullability}, nil
	case paimon.UpdateColumnNullability:
		return map[string]any{"action": actionUpdateColumnNullability, "fieldNames": c.FieldNames,
			"newNullability": c.Nullable}, nil
	case paimon.UpdateColumnComment:
		return map[string]any{"action": actionUpdateColumnComment, "fieldNames": c.FieldNames,
			"newComment": c.Comment}, nil
	case paimon.UpdateColumnPosition:
		mv, err := toMoveJSON(c.Move)
		if err != nil {
			return nil, err
		}
		return map[string]any{"action": actionUpdateColumnPosition, "move": mv}, nil
	case paimon.DropPrimaryKey:
		return map[string]any{"action": actionDropPrimaryKey}, nil
	}
	return nil, fmt.Errorf("%w: schema change %T", paimon.ErrUnsupported, ch)
}

func schemaChangesJSON(changes []paimon.SchemaChange) ([]json.RawMessage, error) {
	out := make([]json.RawMessage, 0, len(changes))
	for _, ch := range changes {
		m, err := schemaChangeJSON(ch)
		if err != nil {
			return nil, err
		}
		b, err := json.Marshal(m)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}
