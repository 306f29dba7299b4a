package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/paimon-go/paimon-go/paimon"
	"github.com/paimon-go/paimon-go/paimon/predicate"
)

const scanDetails = `
The table is "database.table" or "database.table$branch_NAME", optionally
followed by "$audit_log" (as --audit) or, for tables with row tracking,
"$row_tracking" (every row with its _ROW_ID and _SEQUENCE_NUMBER; --select
may name these two on such tables too). Flags may come before or after it.

--where takes a SQL-like filter on top-level columns: comparisons (= != <>
< <= > >=), [NOT] IN (...), IS [NOT] NULL, [NOT] LIKE 'prefix%', STARTS WITH,
combined with AND, OR, NOT and parentheses. Literals: numbers, 'strings',
TRUE, FALSE, X'hex', DATE '2024-05-01', TIME '12:00:00',
TIMESTAMP '2024-05-01 12:00:00'. A plain 'string' compared with a DATE,
TIME or TIMESTAMP column is read as ISO-8601 ('2024-05-01',
'2024-05-01T12:00:00.5'); a number compared with any numeric column is
converted when exact (amount > 100 on a DOUBLE, price = 1.25 on a
DECIMAL(10, 2)) and refused when it would be rounded. Quote unusual column
names with back-quotes. Examples:
  --where "dt = '2024-05-01' AND amount > 100"
  --where "ts >= TIMESTAMP '2024-05-01 12:00:00' OR name LIKE 'ab%'"
  --where "id IN (1, 2, 3) AND note IS NOT NULL"
The filter prunes partitions, buckets and files, then filters rows exactly.

--as-of accepts RFC 3339 ("2024-05-01T12:00:00Z"), a local date-time
("2024-05-01 12:00:00", "2024-05-01T12:00:00.5", "2024-05-01") or epoch
milliseconds. At most one of --snapshot, --tag and --as-of may be given.

--output: jsonl (default; one JSON object per row) and json (one array)
print plain JSON for jq and scripts, lossless: numbers as JSON numbers
(NaN and Infinity as strings), DECIMAL as a string with its scale ("-0.50"),
BINARY as hex, DATE "2024-05-01", TIME "12:34:56.789" and TIMESTAMP
"2024-05-01T12:00:00.123" with the column's fraction digits, TIMESTAMP_LTZ
in UTC with a trailing "Z", ROW as an object, MAP as [key, value] pairs.
csv and table print the same values for people. canon prints jsonl in the
interop harness's canon-v1 encoding (FLOAT/DOUBLE as "f32:"/"f64:" IEEE
bits), to compare with Java Paimon's and pypaimon's dumps. load reads back
what jsonl, canon and csv print.

--explain prints the plan (snapshot, schema, pruning funnel, splits) instead
of the rows; with --output json as one JSON object.

` + followDetails + `

Exit status: 0 ok, 1 runtime error, 2 usage error.`

// scanArgs is the parsed command line of scan.
type scanArgs struct {
	*tableArgs
	columns   []string
	where     string
	filter    *predicate.Predicate
	asOf      time.Time
	limit     int64
	outputSet bool
	// wide prints table output uncut.
	wide    bool
	explain bool
	audit   bool
	// rowTracking reads the $row_tracking table: _ROW_ID and
	// _SEQUENCE_NUMBER after the columns.
	rowTracking bool
	// incremental reads the changes of snapshots incStart+1..incEnd.
	incremental      bool
	incStart, incEnd int64
	incMode          string
	// follow keeps reading as the table changes (--follow).
	follow followArgs
}

func runScan(ctx context.Context, e *env, c *command, args []string) error {
	a, err := parseScanArgs(e, c, args)
	if err != nil {
		return err
	}
	tbl, closeCatalog, err := a.load(ctx)
	if err != nil {
		return err
	}
	defer closeCatalog()
	if err := a.checkFilter(tbl); err != nil {
		return err
	}
	scan := tbl.NewScan(a.scanOptions()...)
	if a.follow.on {
		return runFollow(ctx, e, a, tbl)
	}
	if a.explain {
		return explain(ctx, e.stdout, tbl, scan, a.output == formatJSON || a.output == formatJSONL)
	}
	// A progress line on a terminal's stderr, only when the rows go
	// elsewhere (a file or a pipe): on the terminal they are the progress.
	bar := newProgressUnit(e.stderr, isTerminal(e.stderr) && !isTerminal(e.stdout), "scanning", 0, "rows")
	rr, err := scan.NewReader(ctx)
	if err == nil {
		err = printRecords(e.stdout, a.output, tbl.Schema(), rr, a.limit, bar, tableView{wide: a.wide})
		rr.Release()
	}
	bar.done()
	return a.explainError(tbl, err)
}

