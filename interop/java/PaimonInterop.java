/*
 * Interop driver for paimon-go: runs Java Paimon (standalone table API, no engine) as the reference
 * implementation. One source file, compiled with `javac --release 17` against the Paimon bundle.
 *
 * Commands (see interop/README or the interop contract):
 *   apply   <warehouse> <plan.json> [<plan.json>...]
 *   dump    <warehouse> <db.table> [--mode merged|audit] [--snapshot N | --tag T] [--cols a,b]
 *           [--incremental S,E [--incremental-mode auto|delta|changelog|diff]]
 *           [--filter '<col> <op> <canon-v1 JSON literal>'] [--planned-files <out.txt>]
 *   meta    <warehouse> <db.table> <system-table-name>
 *   genkeys <out.jsonl> <seed> <count>
 *
 * Values in plans and dumps use the canon-v1 encoding. stdout carries only command output; any
 * failure prints the stack trace on stderr and exits 1.
 *
 * Only public Java Paimon API present in 1.4.2 and unchanged in 2.0.0 is used.
 */

import org.apache.paimon.append.AppendCompactCoordinator;
import org.apache.paimon.append.AppendCompactTask;
import org.apache.paimon.bucket.DefaultBucketFunction;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.codegen.CodeGenUtils;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.DataGetters;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericMap;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalArray;
import org.apache.paimon.data.InternalMap;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.data.serializer.InternalRowSerializer;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.manifest.BucketEntry;
import org.apache.paimon.operation.BaseAppendFileStoreWrite;
import org.apache.paimon.options.ExpireConfig;
import org.apache.paimon.options.Options;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.table.BucketMode;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.TableCommitImpl;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.EndOfScanException;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypeChecks;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.JsonSerdeUtil;
import org.apache.paimon.utils.SerializationUtils;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TimeZone;
import java.util.UUID;

/** Java Paimon reference driver for the paimon-go interop harness. */
public class PaimonInterop {

    private static final HexFormat HEX = HexFormat.of();
    private static final DateTimeFormatter TS_FORMAT =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSSSS");
    private static final DateTimeFormatter TIME_FORMAT = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

    /** Exit code for "this command or op is not supported by this implementation". */
    private static final int EXIT_UNSUPPORTED = 3;

