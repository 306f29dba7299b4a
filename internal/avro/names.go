package avro

import (
	"fmt"

	"github.com/twmb/avro"

	"github.com/paimon-go/paimon-go/internal/jackson"
)

// checkNames refuses a writer schema whose record fields look damaged
// against the reader schema r: a field named twice in one record, or a
// field the reader does not know whose name is one changed, inserted or
// removed byte away from a field it knows (jackson.OneEdit). Schema
// resolution would skip such a field as unknown and read the field it
// was as missing (null, for the optional fields of Paimon's manifests),
// so one flipped bit in the file's header would silently change what
// the file says (a manifest list's partition stats, an index entry's
// ranges). Java's Avro resolution has the same blind spot; this is
// stricter on purpose, as the snapshot and schema decoders are. Records
// are matched as alignReader matches them; w must have its name
// references expanded.
func checkNames(r, w *avro.SchemaNode) error {
	switch r.Type {
	case "record", "error":
		wrec, _ := pickBranch(w, r.Type)
		if wrec == nil {
			return nil
		}
		return checkRecordNames(r, wrec)
	case "array":
		if wa, _ := pickBranch(w, "array"); wa != nil && r.Items != nil && wa.Items != nil {
			return checkNames(r.Items, wa.Items)
		}
	case "union":
		for i := range r.Branches {
			b := &r.Branches[i]
			if b.Type != "record" && b.Type != "array" {
				continue
			}
			if wb, _ := pickBranch(w, b.Type); wb != nil {
				if err := checkNames(b, wb); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func checkRecordNames(r, w *avro.SchemaNode) error {
	known := make(map[string]*avro.SchemaNode, len(r.Fields))
	for i := range r.Fields {
		known[r.Fields[i].Name] = &r.Fields[i].Type
	}
	seen := make(map[string]bool, len(w.Fields))
	for i := range w.Fields {
		name := w.Fields[i].Name
		if seen[name] {
			return fmt.Errorf("record %s: field %s appears twice", w.Name, name)
		}
		seen[name] = true
		if rt, ok := known[name]; ok {
			if err := checkNames(rt, &w.Fields[i].Type); err != nil {
				return err
			}
			continue
		}
		for k := range known {
			if jackson.OneEdit(name, k) {
				return fmt.Errorf("record %s: unknown field %q looks like a damaged %q", w.Name, name, k)
			}
		}
	}
	return nil
}
