package rest_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/paimon-go/paimon-go/catalog"
	"github.com/paimon-go/paimon-go/catalog/catalogtest"
	"github.com/paimon-go/paimon-go/catalog/rest"
	"github.com/paimon-go/paimon-go/format/schema"
	"github.com/paimon-go/paimon-go/fs"
	"github.com/paimon-go/paimon-go/fs/localfs"
	"github.com/paimon-go/paimon-go/internal/canon"
	"github.com/paimon-go/paimon-go/internal/interop"
	"github.com/paimon-go/paimon-go/internal/memcheck"
	"github.com/paimon-go/paimon-go/internal/testtable"
	"github.com/paimon-go/paimon-go/paimon"
)

// The live tests run Java Paimon's own REST catalog server
// (RESTCatalogServer from the paimon-core 1.4.2 test jar) and Java's
// RESTCatalog client through interop/java; they need PAIMON_INTEROP=1.

const liveToken = "live-secret-token-4711"

func openLive(t *testing.T, srv *interop.RESTServer, extra map[string]string) *rest.Catalog {
	t.Helper()
	opts := map[string]string{
		"uri": srv.URL, "warehouse": srv.Warehouse, "token.provider": "bear", "token": liveToken,
	}
	for k, v := range extra {
		opts[k] = v
	}
	c, err := rest.New(context.Background(), opts, nil)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, c.Close()) })
	return c
}

func TestLiveConformance(t *testing.T) {
	srv := interop.StartRESTServer(t, interop.RESTServerOptions{Auth: "bear:" + liveToken})
	ctx := context.Background()
	c := openLive(t, srv, nil)
	require.NoError(t, catalogtest.Populate(ctx, c, func(ctx context.Context, id paimon.Identifier, branch string) error {
		return c.CreateBranch(ctx, id, branch, "")
	}))
	catalogtest.Run(t, func(t *testing.T) catalog.Catalog {
		cat, err := catalog.Open(ctx, srv.URL, &catalog.Options{Properties: map[string]string{
			"warehouse": srv.Warehouse, "token.provider": "bear", "token": liveToken,
		}})
		require.NoError(t, err)
		return cat
	})
	catalogtest.RunDDL(t, func(t *testing.T) catalog.Catalog { return openLive(t, srv, nil) })
}

// liveFields is the schema of the round-trip tables.
var liveFields = []schema.DataField{
	{ID: 0, Name: "dt", Type: schema.StringType()},
	{ID: 1, Name: "id", Type: schema.BigIntType().NotNull()},
	{ID: 2, Name: "name", Type: schema.StringType()},
}

func liveSchema(t *testing.T, opts ...string) *schema.Schema {
	t.Helper()
	b := schema.NewSchemaBuilder()
	for i := 0; i+1 < len(opts); i += 2 {
		b.Option(opts[i], opts[i+1])
	}
	s, err := b.
		Column("dt", schema.StringType()).
		Column("id", schema.BigIntType().NotNull()).
		Column("name", schema.StringType()).
		PartitionKeys("dt").
		Option("file.format", "parquet").
		Build()
	require.NoError(t, err)
	return s
}

func liveRows(from, to int) [][]any {
	var rows [][]any
	for i := from; i < to; i++ {
		var name any = fmt.Sprintf("n%d", i)
		if i%7 == 0 {
			name = nil
		}
		rows = append(rows, []any{fmt.Sprintf("2024-01-0%d", 1+i%3), int64(i), name})
	}
	return rows
}

func canonLines(t *testing.T, rows [][]any) []string {
	t.Helper()
	var out []string
	for _, r := range rows {
		b, err := canon.EncodeRow(liveFields, r)
		require.NoError(t, err)
		out = append(out, string(b))
	}
	slices.Sort(out)
	return out
}

// prepareWrite writes rows into new data files and returns the writer
// and its commit messages.
func prepareWrite(t *testing.T, tbl *paimon.Table, rows [][]any) (*paimon.TableWriter, []paimon.CommitMessage) {
	t.Helper()
	ctx := context.Background()
	mem := memcheck.New()
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	w, err := tbl.NewWriter(&paimon.WriterOptions{Allocator: mem})
	require.NoError(t, err)
	rec, err := testtable.BuildRecord(mem, liveFields, rows)
	require.NoError(t, err)
	require.NoError(t, w.Write(ctx, rec))
	rec.Release()
	msgs, err := w.PrepareCommit(ctx)
	require.NoError(t, err)
	return w, msgs
}

