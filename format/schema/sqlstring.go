package schema

import (
	"strconv"
	"strings"
)

// String returns the type as Java's DataType.asSQLString prints it, e.g.
// "DECIMAL(10, 2) NOT NULL", "STRING", "TIMESTAMP(3) WITH LOCAL TIME ZONE",
// "ARRAY<INT>" or "ROW<`a` INT COMMENT 'x'>". For atomic types this is also
// the JSON form; composite types use JSON objects instead (see MarshalJSON).
// ParseType reads every string String produces.
func (t DataType) String() string {
	var b strings.Builder
	writeSQL(&b, t, 0)
	return b.String()
}

// String returns the field as Java's DataField.asSQLString prints it:
// "`name` TYPE", then " COMMENT '...'" if the description is not empty and
// " DEFAULT <value>" if a default value is set.
func (f DataField) String() string {
	var b strings.Builder
	writeFieldSQL(&b, f, 0)
	return b.String()
}

func writeSQL(b *strings.Builder, t DataType, depth int) {
	if depth > maxNesting {
		b.WriteString("...")
		return
	}
	switch t.Root {
	case Char, Binary:
		writeParams(b, t.Root.String(), t.Length)
	case VarChar:
		if t.Length == MaxLength {
			b.WriteString("STRING")
		} else {
			writeParams(b, "VARCHAR", t.Length)
		}
	case VarBinary:
		if t.Length == MaxLength {
			b.WriteString("BYTES")
		} else {
			writeParams(b, "VARBINARY", t.Length)
		}
	case Decimal:
		writeParams(b, "DECIMAL", t.Precision, t.Scale)
	case Time, Timestamp:
		writeParams(b, t.Root.String(), t.Precision)
	case TimestampLTZ:
		writeParams(b, "TIMESTAMP", t.Precision)
		b.WriteString(" WITH LOCAL TIME ZONE")
	case Array, Multiset:
		b.WriteString(t.Root.String())
		b.WriteByte('<')
		writeChild(b, t.Element, depth)
		b.WriteByte('>')
	case Vector:
		b.WriteString("VECTOR<")
		writeChild(b, t.Element, depth)
		b.WriteString(", ")
		b.WriteString(strconv.Itoa(t.Length))
		b.WriteByte('>')
	case Map:
		b.WriteString("MAP<")
		writeChild(b, t.Key, depth)
		b.WriteString(", ")
		writeChild(b, t.Value, depth)
		b.WriteByte('>')
	case Row:
		b.WriteString("ROW<")
		for i, f := range t.Fields {
			if i > 0 {
				b.WriteString(", ")
			}
			writeFieldSQL(b, f, depth+1)
		}
		b.WriteByte('>')
	default:
		// Atomic types without parameters, and InvalidRoot/unknown roots,
		// which print their TypeRoot name so that mistakes are visible.
		b.WriteString(t.Root.String())
	}
	if !t.Nullable {
		b.WriteString(" NOT NULL")
	}
}

func writeChild(b *strings.Builder, t *DataType, depth int) {
	if t == nil {
		b.WriteString("?")
		return
	}
	writeSQL(b, *t, depth+1)
}

// writeParams writes NAME(p1, p2): Java's formats put ", " between
// parameters (DecimalType.FORMAT = "DECIMAL(%d, %d)").
func writeParams(b *strings.Builder, name string, params ...int) {
	b.WriteString(name)
	b.WriteByte('(')
	for i, p := range params {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(p))
	}
	b.WriteByte(')')
}

// writeFieldSQL mirrors DataField.asSQLString with EncodingUtils'
// escapeIdentifier (backticks, doubled inside) and escapeSingleQuotes.
func writeFieldSQL(b *strings.Builder, f DataField, depth int) {
	b.WriteByte('`')
	b.WriteString(strings.ReplaceAll(f.Name, "`", "``"))
	b.WriteString("` ")
	writeSQL(b, f.Type, depth)
	if f.Description != nil && *f.Description != "" {
		b.WriteString(" COMMENT '")
		b.WriteString(strings.ReplaceAll(*f.Description, "'", "''"))
		b.WriteByte('\'')
	}
	if f.DefaultValue != nil {
		b.WriteString(" DEFAULT ")
		b.WriteString(*f.DefaultValue)
	}
}
