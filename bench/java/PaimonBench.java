/*
 * The Java side of the paimon-go benchmark suite (bench/README.md): it generates every benchmark table with
 * Java Paimon's own writers, so that each implementation reads the same bytes, and it times Java Paimon on the
 * suite's operations through the public table API (ReadBuilder, TableRead, BatchWriteBuilder).
 *
 *   PaimonBench gen <warehouse> <key=value>...        generate the tables (see Gen below); progress on stderr
 *   PaimonBench gen-orc <warehouse> <key=value>...    add the ORC tables (scan_orc, write_orc) to a warehouse
 *                                                     gen made; their description goes to meta-orc.json
 *   PaimonBench gen-pkwrite <warehouse>               add the empty primary-key table pk_write (pk-write);
 *                                                     meta-pkwrite.json
 *   PaimonBench run <op> <key=value>...               time one operation; ONE JSON line on stdout
 *
 * run keys: warehouse=<dir> parallel=true|false threads=<n> warmup=<n> iters=<n> lo=<id> hi=<id> rows=<n>
 * Timing covers planning and reading (or writing and committing); opening the catalog and the table does not
 * count. Each timed iteration is separate; the JSON line carries the median and every sample.
 */

import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.manifest.BucketEntry;
import org.apache.paimon.options.Options;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.TableWriteImpl;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.DeletionFile;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.table.source.TableRead;
import org.apache.paimon.types.DataTypes;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

public final class PaimonBench {

    static final String DB = "bench";
    /** 2024-06-27 as days since the epoch: the first day partition of the append tables. */
    static final int FIRST_DAY = 19_901;
    /** 2025-01-01T00:00:00 in microseconds: the base of the ts column. */
    static final long TS_BASE = 1_735_689_600_000_000L;
    static final int DAYS = 5;

    private static PrintStream out;