// goWrite writes rows to the table in one commit with identifier.
func goWrite(t *testing.T, tbl *paimon.Table, user string, identifier int64, rows [][]any) *paimon.CommitResult {
	t.Helper()
	ctx := context.Background()
	w, msgs := prepareWrite(t, tbl, rows)
	require.NoError(t, w.Close(ctx))
	c, err := tbl.NewCommit(&paimon.CommitOptions{User: user})
	require.NoError(t, err)
	res, err := c.Commit(ctx, identifier, msgs)
	require.NoError(t, err)
	return res
}

// goRead scans the table's latest snapshot into sorted canon lines.
func goRead(t *testing.T, tbl *paimon.Table) []string {
	t.Helper()
	mem := memcheck.New()
	defer mem.AssertSize(t, 0)
	var out []string
	for rec, err := range tbl.NewScan(paimon.WithAllocator(mem)).Records(context.Background()) {
		require.NoError(t, err)
		lines, err := canon.BatchLines(tbl.Schema().Fields, rec)
		rec.Release()
		require.NoError(t, err)
		out = append(out, lines...)
	}
	slices.Sort(out)
	return out
}

func javaDump(t *testing.T, warehouse, table string) []string {
	t.Helper()
	return javaDumpWith(t, interop.RESTServerVersion, warehouse, table)
}

// javaDumpWith reads the table with Java Paimon version's RESTCatalog.
func javaDumpWith(t *testing.T, version, warehouse, table string) []string {
	t.Helper()
	java, err := interop.Java(version)
	require.NoError(t, err)
	out, err := java.Run(context.Background(), "dump", warehouse, table)
	require.NoError(t, err)
	lines, err := canon.ReadLines(strings.NewReader(string(out)))
	require.NoError(t, err)
	slices.Sort(lines)
	return lines
}

func TestLiveGoWritesJavaReads(t *testing.T) {
	srv := interop.StartRESTServer(t, interop.RESTServerOptions{Auth: "bear:" + liveToken})
	ctx := context.Background()
	c := openLive(t, srv, nil)
	require.NoError(t, c.CreateDatabase(ctx, "db", false))
	id := paimon.Identifier{Database: "db", Table: "t"}
	// The server tracks partitions of tables that ask for it.
	require.NoError(t, c.CreateTable(ctx, id, liveSchema(t, "metastore.partitioned-table", "true"), false))
	tbl, err := c.LoadTable(ctx, id)
	require.NoError(t, err)
	r1 := goWrite(t, tbl, "go", 1, liveRows(0, 50))
	r2 := goWrite(t, tbl, "go", 2, liveRows(50, 80))
	require.Equal(t, int64(1), r1.Snapshot.ID)
	require.Equal(t, int64(2), r2.Snapshot.ID)

	// A table the server does not track partitions for: not implemented.
	other := paimon.Identifier{Database: "db", Table: "plain"}
	require.NoError(t, c.CreateTable(ctx, other, liveSchema(t), false))
	for _, err := range c.ListPartitions(ctx, other) {
		require.ErrorIs(t, err, paimon.ErrUnsupported)
	}

	// The server knows the snapshots it published, and the partitions
	// from the statistics sent with them.
	s, ts, err := c.LatestSnapshot(ctx, id)
	require.NoError(t, err)
	require.Equal(t, int64(2), s.ID)
	require.Equal(t, int64(80), ts.RecordCount)
	var parts int
	var rowsInParts int64
	for p, err := range c.ListPartitions(ctx, id) {
		require.NoError(t, err)
		parts++
		rowsInParts += p.RecordCount
	}
	require.Equal(t, 3, parts)
	require.Equal(t, int64(80), rowsInParts)

	// A primary-key table with two buckets: the second commit updates
	// rows of the first.
	pkID := paimon.Identifier{Database: "db", Table: "pk"}
	b := schema.NewSchemaBuilder()
	for _, f := range liveFields {
		b.Column(f.Name, f.Type)
	}
	pkSchema, err := b.PartitionKeys("dt").PrimaryKey("dt", "id").Option("bucket", "2").Option("file.format", "parquet").Build()
	require.NoError(t, err)
	require.NoError(t, c.CreateTable(ctx, pkID, pkSchema, false))
	pk, err := c.LoadTable(ctx, pkID)
	require.NoError(t, err)
	goWrite(t, pk, "go", 1, liveRows(0, 30))
	updates := liveRows(0, 10)
	for _, r := range updates {
		r[2] = fmt.Sprintf("u%d", r[1])
	}
	goWrite(t, pk, "go", 2, updates)
	wantPK := canonLines(t, append(updates, liveRows(10, 30)...))
	require.Equal(t, wantPK, goRead(t, pk))

	want := canonLines(t, liveRows(0, 80))
	require.Equal(t, want, goRead(t, tbl))
	wh := srv.CatalogOptionsFile(t, map[string]string{"token.provider": "bear", "token": liveToken})
	for _, v := range interop.JavaVersions {
		require.Equal(t, want, javaDumpWith(t, v, wh, "db.t"), "Java %s's RESTCatalog", v)
		require.Equal(t, wantPK, javaDumpWith(t, v, wh, "db.pk"), "Java %s's RESTCatalog", v)
	}
}

