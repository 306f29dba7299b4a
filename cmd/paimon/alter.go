package main

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/paimon"
)

// changeList collects the schema changes of "table alter" in command-line
// order: every change flag appends to the same list.
type changeList struct {
	changes []paimon.SchemaChange
}

// changeFlag is one change flag; parse turns its value into a change.
type changeFlag struct {
	list  *changeList
	parse func(string) (paimon.SchemaChange, error)
}

func (f changeFlag) String() string { return "" }

func (f changeFlag) Set(v string) error {
	c, err := f.parse(v)
	if err != nil {
		return err
	}
	f.list.changes = append(f.list.changes, c)
	return nil
}

func runTableAlter(ctx context.Context, e *env, c *command, args []string) error {
	list := &changeList{}
	fs := newFlagSet(c)
	fs.Var(changeFlag{list, parseSetOption}, "set", "set table option `KEY=VALUE`")
	fs.Var(changeFlag{list, parseUnsetOption}, "unset", "remove table option `KEY`")
	fs.Var(changeFlag{list, parseComment}, "comment", "replace the table comment with `TEXT` (empty removes it)")
	fs.Var(changeFlag{list, parseAddColumn}, "add-column", "add column `'NAME TYPE [FIRST | AFTER COL]'`")
	fs.Var(changeFlag{list, parseDropColumn}, "drop-column", "drop column `COL`")
	fs.Var(changeFlag{list, parseRenameColumn}, "rename-column", "rename a column: `OLD=NEW`")
	fs.Var(changeFlag{list, parseAlterColumnType}, "alter-column-type", "change a column's type: `'COL TYPE'`")
	var custom keyList
	fs.Var(&custom, "custom-option", "accept --set of option `KEY` although Java Paimon does not know it (repeatable)")
	a, err := parseTable(e, c, fs, args, tableSpec{maxRest: 0})
	if err != nil {
		return err
	}
	id := a.table
	if len(list.changes) == 0 {
		return usagef(c.name, "nothing to change: give --set, --unset, --comment, --add-column, --drop-column, --rename-column or --alter-column-type")
	}
	set := map[string]string{}
	for _, ch := range list.changes {
		if so, ok := ch.(paimon.SetOption); ok {
			set[so.Key] = so.Value
		}
	}
	if err := paimon.CheckOptionKeys(set, custom...); err != nil {
		return fmt.Errorf("%w (pass --custom-option KEY to store a key of your own)", err)
	}
	cat, ddl, closeCat, err := openDDL(ctx, a)
	if err != nil {
		return err
	}
	defer closeCat()
	if err := ddl.AlterTable(ctx, id, list.changes, false); err != nil {
		return err
	}
	tbl, err := cat.LoadTable(ctx, id)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "Altered table %s: schema %d.\n", id, tbl.Schema().ID)
	return nil
}

func parseSetOption(v string) (paimon.SchemaChange, error) {
	k, val, ok := strings.Cut(v, "=")
	k = strings.TrimSpace(k)
	if !ok || k == "" {
		return nil, errors.New("want KEY=VALUE")
	}
	return paimon.SetOption{Key: k, Value: val}, nil
}

func parseUnsetOption(v string) (paimon.SchemaChange, error) {
	k := strings.TrimSpace(v)
	if k == "" {
		return nil, errors.New("want an option key")
	}
	return paimon.RemoveOption{Key: k}, nil
}

func parseComment(v string) (paimon.SchemaChange, error) {
	if v == "" {
		return paimon.UpdateComment{}, nil
	}
	return paimon.UpdateComment{Comment: &v}, nil
}

// positionClause matches a trailing "FIRST" or "AFTER col" of --add-column.
var positionClause = regexp.MustCompile("(?i)\\s+(first|after\\s+(`[^`]+`|\\S+))\\s*$")

