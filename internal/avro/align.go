package avro

import "github.com/twmb/avro"

// alignReader returns a copy of the reader schema tree r adjusted to the
// writer schema tree w, so that Avro schema resolution accepts the pairs that
// Java Paimon's own reader accepts (it matches fields by name and does not
// look at record names, see AvroRowDatumReader / FieldReaderFactory):
//
//   - every reader record takes the (name, namespace) of the writer record at
//     the same position, because Avro resolution requires equal record
//     names and pypaimon, for example, names its records differently;
//   - a reader record becomes ["null", record] where the writer wrote that
//     union, because Paimon before 0.9 wrote nullable records and Avro
//     resolution does not let a union be read as a plain record.
//
// Fields are matched by name; anything that does not line up is left as is
// and reported by the resolution that follows. r and w are not modified. w
// must have its name references expanded.
func alignReader(r, w *avro.SchemaNode) *avro.SchemaNode {
	out := alignNode(*r, w)
	return &out
}

func alignNode(r avro.SchemaNode, w *avro.SchemaNode) avro.SchemaNode {
	switch r.Type {
	case "record", "error":
		wrec, nullable := pickBranch(w, r.Type)
		if wrec == nil {
			return r
		}
		out := alignRecord(r, wrec)
		if nullable {
			return avro.SchemaNode{Type: "union", Branches: []avro.SchemaNode{{Type: "null"}, out}}
		}
		return out
	case "array":
		// Arrays only carry the alignment down to their items (the index
		// manifest's deletion-vector ranges are an array of records).
		if wa, _ := pickBranch(w, "array"); wa != nil && r.Items != nil && wa.Items != nil {
			items := alignNode(*r.Items, wa.Items)
			r.Items = &items
		}
		return r
	case "union":
		branches := make([]avro.SchemaNode, len(r.Branches))
		for i, b := range r.Branches {
			branches[i] = b
			if b.Type != "record" && b.Type != "array" {
				continue
			}
			if wb, _ := pickBranch(w, b.Type); wb != nil {
				aligned := alignNode(b, wb)
				if aligned.Type != "union" { // never nest unions
					branches[i] = aligned
				}
			}
		}
		r.Branches = branches
		return r
	default:
		return r
	}
}

// alignRecord renames reader record r after writer record w and aligns the
// types of the fields both have.
func alignRecord(r avro.SchemaNode, w *avro.SchemaNode) avro.SchemaNode {
	r.Name = w.Name
	r.Namespace = w.Namespace
	r.Aliases = nil
	fields := make([]avro.SchemaField, len(r.Fields))
	for i, f := range r.Fields {
		fields[i] = f
		for j := range w.Fields {
			if w.Fields[j].Name == f.Name {
				fields[i].Type = alignNode(f.Type, &w.Fields[j].Type)
				break
			}
		}
	}
	r.Fields = fields
	return r
}

// pickBranch finds the writer node of the given kind: w itself, or the only
// branch of that kind in a two-branch ["null", T] / [T, "null"] union, in
// which case nullable is true.
func pickBranch(w *avro.SchemaNode, kind string) (node *avro.SchemaNode, nullable bool) {
	if w == nil {
		return nil, false
	}
	if w.Type == kind {
		return w, false
	}
	if w.Type != "union" || len(w.Branches) != 2 {
		return nil, false
	}
	switch {
	case w.Branches[0].Type == "null" && w.Branches[1].Type == kind:
		return &w.Branches[1], true
	case w.Branches[1].Type == "null" && w.Branches[0].Type == kind:
		return &w.Branches[0], true
	}
	return nil, false
}