// TestLiveJavaWritesGoReads: a primary-key table created and written by
// each Java version's RESTCatalog through the server reads the same here.
func TestLiveJavaWritesGoReads(t *testing.T) {
	srv := interop.StartRESTServer(t, interop.RESTServerOptions{Auth: "bear:" + liveToken})
	ctx := context.Background()
	wh := srv.CatalogOptionsFile(t, map[string]string{"token.provider": "bear", "token": liveToken})
	c := openLive(t, srv, nil)
	for i, v := range interop.JavaVersions {
		t.Run(v, func(t *testing.T) {
			db := fmt.Sprintf("jdb%d", i)
			plan := filepath.Join(t.TempDir(), "plan.json")
			require.NoError(t, os.WriteFile(plan, []byte(`{"db":"`+db+`","table":"jt",
 "schema":{"fields":[{"id":0,"name":"dt","type":"STRING"},{"id":1,"name":"id","type":"BIGINT NOT NULL"},{"id":2,"name":"name","type":"STRING"}],
  "partitionKeys":["dt"],"primaryKeys":["dt","id"],"options":{"bucket":"2"},"comment":null},
 "ops":[{"op":"create"},
  {"op":"write","rows":[{"dt":"a","id":1,"name":"x"},{"dt":"a","id":2,"name":"y"},{"dt":"b","id":3}]},
  {"op":"write","rows":[{"dt":"a","id":1,"name":"x2"},{"dt":"b","id":4,"name":"z"}]}]}`), 0o600))
			java, err := interop.Java(v)
			require.NoError(t, err)
			require.NoError(t, java.Apply(ctx, wh, plan))

			tbl, err := c.LoadTable(ctx, paimon.Identifier{Database: db, Table: "jt"})
			require.NoError(t, err)
			got := goRead(t, tbl)
			require.Len(t, got, 4)
			require.Equal(t, javaDumpWith(t, v, wh, db+".jt"), got)

			// The server knows Java's two commits.
			s, _, err := c.LatestSnapshot(ctx, tbl.Identifier())
			require.NoError(t, err)
			require.Equal(t, int64(2), s.ID)
		})
	}
}

