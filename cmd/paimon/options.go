package main

import (
	"context"

	"github.com/paimon-go/paimon-go/paimon"
)

// optionsColumns are the columns of Java's $options system table
// (org.apache.paimon.table.system.OptionsTable).
var optionsColumns = []column{
	{"key", stringNotNull},
	{"value", stringNotNull},
}

func runOptions(ctx context.Context, e *env, c *command, args []string) error {
	return runMeta(ctx, e, c, args, optionsColumns, optionRows)
}

// optionRows emits the options of the latest schema, as OptionsTable does,
// in Java's HashMap order.
func optionRows(ctx context.Context, meta *paimon.TableMeta, emit func([]any) error) error {
	s, err := meta.LatestSchema(ctx)
	if err != nil {
		return err
	}
	keys, err := javaOptionOrder(s)
	if err != nil {
		return err
	}
	for _, k := range keys {
		if err := emit([]any{k, s.Options[k]}); err != nil {
			return err
		}
	}
	return nil
}
