package main

import "testing"

// TestListActionsBadInput: "tag list" and "branch list" refuse a missing
// or second table name and an unknown output format as usage errors, and a
// missing table as a runtime error (their happy paths are tagNamesOf and
// branchNamesOf in TestTagCommands and TestBranchCommands).
func TestListActionsBadInput(t *testing.T) {
	t.Setenv(warehouseEnv, "")
	wh := "--warehouse=" + warehouse("java-1.4.2", "append-unpartitioned")
	table := "interop.append_unpartitioned"
	for _, action := range []string{"tag", "branch"} {
		runUsage(t, "missing table name (database.table)", action, "list", wh)
		runUsage(t, "expected one table name, got 2 arguments", action, "list", wh, table, "extra")
		runUsage(t, `--output "xml": want one of jsonl, json, csv, table, canon`, action, "list", wh, table, "--output", "xml")
		runFail(t, "table not found: interop.nope in warehouse", action, "list", wh, "interop.nope")
	}
}