func parseAddColumn(v string) (paimon.SchemaChange, error) {
	spec := strings.TrimSpace(v)
	var move *paimon.ColumnMove
	if m := positionClause.FindStringSubmatchIndex(spec); m != nil {
		clause := spec[m[2]:m[3]]
		if strings.EqualFold(clause, "first") {
			move = &paimon.ColumnMove{Type: paimon.MoveFirst}
		} else {
			ref := strings.Trim(spec[m[4]:m[5]], "`")
			move = &paimon.ColumnMove{Type: paimon.MoveAfter, ReferenceFieldName: ref}
		}
		spec = spec[:m[0]]
	}
	path, typ, err := columnAndType(spec)
	if err != nil {
		return nil, err
	}
	if move != nil {
		move.FieldName = path[len(path)-1]
	}
	return paimon.AddColumn{FieldNames: path, Type: typ, Move: move}, nil
}

func parseDropColumn(v string) (paimon.SchemaChange, error) {
	path, rest, err := columnPath(strings.TrimSpace(v))
	if err != nil {
		return nil, err
	}
	if rest != "" {
		return nil, fmt.Errorf("unexpected %q after the column name", rest)
	}
	return paimon.DropColumn{FieldNames: path}, nil
}

func parseRenameColumn(v string) (paimon.SchemaChange, error) {
	from, to, ok := strings.Cut(v, "=")
	from, to = strings.TrimSpace(from), strings.Trim(strings.TrimSpace(to), "`")
	if !ok || from == "" || to == "" {
		return nil, errors.New("want OLD=NEW")
	}
	path, rest, err := columnPath(from)
	if err != nil {
		return nil, err
	}
	if rest != "" {
		return nil, fmt.Errorf("unexpected %q after the column name", rest)
	}
	return paimon.RenameColumn{FieldNames: path, NewName: to}, nil
}

func parseAlterColumnType(v string) (paimon.SchemaChange, error) {
	path, typ, err := columnAndType(strings.TrimSpace(v))
	if err != nil {
		return nil, err
	}
	return paimon.UpdateColumnType{FieldNames: path, Type: typ, KeepNullability: !explicitNullability(v)}, nil
}

// columnAndType splits "NAME TYPE" and parses the type.
func columnAndType(spec string) ([]string, schema.DataType, error) {
	path, rest, err := columnPath(spec)
	if err != nil {
		return nil, schema.DataType{}, err
	}
	if rest == "" {
		return nil, schema.DataType{}, errors.New("want a column name and a type, e.g. 'price DECIMAL(10, 2)'")
	}
	t, err := schema.ParseType(rest)
	if err != nil {
		return nil, schema.DataType{}, err
	}
	return path, t, nil
}

// columnPath reads a column path at the start of s: names separated by
// dots, each plain (ending at white space, a dot or a back-quote) or
// back-quoted (then it may hold anything but a back-quote). rest is what
// follows, trimmed.
func columnPath(s string) (path []string, rest string, err error) {
	i := 0
	for {
		var name string
		if i < len(s) && s[i] == '`' {
			end := strings.IndexByte(s[i+1:], '`')
			if end < 0 {
				return nil, "", errors.New("unterminated back-quoted column name")
			}
			name = s[i+1 : i+1+end]
			i += end + 2
		} else {
			j := i
			for j < len(s) && s[j] != '.' && s[j] != '`' && !unicode.IsSpace(rune(s[j])) {
				j++
			}
			name = s[i:j]
			i = j
		}
		if name == "" {
			if len(path) == 0 && strings.TrimSpace(s) == "" {
				return nil, "", errors.New("missing column name")
			}
			return nil, "", fmt.Errorf("column name %q has an empty part", s)
		}
		path = append(path, name)
		if i < len(s) && s[i] == '.' {
			i++
			continue
		}
		return path, strings.TrimSpace(s[i:]), nil
	}
}

// explicitNullability reports whether a type string ends with NULL or NOT
// NULL.
func explicitNullability(typ string) bool {
	return strings.HasSuffix(strings.ToUpper(strings.TrimSpace(typ)), " NULL")
}