// TestLiveConcurrentCommits races Go committers with a Java writer, all
// through the server: the Go writers start once Java published its first
// snapshot and keep committing until Java is done, so the two sides'
// commits interleave; every commit lands exactly once.
func TestLiveConcurrentCommits(t *testing.T) {
	srv := interop.StartRESTServer(t, interop.RESTServerOptions{Auth: "bear:" + liveToken})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	c := openLive(t, srv, nil)
	require.NoError(t, c.CreateDatabase(ctx, "db", false))
	id := paimon.Identifier{Database: "db", Table: "t"}
	require.NoError(t, c.CreateTable(ctx, id, liveSchema(t), false))

	// Each Go writer commits at least minCommits times, and at most
	// maxCommits, while Java commits javaCommits times.
	const writers, minCommits, maxCommits, per, javaCommits = 3, 3, 12, 5, 8
	var javaRows []string
	var jsonRows []string
	for i := 0; i < javaCommits*per; i++ {
		jsonRows = append(jsonRows, fmt.Sprintf(`{"dt":"java","id":%d,"name":"j%d"}`, 10000+i, i))
		b, err := canon.EncodeRow(liveFields, []any{"java", int64(10000 + i), fmt.Sprintf("j%d", i)})
		require.NoError(t, err)
		javaRows = append(javaRows, string(b))
	}
	var ops []string
	for i := 0; i < len(jsonRows); i += per {
		ops = append(ops, `{"op":"write","rows":[`+strings.Join(jsonRows[i:i+per], ",")+`]}`)
	}
	plan := filepath.Join(t.TempDir(), "plan.json")
	require.NoError(t, os.WriteFile(plan, []byte(`{"db":"db","table":"t","ops":[`+strings.Join(ops, ",")+`]}`), 0o600))
	wh := srv.CatalogOptionsFile(t, map[string]string{"token.provider": "bear", "token": liveToken})
	java, err := interop.Java(interop.RESTServerVersion)
	require.NoError(t, err)

	// The writers' tables are loaded before Java starts, so that they
	// begin committing right after its first snapshot.
	tables := make([]*paimon.Table, writers)
	for w := range tables {
		tables[w], err = openLive(t, srv, nil).LoadTable(ctx, id)
		require.NoError(t, err)
	}

	javaDone := make(chan struct{})
	var javaErr error
	go func() {
		defer close(javaDone)
		javaErr = java.Apply(ctx, wh, plan)
	}()
	// Wait for Java's first snapshot.
	for {
		s, _, err := c.LatestSnapshot(ctx, id)
		require.NoError(t, err)
		if s != nil {
			break
		}
		select {
		case <-javaDone:
			require.NoError(t, javaErr)
			t.Fatal("Java finished without a snapshot")
		case <-time.After(10 * time.Millisecond):
		}
	}

	var wg sync.WaitGroup
	done := make([]int, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tbl := tables[w]
			for k := 0; k < maxCommits; k++ {
				if k >= minCommits {
					select {
					case <-javaDone:
						return
					default:
					}
				}
				base := w*1000 + k*per
				goWrite(t, tbl, fmt.Sprintf("go-%d", w), int64(k+1), liveRows(base, base+per))
				done[w]++
			}
		}()
	}
	wg.Wait()
	<-javaDone
	require.NoError(t, javaErr)

	var want [][]any
	goCommits := 0
	for w := range writers {
		for k := range done[w] {
			base := w*1000 + k*per
			want = append(want, liveRows(base, base+per)...)
		}
		goCommits += done[w]
	}
	wantLines := append(canonLines(t, want), javaRows...)
	slices.Sort(wantLines)
	tbl, err := c.LoadTable(ctx, id)
	require.NoError(t, err)
	require.Equal(t, wantLines, goRead(t, tbl))
	require.Equal(t, wantLines, javaDump(t, wh, "db.t"))
	s, _, err := c.LatestSnapshot(ctx, id)
	require.NoError(t, err)
	require.Equal(t, int64(goCommits+javaCommits), s.ID, "one snapshot per commit")

	// The commits interleaved: a Go snapshot lies between Java's first
	// and last.
	var users []string
	firstJava, lastJava := int64(0), int64(0)
	for n := int64(1); n <= s.ID; n++ {
		snap, err := tbl.Meta().ReadSnapshot(ctx, n)
		require.NoError(t, err)
		users = append(users, snap.CommitUser)
		if !strings.HasPrefix(snap.CommitUser, "go-") {
			if firstJava == 0 {
				firstJava = n
			}
			lastJava = n
		}
	}
	t.Logf("Go commits per writer %v; snapshots by user: %v", done, users)
	require.Greater(t, lastJava-firstJava+1, int64(javaCommits), "Go commits landed between Java's: %v", users)
}

// TestLiveUnknownOutcomeResolved makes the server answer 500 after it
// published a commit (its commitSuccessThrowException switch): the commit
// is found by re-reading, not sent twice.
func TestLiveUnknownOutcomeResolved(t *testing.T) {
	srv := interop.StartRESTServer(t, interop.RESTServerOptions{Auth: "bear:" + liveToken})
	ctx := context.Background()
	c := openLive(t, srv, nil)
	require.NoError(t, c.CreateDatabase(ctx, "db", false))
	id := paimon.Identifier{Database: "db", Table: "t"}
	require.NoError(t, c.CreateTable(ctx, id, liveSchema(t), false))
	tbl, err := c.LoadTable(ctx, id)
	require.NoError(t, err)
	goWrite(t, tbl, "go", 1, liveRows(0, 10))
	require.NoError(t, srv.Command("fail-next-commit"))
	res := goWrite(t, tbl, "go", 2, liveRows(10, 20))
	pending, err := srv.Query("fail-pending")
	require.NoError(t, err)
	require.Equal(t, "false", pending, "the server answered the commit with its 500")
	require.Equal(t, int64(2), res.Snapshot.ID)
	require.Equal(t, 1, res.Attempts, "found by re-reading, not published again")
	s, _, err := c.LatestSnapshot(ctx, id)
	require.NoError(t, err)
	require.Equal(t, int64(2), s.ID)
	require.Equal(t, canonLines(t, liveRows(0, 20)), goRead(t, tbl))
}

