package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	_ "github.com/paimon-go/paimon-go/catalog/filesystem" // registers the "filesystem" metastore
	_ "github.com/paimon-go/paimon-go/fs/localfs"         // file:// URIs and plain paths
	"github.com/paimon-go/paimon-go/paimon"
)

// config is the ingester's settings, from the command line.
type config struct {
	warehouse string
	table     paimon.Identifier
	user      string
	statePath string

	interval    time.Duration // between commits
	tick        time.Duration // between generated groups of rows
	rowsPerTick int
	batchRows   int           // rows buffered before they go to the writer
	duration    time.Duration // 0: until the context ends
	maxCommits  int           // stop after this many commits; 0: no limit

	// crash, when set, is called at the named points of every commit
	// ("before-commit" after the state records it, "after-commit" before
	// the state records the outcome); an error stops the run there, as a
	// killed process would. Tests use it.
	crash func(stage string, identifier int64) error
}

// run parses the arguments and ingests until -duration passes or ctx ends.
func run(ctx context.Context, args []string, stdout io.Writer) error {
	cfg, cleanup, err := parseFlags(args, stdout)
	if err != nil {
		return err
	}
	defer cleanup()
	return ingest(ctx, cfg, stdout)
}

func parseFlags(args []string, stdout io.Writer) (*config, func(), error) {
	flags := flag.NewFlagSet("append_ingest", flag.ContinueOnError)
	flags.Usage = func() {
		fmt.Fprintln(flags.Output(), "usage: append_ingest [flags] [WAREHOUSE]")
		flags.PrintDefaults()
	}
	cfg := &config{}
	table := flags.String("table", "ingest.events", "table to ingest into, as database.table; created if missing")
	flags.StringVar(&cfg.warehouse, "warehouse", "", "warehouse directory (default: a temporary directory, removed at exit)")
	flags.StringVar(&cfg.user, "user", "append-ingest", "commit user; keep it stable across restarts of one ingester")
	flags.StringVar(&cfg.statePath, "state", "", "the ingester's state file (default: .append_ingest-<table>-<user>.json in the warehouse)")
	flags.DurationVar(&cfg.interval, "interval", time.Second, "commit interval")
	flags.DurationVar(&cfg.tick, "tick", 100*time.Millisecond, "how often rows are generated")
	flags.IntVar(&cfg.rowsPerTick, "rows", 10, "rows generated per tick")
	flags.IntVar(&cfg.batchRows, "batch", 1000, "rows buffered into one Arrow batch before it is written")
	flags.DurationVar(&cfg.duration, "duration", 0, "stop after this long (0: run until interrupted)")
	flags.IntVar(&cfg.maxCommits, "commits", 0, "stop after this many commits (0: no limit)")
	if err := flags.Parse(args); err != nil {
		return nil, nil, err
	}
	if cfg.warehouse == "" && flags.NArg() > 0 {
		cfg.warehouse = flags.Arg(0)
	}
	if cfg.interval <= 0 || cfg.tick <= 0 || cfg.rowsPerTick <= 0 || cfg.batchRows <= 0 || cfg.duration < 0 || cfg.maxCommits < 0 {
		return nil, nil, errors.New("-interval, -tick, -rows and -batch must be positive, -duration and -commits not negative")
	}
	id, err := paimon.ParseIdentifier(*table)
	if err != nil {
		return nil, nil, err
	}
	cfg.table = id
	cleanup := func() {}
	if cfg.warehouse == "" {
		dir, err := os.MkdirTemp("", "paimon-ingest-")
		if err != nil {
			return nil, nil, err
		}
		cleanup = func() { os.RemoveAll(dir) }
		cfg.warehouse = dir
		fmt.Fprintf(stdout, "warehouse: %s (temporary; pass -warehouse DIR to keep it and restart)\n", dir)
	}
	if cfg.statePath == "" {
		if strings.Contains(cfg.warehouse, "://") {
			cleanup()
			return nil, nil, errors.New("give -state FILE when the warehouse is not a local directory")
		}
		cfg.statePath = filepath.Join(cfg.warehouse, fmt.Sprintf(".append_ingest-%s-%s.json", cfg.table, cfg.user))
	}
	return cfg, cleanup, nil
}