    /** Thrown for requests outside what this driver implements; maps to exit code 3. */
    static final class UnsupportedException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UnsupportedException(String msg) {
            super(msg);
        }
    }

    /** The real stdout; System.out is redirected to stderr so library chatter cannot pollute it. */
    private static OutputStream stdout;

    public static void main(String[] args) {
        stdout = new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16);
        System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8));
        // System tables render commit/creation times through the JVM default zone; pin it to UTC
        // so dumps do not depend on the machine's zone.
        TimeZone.setDefault(TimeZone.getTimeZone("UTC"));
        int code;
        try {
            code = run(args);
            stdout.flush();
        } catch (UnsupportedException e) {
            System.err.println("unsupported: " + e.getMessage());
            code = EXIT_UNSUPPORTED;
        } catch (Throwable t) {
            t.printStackTrace(System.err);
            code = 1;
        }
        System.err.flush();
        // Paimon keeps non-daemon executor threads alive; exit explicitly.
        Runtime.getRuntime().halt(code);
    }

    private static int run(String[] args) throws Exception {
        if (args.length == 0) {
            throw new IllegalArgumentException(
                    "usage: PaimonInterop apply|dump|meta|genkeys ...");
        }
        switch (args[0]) {
            case "apply":
                requireArgs(args, 3, "apply <warehouse> <plan.json> [<plan.json>...]");
                // Several plans run one after the other in this JVM, which saves its start-up
                // per table.
                for (int i = 2; i < args.length; i++) {
                    apply(args[1], Paths.get(args[i]));
                }
                return 0;
            case "dump":
                requireArgs(
                        args,
                        3,
                        "dump <warehouse> <db.table> [--mode merged|audit] [--snapshot N|--tag T] [--cols a,b]"
                                + " [--incremental S,E [--incremental-mode auto|delta|changelog|diff]]"
                                + " [--filter '<col> <op> <literal>'] [--planned-files <out.txt>]");
                dump(args);
                return 0;
            case "meta":
                requireArgs(args, 4, "meta <warehouse> <db.table> <name>");
                if (args.length != 4) {
                    throw new IllegalArgumentException("meta takes exactly 3 arguments");
                }
                meta(args[1], args[2], args[3]);
                return 0;
            case "batch":
                requireArgs(args, 2, "batch <script>");
                batch(Paths.get(args[1]));
                return 0;
            case "genkeys":
                requireArgs(args, 4, "genkeys <out.jsonl> <seed> <count>");
                genKeys(Paths.get(args[1]), Long.parseLong(args[2]), Integer.parseInt(args[3]));
                return 0;
            default:
                throw new UnsupportedException("command " + args[0]);
        }
    }

    /**
     * Runs many dump/meta (and apply) commands in one JVM, which saves its start-up per command. Each
     * line of the script is tab-separated: the output file, then the command and its arguments. The
     * lines run in order, so a script may dump a table, apply a plan to it and dump it again; an apply
     * line leaves its output file empty. The first failing command fails the batch.
     */
    private static void batch(java.nio.file.Path script) throws Exception {
        OutputStream saved = stdout;
        int lineNo = 0;
        for (String line : Files.readAllLines(script, StandardCharsets.UTF_8)) {
            lineNo++;
            if (line.isEmpty()) {
                continue;
            }
            String[] parts = line.split("\t");
            if (parts.length < 2 || parts[1].equals("batch")) {
                throw new IllegalArgumentException("batch line " + lineNo + ": want <out>\\t<dump|meta|apply> args...");
            }
            String[] cmd = java.util.Arrays.copyOfRange(parts, 1, parts.length);
            try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(Paths.get(parts[0])), 1 << 16)) {
                stdout = out;
                run(cmd);
                out.flush();
            } catch (Exception e) {
                throw new RuntimeException("batch line " + lineNo + " (" + String.join(" ", cmd) + ") failed", e);
            } finally {
                stdout = saved;
            }
        }
    }

    private static void requireArgs(String[] args, int n, String usage) {
        if (args.length < n) {
            throw new IllegalArgumentException("usage: PaimonInterop " + usage);
        }
    }

    // =============================================================================================
    // Catalog helpers
    // =============================================================================================

    private static Catalog openCatalog(String warehouse) {
        return openCatalog(warehouse, Map.of());
    }

    /**
     * Opens the filesystem catalog; {@code extra} overrides the defaults (plan "catalogOptions"). A
     * warehouse of the form "catalog-options:&lt;file&gt;" opens the catalog the file's "key=value"
     * lines describe instead (a REST catalog, say).
     */
    private static Catalog openCatalog(String warehouse, Map<String, String> extra) {
        if (warehouse.startsWith("catalog-options:")) {
            return openCatalogFromFile(Paths.get(warehouse.substring("catalog-options:".length())), extra);
        }
        Options options = new Options();
        options.set("warehouse", Paths.get(warehouse).toAbsolutePath().toString());
        // A long-lived JVM must not see stale tables after other writers change them.
        options.set("cache-enabled", "false");
        extra.forEach(options::set);
        return CatalogFactory.createCatalog(CatalogContext.create(options));
    }

    /** Opens the catalog described by a file of "key=value" lines (REST catalog interop). */
    private static Catalog openCatalogFromFile(java.nio.file.Path file, Map<String, String> extra) throws RuntimeException {
        Options options = new Options();
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                int eq = line.indexOf('=');
                if (!line.isBlank() && eq > 0) {
                    options.set(line.substring(0, eq).trim(), line.substring(eq + 1).trim());
                }
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        extra.forEach(options::set);
        return CatalogFactory.createCatalog(CatalogContext.create(options));
    }

    private static Identifier parseIdentifier(String dbTable) {
        int dot = dbTable.indexOf('.');
        if (dot <= 0 || dot == dbTable.length() - 1) {
            throw new IllegalArgumentException("expected <db>.<table>, got " + dbTable);
        }
        return Identifier.create(dbTable.substring(0, dot), dbTable.substring(dot + 1));
    }

    // =============================================================================================
    // apply
    // =============================================================================================

    /** The warehouse of the plan being applied; BLOB source files of descriptors go below it. */
    private static String applyWarehouse;

    /**
     * Where the BLOB descriptors of the golden tables point (the golden corpus keeps a copy of
     * each file in the warehouse's blob-source directory; Go tests put them back here).
     */
    static final String BLOB_SOURCE_DIR = "/tmp/paimon-go-golden-blob-source";

    private static void apply(String warehouse, Path planPath) throws Exception {
        applyWarehouse = warehouse;
        String text = new String(Files.readAllBytes(planPath), StandardCharsets.UTF_8);
        Map<String, Object> plan = asObject(Json.parse(text), "plan");
        String db = asString(plan.get("db"), "db");
        String tableName = asString(plan.get("table"), "table");
        Identifier id = Identifier.create(db, tableName);
        List<Object> ops = asList(plan.get("ops"), "ops");
        // A plan that is the table's only writer may turn the catalog's caches on
        // ("catalogOptions": {"cache-enabled": "true"}): writers then restore their files from
        // cached manifests, which makes long plans several times cheaper.
        Map<String, String> catalogOptions =
                plan.get("catalogOptions") == null
                        ? Map.of()
                        : stringMap(plan.get("catalogOptions"), "catalogOptions");

        Path ioDir = Files.createTempDirectory("paimon-interop-io");
        try (Catalog catalog = openCatalog(warehouse, catalogOptions);
                IOManager ioManager = IOManager.create(ioDir.toString())) {
            int index = 0;
            for (Object o : ops) {
                Map<String, Object> op = asObject(o, "op #" + index);
                String name = asString(op.get("op"), "op");
                // "branch": an op on the table's branch (Java's "table$branch_name").
                Identifier target =
                        op.get("branch") == null
                                ? id
                                : Identifier.create(db, tableName + "$branch_" + asString(op.get("branch"), "branch"));
                try {
                    runOp(catalog, target, plan, op, name, ioManager);
                } catch (UnsupportedException e) {
                    throw e;
                } catch (Exception e) {
                    throw new RuntimeException(
                            "op #" + index + " (" + name + ") of " + id + " failed: " + e, e);
                }
                index++;
            }
        } finally {
            deleteRecursively(ioDir);
        }
    }

    private static void runOp(
            Catalog catalog,
            Identifier id,
            Map<String, Object> plan,
            Map<String, Object> op,
            String name,
            IOManager ioManager)
            throws Exception {
        switch (name) {
            case "create":
                {
                    Object schemaNode = plan.get("schema");
                    if (schemaNode == null) {
                        throw new IllegalArgumentException("plan has no schema");
                    }
                    // Java's Schema constructor needs every collection present.
                    Map<String, Object> schemaObj = new LinkedHashMap<>(asObject(schemaNode, "schema"));
                    schemaObj.putIfAbsent("partitionKeys", new ArrayList<>());
                    schemaObj.putIfAbsent("primaryKeys", new ArrayList<>());
                    schemaObj.putIfAbsent("options", new LinkedHashMap<>());
                    for (String k : new String[] {"partitionKeys", "primaryKeys", "options"}) {
                        if (schemaObj.get(k) == null) {
                            schemaObj.put(k, k.equals("options") ? new LinkedHashMap<>() : new ArrayList<>());
                        }
                    }
                    Schema schema = JsonSerdeUtil.fromJson(Json.write(schemaObj), Schema.class);
                    catalog.createDatabase(id.getDatabaseName(), true);
                    catalog.createTable(id, schema, false);
                    return;
                }
            case "write":
                writeRows(catalog.getTable(id), op, false, ioManager);
                return;
            case "overwrite":
                writeRows(catalog.getTable(id), op, true, ioManager);
                return;
            case "compact":
                // Flink's compact action and Spark's compact procedure turn write-only off
                // for the compaction job (CompactAction, CompactProcedure).
                compact(
                        catalog.getTable(id).copy(Collections.singletonMap("write-only", "false")),
                        ioManager,
                        op.get("full") == null || Boolean.TRUE.equals(op.get("full")));
                return;
            case "deleteRows":
                {
                    FileStoreTable fst = (FileStoreTable) catalog.getTable(id);
                    if (fst.coreOptions().dataEvolutionEnabled()) {
                        deleteRowsDataEvolution(catalog, id, fst, op);
                    } else {
                        deleteRowsWithDeletionVectors(fst, op);
                    }
                }
                return;
            case "tag":
                {
                    Table table = catalog.getTable(id);
                    String tag = asString(op.get("name"), "name");
                    if (op.get("snapshot") == null) {
                        table.createTag(tag);
                    } else {
                        table.createTag(tag, asLong(op.get("snapshot"), "snapshot"));
                    }
                    return;
                }
            case "deleteTag":
                catalog.getTable(id).deleteTag(asString(op.get("name"), "name"));
                return;
            case "rollback":
                {
                    Table table = catalog.getTable(id);
                    if (op.get("tag") != null) {
                        table.rollbackTo(asString(op.get("tag"), "tag"));
                    } else {
                        table.rollbackTo(asLong(op.get("snapshot"), "snapshot"));
                    }
                    return;
                }
            case "expire":
                expire(catalog.getTable(id), op);
                return;
            case "alter":
                catalog.alterTable(id, schemaChanges(op), false);
                return;
            case "dropPartition":
                {
                    List<Map<String, String>> partitions = new ArrayList<>();
                    if (op.get("partition") != null) {
                        partitions.add(stringMap(op.get("partition"), "partition"));
                    }
                    if (op.get("partitions") != null) {
                        for (Object p : asList(op.get("partitions"), "partitions")) {
                            partitions.add(stringMap(p, "partitions[]"));
                        }
                    }
                    if (partitions.isEmpty()) {
                        throw new IllegalArgumentException("dropPartition needs 'partition'");
                    }
                    // Catalog.dropPartitions: the filesystem catalog falls back to a
                    // truncate-partitions batch commit.
                    catalog.dropPartitions(id, partitions);
                    return;
                }
            default:
                if (runFeatureOp(catalog, id, op, name, ioManager)) {
                    return;
                }
                if (runStreamLaneOp(catalog, id, op, name)) {
                    return;
                }
                throw new UnsupportedException(name);
        }
    }

    /** One batch write + one commit: {"rows":[...],"kinds":[...]} (overwrite: + "partition"). */
    private static void writeRows(
            Table table, Map<String, Object> op, boolean overwrite, IOManager ioManager)
            throws Exception {
        RowType rowType = table.rowType();
        List<Object> rows = op.get("rows") == null ? List.of() : asList(op.get("rows"), "rows");
        List<Object> kinds = op.get("kinds") == null ? null : asList(op.get("kinds"), "kinds");
        if (kinds != null && kinds.size() != rows.size()) {
            throw new IllegalArgumentException(
                    "kinds has " + kinds.size() + " entries but rows has " + rows.size());
        }
        List<GenericRow> internalRows = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            RowKind kind =
                    kinds == null
                            ? RowKind.INSERT
                            : RowKind.fromShortString(asString(kinds.get(i), "kinds[]"));
            Map<String, Object> row = asObject(rows.get(i), "rows[" + i + "]");
            internalRows.add(decodeTopRow(row, rowType, kind));
        }

        Map<String, String> partition = null;
        if (overwrite) {
            partition =
                    op.get("partition") == null
                            ? Collections.emptyMap()
                            : stringMap(op.get("partition"), "partition");
            // With 'dynamic-partition-overwrite' (default true) Java ignores the static spec and
            // only replaces the partitions present in the new data. A given "partition" means
            // INSERT OVERWRITE ... PARTITION (...) with static semantics (as Spark's default
            // mode), unless the op says "dynamic": true.
            boolean dynamic =
                    op.get("dynamic") != null
                            ? Boolean.TRUE.equals(op.get("dynamic"))
                            : op.get("partition") == null;
            if (op.get("partition") != null || op.get("dynamic") != null) {
                table = table.copy(Map.of("dynamic-partition-overwrite", Boolean.toString(dynamic)));
            }
        }
        if (!overwrite
                && table instanceof FileStoreTable
                && ((FileStoreTable) table).bucketMode() == BucketMode.HASH_DYNAMIC) {
            writeRowsDynamic((FileStoreTable) table, internalRows, ioManager);
            return;
        }
        BatchWriteBuilder builder = table.newBatchWriteBuilder();
        if (overwrite) {
            builder.withOverwrite(partition);
        }
        try (BatchTableWrite write = builder.newWrite().withIOManager(ioManager);
                BatchTableCommit commit = builder.newCommit()) {
            for (GenericRow row : internalRows) {
                write.write(row);
            }
            commit.commit(write.prepareCommit());
        }
    }

    private static GenericRow decodeTopRow(Map<String, Object> row, RowType rowType, RowKind kind) {
        List<DataField> fields = rowType.getFields();
        Set<String> known = new LinkedHashSet<>();
        Object[] values = new Object[fields.size()];
        for (int i = 0; i < fields.size(); i++) {
            DataField f = fields.get(i);
            known.add(f.name());
            values[i] = decode(row.get(f.name()), f.type(), f.name());
        }
        for (String key : row.keySet()) {
            if (!known.contains(key)) {
                throw new IllegalArgumentException(
                        "row has column '" + key + "' which the current schema lacks: " + rowType);
            }
        }
        return GenericRow.ofKind(kind, values);
    }

    /**
     * Compaction of every (partition, bucket): full, or (full = false) a normal compaction that lets
     * the table's compaction strategy pick the runs, as a streaming writer's compaction would.
     * Unaware-bucket append uses the coordinator either way.
     */
    private static void compact(Table table, IOManager ioManager, boolean full) throws Exception {
        if (!(table instanceof FileStoreTable)) {
            throw new UnsupportedException("compact of " + table.getClass().getName());
        }
        FileStoreTable fst = (FileStoreTable) table;
        BucketMode mode = fst.bucketMode();
        if (Boolean.parseBoolean(fst.options().getOrDefault("data-evolution.enabled", "false"))) {
            compactDataEvolution(fst);
            return;
        }
        if (mode == BucketMode.BUCKET_UNAWARE) {
            compactUnaware(fst, ioManager);
            return;
        }
        if (mode == BucketMode.POSTPONE_MODE) {
            compactPostpone(fst, ioManager);
            return;
        }
        // Mirrors Spark's CompactProcedure for bucket-aware tables: one compact(p, b, full)
        // per bucket entry of the latest snapshot, all in one write and one commit.
        List<BucketEntry> entries = fst.newSnapshotReader().bucketEntries();
        Set<String> seen = new LinkedHashSet<>();
        BatchWriteBuilder builder = fst.newBatchWriteBuilder();
        try (BatchTableWrite write = builder.newWrite().withIOManager(ioManager);
                BatchTableCommit commit = builder.newCommit()) {
            for (BucketEntry e : entries) {
                String key = HEX.formatHex(e.partition().toBytes()) + "/" + e.bucket();
                if (!seen.add(key)) {
                    continue;
                }
                write.compact(e.partition(), e.bucket(), full);
            }
            commit.commit(write.prepareCommit());
        }
    }

    /**
     * deleteRows on a data-evolution table (Java 2.0.0 allows deletion vectors there): as Flink's
     * DataEvolutionDelete / DataEvolutionDeleteOperator, the matching rows' _ROW_IDs (read from the
     * $row_tracking table) are deleted in the vector of their row-id group's anchor file (the
     * group's data file with the smallest max sequence number, then file name:
     * DataEvolutionUtils.retrieveAnchorFile) at position _ROW_ID - the anchor's first row id, and
     * committed as index files only. Unaware buckets, unpartitioned tables.
     */
    private static void deleteRowsDataEvolution(
            Catalog catalog, Identifier id, FileStoreTable fst, Map<String, Object> op) throws Exception {
        if (!fst.coreOptions().deletionVectorsEnabled() || fst.bucketMode() != BucketMode.BUCKET_UNAWARE) {
            throw new IllegalArgumentException("deleteRows needs deletion vectors and unaware buckets");
        }
        String column = asString(op.get("column"), "column");
        Set<Long> values = new java.util.HashSet<>();
        for (Object v : asList(op.get("values"), "values")) {
            values.add(asLong(v, "values[]"));
        }
        Table rt = catalog.getTable(new Identifier(id.getDatabaseName(), id.getObjectName() + "$row_tracking"));
        int idx = rt.rowType().getFieldIndex(column);
        int rowIdIdx = rt.rowType().getFieldIndex("_ROW_ID");
        boolean isInt = rt.rowType().getTypeAt(idx).getTypeRoot() == org.apache.paimon.types.DataTypeRoot.INTEGER;
        List<Long> rowIds = new ArrayList<>();
        ReadBuilder rb = rt.newReadBuilder();
        try (RecordReader<InternalRow> reader = rb.newRead().createReader(rb.newScan().plan())) {
            reader.forEachRemaining(
                    row -> {
                        if (!row.isNullAt(idx) && values.contains(isInt ? (long) row.getInt(idx) : row.getLong(idx))) {
                            rowIds.add(row.getLong(rowIdIdx));
                        }
                    });
        }
        org.apache.paimon.Snapshot snapshot = fst.snapshotManager().latestSnapshot();
        org.apache.paimon.index.IndexFileHandler handler = fst.store().newIndexFileHandler();
        org.apache.paimon.deletionvectors.append.BaseAppendDeleteFileMaintainer m = null;
        for (DataSplit ds : fst.newSnapshotReader().read().dataSplits()) {
            for (List<org.apache.paimon.io.DataFileMeta> group :
                    org.apache.paimon.operation.DataEvolutionSplitRead.mergeRangesAndSort(ds.dataFiles())) {
                org.apache.paimon.io.DataFileMeta anchor = null;
                for (org.apache.paimon.io.DataFileMeta f : group) {
                    if (f.fileName().endsWith(".blob")) {
                        continue;
                    }
                    if (anchor == null
                            || f.maxSequenceNumber() < anchor.maxSequenceNumber()
                            || (f.maxSequenceNumber() == anchor.maxSequenceNumber()
                                    && f.fileName().compareTo(anchor.fileName()) < 0)) {
                        anchor = f;
                    }
                }
                long from = anchor.nonNullFirstRowId();
                long to = from + anchor.rowCount() - 1;
                org.apache.paimon.deletionvectors.DeletionVector dv =
                        fst.coreOptions().deletionVectorBitmap64()
                                ? new org.apache.paimon.deletionvectors.Bitmap64DeletionVector()
                                : new org.apache.paimon.deletionvectors.BitmapDeletionVector();
                for (long rowId : rowIds) {
                    if (rowId >= from && rowId <= to) {
                        dv.delete(rowId - from);
                    }
                }
                if (dv.isEmpty()) {
                    continue;
                }
                if (m == null) {
                    m = org.apache.paimon.deletionvectors.append.BaseAppendDeleteFileMaintainer
                            .forUnawareAppend(handler, snapshot, ds.partition());
                }
                m.notifyNewDeletionVector(anchor.fileName(), dv);
            }
        }
        if (m == null) {
            return;
        }
        List<org.apache.paimon.index.IndexFileMeta> added = new ArrayList<>();
        List<org.apache.paimon.index.IndexFileMeta> deleted = new ArrayList<>();
        for (org.apache.paimon.manifest.IndexManifestEntry e : m.persist()) {
            (e.kind() == org.apache.paimon.manifest.FileKind.ADD ? added : deleted).add(e.indexFile());
        }
        CommitMessage message =
                new org.apache.paimon.table.sink.CommitMessageImpl(
                        m.getPartition(),
                        m.getBucket(),
                        null,
                        new org.apache.paimon.io.DataIncrement(
                                Collections.emptyList(), Collections.emptyList(), Collections.emptyList(),
                                added, deleted),
                        org.apache.paimon.io.CompactIncrement.emptyIncrement());
        try (BatchTableCommit commit = fst.newBatchWriteBuilder().newCommit()) {
            commit.commit(Collections.singletonList(message));
        }
    }

    /**
     * {"op":"deleteRows","column":"id","values":[1,2]}: deletes the rows of an append table with
     * deletion-vectors.enabled whose INT/BIGINT column holds one of the values, the way Spark's
     * DELETE does (PaimonSparkWriter.persistDeletionVectors): positions found by reading each data
     * file raw, merged into the file's vector by the table's delete-file maintainer (per partition
     * for unaware buckets, per bucket otherwise), committed as index files only.
     */
    private static void deleteRowsWithDeletionVectors(FileStoreTable fst, Map<String, Object> op)
            throws Exception {
        if (!fst.primaryKeys().isEmpty() || !fst.coreOptions().deletionVectorsEnabled()) {
            throw new IllegalArgumentException("deleteRows needs an append table with deletion vectors");
        }
        String column = asString(op.get("column"), "column");
        Set<Long> values = new java.util.HashSet<>();
        for (Object v : asList(op.get("values"), "values")) {
            values.add(asLong(v, "values[]"));
        }
        int idx = fst.rowType().getFieldIndex(column);
        if (idx < 0) {
            throw new IllegalArgumentException("no column " + column);
        }
        boolean isInt = fst.rowType().getTypeAt(idx).getTypeRoot() == org.apache.paimon.types.DataTypeRoot.INTEGER;
        org.apache.paimon.Snapshot snapshot = fst.snapshotManager().latestSnapshot();
        org.apache.paimon.index.IndexFileHandler handler = fst.store().newIndexFileHandler();
        boolean unaware = fst.bucketMode() == BucketMode.BUCKET_UNAWARE;
        Map<String, org.apache.paimon.deletionvectors.append.BaseAppendDeleteFileMaintainer> maintainers =
                new LinkedHashMap<>();
        for (Split split : fst.newReadBuilder().newScan().plan().splits()) {
            DataSplit ds = (DataSplit) split;
            for (org.apache.paimon.io.DataFileMeta file : ds.dataFiles()) {
                DataSplit one =
                        DataSplit.builder()
                                .withSnapshot(ds.snapshotId())
                                .withPartition(ds.partition())
                                .withBucket(ds.bucket())
                                .withBucketPath(ds.bucketPath())
                                .withTotalBuckets(ds.totalBuckets())
                                .withDataFiles(Collections.singletonList(file))
                                .rawConvertible(true)
                                .build();
                org.apache.paimon.deletionvectors.DeletionVector dv =
                        fst.coreOptions().deletionVectorBitmap64()
                                ? new org.apache.paimon.deletionvectors.Bitmap64DeletionVector()
                                : new org.apache.paimon.deletionvectors.BitmapDeletionVector();
                long[] pos = {0};
                try (RecordReader<InternalRow> reader = fst.newRead().createReader(one)) {
                    reader.forEachRemaining(
                            row -> {
                                long v = isInt ? row.getInt(idx) : row.getLong(idx);
                                if (!row.isNullAt(idx) && values.contains(v)) {
                                    dv.delete(pos[0]);
                                }
                                pos[0]++;
                            });
                }
                if (dv.isEmpty()) {
                    continue;
                }
                String key = HEX.formatHex(ds.partition().toBytes()) + "/" + ds.bucket();
                org.apache.paimon.deletionvectors.append.BaseAppendDeleteFileMaintainer m = maintainers.get(key);
                if (m == null) {
                    m =
                            unaware
                                    ? org.apache.paimon.deletionvectors.append.BaseAppendDeleteFileMaintainer
                                            .forUnawareAppend(handler, snapshot, ds.partition())
                                    : org.apache.paimon.deletionvectors.append.BaseAppendDeleteFileMaintainer
                                            .forBucketedAppend(handler, snapshot, ds.partition(), ds.bucket());
                    maintainers.put(key, m);
                }
                m.notifyNewDeletionVector(file.fileName(), dv);
            }
        }
        List<CommitMessage> messages = new ArrayList<>();
        for (org.apache.paimon.deletionvectors.append.BaseAppendDeleteFileMaintainer m : maintainers.values()) {
            List<org.apache.paimon.index.IndexFileMeta> added = new ArrayList<>();
            List<org.apache.paimon.index.IndexFileMeta> deleted = new ArrayList<>();
            for (org.apache.paimon.manifest.IndexManifestEntry e : m.persist()) {
                (e.kind() == org.apache.paimon.manifest.FileKind.ADD ? added : deleted).add(e.indexFile());
            }
            messages.add(
                    new org.apache.paimon.table.sink.CommitMessageImpl(
                            m.getPartition(),
                            m.getBucket(),
                            null,
                            new org.apache.paimon.io.DataIncrement(
                                    Collections.emptyList(), Collections.emptyList(), Collections.emptyList(),
                                    added, deleted),
                            org.apache.paimon.io.CompactIncrement.emptyIncrement()));
        }
        if (messages.isEmpty()) {
            return;
        }
        try (BatchTableCommit commit = fst.newBatchWriteBuilder().newCommit()) {
            commit.commit(messages);
        }
    }

    private static void compactUnaware(FileStoreTable fst, IOManager ioManager) throws Exception {
        // Mirrors Spark's CompactProcedure.compactUnAwareBucketTable: one batch coordinator run.
        // The coordinator only picks groups of at least 'compaction.min.file-num' files.
        List<AppendCompactTask> tasks;
        try {
            tasks = new AppendCompactCoordinator(fst, false).run();
        } catch (EndOfScanException e) {
            tasks = Collections.emptyList();
        }
        if (tasks.isEmpty()) {
            return;
        }
        String commitUser = UUID.randomUUID().toString();
        List<CommitMessage> messages = new ArrayList<>();
        BaseAppendFileStoreWrite write = (BaseAppendFileStoreWrite) fst.store().newWrite(commitUser);
        try {
            write.withIOManager(ioManager);
            if (Boolean.parseBoolean(fst.options().getOrDefault("row-tracking.enabled", "false"))) {
                // As Spark's CompactProcedure: compacted files of a row-tracking table keep each row's
                // _ROW_ID and _SEQUENCE_NUMBER as physical columns.
                write.withWriteType(
                        org.apache.paimon.table.SpecialFields.rowTypeWithRowTracking(fst.rowType()));
            }
            for (AppendCompactTask task : tasks) {
                messages.add(task.doCompact(fst, write));
            }
        } finally {
            write.close();
        }
        try (TableCommitImpl commit = fst.newCommit(commitUser)) {
            commit.commit(messages);
        }
    }

    /**
     * Writes rows into a dynamic-bucket (bucket = -1) primary-key table as Flink's
     * HashBucketAssignerOperator does: one HashBucketAssigner (one channel, one assigner) gives
     * each row the bucket of its trimmed primary key's hash, and the write maintains the HASH
     * index files.
     */
    private static void writeRowsDynamic(
            FileStoreTable table, List<GenericRow> rows, IOManager ioManager) throws Exception {
        org.apache.paimon.CoreOptions options = table.coreOptions();
        String commitUser = UUID.randomUUID().toString();
        org.apache.paimon.index.HashBucketAssigner assigner =
                new org.apache.paimon.index.HashBucketAssigner(
                        table.snapshotManager(),
                        commitUser,
                        table.store().newIndexFileHandler(),
                        1,
                        1,
                        0,
                        options.dynamicBucketTargetRowNum(),
                        options.toConfiguration()
                                .get(org.apache.paimon.CoreOptions.DYNAMIC_BUCKET_MAX_BUCKETS));
        org.apache.paimon.table.sink.RowPartitionKeyExtractor extractor =
                new org.apache.paimon.table.sink.RowPartitionKeyExtractor(table.schema());
        BatchWriteBuilder builder = table.newBatchWriteBuilder();
        try (BatchTableWrite write = builder.newWrite().withIOManager(ioManager);
                BatchTableCommit commit = builder.newCommit()) {
            for (GenericRow row : rows) {
                int bucket =
                        assigner.assign(
                                extractor.partition(row),
                                extractor.trimmedPrimaryKey(row).hashCode());
                write.write(row, bucket);
            }
            commit.commit(write.prepareCommit());
        }
    }

    private static void expire(Table table, Map<String, Object> op) {
        ExpireConfig.Builder b = ExpireConfig.builder();
        if (op.get("retainMax") != null) {
            b.snapshotRetainMax((int) asLong(op.get("retainMax"), "retainMax"));
        }
        if (op.get("retainMin") != null) {
            b.snapshotRetainMin((int) asLong(op.get("retainMin"), "retainMin"));
        }
        if (op.get("timeRetainMillis") != null) {
            b.snapshotTimeRetain(Duration.ofMillis(asLong(op.get("timeRetainMillis"), "timeRetainMillis")));
        }
        if (op.get("maxDeletes") != null) {
            b.snapshotMaxDeletes((int) asLong(op.get("maxDeletes"), "maxDeletes"));
        }
        table.newExpireSnapshots().config(b.build()).expire();
    }

    private static List<SchemaChange> schemaChanges(Map<String, Object> op) {
        List<SchemaChange> changes = new ArrayList<>();
        for (Object o : asList(op.get("changes"), "changes")) {
            Map<String, Object> c = asObject(o, "changes[]");
            if (c.size() != 1) {
                throw new IllegalArgumentException("each change must have exactly one key: " + c);
            }
            Map.Entry<String, Object> e = c.entrySet().iterator().next();
            Object v = e.getValue();
            switch (e.getKey()) {
                case "addColumn":
                    {
                        Map<String, Object> m = asObject(v, "addColumn");
                        String comment = m.get("comment") == null ? null : asString(m.get("comment"), "comment");
                        changes.add(
                                SchemaChange.addColumn(
                                        asString(m.get("name"), "name"), parseType(m.get("type")), comment));
                        break;
                    }
                case "dropColumn":
                    changes.add(SchemaChange.dropColumn(asString(v, "dropColumn")));
                    break;
                case "renameColumn":
                    {
                        Map<String, Object> m = asObject(v, "renameColumn");
                        changes.add(
                                SchemaChange.renameColumn(
                                        asString(m.get("from"), "from"), asString(m.get("to"), "to")));
                        break;
                    }
                case "updateColumnType":
                    {
                        Map<String, Object> m = asObject(v, "updateColumnType");
                        changes.add(
                                SchemaChange.updateColumnType(
                                        asString(m.get("name"), "name"), parseType(m.get("type"))));
                        break;
                    }
                case "updateColumnNullability":
                    {
                        Map<String, Object> m = asObject(v, "updateColumnNullability");
                        changes.add(
                                SchemaChange.updateColumnNullability(
                                        asString(m.get("name"), "name"),
                                        Boolean.TRUE.equals(m.get("nullable"))));
                        break;
                    }
                case "updateColumnComment":
                    {
                        Map<String, Object> m = asObject(v, "updateColumnComment");
                        changes.add(
                                SchemaChange.updateColumnComment(
                                        asString(m.get("name"), "name"),
                                        m.get("comment") == null ? null : asString(m.get("comment"), "comment")));
                        break;
                    }
                case "updateComment":
                    changes.add(SchemaChange.updateComment(v == null ? null : asString(v, "updateComment")));
                    break;
                case "setOption":
                    {
                        Map<String, Object> m = asObject(v, "setOption");
                        changes.add(
                                SchemaChange.setOption(
                                        asString(m.get("key"), "key"), asString(m.get("value"), "value")));
                        break;
                    }
                case "removeOption":
                    changes.add(SchemaChange.removeOption(asString(v, "removeOption")));
                    break;
                default:
                    throw new UnsupportedException("schema change " + e.getKey());
            }
        }
        return changes;
    }

    /** Parses a Paimon type given as SQL text ("INT NOT NULL") or as Paimon's JSON type object. */
    private static DataType parseType(Object node) {
        if (node == null) {
            throw new IllegalArgumentException("missing type");
        }
        return JsonSerdeUtil.fromJson(Json.write(node), DataType.class);
    }

    // =============================================================================================
    // dump / meta
    // =============================================================================================

    private static void dump(String[] args) throws Exception {
        String warehouse = args[1];
        Identifier id = parseIdentifier(args[2]);
        String mode = "merged";
        String snapshot = null;
        String tag = null;
        String cols = null;
        String incremental = null;
        String incrementalMode = null;
        String filter = null;
        String plannedFiles = null;
        boolean modeGiven = false;
        for (int i = 3; i < args.length; i++) {
            String a = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("missing value for " + a);
            }
            String v = args[++i];
            switch (a) {
                case "--mode":
                    mode = v;
                    modeGiven = true;
                    break;
                case "--snapshot":
                    snapshot = Long.toString(Long.parseLong(v));
                    break;
                case "--tag":
                    tag = v;
                    break;
                case "--cols":
                    cols = v;
                    break;
                case "--incremental":
                    if (!v.matches("[0-9]+,[0-9]+")) {
                        throw new IllegalArgumentException("--incremental wants S,E (snapshot ids), got " + v);
                    }
                    incremental = v;
                    break;
                case "--incremental-mode":
                    incrementalMode = v;
                    break;
                case "--filter":
                    filter = v;
                    break;
                case "--planned-files":
                    plannedFiles = v;
                    break;
                default:
                    throw new IllegalArgumentException("unknown option " + a);
            }
        }
        if (snapshot != null && tag != null) {
            throw new IllegalArgumentException("--snapshot and --tag are exclusive");
        }
        if (filter != null && (cols != null || !mode.equals("merged") || incremental != null)) {
            // The filter is also tested row by row on the full row, which a projection or the audit
            // log's extra column would not give.
            throw new IllegalArgumentException("--filter takes neither --cols, --mode audit nor --incremental");
        }
        if (incrementalMode != null && incremental == null) {
            throw new IllegalArgumentException("--incremental-mode needs --incremental");
        }
        if (incremental != null) {
            if (snapshot != null || tag != null) {
                throw new IllegalArgumentException("--incremental excludes --snapshot and --tag");
            }
            // An incremental read yields changes (-D and -U rows too), which only mean something with
            // their row kind: it is always read through the audit log, which adds the rowkind column.
            if (modeGiven && !mode.equals("audit")) {
                throw new IllegalArgumentException("--incremental is read as --mode audit, not " + mode);
            }
            mode = "audit";
        }
        String objectName;
        switch (mode) {
            case "merged":
                objectName = id.getObjectName();
                break;
            case "audit":
                objectName = id.getObjectName() + "$audit_log";
                break;
            default:
                throw new UnsupportedException("dump mode " + mode);
        }
        Map<String, String> dynamic = new LinkedHashMap<>();
        if (snapshot != null) {
            dynamic.put("scan.snapshot-id", snapshot);
        }
        if (tag != null) {
            dynamic.put("scan.tag-name", tag);
        }
        if (incremental != null) {
            // CoreOptions incremental-between: changes after snapshot S up to and including E;
            // incremental-between-scan-mode picks delta files, changelog files or a diff of the two
            // snapshots (auto: changelog when the table produces one, else delta).
            dynamic.put("incremental-between", incremental);
            if (incrementalMode != null) {
                dynamic.put("incremental-between-scan-mode", incrementalMode);
            }
        }
        try (Catalog catalog = openCatalog(warehouse)) {
            Table table = catalog.getTable(Identifier.create(id.getDatabaseName(), objectName));
            if (!dynamic.isEmpty()) {
                table = table.copy(dynamic);
            }
            List<String> colList = null;
            if (cols != null) {
                colList = new ArrayList<>();
                for (String c : cols.split(",", -1)) {
                    colList.add(c.trim());
                }
            }
            if (filter == null && plannedFiles == null) {
                emitSorted(readTable(table, colList));
            } else {
                Predicate predicate = filter == null ? null : parseFilter(filter, table.rowType());
                emitSorted(readTable(table, colList, predicate, plannedFiles == null ? null : Paths.get(plannedFiles)));
            }
        }
    }

    /**
     * Parses a --filter: {@code <column> <op> <literal>} with op one of = != < <= > >= and the
     * literal a canon-v1 JSON value of the column's type (strings quoted), or {@code <column> is null}
     * / {@code <column> is not null}.
     */
    static Predicate parseFilter(String text, RowType rowType) {
        String s = text.trim();
        int sp = s.indexOf(' ');
        if (sp <= 0) {
            throw new IllegalArgumentException("--filter wants '<col> <op> <literal>', got " + text);
        }
        String col = s.substring(0, sp);
        String rest = s.substring(sp + 1).trim();
        int idx = rowType.getFieldNames().indexOf(col);
        if (idx < 0) {
            throw new IllegalArgumentException("--filter: no column '" + col + "' in " + rowType);
        }
        PredicateBuilder pb = new PredicateBuilder(rowType);
        if (rest.equals("is null")) {
            return pb.isNull(idx);
        }
        if (rest.equals("is not null")) {
            return pb.isNotNull(idx);
        }
        int sp2 = rest.indexOf(' ');
        if (sp2 <= 0) {
            throw new IllegalArgumentException("--filter wants '<col> <op> <literal>', got " + text);
        }
        String op = rest.substring(0, sp2);
        Object literal =
                decode(Json.parse(rest.substring(sp2 + 1).trim()), rowType.getTypeAt(idx), "--filter " + col);
        if (literal == null) {
            throw new IllegalArgumentException("--filter: a null literal; use 'is null'");
        }
        switch (op) {
            case "=":
                return pb.equal(idx, literal);
            case "!=":
                return pb.notEqual(idx, literal);
            case "<":
                return pb.lessThan(idx, literal);
            case "<=":
                return pb.lessOrEqual(idx, literal);
            case ">":
                return pb.greaterThan(idx, literal);
            case ">=":
                return pb.greaterOrEqual(idx, literal);
            default:
                throw new IllegalArgumentException("--filter: unknown operator '" + op + "' in " + text);
        }
    }

    private static void meta(String warehouse, String dbTable, String name) throws Exception {
        Identifier id = parseIdentifier(dbTable);
        if (!name.matches("[a-z_]+")) {
            throw new IllegalArgumentException("bad system table name " + name);
        }
        try (Catalog catalog = openCatalog(warehouse)) {
            Table table =
                    catalog.getTable(
                            Identifier.create(id.getDatabaseName(), id.getObjectName() + "$" + name));
            emitSorted(readTable(table, null));
        }
    }

    /** Batch-reads a table (optionally projected by top-level names) into canonical JSON lines. */
    private static List<byte[]> readTable(Table table, List<String> cols) throws IOException {
        return readTable(table, cols, null, null);
    }

    /**
     * readTable with an optional filter and an optional file that receives the planned data files.
     * The filter is pushed down (ReadBuilder.withFilter: Java prunes partitions, manifests, files and
     * row groups by the statistics the writer stored) and then tested on every row, so the output is
     * exactly the matching rows whatever the pushdown kept. plannedFiles receives
     * "<bucket path>/<file name>" of every data file of the planned splits, one a line, sorted.
     */
    private static List<byte[]> readTable(Table table, List<String> cols, Predicate filter, Path plannedFiles)
            throws IOException {
        RowType rowType = table.rowType();
        ReadBuilder rb = table.newReadBuilder();
        List<DataField> fields;
        if (cols != null) {
            int[] projection = new int[cols.size()];
            fields = new ArrayList<>();
            List<String> names = rowType.getFieldNames();
            for (int i = 0; i < cols.size(); i++) {
                int idx = names.indexOf(cols.get(i));
                if (idx < 0) {
                    throw new IllegalArgumentException(
                            "no column '" + cols.get(i) + "' in " + rowType);
                }
                projection[i] = idx;
                fields.add(rowType.getFields().get(idx));
            }
            rb = rb.withProjection(projection);
        } else {
            fields = rowType.getFields();
        }
        if (filter != null) {
            rb = rb.withFilter(filter);
        }
        List<Split> splits = rb.newScan().plan().splits();
        if (plannedFiles != null) {
            List<String> names = new ArrayList<>();
            for (Split split : splits) {
                if (!(split instanceof DataSplit)) {
                    throw new UnsupportedException("--planned-files of a " + split.getClass().getName());
                }
                DataSplit ds = (DataSplit) split;
                for (org.apache.paimon.io.DataFileMeta f : ds.dataFiles()) {
                    names.add(ds.bucketPath() + "/" + f.fileName());
                }
            }
            Collections.sort(names);
            Files.write(plannedFiles, names, StandardCharsets.UTF_8);
        }
        List<byte[]> lines = new ArrayList<>();
        RecordReader<InternalRow> reader = rb.newRead().executeFilter().createReader(splits);
        final List<DataField> fs = fields;
        final Predicate rowFilter = filter;
        // forEachRemaining closes the reader. Rows may be reused: render immediately.
        reader.forEachRemaining(
                row -> {
                    if (rowFilter == null || rowFilter.test(row)) {
                        lines.add(Json.write(renderRow(row, fs)).getBytes(StandardCharsets.UTF_8));
                    }
                });
        return lines;
    }

    private static Map<String, Object> renderRow(InternalRow row, List<DataField> fields) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (int i = 0; i < fields.size(); i++) {
            out.put(fields.get(i).name(), render(row, i, fields.get(i).type()));
        }
        return out;
    }

    private static void emitSorted(List<byte[]> lines) throws IOException {
        lines.sort(Arrays::compareUnsigned);
        for (byte[] line : lines) {
            stdout.write(line);
            stdout.write('\n');
        }
    }

    // =============================================================================================
    // canon-v1: render (internal -> JSON value)
    // =============================================================================================

    /** Renders field {@code pos} of {@code g} with canon-v1; returns a value {@link Json} can print. */
    static Object render(DataGetters g, int pos, DataType t) {
        if (g.isNullAt(pos)) {
            return null;
        }
        switch (t.getTypeRoot()) {
            case BOOLEAN:
                return g.getBoolean(pos);
            case TINYINT:
                return (long) g.getByte(pos);
            case SMALLINT:
                return (long) g.getShort(pos);
            case INTEGER:
                return (long) g.getInt(pos);
            case BIGINT:
                return g.getLong(pos);
            case FLOAT:
                {
                    float f = g.getFloat(pos);
                    if (Float.isNaN(f)) {
                        return "f32:nan";
                    }
                    return String.format("f32:%08x", Float.floatToRawIntBits(f));
                }
            case DOUBLE:
                {
                    double d = g.getDouble(pos);
                    if (Double.isNaN(d)) {
                        return "f64:nan";
                    }
                    return String.format("f64:%016x", Double.doubleToRawLongBits(d));
                }
            case DECIMAL:
                {
                    int p = DataTypeChecks.getPrecision(t);
                    int s = DataTypeChecks.getScale(t);
                    return g.getDecimal(pos, p, s).toBigDecimal().setScale(s).toPlainString();
                }
            case CHAR:
            case VARCHAR:
                return g.getString(pos).toString();
            case BINARY:
            case VARBINARY:
                return HEX.formatHex(g.getBinary(pos));
            case DATE:
                return LocalDate.ofEpochDay(g.getInt(pos)).toString();
            case TIME_WITHOUT_TIME_ZONE:
                return LocalTime.ofNanoOfDay(Math.floorMod((long) g.getInt(pos), 86_400_000L) * 1_000_000L)
                        .format(TIME_FORMAT);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return g.getTimestamp(pos, DataTypeChecks.getPrecision(t))
                        .toLocalDateTime()
                        .format(TS_FORMAT);
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return g.getTimestamp(pos, DataTypeChecks.getPrecision(t))
                                .toLocalDateTime()
                                .format(TS_FORMAT)
                        + "Z";
            case ARRAY:
                {
                    DataType et = DataTypeChecks.getNestedTypes(t).get(0);
                    InternalArray a = g.getArray(pos);
                    List<Object> out = new ArrayList<>(a.size());
                    for (int i = 0; i < a.size(); i++) {
                        out.add(render(a, i, et));
                    }
                    return out;
                }
            case MAP:
            case MULTISET:
                {
                    DataType kt;
                    DataType vt;
                    if (t.getTypeRoot() == org.apache.paimon.types.DataTypeRoot.MAP) {
                        List<DataType> kv = DataTypeChecks.getNestedTypes(t);
                        kt = kv.get(0);
                        vt = kv.get(1);
                    } else {
                        kt = DataTypeChecks.getNestedTypes(t).get(0);
                        vt = DataTypes.INT().notNull();
                    }
                    InternalMap m = g.getMap(pos);
                    InternalArray keys = m.keyArray();
                    InternalArray values = m.valueArray();
                    List<Object[]> pairs = new ArrayList<>(m.size());
                    for (int i = 0; i < m.size(); i++) {
                        Object k = render(keys, i, kt);
                        pairs.add(new Object[] {Json.write(k).getBytes(StandardCharsets.UTF_8), k, render(values, i, vt)});
                    }
                    pairs.sort((x, y) -> Arrays.compareUnsigned((byte[]) x[0], (byte[]) y[0]));
                    List<Object> out = new ArrayList<>(pairs.size());
                    for (Object[] p : pairs) {
                        out.add(Arrays.asList(p[1], p[2]));
                    }
                    return out;
                }
            case ROW:
                {
                    List<DataField> fields = ((RowType) t).getFields();
                    InternalRow r = g.getRow(pos, fields.size());
                    return renderRow(r, fields);
                }
            case VARIANT:
                // canon-v1: the variant's JSON text (GenericVariant.toJson, UTC).
                return g.getVariant(pos).toJson(java.time.ZoneOffset.UTC);
            case BLOB:
                // canon-v1: the blob's bytes as lowercase hex, like BYTES.
                return HEX.formatHex(g.getBlob(pos).toData());
            default:
                throw new UnsupportedException("unsupported type " + t.asSQLString());
        }
    }

    // =============================================================================================
    // canon-v1: decode (JSON value -> internal)
    // =============================================================================================

    /** Decodes a canon-v1 value into Paimon's internal representation for type {@code t}. */
    static Object decode(Object v, DataType t, String where) {
        if (v == null) {
            return null;
        }
        try {
            return decodeNonNull(v, t, where);
        } catch (UnsupportedException | IllegalArgumentException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    "cannot decode " + Json.write(v) + " as " + t.asSQLString() + " at " + where + ": " + e, e);
        }
    }

    private static Object decodeNonNull(Object v, DataType t, String where) {
        switch (t.getTypeRoot()) {
            case BOOLEAN:
                if (v instanceof Boolean) {
                    return v;
                }
                if ("true".equals(v)) {
                    return true;
                }
                if ("false".equals(v)) {
                    return false;
                }
                throw bad(v, t, where);
            case TINYINT:
                return (byte) integer(v, Byte.MIN_VALUE, Byte.MAX_VALUE, t, where);
            case SMALLINT:
                return (short) integer(v, Short.MIN_VALUE, Short.MAX_VALUE, t, where);
            case INTEGER:
                return (int) integer(v, Integer.MIN_VALUE, Integer.MAX_VALUE, t, where);
            case BIGINT:
                return integer(v, Long.MIN_VALUE, Long.MAX_VALUE, t, where);
            case FLOAT:
                if (v instanceof String) {
                    String s = (String) v;
                    if (s.equals("f32:nan")) {
                        return Float.NaN;
                    }
                    if (s.startsWith("f32:")) {
                        return Float.intBitsToFloat(Integer.parseUnsignedInt(s.substring(4), 16));
                    }
                    return Float.parseFloat(s);
                }
                if (v instanceof Number) {
                    return ((Number) v).floatValue();
                }
                throw bad(v, t, where);
            case DOUBLE:
                if (v instanceof String) {
                    String s = (String) v;
                    if (s.equals("f64:nan")) {
                        return Double.NaN;
                    }
                    if (s.startsWith("f64:")) {
                        return Double.longBitsToDouble(Long.parseUnsignedLong(s.substring(4), 16));
                    }
                    return Double.parseDouble(s);
                }
                if (v instanceof Number) {
                    return ((Number) v).doubleValue();
                }
                throw bad(v, t, where);
            case DECIMAL:
                {
                    BigDecimal bd;
                    if (v instanceof String) {
                        bd = new BigDecimal((String) v);
                    } else if (v instanceof BigDecimal) {
                        bd = (BigDecimal) v;
                    } else if (v instanceof BigInteger) {
                        bd = new BigDecimal((BigInteger) v);
                    } else {
                        throw bad(v, t, where);
                    }
                    int p = DataTypeChecks.getPrecision(t);
                    int s = DataTypeChecks.getScale(t);
                    Decimal d = Decimal.fromBigDecimal(bd, p, s);
                    if (d == null) {
                        throw new IllegalArgumentException(
                                "decimal " + v + " overflows " + t.asSQLString() + " at " + where);
                    }
                    return d;
                }
            case CHAR:
            case VARCHAR:
                if (v instanceof String) {
                    return BinaryString.fromString((String) v);
                }
                throw bad(v, t, where);
            case BINARY:
            case VARBINARY:
                if (v instanceof String) {
                    return HEX.parseHex((String) v);
                }
                throw bad(v, t, where);
            case DATE:
                if (v instanceof String) {
                    return (int) LocalDate.parse((String) v).toEpochDay();
                }
                return (int) integer(v, Integer.MIN_VALUE, Integer.MAX_VALUE, t, where);
            case TIME_WITHOUT_TIME_ZONE:
                if (v instanceof String) {
                    return (int) (LocalTime.parse((String) v).toNanoOfDay() / 1_000_000L);
                }
                return (int) integer(v, Integer.MIN_VALUE, Integer.MAX_VALUE, t, where);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                if (v instanceof String) {
                    String s = ((String) v).trim();
                    if (s.endsWith("Z") || s.endsWith("z")) {
                        s = s.substring(0, s.length() - 1);
                    }
                    s = s.replace(' ', 'T');
                    return Timestamp.fromLocalDateTime(LocalDateTime.parse(s));
                }
                return Timestamp.fromEpochMillis(integer(v, Long.MIN_VALUE, Long.MAX_VALUE, t, where));
            case ARRAY:
                {
                    DataType et = DataTypeChecks.getNestedTypes(t).get(0);
                    List<Object> list = asList(v, where);
                    Object[] out = new Object[list.size()];
                    for (int i = 0; i < out.length; i++) {
                        out[i] = decode(list.get(i), et, where + "[" + i + "]");
                    }
                    return new GenericArray(out);
                }
            case MAP:
            case MULTISET:
                {
                    boolean isMap = t.getTypeRoot() == org.apache.paimon.types.DataTypeRoot.MAP;
                    DataType kt = DataTypeChecks.getNestedTypes(t).get(0);
                    DataType vt = isMap ? DataTypeChecks.getNestedTypes(t).get(1) : DataTypes.INT().notNull();
                    Map<Object, Object> out = new LinkedHashMap<>();
                    if (v instanceof Map) {
                        for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                            Object key = decodeMapKey(String.valueOf(e.getKey()), kt, where);
                            out.put(key, decode(e.getValue(), vt, where + "[" + e.getKey() + "]"));
                        }
                    } else {
                        List<Object> pairs = asList(v, where);
                        for (int i = 0; i < pairs.size(); i++) {
                            List<Object> pair = asList(pairs.get(i), where + "[" + i + "]");
                            if (pair.size() != 2) {
                                throw new IllegalArgumentException(
                                        "map entry must be [key, value] at " + where + "[" + i + "]");
                            }
                            Object key = decode(pair.get(0), kt, where + "[" + i + "].key");
                            out.put(key, decode(pair.get(1), vt, where + "[" + i + "].value"));
                        }
                    }
                    return new GenericMap(out);
                }
            case ROW:
                {
                    List<DataField> fields = ((RowType) t).getFields();
                    Map<String, Object> obj = asObject(v, where);
                    Object[] out = new Object[fields.size()];
                    for (int i = 0; i < fields.size(); i++) {
                        DataField f = fields.get(i);
                        out[i] = decode(obj.get(f.name()), f.type(), where + "." + f.name());
                    }
                    for (String key : obj.keySet()) {
                        if (((RowType) t).getFieldIndex(key) < 0) {
                            throw new IllegalArgumentException("unknown nested field " + key + " at " + where);
                        }
                    }
                    return GenericRow.of(out);
                }
            case VARIANT:
                if (v instanceof String) {
                    return org.apache.paimon.data.variant.GenericVariant.fromJson((String) v);
                }
                throw bad(v, t, where);
            case BLOB:
                if (v instanceof String) {
                    return org.apache.paimon.data.Blob.fromData(HEX.parseHex((String) v));
                }
                if (v instanceof Map && ((Map<?, ?>) v).get("file") instanceof String) {
                    // {"file":hex,"offset":n[,"whole":true]}: a BLOB given by descriptor
                    // (Blob.fromFile, the BlobRef Flink and Spark pass): the bytes are put at offset n
                    // of a source file, which the writer copies into its .blob file
                    // (blob-as-descriptor) or references from the data file (blob-descriptor-field).
                    // The file is named by its content and written to BLOB_SOURCE_DIR, the fixed
                    // place the descriptors name so that the golden tables stay readable wherever
                    // they are copied (tests put the files back there), and to
                    // <warehouse>/blob-source, which the golden corpus keeps.
                    Map<?, ?> m = (Map<?, ?>) v;
                    byte[] data = HEX.parseHex((String) m.get("file"));
                    int offset = m.get("offset") == null ? 0 : (int) asLong(m.get("offset"), where + ".offset");
                    try {
                        byte[] content = new byte[offset + data.length];
                        Arrays.fill(content, 0, offset, (byte) 0x5a);
                        System.arraycopy(data, 0, content, offset, data.length);
                        String name =
                                HEX.formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(content))
                                                .substring(0, 16)
                                        + ".bin";
                        java.nio.file.Path src = Paths.get(BLOB_SOURCE_DIR, name);
                        for (java.nio.file.Path p : List.of(src, Paths.get(applyWarehouse, "blob-source", name))) {
                            Files.createDirectories(p.getParent());
                            Files.write(p, content);
                        }
                        if (Boolean.TRUE.equals(m.get("whole"))) {
                            // offset 0, length -1: up to the file's end
                            return org.apache.paimon.data.Blob.fromFile(
                                    org.apache.paimon.fs.local.LocalFileIO.create(), src.toString());
                        }
                        return org.apache.paimon.data.Blob.fromFile(
                                org.apache.paimon.fs.local.LocalFileIO.create(), src.toString(), offset, data.length);
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    } catch (java.security.NoSuchAlgorithmException e) {
                        throw new IllegalStateException(e);
                    }
                }
                if (v instanceof Map && Boolean.TRUE.equals(((Map<?, ?>) v).get("placeholder"))) {
                    // {"placeholder":true}: Java 2.0.0's BlobPlaceholder, the value a partial
                    // BLOB update (Spark's DataEvolutionTableDataWrite) writes for a row it does not
                    // change: length -2 in the .blob file's index, resolved on read from an older
                    // file (BlobFallbackRecordReader). 1.4.2 has no such class.
                    try {
                        return Class.forName("org.apache.paimon.data.BlobPlaceholder").getField("INSTANCE").get(null);
                    } catch (ClassNotFoundException e) {
                        throw new UnsupportedException("BLOB placeholders need Java Paimon 2.0.0");
                    } catch (ReflectiveOperationException e) {
                        throw new IllegalStateException(e);
                    }
                }
                throw bad(v, t, where);
            default:
                throw new UnsupportedException("unsupported type " + t.asSQLString());
        }
    }

    /** JSON object keys are strings; parse them by the key type (strings stay as they are). */
    private static Object decodeMapKey(String key, DataType kt, String where) {
        switch (kt.getTypeRoot()) {
            case CHAR:
            case VARCHAR:
            case BINARY:
            case VARBINARY:
            case DECIMAL:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
            case FLOAT:
            case DOUBLE:
            case BOOLEAN:
            case TINYINT:
            case SMALLINT:
            case INTEGER:
            case BIGINT:
                return decode(key, kt, where + ".key");
            default:
                return decode(Json.parse(key), kt, where + ".key");
        }
    }

    private static long integer(Object v, long min, long max, DataType t, String where) {
        BigInteger bi;
        if (v instanceof BigInteger) {
            bi = (BigInteger) v;
        } else if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            bi = BigInteger.valueOf(((Number) v).longValue());
        } else if (v instanceof BigDecimal) {
            bi = ((BigDecimal) v).toBigIntegerExact();
        } else if (v instanceof String) {
            bi = new BigInteger(((String) v).trim());
        } else {
            throw bad(v, t, where);
        }
        if (bi.compareTo(BigInteger.valueOf(min)) < 0 || bi.compareTo(BigInteger.valueOf(max)) > 0) {
            throw new IllegalArgumentException(v + " out of range for " + t.asSQLString() + " at " + where);
        }
        return bi.longValue();
    }

    private static IllegalArgumentException bad(Object v, DataType t, String where) {
        return new IllegalArgumentException(
                "cannot decode " + Json.write(v) + " as " + t.asSQLString() + " at " + where);
    }

    // =============================================================================================
    // genkeys
    // =============================================================================================

    private static final int[] GEN_BUCKETS = {1, 2, 3, 7, 16, 100, 1024};
    private static final int TYPE_KINDS = 31;
    private static final String[] CHAR_POOL = {
        "a", "b", "c", "x", "y", "z", "A", "Z", "0", "9", " ", "_", "-", "é", "ß", "ø", "Ж", "中",
        "文", "€", "😀", "𝄞", "\u0000", "\n", "\""
    };

    /** Writes {@code count} random key rows with their BinaryRow bytes, hash and buckets. */
    private static void genKeys(Path out, long seed, int count) throws IOException {
        Random rnd = new Random(seed);
        DefaultBucketFunction bucketFunction = new DefaultBucketFunction();
        try (OutputStream os = new BufferedOutputStream(Files.newOutputStream(out))) {
            for (int n = 0; n < count; n++) {
                int arity = 1 + rnd.nextInt(4);
                List<DataField> fields = new ArrayList<>();
                Object[] values = new Object[arity];
                for (int i = 0; i < arity; i++) {
                    DataType type = randomType(rnd);
                    if (rnd.nextBoolean()) {
                        type = type.copy(false);
                    }
                    fields.add(new DataField(i, "f" + i, type));
                    values[i] = type.isNullable() && rnd.nextInt(100) < 15 ? null : randomValue(rnd, type);
                }
                RowType rowType = new RowType(fields);
                GenericRow generic = GenericRow.of(values);

                // The row as the non-generated path builds it (InternalRowSerializer -> RowHelper).
                BinaryRow row = new InternalRowSerializer(rowType).toBinaryRow(generic).copy();
                // The row as FixedBucketRowKeyExtractor builds a bucket key (generated projection).
                int[] identity = new int[arity];
                for (int i = 0; i < arity; i++) {
                    identity[i] = i;
                }
                BinaryRow projected = CodeGenUtils.newProjection(rowType, identity).apply(generic).copy();
                if (!Arrays.equals(row.toBytes(), projected.toBytes())) {
                    throw new IllegalStateException(
                            "serializer and codegen projection disagree for " + rowType
                                    + ": " + HEX.formatHex(row.toBytes()) + " vs " + HEX.formatHex(projected.toBytes()));
                }

                Map<String, Object> line = new LinkedHashMap<>();
                List<Object> types = new ArrayList<>();
                List<Object> rendered = new ArrayList<>();
                for (int i = 0; i < arity; i++) {
                    types.add(new Json.Raw(JsonSerdeUtil.toFlatJson(fields.get(i).type())));
                    rendered.add(render(row, i, fields.get(i).type()));
                }
                line.put("types", types);
                line.put("values", rendered);
                line.put("row", HEX.formatHex(row.toBytes()));
                line.put("serialized", HEX.formatHex(SerializationUtils.serializeBinaryRow(row)));
                line.put("hash", (long) row.hashCode());
                Map<String, Object> buckets = new LinkedHashMap<>();
                for (int b : GEN_BUCKETS) {
                    buckets.put(Integer.toString(b), (long) bucketFunction.bucket(row, b));
                }
                line.put("buckets", buckets);
                os.write(Json.write(line).getBytes(StandardCharsets.UTF_8));
                os.write('\n');
            }
        }
    }

    private static DataType randomType(Random rnd) {
        int k = rnd.nextInt(TYPE_KINDS);
        switch (k) {
            case 0:
                return DataTypes.BOOLEAN();
            case 1:
                return DataTypes.TINYINT();
            case 2:
                return DataTypes.SMALLINT();
            case 3:
                return DataTypes.INT();
            case 4:
                return DataTypes.BIGINT();
            case 5:
                return DataTypes.FLOAT();
            case 6:
                return DataTypes.DOUBLE();
            case 7:
                {
                    int[][] ps = {{5, 2}, {18, 4}, {19, 0}, {38, 10}, {1, 0}, {10, 10}, {38, 0}, {20, 3}};
                    int[] p = ps[rnd.nextInt(ps.length)];
                    return DataTypes.DECIMAL(p[0], p[1]);
                }
            case 8:
                return DataTypes.CHAR(1 + rnd.nextInt(12));
            case 9:
                return DataTypes.VARCHAR(1 + rnd.nextInt(20));
            case 10:
            case 11:
                return DataTypes.STRING();
            case 12:
                return DataTypes.BINARY(1 + rnd.nextInt(20));
            case 13:
                return DataTypes.VARBINARY(1 + rnd.nextInt(20));
            case 14:
                return DataTypes.BYTES();
            case 15:
                return DataTypes.DATE();
            case 16:
                return rnd.nextBoolean() ? DataTypes.TIME() : DataTypes.TIME(3);
            case 17:
                return DataTypes.TIMESTAMP(0);
            case 18:
                return DataTypes.TIMESTAMP(3);
            case 19:
                return DataTypes.TIMESTAMP(6);
            case 20:
                return DataTypes.TIMESTAMP(9);
            case 21:
                return DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(0);
            case 22:
                return DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(3);
            case 23:
                return DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6);
            case 24:
                return DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(9);
            case 25:
                return DataTypes.ARRAY(DataTypes.INT());
            case 26:
                return DataTypes.ARRAY(DataTypes.STRING());
            case 27:
                return DataTypes.MAP(DataTypes.STRING().notNull(), DataTypes.INT());
            case 28:
                return DataTypes.MULTISET(DataTypes.STRING().notNull());
            case 29:
                return DataTypes.ROW(
                        DataTypes.FIELD(0, "x", DataTypes.INT()),
                        DataTypes.FIELD(1, "y", DataTypes.STRING()));
            default:
                {
                    // A few extra nested shapes: arrays of non-compact decimals / timestamps.
                    return rnd.nextBoolean()
                            ? DataTypes.ARRAY(DataTypes.DECIMAL(20, 2))
                            : DataTypes.ARRAY(DataTypes.TIMESTAMP(9));
                }
        }
    }

    private static final long MIN_TS_MILLIS = -62135596800000L; // 0001-01-01T00:00:00Z
    private static final long MAX_TS_MILLIS = 253402300799999L; // 9999-12-31T23:59:59.999Z

    private static Object randomValue(Random rnd, DataType t) {
        switch (t.getTypeRoot()) {
            case BOOLEAN:
                return rnd.nextBoolean();
            case TINYINT:
                return (byte) rnd.nextInt();
            case SMALLINT:
                return (short) rnd.nextInt();
            case INTEGER:
                {
                    int[] special = {0, 1, -1, Integer.MIN_VALUE, Integer.MAX_VALUE};
                    return rnd.nextInt(5) == 0 ? special[rnd.nextInt(special.length)] : rnd.nextInt();
                }
            case BIGINT:
                {
                    long[] special = {0L, 1L, -1L, Long.MIN_VALUE, Long.MAX_VALUE};
                    return rnd.nextInt(5) == 0 ? special[rnd.nextInt(special.length)] : rnd.nextLong();
                }
            case FLOAT:
                {
                    float[] special = {
                        0f, -0f, 1.5f, -2.25f, Float.NaN, Float.POSITIVE_INFINITY,
                        Float.NEGATIVE_INFINITY, Float.MIN_VALUE, Float.MAX_VALUE
                    };
                    if (rnd.nextInt(3) == 0) {
                        return special[rnd.nextInt(special.length)];
                    }
                    float f = Float.intBitsToFloat(rnd.nextInt());
                    // Only the canonical NaN: canon-v1 cannot carry NaN payloads.
                    return Float.isNaN(f) ? Float.NaN : f;
                }
            case DOUBLE:
                {
                    double[] special = {
                        0d, -0d, 1.5d, -2.25d, Double.NaN, Double.POSITIVE_INFINITY,
                        Double.NEGATIVE_INFINITY, Double.MIN_VALUE, Double.MAX_VALUE
                    };
                    if (rnd.nextInt(3) == 0) {
                        return special[rnd.nextInt(special.length)];
                    }
                    double d = Double.longBitsToDouble(rnd.nextLong());
                    return Double.isNaN(d) ? Double.NaN : d;
                }
            case DECIMAL:
                {
                    int p = DataTypeChecks.getPrecision(t);
                    int s = DataTypeChecks.getScale(t);
                    int digits = 1 + rnd.nextInt(p);
                    StringBuilder sb = new StringBuilder();
                    if (rnd.nextBoolean()) {
                        sb.append('-');
                    }
                    for (int i = 0; i < digits; i++) {
                        sb.append((char) ('0' + rnd.nextInt(10)));
                    }
                    BigDecimal bd = new BigDecimal(new BigInteger(sb.toString()), s);
                    return Decimal.fromBigDecimal(bd, p, s);
                }
            case CHAR:
            case VARCHAR:
                {
                    int max = DataTypeChecks.getLength(t);
                    if (max == Integer.MAX_VALUE) {
                        max = 20;
                    }
                    return BinaryString.fromString(randomString(rnd, rnd.nextInt(Math.min(max, 20) + 1)));
                }
            case BINARY:
                return randomBytes(rnd, DataTypeChecks.getLength(t));
            case VARBINARY:
                {
                    int max = DataTypeChecks.getLength(t);
                    return randomBytes(rnd, rnd.nextInt(Math.min(max, 20) + 1));
                }
            case DATE:
                return -719162 + rnd.nextInt(2932896 + 719162 + 1);
            case TIME_WITHOUT_TIME_ZONE:
                {
                    int ms = rnd.nextInt(86_400_000);
                    return DataTypeChecks.getPrecision(t) == 0 ? ms - ms % 1000 : ms;
                }
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                {
                    int p = DataTypeChecks.getPrecision(t);
                    long ms;
                    int r = rnd.nextInt(10);
                    if (r == 0) {
                        long[] special = {0L, -1L, -1000L, 1L, 999L, MIN_TS_MILLIS, MAX_TS_MILLIS};
                        ms = special[rnd.nextInt(special.length)];
                    } else {
                        ms = MIN_TS_MILLIS + Math.floorMod(rnd.nextLong(), MAX_TS_MILLIS - MIN_TS_MILLIS + 1);
                    }
                    if (p == 0) {
                        ms = Math.floorDiv(ms, 1000L) * 1000L;
                    }
                    int nanos = 0;
                    if (p == 6) {
                        nanos = rnd.nextInt(1000) * 1000;
                    } else if (p > 6) {
                        nanos = rnd.nextInt(1_000_000);
                    }
                    return Timestamp.fromEpochMillis(ms, nanos);
                }
            case ARRAY:
                {
                    DataType et = DataTypeChecks.getNestedTypes(t).get(0);
                    Object[] arr = new Object[rnd.nextInt(6)];
                    for (int i = 0; i < arr.length; i++) {
                        arr[i] = rnd.nextInt(100) < 15 ? null : randomValue(rnd, et);
                    }
                    return new GenericArray(arr);
                }
            case MAP:
                {
                    List<DataType> kv = DataTypeChecks.getNestedTypes(t);
                    Map<Object, Object> m = new LinkedHashMap<>();
                    int size = rnd.nextInt(5);
                    for (int i = 0; i < size; i++) {
                        m.put(randomValue(rnd, kv.get(0)), rnd.nextInt(100) < 15 ? null : randomValue(rnd, kv.get(1)));
                    }
                    return new GenericMap(m);
                }
            case MULTISET:
                {
                    DataType et = DataTypeChecks.getNestedTypes(t).get(0);
                    Map<Object, Object> m = new LinkedHashMap<>();
                    int size = rnd.nextInt(5);
                    for (int i = 0; i < size; i++) {
                        m.put(randomValue(rnd, et), 1 + rnd.nextInt(3));
                    }
                    return new GenericMap(m);
                }
            case ROW:
                {
                    List<DataField> fs = ((RowType) t).getFields();
                    Object[] vals = new Object[fs.size()];
                    for (int i = 0; i < vals.length; i++) {
                        DataType ft = fs.get(i).type();
                        vals[i] = ft.isNullable() && rnd.nextInt(100) < 15 ? null : randomValue(rnd, ft);
                    }
                    return GenericRow.of(vals);
                }
            default:
                throw new IllegalStateException("no generator for " + t);
        }
    }

    private static String randomString(Random rnd, int codePoints) {
        StringBuilder sb = new StringBuilder();
        // Half the strings are plain ASCII so short ones stay within the 7-byte inline limit.
        boolean ascii = rnd.nextBoolean();
        for (int i = 0; i < codePoints; i++) {
            sb.append(ascii ? CHAR_POOL[rnd.nextInt(10)] : CHAR_POOL[rnd.nextInt(CHAR_POOL.length)]);
        }
        return sb.toString();
    }

    private static byte[] randomBytes(Random rnd, int n) {
        byte[] b = new byte[n];
        rnd.nextBytes(b);
        return b;
    }

    // =============================================================================================
    // JSON (tiny, exact: integers -> BigInteger, other numbers -> BigDecimal)
    // =============================================================================================

    // =============================================================================================
    // Row tracking / data evolution, branches, postpone buckets (issue 16)
    // =============================================================================================

    /**
     * Ops of the issue-16 scenarios; returns false for an unknown op.
     *
     * <ul>
     *   <li>{"op":"writeColumns","cols":["c"],"firstRowId":0,"rows":[...]}: a partial-column write
     *       (BatchTableWrite.withWriteType) of a data-evolution table whose files get the given first
     *       row id, as Java's DataEvolutionTableTest does to update columns of existing rows.
     *   <li>{"op":"createBranch","name":"b"[,"tag":"t"]}: Table.createBranch.
     * </ul>
     */
    private static boolean runFeatureOp(
            Catalog catalog, Identifier id, Map<String, Object> op, String name, IOManager ioManager)
            throws Exception {
        switch (name) {
            case "writeColumns":
                writeColumns(catalog.getTable(id), op, ioManager);
                return true;
            case "createBranch":
                {
                    Table table = catalog.getTable(id);
                    String branch = asString(op.get("name"), "name");
                    if (op.get("tag") != null) {
                        table.createBranch(branch, asString(op.get("tag"), "tag"));
                    } else {
                        table.createBranch(branch);
                    }
                    return true;
                }
            default:
                return false;
        }
    }

    /**
     * Ops of the streaming/branch/file-index lane (issue 21); returns false for an unknown op.
     *
     * <ul>
     *   <li>{"op":"fastForward","name":"b"}: Table.fastForward(b) on the op's table (main unless
     *       "branch" is given).
     *   <li>{"op":"dropBranch","name":"b"}: Table.deleteBranch(b).
     *   <li>{"op":"streamRead",...}: see streamRead.
     * </ul>
     */
    private static boolean runStreamLaneOp(
            Catalog catalog, Identifier id, Map<String, Object> op, String name) throws Exception {
        switch (name) {
            case "fastForward":
                catalog.getTable(id).fastForward(asString(op.get("name"), "name"));
                return true;
            case "dropBranch":
                catalog.getTable(id).deleteBranch(asString(op.get("name"), "name"));
                return true;
            case "streamRead":
                streamRead(catalog.getTable(id), op);
                return true;
            default:
                return false;
        }
    }

    /**
     * {"op":"streamRead","out":"file","options":{...},"until":N[,"commitConsumer":true]}: Java's
     * stream scan (ReadBuilder.newStreamScan) of the table copied with options, plan after plan,
     * until the next snapshot is beyond "until" and nothing is left. Each row is one line
     * "snapshotId TAB canon-v1 row with a leading rowkind", in the order read. commitConsumer
     * calls notifyCheckpointComplete after each plan (the table's consumer-id records progress).
     */
    private static void streamRead(Table table, Map<String, Object> op) throws Exception {
        Map<String, String> options =
                op.get("options") == null ? Map.of() : stringMap(op.get("options"), "options");
        Table t = table.copy(options);
        long until = asLong(op.get("until"), "until");
        boolean commit = Boolean.TRUE.equals(op.get("commitConsumer"));
        ReadBuilder rb = t.newReadBuilder();
        org.apache.paimon.table.source.StreamTableScan scan = rb.newStreamScan();
        org.apache.paimon.table.source.TableRead read = rb.newRead();
        List<DataField> fields = t.rowType().getFields();
        List<String> lines = new ArrayList<>();
        int empty = 0;
        while (true) {
            org.apache.paimon.table.source.TableScan.Plan plan;
            try {
                plan = scan.plan();
            } catch (EndOfScanException e) {
                break;
            }
            Long next = scan.checkpoint();
            if (plan.splits().isEmpty()) {
                if (next != null && next > until) {
                    break;
                }
                // The first call may only find the start; later empty plans mean caught up.
                if (++empty > 3) {
                    throw new IllegalStateException(
                            "stream scan stopped at next snapshot " + next + " before " + until);
                }
                continue;
            }
            empty = 0;
            Long sid =
                    plan instanceof org.apache.paimon.table.source.snapshot.SnapshotReader.Plan
                            ? ((org.apache.paimon.table.source.snapshot.SnapshotReader.Plan) plan).snapshotId()
                            : null;
            final String prefix = sid + "\t";
            RecordReader<InternalRow> reader = read.createReader(plan.splits());
            reader.forEachRemaining(
                    row -> {
                        Map<String, Object> m = new LinkedHashMap<>();
                        m.put("rowkind", row.getRowKind().shortString());
                        m.putAll(renderRow(row, fields));
                        lines.add(prefix + Json.write(m));
                    });
            if (commit) {
                scan.notifyCheckpointComplete(next);
            }
            if (next != null && next > until) {
                break;
            }
        }
        Files.write(Paths.get(asString(op.get("out"), "out")), lines, StandardCharsets.UTF_8);
    }

    private static void writeColumns(Table table, Map<String, Object> op, IOManager ioManager) throws Exception {
        List<String> cols = new ArrayList<>();
        for (Object c : asList(op.get("cols"), "cols")) {
            cols.add(asString(c, "cols[]"));
        }
        RowType writeType = table.rowType().project(cols);
        List<Object> rows = op.get("rows") == null ? List.of() : asList(op.get("rows"), "rows");
        BatchWriteBuilder builder = table.newBatchWriteBuilder();
        try (BatchTableWrite write = builder.newWrite().withWriteType(writeType);
                BatchTableCommit commit = builder.newCommit()) {
            write.withIOManager(ioManager);
            for (int i = 0; i < rows.size(); i++) {
                write.write(decodeTopRow(asObject(rows.get(i), "rows[" + i + "]"), writeType, RowKind.INSERT));
            }
            List<CommitMessage> messages = write.prepareCommit();
            if (op.get("firstRowId") != null) {
                long first = asLong(op.get("firstRowId"), "firstRowId");
                for (CommitMessage m : messages) {
                    List<org.apache.paimon.io.DataFileMeta> files =
                            ((org.apache.paimon.table.sink.CommitMessageImpl) m).newFilesIncrement().newFiles();
                    List<org.apache.paimon.io.DataFileMeta> assigned = new ArrayList<>();
                    // As Spark's DataEvolutionTableDataWrite.assignFirstRowIds: the normal file
                    // starts at first, and each BLOB column's rolled .blob files continue one
                    // after the other from first.
                    Map<String, Long> blobStarts = new HashMap<>();
                    for (org.apache.paimon.io.DataFileMeta f : files) {
                        if (f.fileName().endsWith(".blob")) {
                            String col = f.writeCols().get(0);
                            long start = blobStarts.getOrDefault(col, first);
                            assigned.add(f.assignFirstRowId(start));
                            blobStarts.put(col, start + f.rowCount());
                        } else {
                            assigned.add(f.assignFirstRowId(first));
                        }
                    }
                    files.clear();
                    files.addAll(assigned);
                }
            }
            commit.commit(messages);
        }
    }

    /**
     * Compaction of a data-evolution table as Spark's CompactProcedure does it: one
     * DataEvolutionCompactCoordinator plan (blob files too), every task's doCompact, one commit. The
     * coordinator's constructor differs between 1.4 (table, blob, vector) and 2.0 (table, blob,
     * vector, snapshot), hence the reflection.
     */
    private static void compactDataEvolution(FileStoreTable fst) throws Exception {
        Class<?> cls = Class.forName("org.apache.paimon.append.dataevolution.DataEvolutionCompactCoordinator");
        Object coordinator = null;
        for (java.lang.reflect.Constructor<?> c : cls.getConstructors()) {
            Class<?>[] p = c.getParameterTypes();
            if (p.length == 3 && p[1] == boolean.class && p[2] == boolean.class) {
                coordinator = c.newInstance(fst, true, false);
            } else if (p.length == 4 && p[1] == boolean.class && p[2] == boolean.class) {
                coordinator = c.newInstance(fst, true, false, fst.snapshotManager().latestSnapshot());
            }
        }
        if (coordinator == null) {
            throw new IllegalStateException("no known DataEvolutionCompactCoordinator constructor");
        }
        List<?> tasks;
        try {
            tasks = (List<?>) cls.getMethod("plan").invoke(coordinator);
        } catch (java.lang.reflect.InvocationTargetException e) {
            if (e.getCause() instanceof EndOfScanException) {
                return;
            }
            throw e;
        }
        if (tasks.isEmpty()) {
            return;
        }
        String commitUser = UUID.randomUUID().toString();
        List<CommitMessage> messages = new ArrayList<>();
        for (Object task : tasks) {
            messages.add(
                    (CommitMessage)
                            task.getClass()
                                    .getMethod("doCompact", FileStoreTable.class, String.class)
                                    .invoke(task, fst, commitUser));
        }
        try (TableCommitImpl commit = fst.newCommit(commitUser)) {
            commit.commit(messages);
        }
    }

    /**
     * Compaction of a postpone-bucket table (bucket = -2) as Spark's SparkPostponeCompactProcedure
     * and Flink's PostponeBucketCompactSplitSource do it, on the table API alone: per partition, the
     * rows of the postpone bucket (deletes kept) are replayed file by file in creation-time order
     * (ties in scan order, as 1.4.2 sorts them) into the partition's real buckets (the count it
     * already has, else 'postpone.default-bucket-num', default 1), which assign fresh sequence
     * numbers, and one COMPACT commit removes the postpone files and adds the new ones (BucketFiles
     * folds the messages per bucket).
     */
    private static void compactPostpone(FileStoreTable fst, IOManager ioManager) throws Exception {
        List<DataSplit> splits = fst.newSnapshotReader().withBucket(BucketMode.POSTPONE_BUCKET).read().dataSplits();
        if (splits.isEmpty()) {
            return;
        }
        Map<BinaryRow, Integer> known = org.apache.paimon.table.PostponeUtils.getKnownNumBuckets(fst);
        String defaultBuckets = fst.options().getOrDefault("postpone.default-bucket-num", "1");
        Map<BinaryRow, List<DataSplit>> byPartition = new LinkedHashMap<>();
        for (DataSplit split : splits) {
            byPartition.computeIfAbsent(split.partition(), k -> new ArrayList<>()).add(split);
        }
        InternalRowSerializer serializer = new InternalRowSerializer(fst.rowType());
        org.apache.paimon.table.source.InnerTableRead read = fst.newRead();
        read.forceKeepDelete();
        String commitUser = UUID.randomUUID().toString();
        List<CommitMessage> written = new ArrayList<>();
        FileStoreTable real = fst.copy(Map.of("bucket", defaultBuckets));
        for (Map.Entry<BinaryRow, List<DataSplit>> part : byPartition.entrySet()) {
            List<DataSplit> files = new ArrayList<>();
            for (DataSplit split : part.getValue()) {
                for (org.apache.paimon.io.DataFileMeta f : split.dataFiles()) {
                    files.add(
                            DataSplit.builder()
                                    .withPartition(split.partition())
                                    .withBucket(split.bucket())
                                    .withBucketPath(split.bucketPath())
                                    .withTotalBuckets(split.totalBuckets())
                                    .withDataFiles(Collections.singletonList(f))
                                    .isStreaming(false)
                                    .build());
                }
            }
            files.sort(Comparator.comparing(f -> f.dataFiles().get(0).creationTime()));
            List<InternalRow> rows = new ArrayList<>();
            for (DataSplit one : files) {
                read.createReader(one)
                        .forEachRemaining(
                                row -> {
                                    RowKind kind = row.getRowKind();
                                    InternalRow copy = serializer.copy(row);
                                    copy.setRowKind(kind);
                                    rows.add(copy);
                                });
            }
            Integer buckets = known.get(part.getKey());
            real = fst.copy(Map.of("bucket", buckets == null ? defaultBuckets : String.valueOf(buckets)));
            try (org.apache.paimon.table.sink.TableWriteImpl<?> write = real.newWrite(commitUser)) {
                write.withIOManager(ioManager);
                for (InternalRow row : rows) {
                    write.write(row);
                }
                written.addAll(write.prepareCommit(true, Long.MAX_VALUE));
            }
        }
        List<org.apache.paimon.table.sink.CommitMessageImpl> all = new ArrayList<>();
        for (DataSplit split : splits) {
            all.add(
                    new org.apache.paimon.table.sink.CommitMessageImpl(
                            split.partition(),
                            split.bucket(),
                            split.totalBuckets(),
                            org.apache.paimon.io.DataIncrement.emptyIncrement(),
                            new org.apache.paimon.io.CompactIncrement(
                                    split.dataFiles(), Collections.emptyList(), Collections.emptyList())));
        }
        for (CommitMessage m : written) {
            all.add((org.apache.paimon.table.sink.CommitMessageImpl) m);
        }
        Map<String, org.apache.paimon.postpone.BucketFiles> byBucket = new LinkedHashMap<>();
        Map<String, org.apache.paimon.table.sink.CommitMessageImpl> firstOf = new LinkedHashMap<>();
        for (org.apache.paimon.table.sink.CommitMessageImpl m : all) {
            String key = HEX.formatHex(m.partition().toBytes()) + "/" + m.bucket();
            firstOf.putIfAbsent(key, m);
            byBucket.computeIfAbsent(
                            key,
                            k ->
                                    new org.apache.paimon.postpone.BucketFiles(
                                            fst.store().pathFactory().createDataFilePathFactory(m.partition(), m.bucket()),
                                            fst.fileIO()))
                    .update(m);
        }
        List<CommitMessage> messages = new ArrayList<>();
        for (Map.Entry<String, org.apache.paimon.postpone.BucketFiles> e : byBucket.entrySet()) {
            org.apache.paimon.table.sink.CommitMessageImpl m = firstOf.get(e.getKey());
            messages.add(e.getValue().makeMessage(m.partition(), m.bucket()));
        }
        try (TableCommitImpl commit = real.newCommit(commitUser)) {
            commit.commit(messages);
        }
    }


    /** Minimal JSON reader/writer; the plans and dumps need nothing more. */
    static final class Json {

        /** Pre-rendered JSON text inserted verbatim by {@link #write}. */
        static final class Raw {
            final String text;

            Raw(String text) {
                this.text = text;
            }
        }

        private final String s;
        private int i;

        private Json(String s) {
            this.s = s;
        }

        static Object parse(String text) {
            Json p = new Json(text);
            p.ws();
            Object v = p.value();
            p.ws();
            if (p.i != p.s.length()) {
                throw p.err("trailing characters");
            }
            return v;
        }

        private IllegalArgumentException err(String msg) {
            return new IllegalArgumentException("JSON: " + msg + " at offset " + i);
        }

        private void ws() {
            while (i < s.length()) {
                char c = s.charAt(i);
                if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                    i++;
                } else {
                    break;
                }
            }
        }

        private Object value() {
            if (i >= s.length()) {
                throw err("unexpected end");
            }
            char c = s.charAt(i);
            switch (c) {
                case '{':
                    return object();
                case '[':
                    return array();
                case '"':
                    return string();
                case 't':
                    literal("true");
                    return Boolean.TRUE;
                case 'f':
                    literal("false");
                    return Boolean.FALSE;
                case 'n':
                    literal("null");
                    return null;
                default:
                    if (c == '-' || (c >= '0' && c <= '9')) {
                        return number();
                    }
                    throw err("unexpected character '" + c + "'");
            }
        }

        private void literal(String lit) {
            if (!s.startsWith(lit, i)) {
                throw err("expected " + lit);
            }
            i += lit.length();
        }

        private Map<String, Object> object() {
            Map<String, Object> m = new LinkedHashMap<>();
            i++;
            ws();
            if (i < s.length() && s.charAt(i) == '}') {
                i++;
                return m;
            }
            while (true) {
                ws();
                if (i >= s.length() || s.charAt(i) != '"') {
                    throw err("expected object key");
                }
                String k = string();
                ws();
                if (i >= s.length() || s.charAt(i) != ':') {
                    throw err("expected ':'");
                }
                i++;
                ws();
                if (m.containsKey(k)) {
                    throw err("duplicate key " + k);
                }
                m.put(k, value());
                ws();
                if (i >= s.length()) {
                    throw err("unterminated object");
                }
                char c = s.charAt(i++);
                if (c == '}') {
                    return m;
                }
                if (c != ',') {
                    throw err("expected ',' or '}'");
                }
            }
        }

        private List<Object> array() {
            List<Object> l = new ArrayList<>();
            i++;
            ws();
            if (i < s.length() && s.charAt(i) == ']') {
                i++;
                return l;
            }
            while (true) {
                ws();
                l.add(value());
                ws();
                if (i >= s.length()) {
                    throw err("unterminated array");
                }
                char c = s.charAt(i++);
                if (c == ']') {
                    return l;
                }
                if (c != ',') {
                    throw err("expected ',' or ']'");
                }
            }
        }

        private String string() {
            StringBuilder sb = new StringBuilder();
            i++;
            while (true) {
                if (i >= s.length()) {
                    throw err("unterminated string");
                }
                char c = s.charAt(i++);
                if (c == '"') {
                    return sb.toString();
                }
                if (c == '\\') {
                    if (i >= s.length()) {
                        throw err("bad escape");
                    }
                    char e = s.charAt(i++);
                    switch (e) {
                        case '"':
                        case '\\':
                        case '/':
                            sb.append(e);
                            break;
                        case 'b':
                            sb.append('\b');
                            break;
                        case 'f':
                            sb.append('\f');
                            break;
                        case 'n':
                            sb.append('\n');
                            break;
                        case 'r':
                            sb.append('\r');
                            break;
                        case 't':
                            sb.append('\t');
                            break;
                        case 'u':
                            if (i + 4 > s.length()) {
                                throw err("bad \\u escape");
                            }
                            sb.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                            i += 4;
                            break;
                        default:
                            throw err("bad escape \\" + e);
                    }
                } else if (c < 0x20) {
                    throw err("control character in string");
                } else {
                    sb.append(c);
                }
            }
        }

        private Object number() {
            int start = i;
            if (s.charAt(i) == '-') {
                i++;
            }
            boolean integral = true;
            while (i < s.length()) {
                char c = s.charAt(i);
                if (c >= '0' && c <= '9') {
                    i++;
                } else if (c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
                    integral = false;
                    i++;
                } else {
                    break;
                }
            }
            String t = s.substring(start, i);
            try {
                return integral ? new BigInteger(t) : new BigDecimal(t);
            } catch (NumberFormatException e) {
                throw err("bad number " + t);
            }
        }

        static String write(Object v) {
            StringBuilder sb = new StringBuilder();
            write(sb, v);
            return sb.toString();
        }

        @SuppressWarnings("unchecked")
        private static void write(StringBuilder sb, Object v) {
            if (v == null) {
                sb.append("null");
            } else if (v instanceof Boolean) {
                sb.append(((Boolean) v) ? "true" : "false");
            } else if (v instanceof BigDecimal) {
                sb.append(((BigDecimal) v).toString());
            } else if (v instanceof Number) {
                sb.append(v.toString());
            } else if (v instanceof String) {
                writeString(sb, (String) v);
            } else if (v instanceof Raw) {
                sb.append(((Raw) v).text);
            } else if (v instanceof Map) {
                sb.append('{');
                boolean first = true;
                for (Map.Entry<String, Object> e : ((Map<String, Object>) v).entrySet()) {
                    if (!first) {
                        sb.append(',');
                    }
                    first = false;
                    writeString(sb, e.getKey());
                    sb.append(':');
                    write(sb, e.getValue());
                }
                sb.append('}');
            } else if (v instanceof List) {
                sb.append('[');
                boolean first = true;
                for (Object o : (List<Object>) v) {
                    if (!first) {
                        sb.append(',');
                    }
                    first = false;
                    write(sb, o);
                }
                sb.append(']');
            } else {
                throw new IllegalArgumentException("cannot write " + v.getClass() + " as JSON");
            }
        }

        private static void writeString(StringBuilder sb, String s) {
            sb.append('"');
            for (int k = 0; k < s.length(); k++) {
                char c = s.charAt(k);
                switch (c) {
                    case '"':
                        sb.append("\\\"");
                        break;
                    case '\\':
                        sb.append("\\\\");
                        break;
                    case '\n':
                        sb.append("\\n");
                        break;
                    case '\r':
                        sb.append("\\r");
                        break;
                    case '\t':
                        sb.append("\\t");
                        break;
                    default:
                        if (c < 0x20) {
                            sb.append(String.format("\\u%04x", (int) c));
                        } else if (Character.isHighSurrogate(c)
                                && k + 1 < s.length()
                                && Character.isLowSurrogate(s.charAt(k + 1))) {
                            sb.append(c).append(s.charAt(++k));
                        } else if (Character.isSurrogate(c)) {
                            // A lone surrogate has no UTF-8 form; keep it visible as an escape.
                            sb.append(String.format("\\u%04x", (int) c));
                        } else {
                            sb.append(c);
                        }
                }
            }
            sb.append('"');
        }
    }

    // =============================================================================================
    // small helpers
    // =============================================================================================

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asObject(Object v, String what) {
        if (!(v instanceof Map)) {
            throw new IllegalArgumentException(what + ": expected a JSON object, got " + Json.write(v));
        }
        return (Map<String, Object>) v;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> asList(Object v, String what) {
        if (!(v instanceof List)) {
            throw new IllegalArgumentException(what + ": expected a JSON array, got " + Json.write(v));
        }
        return (List<Object>) v;
    }

    private static String asString(Object v, String what) {
        if (!(v instanceof String)) {
            throw new IllegalArgumentException(what + ": expected a string, got " + Json.write(v));
        }
        return (String) v;
    }

    private static long asLong(Object v, String what) {
        if (v instanceof BigInteger) {
            return ((BigInteger) v).longValueExact();
        }
        if (v instanceof String) {
            return Long.parseLong((String) v);
        }
        throw new IllegalArgumentException(what + ": expected an integer, got " + Json.write(v));
    }

    /** Partition specs: values may be given as strings or plain JSON scalars. */
    private static Map<String, String> stringMap(Object v, String what) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : asObject(v, what).entrySet()) {
            Object x = e.getValue();
            if (x == null) {
                throw new IllegalArgumentException(what + "." + e.getKey() + " is null");
            }
            out.put(e.getKey(), x instanceof String ? (String) x : Json.write(x));
        }
        return out;
    }

    private static void deleteRecursively(Path p) {
        try {
            if (!Files.exists(p)) {
                return;
            }
            try (var walk = Files.walk(p)) {
                walk.sorted(Comparator.reverseOrder())
                        .forEach(
                                x -> {
                                    try {
                                        Files.deleteIfExists(x);
                                    } catch (IOException ignored) {
                                        // best effort cleanup of the spill directory
                                    }
                                });
            }
        } catch (IOException ignored) {
            // best effort
        }
    }
}