func TestLiveDLFSigned(t *testing.T) {
	const ak, sk, sts = "LTAIlive", "live-secret-key-0815", "live-sts-token"
	srv := interop.StartRESTServer(t, interop.RESTServerOptions{Auth: "dlf:cn-hangzhou:" + ak + ":" + sk + ":" + sts})
	ctx := context.Background()
	dlf := map[string]string{
		"uri": srv.URL, "warehouse": srv.Warehouse, "token.provider": "dlf", "dlf.region": "cn-hangzhou",
		"dlf.access-key-id": ak, "dlf.access-key-secret": sk, "dlf.security-token": sts,
	}
	c, err := rest.New(ctx, dlf, nil)
	require.NoError(t, err)
	defer c.Close()
	require.NoError(t, c.CreateDatabase(ctx, "db", false))
	id := paimon.Identifier{Database: "db", Table: "t"}
	require.NoError(t, c.CreateTable(ctx, id, liveSchema(t), false))
	var names []string
	for n, err := range c.ListTables(ctx, "db") {
		require.NoError(t, err)
		names = append(names, n.Table)
	}
	require.Equal(t, []string{"t"}, names)
	tbl, err := c.LoadTable(ctx, id)
	require.NoError(t, err)
	goWrite(t, tbl, "go", 1, liveRows(0, 5))

	// A wrong secret is refused, and no secret shows in the error.
	dlf["dlf.access-key-secret"] = "wrong-secret-value"
	_, err = rest.New(ctx, dlf, nil)
	require.ErrorIs(t, err, rest.ErrNotAuthorized)
	require.NotContains(t, err.Error(), "wrong-secret-value")
	require.NotContains(t, err.Error(), sts)
}

func TestLiveDataToken(t *testing.T) {
	srv := interop.StartRESTServer(t, interop.RESTServerOptions{Auth: "bear:" + liveToken, Config: []string{"data-token.enabled=true"}})
	ctx := context.Background()
	var mu sync.Mutex
	var seen []map[string]string
	opener := func(ctx context.Context, path string, props map[string]string) (fs.FS, string, error) {
		mu.Lock()
		seen = append(seen, props)
		mu.Unlock()
		p, ok := strings.CutPrefix(path, "rest-test-file-io:")
		if !ok {
			return nil, "", fmt.Errorf("unexpected data path %s", path)
		}
		f, err := localfs.New("/", nil)
		return f, strings.TrimPrefix(p, "/"), err
	}
	c, err := rest.New(ctx, map[string]string{
		"uri": srv.URL, "warehouse": srv.Warehouse, "token.provider": "bear", "token": liveToken,
	}, &rest.Options{DataFS: opener})
	require.NoError(t, err)
	defer c.Close()
	require.NoError(t, c.CreateDatabase(ctx, "db", false))
	id := paimon.Identifier{Database: "db", Table: "t"}
	require.NoError(t, c.CreateTable(ctx, id, liveSchema(t), false))
	tbl, err := c.LoadTable(ctx, id)
	require.NoError(t, err)
	goWrite(t, tbl, "go", 1, liveRows(0, 10))
	require.Equal(t, canonLines(t, liveRows(0, 10)), goRead(t, tbl))
	mu.Lock()
	defer mu.Unlock()
	require.NotEmpty(t, seen)
	require.Contains(t, seen[0], "akId", "the server's data token reached the file system")
	require.Contains(t, seen[0], "akSecret")
}

func TestLiveJavaSigner(t *testing.T) {
	if !interop.Enabled() {
		t.Skip("live interop test: set PAIMON_INTEROP=1")
	}
	for _, tc := range rest.SignerVectors() {
		t.Run(tc.Name, func(t *testing.T) {
			want, err := interop.JavaSign(context.Background(), tc.JavaArgs()...)
			require.NoError(t, err)
			require.Equal(t, want, tc.GoHeaders())
		})
	}
}
