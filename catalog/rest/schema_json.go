package rest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/internal/javacompat"
	"github.com/paimon-go/paimon-go/paimon"
)

// schemaJSON is Java's Schema JSON, the body of CreateTableRequest.
type schemaJSON struct {
	Fields        []schema.DataField
	PartitionKeys []string
	PrimaryKeys   []string
	Options       map[string]string
	OptionOrder   []string // the order Java's client serializes them in
	Comment       *string
}

// toSchemaJSON returns the request's schema: s normalized, with the
// catalog's table-default options put after its own where it does not set
// them (Java's RESTCatalog.createTable). The options keep the order of
// Java's HashMap, as Java's client serializes them, so that the server,
// which copies them into a HashMap again, writes the schema file the
// filesystem catalog writes.
func toSchemaJSON(s *schema.Schema, defaults map[string]string) (schemaJSON, error) {
	n, err := s.Normalized()
	if err != nil {
		return schemaJSON{}, err
	}
	m := javacompat.CopyStringMap(n.OptionOrder(), n.Options)
	for _, k := range slices.Sorted(maps.Keys(defaults)) {
		if _, ok := m.Get(k); !ok {
			m.Put(k, defaults[k])
		}
	}
	return schemaJSON{Fields: n.Fields, PartitionKeys: n.PartitionKeys, PrimaryKeys: n.PrimaryKeys,
		Options: m.Values(), OptionOrder: m.Keys(), Comment: n.Comment}, nil
}

// MarshalJSON writes the members in Java's order, the options in
// OptionOrder.
func (s schemaJSON) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	fields, err := json.Marshal(s.Fields)
	if err != nil {
		return nil, err
	}
	pk, err := json.Marshal(nonNil(s.PartitionKeys))
	if err != nil {
		return nil, err
	}
	prk, err := json.Marshal(nonNil(s.PrimaryKeys))
	if err != nil {
		return nil, err
	}
	comment, err := json.Marshal(s.Comment)
	if err != nil {
		return nil, err
	}
	b.WriteString(`{"fields":`)
	b.Write(fields)
	b.WriteString(`,"partitionKeys":`)
	b.Write(pk)
	b.WriteString(`,"primaryKeys":`)
	b.Write(prk)
	b.WriteString(`,"options":{`)
	for i, k := range s.OptionOrder {
		if i > 0 {
			b.WriteByte(',')
		}
		kj, _ := json.Marshal(k) // strings always marshal
		vj, _ := json.Marshal(s.Options[k])
		b.Write(kj)
		b.WriteByte(':')
		b.Write(vj)
	}
	b.WriteString(`},"comment":`)
	b.Write(comment)
	b.WriteByte('}')
	return b.Bytes(), nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
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
