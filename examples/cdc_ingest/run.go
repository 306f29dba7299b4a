package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	_ "github.com/paimon-go/paimon-go/catalog/filesystem" // registers the "filesystem" metastore
	_ "github.com/paimon-go/paimon-go/fs/localfs"         // file:// URIs and plain paths
	"github.com/paimon-go/paimon-go/paimon"
)

// config is the consumer's settings, from the command line.
type config struct {
	warehouse string
	table     paimon.Identifier
	user      string
	statePath string
	events    string
	every     int // events per commit
	batch     int // events per Arrow batch

	// crash, when set, is called at the named points of every commit
	// ("before-commit" after the state records it, "after-commit" before
	// the state records the outcome); an error stops the run there, as a
	// killed process would. Tests use it.
	crash func(stage string, identifier int64) error
}

// run parses the arguments and applies the events not applied yet.
func run(ctx context.Context, args []string, stdout io.Writer) error {
	flags := flag.NewFlagSet("cdc_ingest", flag.ContinueOnError)
	cfg := &config{}
	table := flags.String("table", "cdc.customers", "table to apply the events to, as database.table; created if missing")
	flags.StringVar(&cfg.warehouse, "warehouse", "", "warehouse directory (default: a temporary directory, removed at exit)")
	flags.StringVar(&cfg.events, "events", "", "JSON lines file of change events (default: changes.jsonl in the warehouse)")
	flags.StringVar(&cfg.user, "user", "cdc-ingest", "commit user; keep it stable across restarts of one consumer")
	flags.StringVar(&cfg.statePath, "state", "", "the consumer's state file (default: .cdc_ingest-<table>-<user>.json in the warehouse)")
	flags.IntVar(&cfg.every, "every", 500, "events per commit")
	flags.IntVar(&cfg.batch, "batch", 100, "events per Arrow batch handed to the writer")
	gen := flags.Int("generate", 0, "first append this many random demo events to the events file")
	seed := flags.Uint64("seed", 1, "seed of -generate")
	if err := flags.Parse(args); err != nil {
		return err
	}
	if cfg.every <= 0 || cfg.batch <= 0 || *gen < 0 {
		return errors.New("-every and -batch must be positive, -generate not negative")
	}
	id, err := paimon.ParseIdentifier(*table)
	if err != nil {
		return err
	}
	cfg.table = id
	if cfg.warehouse == "" {
		dir, err := os.MkdirTemp("", "paimon-cdc-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		cfg.warehouse = dir
		fmt.Fprintf(stdout, "warehouse: %s (temporary; pass -warehouse DIR to keep it and restart)\n", dir)
	}
	if cfg.events == "" {
		cfg.events = filepath.Join(cfg.warehouse, "changes.jsonl")
	}
	if cfg.statePath == "" {
		cfg.statePath = filepath.Join(cfg.warehouse, fmt.Sprintf(".cdc_ingest-%s-%s.json", cfg.table, cfg.user))
	}
	if *gen > 0 {
		if err := generate(cfg.events, *gen, *seed); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "appended %d demo events to %s\n", *gen, cfg.events)
	}
	cfg.crash = crashHook
	return consume(ctx, cfg, stdout)
}

// crashHook is set by tests to stop a run at a commit's stages.
var crashHook func(stage string, identifier int64) error