func parseScanArgs(e *env, c *command, args []string) (*scanArgs, error) {
	var (
		a                                    scanArgs
		selectFlag, asOfFlag, limitFlag, inc string
		untilFlag                            string
	)
	fs := newFlagSet(c)
	fs.StringVar(&selectFlag, "select", "", "comma-separated `columns` to return, in order (default all)")
	fs.StringVar(&a.where, "where", "", "row filter `EXPR`, e.g. \"a = 1 AND s LIKE 'x%'\"")
	fs.StringVar(&asOfFlag, "as-of", "", "read the latest snapshot committed at or before `TIME`")
	fs.StringVar(&limitFlag, "limit", "", "stop after `N` rows")
	fs.BoolVar(&a.explain, "explain", false, "print the scan plan instead of the rows")
	fs.BoolVar(&a.wide, "wide", false, "table output: cells uncut (by default cut to 40 characters in the middle)")
	fs.BoolVar(&a.audit, "audit", false, "read the audit log: a leading rowkind column, deleted keys as -D rows")
	fs.StringVar(&inc, "incremental", "", "read the changes committed after snapshot `S,E`'s S up to E (rows with their rowkind)")
	fs.StringVar(&a.incMode, "incremental-mode", "", "with --incremental: auto (default), delta or changelog")
	fs.BoolVar(&a.follow.on, "follow", false, "keep reading: print each new snapshot's changes (rows with their rowkind)")
	fs.StringVar(&a.follow.from, "from", "", "with --follow: where to start: `latest-full`, latest, earliest, snapshot:N, snapshot-full:N or timestamp:TIME")
	fs.StringVar(&a.follow.consumer, "consumer", "", "with --follow: consumer `ID` to resume from and record progress in")
	fs.StringVar(&untilFlag, "until", "", "with --follow: stop once snapshot `N` is read")
	var err error
	if a.tableArgs, err = parseTable(e, c, fs, args, tableSpec{formats: rowFormats, travel: true}); err != nil {
		return nil, err
	}
	bad := func(format string, args ...any) (*scanArgs, error) {
		return nil, usagef(c.name, format, args...)
	}
	// The system tables that are reads of the table itself: its audit log
	// and, for row-tracking tables, every row with its row id and sequence
	// number (Java's "table$audit_log" and "table$row_tracking").
	name := &a.table.Table
	if a.table.Branch != "" {
		name = &a.table.Branch
	}
	if t, ok := strings.CutSuffix(*name, "$audit_log"); ok {
		*name, a.audit = t, true
	} else if t, ok := strings.CutSuffix(*name, "$row_tracking"); ok {
		*name, a.rowTracking = t, true
	}
	set := a.set
	a.outputSet = set["output"]
	if set["select"] {
		for _, col := range strings.Split(selectFlag, ",") {
			col = strings.TrimSpace(col)
			if col == "" {
				return bad("--select %q: empty column name", selectFlag)
			}
			a.columns = append(a.columns, col)
		}
	}
	if set["where"] {
		if strings.TrimSpace(a.where) == "" {
			return bad("--where: empty expression")
		}
		if a.filter, err = predicate.Parse(a.where); err != nil {
			return bad("--where: %v", err)
		}
	}
	var travel []string
	for _, f := range []string{"snapshot", "tag", "as-of", "incremental"} {
		if set[f] {
			travel = append(travel, "--"+f)
		}
	}
	if set["as-of"] {
		if a.asOf, err = parseTime(asOfFlag, time.Local); err != nil {
			return bad("--as-of: %v", err)
		}
	}
	if set["incremental"] {
		lo, hi, ok := strings.Cut(inc, ",")
		s, err1 := strconv.ParseInt(strings.TrimSpace(lo), 10, 64)
		e, err2 := strconv.ParseInt(strings.TrimSpace(hi), 10, 64)
		if !ok || err1 != nil || err2 != nil || s < 0 || e < s {
			return bad("--incremental %q: want S,E with 0 <= S <= E (snapshot ids)", inc)
		}
		a.incremental, a.incStart, a.incEnd = true, s, e
	} else if set["incremental-mode"] {
		return bad("--incremental-mode needs --incremental")
	}
	if len(travel) > 1 {
		return bad("%s cannot be combined: choose one snapshot", strings.Join(travel, " and "))
	}
	if set["limit"] {
		if a.limit, err = positiveInt(c, "limit", limitFlag); err != nil {
			return nil, err
		}
	}
	if err := a.parseFollow(c, untilFlag); err != nil {
		return nil, err
	}
	if a.explain {
		if a.outputSet && a.output != formatTable && a.output != formatJSON && a.output != formatJSONL {
			return bad("--explain prints text (--output table) or JSON (--output json), not %q", a.output)
		}
		if !a.outputSet {
			a.output = formatTable
		}
	}
	return &a, nil
}