    public static void main(String[] args) throws Exception {
        // stdout carries the result line only: everything else (and any library logging) goes to stderr.
        out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true, "UTF-8");
        System.setOut(System.err);
        if (args.length < 2) {
            throw new IllegalArgumentException("usage: PaimonBench gen <warehouse> k=v... | run <op> k=v...");
        }
        Map<String, String> kv = keyValues(Arrays.copyOfRange(args, 2, args.length));
        switch (args[0]) {
            case "gen":
                Gen.all(args[1], kv);
                break;
            case "gen-compact":
                Gen.compactTables(args[1], kv);
                break;
            case "gen-compact-pk":
                Gen.compactPKTables(args[1], kv);
                break;
            case "gen-orc":
                Gen.orc(args[1], kv);
                break;
            case "gen-pkwrite":
                Gen.pkWrite(args[1]);
                break;
            case "run":
                Run.op(args[1], kv);
                break;
            default:
                throw new IllegalArgumentException("unknown command " + args[0]);
        }
        System.exit(0); // shaded Hadoop may leave non-daemon threads behind
    }

    /**
     * The key of row i of pk-write (bench/ops/pkwrite.go PKWriteKey): of each block of ten rows, seven insert new
     * keys and three update keys written before.
     */
    static long pkWriteKey(long i) {
        long block = i / 10, r = i % 10;
        if (r < 7) {
            return block * 7 + r;
        }
        return (i * 2_654_435_761L) % (block * 7 + 7);
    }

    static Map<String, String> keyValues(String[] args) {
        Map<String, String> kv = new HashMap<>();
        for (String a : args) {
            int eq = a.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("expected key=value, got " + a);
            }
            kv.put(a.substring(0, eq), a.substring(eq + 1));
        }
        return kv;
    }

    static long num(Map<String, String> kv, String key, long def) {
        String v = kv.get(key);
        return v == null ? def : Long.parseLong(v);
    }

    static long need(Map<String, String> kv, String key) {
        String v = kv.get(key);
        if (v == null) {
            throw new IllegalArgumentException("missing " + key + "=...");
        }
        return Long.parseLong(v);
    }

    static Catalog openCatalog(String warehouse) {
        Options options = new Options();
        options.set("warehouse", Paths.get(warehouse).toAbsolutePath().toString());
        // No catalog caches: every planning iteration reads the manifests, as a fresh reader would.
        options.set("cache-enabled", "false");
        return CatalogFactory.createCatalog(CatalogContext.create(options));
    }

    static void log(String fmt, Object... a) {
        System.err.println("PaimonBench: " + String.format(Locale.ROOT, fmt, a));
    }

    // =============================================================================================
    // The append schema (7 mixed columns) and its rows
    // =============================================================================================

    static Schema.Builder appendSchema() {
        return Schema.newBuilder()
                .column("id", DataTypes.BIGINT().notNull())
                .column("qty", DataTypes.INT())
                .column("price", DataTypes.DOUBLE())
                .column("name", DataTypes.STRING())
                .column("amount", DataTypes.DECIMAL(18, 2))
                .column("ts", DataTypes.TIMESTAMP(6))
                .column("day", DataTypes.DATE())
                .partitionKeys("day")
                .option("bucket", "-1")
                .option("file.format", "parquet")
                .option("file.compression", "zstd");
    }

    /**
     * Column values of append rows [from, from+n), a pure function of the row numbers: the same values the Go
     * and Python write benchmarks generate (not the same bit stream; the same distributions).
     */
    static final class AppendRows {
        final long from;
        final int n;
        final int[] qty;
        final boolean[] qtyNull;
        final double[] price;
        final byte[] names; // 16 bytes a row
        final long[] amount;
        final long[] ts;
        final int[] day;

        AppendRows(long from, int n, long totalRows) {
            this.from = from;
            this.n = n;
            qty = new int[n];
            qtyNull = new boolean[n];
            price = new double[n];
            names = new byte[n * 16];
            amount = new long[n];
            ts = new long[n];
            day = new int[n];
            SplittableRandom r = new SplittableRandom(20_250_101L ^ (from * 0x9E3779B97F4A7C15L));
            long perDay = Math.max(1, totalRows / DAYS);
            byte[] prefix = "user-".getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < n; i++) {
                long row = from + i;
                qtyNull[i] = r.nextInt(20) == 0;
                qty[i] = r.nextInt(1000);
                price[i] = r.nextDouble() * 1000;
                System.arraycopy(prefix, 0, names, i * 16, 5);
                for (int j = 5; j < 16; j++) {
                    names[i * 16 + j] = (byte) ('a' + r.nextInt(26));
                }
                amount[i] = r.nextLong(100_000_000L);
                ts[i] = TS_BASE + row * 1_000 + r.nextInt(1_000);
                day[i] = FIRST_DAY + (int) Math.min(DAYS - 1, row / perDay);
            }
        }

        GenericRow row(int i) {
            return GenericRow.of(
                    from + i,
                    qtyNull[i] ? null : qty[i],
                    price[i],
                    BinaryString.fromBytes(names, i * 16, 16),
                    Decimal.fromUnscaledLong(amount[i], 18, 2),
                    Timestamp.fromMicros(ts[i]),
                    day[i]);
        }
    }

    // =============================================================================================
    // gen
    // =============================================================================================

    static final class Gen {
        static void all(String warehouse, Map<String, String> kv) throws Exception {
            long scanRows = need(kv, "scan_rows");
            long scanFiles = need(kv, "scan_files");
            long pkRows = need(kv, "pk_rows");
            int pkBuckets = (int) need(kv, "pk_buckets");
            long planCommits = need(kv, "plan_commits");
            long plan10k = need(kv, "plan_small_files");
            long plan100k = need(kv, "plan_large_files");
            long snapshots = need(kv, "commit_snapshots");
            Map<String, Object> meta = new LinkedHashMap<>();
            Path io = Files.createTempDirectory("paimon-bench-io");
            try (Catalog catalog = openCatalog(warehouse); IOManager ioManager = IOManager.create(io.toString())) {
                catalog.createDatabase(DB, true);
                long t0 = System.nanoTime();
                meta.put("scan", scanTable(catalog, ioManager, scanRows, (int) scanFiles, kv.getOrDefault("scan_block_size", "8mb")));
                log("scan table in %.1f s", (System.nanoTime() - t0) / 1e9);
                t0 = System.nanoTime();
                meta.put("pk", pkTable(catalog, ioManager, "pk", pkRows, pkBuckets, false));
                log("pk table in %.1f s", (System.nanoTime() - t0) / 1e9);
                t0 = System.nanoTime();
                meta.put("pk_dv", pkTable(catalog, ioManager, "pk_dv", pkRows, pkBuckets, true));
                log("pk_dv table in %.1f s", (System.nanoTime() - t0) / 1e9);
                t0 = System.nanoTime();
                meta.put("plan_10k", planTable(catalog, ioManager, "plan_10k", (int) planCommits, (int) (plan10k / planCommits)));
                log("plan_10k table in %.1f s", (System.nanoTime() - t0) / 1e9);
                t0 = System.nanoTime();
                meta.put("plan_100k", planTable(catalog, ioManager, "plan_100k", (int) planCommits, (int) (plan100k / planCommits)));
                log("plan_100k table in %.1f s", (System.nanoTime() - t0) / 1e9);
                t0 = System.nanoTime();
                meta.put("commit", commitTable(catalog, ioManager, snapshots));
                log("commit table in %.1f s", (System.nanoTime() - t0) / 1e9);
                catalog.createTable(Identifier.create(DB, "write"), appendSchema().build(), false);
                meta.put("write", Map.of("rows", 0));

            } finally {
                deleteRecursively(io);
            }
            Files.write(Paths.get(warehouse, "meta.json"), Json.write(meta).getBytes(StandardCharsets.UTF_8));
        }

        /**
         * The ORC tables: scan_orc holds the rows of scan written the same way with file.format=orc (the same
         * file.block-size: the stripe size), write_orc is empty. Generated apart from gen, so that a warehouse
         * made before they existed only gains them.
         */
        static void orc(String warehouse, Map<String, String> kv) throws Exception {
            long scanRows = need(kv, "scan_rows");
            long scanFiles = need(kv, "scan_files");
            Map<String, Object> meta = new LinkedHashMap<>();
            Path io = Files.createTempDirectory("paimon-bench-io");
            try (Catalog catalog = openCatalog(warehouse); IOManager ioManager = IOManager.create(io.toString())) {
                catalog.createDatabase(DB, true);
                long t0 = System.nanoTime();
                meta.put("scan_orc", scanTable(catalog, ioManager, "scan_orc", "orc", scanRows, (int) scanFiles,
                        kv.getOrDefault("scan_block_size", "8mb")));
                log("scan_orc table in %.1f s", (System.nanoTime() - t0) / 1e9);
                catalog.createTable(Identifier.create(DB, "write_orc"), appendSchema().option("file.format", "orc").build(), true);
                meta.put("write_orc", Map.of("rows", 0));
            } finally {
                deleteRecursively(io);
            }
            Files.write(Paths.get(warehouse, "meta-orc.json"), Json.write(meta).getBytes(StandardCharsets.UTF_8));
        }

        /**
         * pk_write: the empty primary-key table every implementation upserts the rows of pk-write into (k BIGINT, v
         * BIGINT, s STRING, d DOUBLE; 4 buckets; write-only, since pypaimon and paimon-rust do not compact and
         * paimon-go's writer leaves compaction to Table.Compact). Generated apart from gen, like the ORC tables.
         */
        static void pkWrite(String warehouse) throws Exception {
            Map<String, Object> meta = new LinkedHashMap<>();
            try (Catalog catalog = openCatalog(warehouse)) {
                catalog.createDatabase(DB, true);
                catalog.createTable(Identifier.create(DB, "pk_write"), Schema.newBuilder()
                        .column("k", DataTypes.BIGINT().notNull())
                        .column("v", DataTypes.BIGINT())
                        .column("s", DataTypes.STRING())
                        .column("d", DataTypes.DOUBLE())
                        .primaryKey("k")
                        .option("bucket", "4")
                        .option("write-only", "true")
                        .option("file.format", "parquet")
                        .option("file.compression", "zstd")
                        .build(), true);
                meta.put("pk_write", Map.of("rows", 0));
            }
            Files.write(Paths.get(warehouse, "meta-pkwrite.json"), Json.write(meta).getBytes(StandardCharsets.UTF_8));
        }

        static Map<String, Object> scanTable(Catalog catalog, IOManager ioManager, long rows, int files, String blockSize)
                throws Exception {
            return scanTable(catalog, ioManager, "scan", "parquet", rows, files, blockSize);
        }

        /**
         * The append table: scanRows rows in 5 day partitions, written in `files` commits of contiguous ids (one
         * data file each, so ids are sorted within a file and statistics can prune an id range). The row group
         * (Parquet) or stripe (ORC) size, file.block-size, gives each file several to prune inside it too; ORC
         * files also prune 10,000-row row groups.
         */
        static Map<String, Object> scanTable(Catalog catalog, IOManager ioManager, String name, String format, long rows,
                int files, String blockSize) throws Exception {
            Identifier id = Identifier.create(DB, name);
            catalog.createTable(id, appendSchema().option("file.format", format).option("file.block-size", blockSize).build(), false);
            Table table = catalog.getTable(id).copy(Map.of("write-only", "true"));
            long per = rows / files;
            for (int f = 0; f < files; f++) {
                long from = f * per;
                long to = f == files - 1 ? rows : from + per;
                BatchWriteBuilder wb = table.newBatchWriteBuilder();
                try (BatchTableWrite w = wb.newWrite().withIOManager(ioManager); BatchTableCommit c = wb.newCommit()) {
                    for (long b = from; b < to; b += 65_536) {
                        AppendRows chunk = new AppendRows(b, (int) Math.min(65_536, to - b), rows);
                        for (int i = 0; i < chunk.n; i++) {
                            w.write(chunk.row(i));
                        }
                    }
                    c.commit(w.prepareCommit());
                }
            }
            return describe(catalog.getTable(id), name);
        }

        /**
         * The tables of the compaction benchmark (issue 18), generated into an existing warehouse, their
         * descriptions in meta-compact.json: "compact" (small files) and "compact_done" (the same rows, compacted
         * by Java's dedicated compaction).
         */
        static void compactTables(String warehouse, Map<String, String> kv) throws Exception {
            long compactRows = need(kv, "compact_rows");
            long compactFiles = need(kv, "compact_files");
            Map<String, Object> meta = new LinkedHashMap<>();
            Path io = Files.createTempDirectory("paimon-bench-io");
            try (Catalog catalog = openCatalog(warehouse); IOManager ioManager = IOManager.create(io.toString())) {
                catalog.createDatabase(DB, true);
                long t0 = System.nanoTime();
                meta.put("compact", smallFilesTable(catalog, ioManager, "compact", compactRows, (int) compactFiles));
                smallFilesTable(catalog, ioManager, "compact_done", compactRows, (int) compactFiles);
                compactAppend((FileStoreTable) catalog.getTable(Identifier.create(DB, "compact_done")), true);
                meta.put("compact_done", describe(catalog.getTable(Identifier.create(DB, "compact_done")), "compact_done"));
                log("compact tables in %.1f s", (System.nanoTime() - t0) / 1e9);
            } finally {
                deleteRecursively(io);
            }
            Files.write(Paths.get(warehouse, "meta-compact.json"), Json.write(meta).getBytes(StandardCharsets.UTF_8));
        }

        /**
         * The tables of the primary-key compaction benchmark (issue 18), generated into an existing warehouse,
         * their descriptions in meta-compact-pk.json: "compact_pk" (pk-dedup's layout: 5 overlapping sorted runs
         * per bucket, compaction off while writing) and "compact_pk_done" (the same rows, fully compacted by Java).
         */
        static void compactPKTables(String warehouse, Map<String, String> kv) throws Exception {
            long rows = need(kv, "compact_pk_rows");
            int buckets = (int) need(kv, "compact_pk_buckets");
            Map<String, Object> meta = new LinkedHashMap<>();
            Path io = Files.createTempDirectory("paimon-bench-io");
            try (Catalog catalog = openCatalog(warehouse); IOManager ioManager = IOManager.create(io.toString())) {
                catalog.createDatabase(DB, true);
                long t0 = System.nanoTime();
                meta.put("compact_pk", pkTable(catalog, ioManager, "compact_pk", rows, buckets, false));
                Map<String, Object> done = pkTable(catalog, ioManager, "compact_pk_done", rows, buckets, false);
                fullCompact(catalog.getTable(Identifier.create(DB, "compact_pk_done")), ioManager);
                Map<String, Object> d = describe(catalog.getTable(Identifier.create(DB, "compact_pk_done")), "compact_pk_done");
                d.put("written", done.get("written"));
                d.put("distinct", done.get("distinct"));
                meta.put("compact_pk_done", d);
                log("primary-key compact tables in %.1f s", (System.nanoTime() - t0) / 1e9);
            } finally {
                deleteRecursively(io);
            }
            Files.write(Paths.get(warehouse, "meta-compact-pk.json"), Json.write(meta).getBytes(StandardCharsets.UTF_8));
        }

        /**
         * Java's full compaction of every bucket of a primary-key table, as Spark's compact procedure (or
         * Flink's dedicated compaction job with full compaction) runs it: write.compact(partition, bucket, full)
         * per bucket, the writer's compaction thread rewriting, one commit. Returns the rows written.
         */
        static long compactPK(FileStoreTable table, IOManager ioManager) throws Exception {
            BatchWriteBuilder wb = table.newBatchWriteBuilder();
            long rows = 0;
            try (BatchTableWrite w = wb.newWrite().withIOManager(ioManager); BatchTableCommit c = wb.newCommit()) {
                Set<String> seen = new LinkedHashSet<>();
                for (BucketEntry e : table.newSnapshotReader().bucketEntries()) {
                    if (seen.add(Arrays.toString(e.partition().toBytes()) + "/" + e.bucket())) {
                        w.compact(e.partition(), e.bucket(), true);
                    }
                }
                List<CommitMessage> msgs = w.prepareCommit();
                for (CommitMessage m : msgs) {
                    for (DataFileMeta f : ((org.apache.paimon.table.sink.CommitMessageImpl) m).compactIncrement().compactAfter()) {
                        rows += f.rowCount();
                    }
                }
                c.commit(msgs);
            }
            return rows;
        }

        /**
         * The compaction benchmark's table: the append table's rows written in `files` commits of contiguous
         * ids (so each commit writes one small file, in one day partition), write-only so that nothing compacts.
         */
        static Map<String, Object> smallFilesTable(Catalog catalog, IOManager ioManager, String name, long rows, int files)
                throws Exception {
            Identifier id = Identifier.create(DB, name);
            catalog.createTable(id, appendSchema().build(), false);
            Table table = catalog.getTable(id).copy(Map.of("write-only", "true"));
            long per = rows / files;
            for (int f = 0; f < files; f++) {
                long from = f * per;
                long to = f == files - 1 ? rows : from + per;
                BatchWriteBuilder wb = table.newBatchWriteBuilder();
                try (BatchTableWrite w = wb.newWrite().withIOManager(ioManager); BatchTableCommit c = wb.newCommit()) {
                    AppendRows chunk = new AppendRows(from, (int) (to - from), rows);
                    for (int i = 0; i < chunk.n; i++) {
                        w.write(chunk.row(i));
                    }
                    c.commit(w.prepareCommit());
                }
            }
            return describe(catalog.getTable(id), name);
        }

        /** Value of key k in run r: fixed per (k, r), so the run that wins is visible in the row. */
        static GenericRow pkRow(long k, int run) {
            SplittableRandom r = new SplittableRandom(k * 31 + run);
            byte[] name = new byte[12];
            name[0] = 'k';
            name[1] = '-';
            for (int j = 2; j < 12; j++) {
                name[j] = (byte) ('a' + r.nextInt(26));
            }
            return GenericRow.of(
                    k,
                    run,
                    r.nextInt(20) == 0 ? null : r.nextInt(1000),
                    r.nextDouble() * 1000,
                    BinaryString.fromBytes(name),
                    Decimal.fromUnscaledLong(r.nextLong(100_000_000L), 18, 2),
                    Timestamp.fromMicros(TS_BASE + k * 1_000 + run));
        }

        /** splitmix64: the key-to-run assignment of the primary-key tables. */
        static long mix(long z) {
            z += 0x9E3779B97F4A7C15L;
            z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
            return z ^ (z >>> 31);
        }

        /**
         * The primary-key tables: about `rows` rows written as 5 sorted runs (one commit each, compaction off)
         * over distinct = rows / 1.3 keys, every run spanning the whole key range. Each key is first written in
         * run mix(k) % 5; 30% of the keys are written again in a different run, and that later version wins.
         * With deletion vectors: runs 0-3 are written and fully compacted, then run 4 is written and a normal
         * (non-full) compaction lets Java's lookup compaction mark the replaced rows in deletion vectors.
         */
        static Map<String, Object> pkTable(Catalog catalog, IOManager ioManager, String name, long rows, int buckets, boolean dv)
                throws Exception {
            Identifier id = Identifier.create(DB, name);
            Schema.Builder sb = Schema.newBuilder()
                    .column("k", DataTypes.BIGINT().notNull())
                    .column("run", DataTypes.INT())
                    .column("qty", DataTypes.INT())
                    .column("price", DataTypes.DOUBLE())
                    .column("name", DataTypes.STRING())
                    .column("amount", DataTypes.DECIMAL(18, 2))
                    .column("ts", DataTypes.TIMESTAMP(6))
                    .primaryKey("k")
                    .option("bucket", String.valueOf(buckets))
                    .option("file.format", "parquet")
                    .option("file.compression", "zstd");
            if (dv) {
                sb.option("deletion-vectors.enabled", "true");
            }
            catalog.createTable(id, sb.build(), false);
            long distinct = rows * 10 / 13;
            Map<String, String> genOpts = Map.of("write-only", "true", "write-buffer-size", "1gb", "write-buffer-spillable", "false");
            Table writeOnly = catalog.getTable(id).copy(genOpts);
            long written = 0;
            for (int run = 0; run < 5; run++) {
                boolean last = run == 4;
                Table t = dv && last ? catalog.getTable(id).copy(Map.of("write-buffer-size", "1gb", "write-buffer-spillable", "false")) : writeOnly;
                if (dv && last) {
                    fullCompact(t, ioManager);
                }
                BatchWriteBuilder wb = t.newBatchWriteBuilder();
                try (BatchTableWrite w = wb.newWrite().withIOManager(ioManager); BatchTableCommit c = wb.newCommit()) {
                    for (long k = 0; k < distinct; k++) {
                        long h = mix(k);
                        int first = (int) Long.remainderUnsigned(h, 5);
                        boolean updated = Long.remainderUnsigned(h >>> 8, 10) < 3;
                        int second = (int) ((first + 1 + Long.remainderUnsigned(h >>> 16, 4)) % 5);
                        if (first == run || (updated && second == run)) {
                            w.write(pkRow(k, run));
                            written++;
                        }
                    }
                    if (dv && last) {
                        for (BucketEntry e : ((FileStoreTable) t).newSnapshotReader().bucketEntries()) {
                            w.compact(e.partition(), e.bucket(), false);
                        }
                    }
                    c.commit(w.prepareCommit());
                }
            }
            Map<String, Object> d = describe(catalog.getTable(id), name);
            d.put("written", written);
            d.put("distinct", distinct);
            return d;
        }

        static void fullCompact(Table t, IOManager ioManager) throws Exception {
            BatchWriteBuilder wb = t.newBatchWriteBuilder();
            try (BatchTableWrite w = wb.newWrite().withIOManager(ioManager); BatchTableCommit c = wb.newCommit()) {
                Set<String> seen = new LinkedHashSet<>();
                for (BucketEntry e : ((FileStoreTable) t).newSnapshotReader().bucketEntries()) {
                    if (seen.add(Arrays.toString(e.partition().toBytes()) + "/" + e.bucket())) {
                        w.compact(e.partition(), e.bucket(), true);
                    }
                }
                c.commit(w.prepareCommit());
            }
        }

        /**
         * A planning table: `commits` commits (one manifest each: manifest merging is off while generating)
         * of `filesPerCommit` files of 10 rows, one file per bucket (bucket = filesPerCommit, bucket key id),
         * commit c writing partition c / 10. Ids are picked per bucket with the writer's own bucket function.
         */
        static Map<String, Object> planTable(Catalog catalog, IOManager ioManager, String name, int commits, int filesPerCommit)
                throws Exception {
            Identifier id = Identifier.create(DB, name);
            catalog.createTable(
                    id,
                    Schema.newBuilder()
                            .column("p", DataTypes.INT())
                            .column("id", DataTypes.BIGINT())
                            .column("v", DataTypes.STRING())
                            .partitionKeys("p")
                            .option("bucket", String.valueOf(filesPerCommit))
                            .option("bucket-key", "id")
                            .option("file.format", "parquet")
                            .option("file.compression", "zstd")
                            .build(),
                    false);
            Map<String, String> genOpts = new HashMap<>();
            genOpts.put("write-only", "true");
            genOpts.put("manifest.merge-min-count", String.valueOf(Integer.MAX_VALUE));
            genOpts.put("manifest.target-file-size", "1gb");
            genOpts.put("manifest.full-compaction-threshold-size", "1tb");
            Table table = catalog.getTable(id).copy(genOpts);
            long next = 0;
            for (int c = 0; c < commits; c++) {
                int p = c / 10;
                BatchWriteBuilder wb = table.newBatchWriteBuilder();
                try (BatchTableWrite w = wb.newWrite().withIOManager(ioManager); BatchTableCommit cm = wb.newCommit()) {
                    // Every writer starts empty: restoring each bucket's files would rescan the manifests
                    // once per bucket per commit, and nothing here needs them.
                    ((TableWriteImpl<?>) w).withIgnorePreviousFiles(true);
                    int[] have = new int[filesPerCommit];
                    int full = 0;
                    while (full < filesPerCommit) {
                        long v = next++;
                        GenericRow row = GenericRow.of(p, v, BinaryString.fromString("value-" + v));
                        int b = ((TableWriteImpl<?>) w).getBucket(row);
                        if (have[b] == 10) {
                            continue;
                        }
                        w.write(row);
                        if (++have[b] == 10) {
                            full++;
                        }
                    }
                    cm.commit(w.prepareCommit());
                }
            }
            return describe(catalog.getTable(id), name);
        }

        /** The commit table: `snapshots` append commits of 10 rows each; write-only, so nothing expires. */
        static Map<String, Object> commitTable(Catalog catalog, IOManager ioManager, long snapshots) throws Exception {
            Identifier id = Identifier.create(DB, "commit");
            catalog.createTable(id, appendSchema().option("write-only", "true").build(), false);
            Table table = catalog.getTable(id);
            for (long s = 0; s < snapshots; s++) {
                commitRows(table, ioManager, s * 10, 10);
            }
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("snapshots", ((FileStoreTable) table).snapshotManager().latestSnapshotId());
            return d;
        }

        /**
         * Rows, files and deletion files of a full batch scan; its data files are listed in
         * files-<name>.txt in the warehouse, relative to it, for the raw readers.
         */
        static Map<String, Object> describe(Table table, String name) throws Exception {
            List<Split> splits = table.newReadBuilder().newScan().plan().splits();
            long rows = 0;
            long dvFiles = 0;
            long files = 0;
            List<String> paths = new ArrayList<>();
            Map<Integer, Integer> levels = new java.util.TreeMap<>();
            for (Split s : splits) {
                DataSplit ds = (DataSplit) s;
                for (DataFileMeta f : ds.dataFiles()) {
                    files++;
                    rows += f.rowCount();
                    levels.merge(f.level(), 1, Integer::sum);
                    paths.add(stripScheme(ds.bucketPath()) + "/" + f.fileName());
                }
                Optional<List<DeletionFile>> dfs = ds.deletionFiles();
                if (dfs.isPresent()) {
                    for (DeletionFile df : dfs.get()) {
                        if (df != null) {
                            dvFiles++;
                        }
                    }
                }
            }
            // Paths relative to the warehouse: the generator writes into a temporary directory that is
            // renamed when it is complete.
            Path warehouse = Paths.get(stripScheme(((FileStoreTable) table).location().toString())).getParent().getParent();
            List<String> relative = new ArrayList<>();
            for (String p : paths) {
                relative.add(warehouse.relativize(Paths.get(p)).toString());
            }
            Collections.sort(relative);
            Files.write(warehouse.resolve("files-" + name + ".txt"), relative, StandardCharsets.UTF_8);
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("splits", splits.size());
            d.put("files", files);
            d.put("file_rows", rows);
            d.put("files_with_dv", dvFiles);
            d.put("levels", levels.toString());
            log("%s: %d splits, %d files, %d rows in files, %d with deletion vectors, levels %s",
                    name, splits.size(), files, rows, dvFiles, levels);
            return d;
        }
    }

    static String stripScheme(String p) {
        if (p.startsWith("file://")) {
            return p.substring("file://".length());
        }
        if (p.startsWith("file:")) {
            return p.substring("file:".length());
        }
        return p;
    }

    /** One append commit of `n` generated rows: the data written first, the commit timed by the caller. */
    static List<CommitMessage> writeRows(Table table, IOManager ioManager, BatchWriteBuilder wb, long from, int n) throws Exception {
        try (BatchTableWrite w = wb.newWrite().withIOManager(ioManager)) {
            AppendRows rows = new AppendRows(from, n, Long.MAX_VALUE);
            for (int i = 0; i < n; i++) {
                w.write(rows.row(i));
            }
            return w.prepareCommit();
        }
    }

    /**
     * Java's dedicated compaction of an unaware-bucket append table, as Spark's compact procedure runs it
     * (CompactProcedure.compactUnAwareBucketTable): one AppendCompactCoordinator batch run, every task rewritten
     * (in one thread, or on a pool of one thread per core), one commit. Returns the rows written.
     */
    static long compactAppend(FileStoreTable table, boolean parallel) throws Exception {
        List<org.apache.paimon.append.AppendCompactTask> tasks;
        try {
            tasks = new org.apache.paimon.append.AppendCompactCoordinator(table, false).run();
        } catch (org.apache.paimon.table.source.EndOfScanException e) {
            tasks = Collections.emptyList();
        }
        String user = java.util.UUID.randomUUID().toString();
        List<CommitMessage> msgs = new ArrayList<>();
        int threads = parallel ? Runtime.getRuntime().availableProcessors() : 1;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<CommitMessage>> futures = new ArrayList<>();
            for (org.apache.paimon.append.AppendCompactTask task : tasks) {
                futures.add(pool.submit(() -> {
                    org.apache.paimon.operation.BaseAppendFileStoreWrite write =
                            (org.apache.paimon.operation.BaseAppendFileStoreWrite) table.store().newWrite(user);
                    try {
                        return task.doCompact(table, write);
                    } finally {
                        write.close();
                    }
                }));
            }
            for (Future<CommitMessage> f : futures) {
                msgs.add(f.get());
            }
        } finally {
            pool.shutdown();
        }
        long rows = 0;
        for (CommitMessage m : msgs) {
            for (DataFileMeta f : ((org.apache.paimon.table.sink.CommitMessageImpl) m).compactIncrement().compactAfter()) {
                rows += f.rowCount();
            }
        }
        try (org.apache.paimon.table.sink.TableCommitImpl c = table.newCommit(user)) {
            c.commit(msgs);
        }
        return rows;
    }

    static void commitRows(Table table, IOManager ioManager, long from, int n) throws Exception {
        BatchWriteBuilder wb = table.newBatchWriteBuilder();
        List<CommitMessage> msgs = writeRows(table, ioManager, wb, from, n);
        try (BatchTableCommit c = wb.newCommit()) {
            c.commit(msgs);
        }
    }

    // =============================================================================================
    // run
    // =============================================================================================

    static final class Run {
        interface Body {
            long run() throws Exception;
        }

        static void op(String op, Map<String, String> kv) throws Exception {
            String warehouse = kv.get("warehouse");
            boolean parallel = Boolean.parseBoolean(kv.getOrDefault("parallel", "false"));
            int warmup = (int) num(kv, "warmup", 0);
            int iters = (int) num(kv, "iters", 1);
            int threads = (int) num(kv, "threads", Runtime.getRuntime().availableProcessors());
            Path io = Files.createTempDirectory("paimon-bench-io");
            try (Catalog catalog = openCatalog(warehouse); IOManager ioManager = IOManager.create(io.toString())) {
                Body body;
                switch (op) {
                    case "scan-all":
                    case "scan-all-orc":
                        body = readBody(catalog.getTable(Identifier.create(DB, op.endsWith("-orc") ? "scan_orc" : "scan")),
                                null, null, parallel, threads);
                        break;
                    case "scan-2col": {
                        body = readBody(catalog.getTable(Identifier.create(DB, "scan")), new int[] {0, 2}, null, parallel, threads);
                        break;
                    }
                    case "filter-1pct":
                    case "filter-1pct-orc": {
                        Table t = catalog.getTable(Identifier.create(DB, op.endsWith("-orc") ? "scan_orc" : "scan"));
                        PredicateBuilder pb = new PredicateBuilder(t.rowType());
                        Predicate p = PredicateBuilder.and(
                                pb.greaterOrEqual(0, need(kv, "lo")), pb.lessThan(0, need(kv, "hi")));
                        body = readBody(t, null, p, parallel, threads);
                        break;
                    }
                    case "pk-dedup":
                        body = readBody(catalog.getTable(Identifier.create(DB, "pk")), null, null, parallel, threads);
                        break;
                    case "pk-dv":
                        body = readBody(catalog.getTable(Identifier.create(DB, "pk_dv")), null, null, parallel, threads);
                        break;
                    case "plan-10k":
                    case "plan-100k": {
                        Table t = catalog.getTable(Identifier.create(DB, op.equals("plan-10k") ? "plan_10k" : "plan_100k"));
                        body = () -> {
                            // The rows of the planned files: what every implementation can report.
                            long rows = 0;
                            for (Split s : t.newReadBuilder().newScan().plan().splits()) {
                                rows += s.rowCount();
                            }
                            return rows;
                        };
                        break;
                    }
                    case "write-10m":
                    case "write-10m-orc": {
                        Table t = catalog.getTable(Identifier.create(DB, op.endsWith("-orc") ? "write_orc" : "write"));
                        long rows = need(kv, "rows");
                        // The input is generated before the clock starts, as columns; rows are built on the fly.
                        List<AppendRows> chunks = new ArrayList<>();
                        for (long b = 0; b < rows; b += 65_536) {
                            chunks.add(new AppendRows(b, (int) Math.min(65_536, rows - b), rows));
                        }
                        if (warmup > 0 || iters != 1) {
                            throw new IllegalArgumentException("write-10m runs once per process");
                        }
                        body = () -> {
                            BatchWriteBuilder wb = t.newBatchWriteBuilder();
                            try (BatchTableWrite w = wb.newWrite().withIOManager(ioManager); BatchTableCommit c = wb.newCommit()) {
                                for (AppendRows chunk : chunks) {
                                    for (int i = 0; i < chunk.n; i++) {
                                        w.write(chunk.row(i));
                                    }
                                }
                                c.commit(w.prepareCommit());
                            }
                            return rows;
                        };
                        break;
                    }
                    case "pk-write": {
                        Table t = catalog.getTable(Identifier.create(DB, "pk_write"));
                        long rows = need(kv, "rows");
                        if (warmup > 0 || iters != 1) {
                            throw new IllegalArgumentException("pk-write runs once per process");
                        }
                        // The rows are built on the fly inside the timed loop, as every implementation does
                        // (bench/ops/pkwrite.go): nobody holds the whole input.
                        body = () -> {
                            BatchWriteBuilder wb = t.newBatchWriteBuilder();
                            try (BatchTableWrite w = wb.newWrite().withIOManager(ioManager); BatchTableCommit c = wb.newCommit()) {
                                for (long i = 0; i < rows; i++) {
                                    w.write(GenericRow.of(pkWriteKey(i), i, BinaryString.fromString("v-" + i), i / 2.0));
                                }
                                c.commit(w.prepareCommit());
                            }
                            return rows;
                        };
                        break;
                    }
                    case "compact-1k": {
                        FileStoreTable t = (FileStoreTable) catalog.getTable(Identifier.create(DB, "compact"));
                        if (warmup > 0 || iters != 1) {
                            throw new IllegalArgumentException("compact-1k runs once per process");
                        }
                        body = () -> compactAppend(t, parallel);
                        break;
                    }
                    case "compact-pk": {
                        FileStoreTable t = (FileStoreTable) catalog.getTable(Identifier.create(DB, "compact_pk"));
                        if (warmup > 0 || iters != 1) {
                            throw new IllegalArgumentException("compact-pk runs once per process");
                        }
                        body = () -> Gen.compactPK(t, ioManager);
                        break;
                    }
                    case "scan-pk-runs":
                        body = readBody(catalog.getTable(Identifier.create(DB, "compact_pk")), null, null, parallel, threads);
                        break;
                    case "scan-pk-compacted":
                        body = readBody(catalog.getTable(Identifier.create(DB, "compact_pk_done")), null, null, parallel, threads);
                        break;
                    case "scan-1k":
                        body = readBody(catalog.getTable(Identifier.create(DB, "compact")), null, null, parallel, threads);
                        break;
                    case "scan-1k-compacted":
                        body = readBody(catalog.getTable(Identifier.create(DB, "compact_done")), null, null, parallel, threads);
                        break;
                    case "commit": {
                        Table t = catalog.getTable(Identifier.create(DB, "commit"));
                        long[] next = {1_000_000_000L};
                        // Only the commit is timed: each iteration writes its 10-row file first (untimed).
                        long[] samplesNs = new long[warmup + iters];
                        for (int i = 0; i < warmup + iters; i++) {
                            BatchWriteBuilder wb = t.newBatchWriteBuilder();
                            List<CommitMessage> msgs = writeRows(t, ioManager, wb, next[0], 10);
                            next[0] += 10;
                            long t0 = System.nanoTime();
                            try (BatchTableCommit c = wb.newCommit()) {
                                c.commit(msgs);
                            }
                            samplesNs[i] = System.nanoTime() - t0;
                        }
                        emit(op, parallel, Arrays.copyOfRange(samplesNs, 0, warmup),
                                Arrays.copyOfRange(samplesNs, warmup, samplesNs.length), 10);
                        return;
                    }
                    default:
                        System.err.println("unsupported: " + op);
                        System.exit(3);
                        return;
                }
                long rows = -1;
                long[] warmNs = new long[warmup];
                for (int i = 0; i < warmup; i++) {
                    long t0 = System.nanoTime();
                    body.run();
                    warmNs[i] = System.nanoTime() - t0;
                }
                long[] samplesNs = new long[iters];
                for (int i = 0; i < iters; i++) {
                    long t0 = System.nanoTime();
                    rows = body.run();
                    samplesNs[i] = System.nanoTime() - t0;
                }
                emit(op, parallel, warmNs, samplesNs, rows);
            } finally {
                deleteRecursively(io);
            }
        }

        static List<Object> seconds(long[] ns) {
            List<Object> out = new ArrayList<>();
            for (long v : ns) {
                out.add(v / 1e9);
            }
            return out;
        }

        static void emit(String op, boolean parallel, long[] warmNs, long[] samplesNs, long rows) {
            double[] s = new double[samplesNs.length];
            for (int i = 0; i < s.length; i++) {
                s[i] = samplesNs[i] / 1e9;
            }
            double[] sorted = s.clone();
            Arrays.sort(sorted);
            double median = sorted.length % 2 == 1
                    ? sorted[sorted.length / 2]
                    : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("op", op);
            m.put("impl", parallel ? "java-parallel" : "java");
            m.put("seconds", median);
            m.put("rows", rows);
            m.put("samples", seconds(samplesNs));
            m.put("warmup_samples", seconds(warmNs));
            out.println(Json.write(m));
            out.flush();
        }

        /**
         * A timed read: plan, then read every split and count the rows. Single: one TableRead over all splits,
         * as a single-threaded engine task would. Parallel: a fixed pool of `threads` workers, each split read
         * by its own TableRead. A filter is pushed down and applied exactly (executeFilter).
         */
        static Body readBody(Table table, int[] projection, Predicate filter, boolean parallel, int threads) {
            return () -> {
                ReadBuilder rb = table.newReadBuilder();
                if (projection != null) {
                    rb = rb.withProjection(projection);
                }
                if (filter != null) {
                    rb = rb.withFilter(filter);
                }
                List<Split> splits = rb.newScan().plan().splits();
                final ReadBuilder frb = rb;
                if (!parallel) {
                    return count(newRead(frb, filter), splits);
                }
                ExecutorService pool = Executors.newFixedThreadPool(threads);
                try {
                    AtomicLong total = new AtomicLong();
                    List<Future<?>> fs = new ArrayList<>();
                    for (Split s : splits) {
                        fs.add(pool.submit(() -> {
                            total.addAndGet(count(newRead(frb, filter), List.of(s)));
                            return null;
                        }));
                    }
                    for (Future<?> f : fs) {
                        f.get();
                    }
                    return total.get();
                } finally {
                    pool.shutdownNow();
                }
            };
        }

        static TableRead newRead(ReadBuilder rb, Predicate filter) {
            TableRead read = rb.newRead();
            return filter != null ? read.executeFilter() : read;
        }

        static long count(TableRead read, List<Split> splits) throws Exception {
            long n = 0;
            try (RecordReader<InternalRow> reader = read.createReader(splits)) {
                RecordReader.RecordIterator<InternalRow> batch;
                while ((batch = reader.readBatch()) != null) {
                    try {
                        while (batch.next() != null) {
                            n++;
                        }
                    } finally {
                        batch.releaseBatch();
                    }
                }
            }
            return n;
        }
    }

    static void deleteRecursively(Path p) {
        try {
            if (Files.isDirectory(p)) {
                try (var s = Files.list(p)) {
                    for (Path c : (Iterable<Path>) s::iterator) {
                        deleteRecursively(c);
                    }
                }
            }
            Files.deleteIfExists(p);
        } catch (java.io.IOException e) {
            // a temporary directory; leaving it behind is harmless
        }
    }

    /** A tiny JSON writer: maps, lists, strings, numbers, booleans and null. */
    static final class Json {
        static String write(Object o) {
            StringBuilder sb = new StringBuilder();
            write(sb, o);
            return sb.toString();
        }

        static void write(StringBuilder sb, Object o) {
            if (o == null) {
                sb.append("null");
            } else if (o instanceof Map) {
                sb.append('{');
                boolean first = true;
                for (Map.Entry<?, ?> e : ((Map<?, ?>) o).entrySet()) {
                    if (!first) {
                        sb.append(',');
                    }
                    first = false;
                    write(sb, String.valueOf(e.getKey()));
                    sb.append(':');
                    write(sb, e.getValue());
                }
                sb.append('}');
            } else if (o instanceof List) {
                sb.append('[');
                boolean first = true;
                for (Object v : (List<?>) o) {
                    if (!first) {
                        sb.append(',');
                    }
                    first = false;
                    write(sb, v);
                }
                sb.append(']');
            } else if (o instanceof Number || o instanceof Boolean) {
                sb.append(o);
            } else {
                String s = o.toString();
                sb.append('"');
                for (int i = 0; i < s.length(); i++) {
                    char c = s.charAt(i);
                    if (c == '"' || c == '\\') {
                        sb.append('\\').append(c);
                    } else if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
                sb.append('"');
            }
        }
    }
}