func (a *scanArgs) scanOptions() []paimon.ScanOption {
	var opts []paimon.ScanOption
	if a.columns != nil {
		opts = append(opts, paimon.WithColumns(a.columns...))
	}
	if a.filter != nil {
		opts = append(opts, paimon.WithFilter(a.filter))
	}
	if a.snapshot != 0 {
		opts = append(opts, paimon.WithSnapshotID(a.snapshot))
	}
	if a.tag != "" {
		opts = append(opts, paimon.WithTag(a.tag))
	}
	if !a.asOf.IsZero() {
		opts = append(opts, paimon.WithTimestamp(a.asOf))
	}
	if a.limit > 0 {
		opts = append(opts, paimon.WithLimit(a.limit))
	}
	if a.audit {
		opts = append(opts, paimon.WithAuditLog())
	}
	if a.incremental {
		opts = append(opts, paimon.WithIncremental(a.incStart, a.incEnd, a.incMode))
	}
	if a.rowTracking {
		opts = append(opts, paimon.WithRowTracking())
	}
	return opts
}

// timeTravel reports whether the scan reads an older snapshot, whose schema
// may differ from the table's current one.
func (a *scanArgs) timeTravel() bool {
	return a.snapshot != 0 || a.tag != "" || !a.asOf.IsZero()
}

// checkFilter binds the --where filter against the table's current schema
// before any other I/O, so that an unknown column or a literal of the wrong
// type is reported in terms of the command line, with the columns that do
// exist. With time travel the schema of the chosen snapshot decides, so the
// scan binds it itself.
func (a *scanArgs) checkFilter(tbl *paimon.Table) error {
	if a.filter == nil || a.timeTravel() {
		return nil
	}
	if _, err := predicate.Bind(a.filter, tbl.Schema().Fields); err != nil {
		return fmt.Errorf("--where %q: %w%s", a.where, err, columnsHint(tbl, err))
	}
	return nil
}

// explainError adds the flag to blame and the table's columns to errors
// caused by --select or --where that the scan found.
func (a *scanArgs) explainError(tbl *paimon.Table, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, paimon.ErrColumnNotFound):
		return fmt.Errorf("--select: %w%s", err, columnsHint(tbl, err))
	case errors.Is(err, predicate.ErrUnknownField), errors.Is(err, predicate.ErrTypeMismatch):
		return fmt.Errorf("--where %q: %w", a.where, err)
	}
	return err
}

func columnsHint(tbl *paimon.Table, err error) string {
	if !errors.Is(err, predicate.ErrUnknownField) && !errors.Is(err, paimon.ErrColumnNotFound) {
		return ""
	}
	return " (columns: " + strings.Join(tbl.Schema().FieldNames(), ", ") + ")"
}

// parseTime parses the --as-of forms: epoch milliseconds, RFC 3339, and
// local date-times (in loc) with a space or a 'T' and optional fraction, or
// a date alone (midnight). Java's scan.timestamp reads zone-less text in
// the local time zone too.
func parseTime(s string, loc *time.Location) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, errors.New("empty time")
	}
	if ms, err := strconv.ParseInt(s, 10, 64); err == nil {
		return time.UnixMilli(ms), nil
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	for _, layout := range []string{
		"2006-01-02 15:04:05.999999999",
		"2006-01-02T15:04:05.999999999",
		"2006-01-02 15:04",
		"2006-01-02T15:04",
		"2006-01-02",
	} {
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("cannot parse %q: want RFC 3339 (2024-05-01T12:00:00Z), a local date-time (2024-05-01 12:00:00) or epoch milliseconds", s)
}
