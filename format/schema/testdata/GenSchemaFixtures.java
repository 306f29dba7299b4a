/*
 * Generates the Java-produced golden files of the Go package format/schema.
 * Not part of the Go build. Run from this directory with Java 17 and the
 * Paimon 1.4.2 bundle:
 *
 *   java -cp paimon-bundle-1.4.2.jar GenSchemaFixtures.java
 *
 * Inputs: type_strings.txt, schema_v1.json, schema_v2.json.
 * Outputs: *.golden.jsonl and java_*.json (see README.md).
 */

import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.TableSchema;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.JsonSerdeUtil;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

public class GenSchemaFixtures {

    public static void main(String[] args) throws Exception {
        typeStrings();
        compositeTypes();
        tableSchemas();
        schemas();
        compat("schema_v1.json", "java_schema_v1_reencoded.json");
        compat("schema_v2.json", "java_schema_v2_reencoded.json");
    }

    static void write(String name, String content) throws Exception {
        Files.write(Paths.get(name), content.getBytes(StandardCharsets.UTF_8));
    }

    // One JSON object per input line: {"input", "sql", "json"} or {"input", "error"}.
    static void typeStrings() throws Exception {
        List<String> lines =
                Files.readAllLines(Paths.get("type_strings.txt"), StandardCharsets.UTF_8);
        StringBuilder out = new StringBuilder();
        for (String line : lines) {
            Map<String, Object> rec = new LinkedHashMap<>();
            rec.put("input", line);
            try {
                DataType t =
                        JsonSerdeUtil.fromJson(JsonSerdeUtil.toFlatJson(line), DataType.class);
                rec.put("sql", t.asSQLString());
                rec.put("json", JsonSerdeUtil.toFlatJson(t));
            } catch (Throwable e) {
                Throwable c = e;
                while (c.getCause() != null) {
                    c = c.getCause();
                }
                rec.put("error", c.getClass().getSimpleName() + ": " + c.getMessage());
            }
            out.append(JsonSerdeUtil.toFlatJson(rec)).append('\n');
        }
        write("type_strings.golden.jsonl", out.toString());
    }

    static List<DataType> composites() {
        List<DataType> ts = new ArrayList<>();
        ts.add(DataTypes.ARRAY(DataTypes.INT()));
        ts.add(DataTypes.ARRAY(DataTypes.INT().notNull()).notNull());
        ts.add(DataTypes.ARRAY(DataTypes.ARRAY(DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(3))));
        ts.add(DataTypes.MULTISET(DataTypes.STRING()));
        ts.add(DataTypes.MULTISET(DataTypes.DECIMAL(10, 2).notNull()).notNull());
        ts.add(DataTypes.MAP(DataTypes.VARCHAR(20), DataTypes.INT().notNull()).notNull());
        ts.add(DataTypes.MAP(DataTypes.STRING().notNull(), DataTypes.MAP(DataTypes.INT(), DataTypes.BYTES())));
        ts.add(DataTypes.VECTOR(3, DataTypes.FLOAT()));
        ts.add(DataTypes.VECTOR(7, DataTypes.BOOLEAN().notNull()).notNull());
        ts.add(DataTypes.ARRAY(DataTypes.VECTOR(2, DataTypes.DOUBLE())));
        ts.add(new RowType(Collections.emptyList()));
        ts.add(new RowType(false, Collections.emptyList()));
        ts.add(
                DataTypes.ROW(
                        DataTypes.FIELD(0, "a", DataTypes.INT().notNull()),
                        DataTypes.FIELD(1, "b`c", DataTypes.STRING(), "Someone's desc."),
                        new DataField(2, "d", DataTypes.BIGINT(), null, "42"),
                        new DataField(3, "e", DataTypes.STRING(), "", "'x'"),
                        DataTypes.FIELD(
                                4,
                                "f",
                                DataTypes.ROW(
                                        DataTypes.FIELD(5, "g", DataTypes.DATE()),
                                        DataTypes.FIELD(
                                                6,
                                                "h",
                                                DataTypes.ARRAY(
                                                        DataTypes.ROW(
                                                                DataTypes.FIELD(7, "i", DataTypes.TIME(3)))))))));
        ts.add(
                DataTypes.ROW(
                                DataTypes.FIELD(
                                        10,
                                        "名字 \"quoted\" \\ back",
                                        DataTypes.VARCHAR(5),
                                        "line1\nline2\ttab \u0001 ctl \u007f del é"),
                                DataTypes.FIELD(11, "m", DataTypes.MULTISET(DataTypes.VARIANT())),
                                DataTypes.FIELD(12, "bl", DataTypes.BLOB().notNull()))
                        .notNull());
        return ts;
    }

    // One JSON object per type: {"sql", "json", "pretty"}.
    static void compositeTypes() throws Exception {
        StringBuilder out = new StringBuilder();
        for (DataType t : composites()) {
            Map<String, Object> rec = new LinkedHashMap<>();
            rec.put("sql", t.asSQLString());
            rec.put("json", JsonSerdeUtil.toFlatJson(t));
            rec.put("pretty", JsonSerdeUtil.toJson(t));
            out.append(JsonSerdeUtil.toFlatJson(rec)).append('\n');
        }
        write("composite_types.golden.jsonl", out.toString());
    }

    static void tableSchemas() throws Exception {
        // Every type, keys, several options (LinkedHashMap keeps this order),
        // a comment.
        List<DataField> fields = new ArrayList<>();
        int id = 0;
        DataType[] types = {
            DataTypes.BIGINT().notNull(), DataTypes.STRING().notNull(), DataTypes.BOOLEAN(),
            DataTypes.TINYINT(), DataTypes.SMALLINT(), DataTypes.INT(), DataTypes.FLOAT(),
            DataTypes.DOUBLE(), DataTypes.DECIMAL(38, 10), DataTypes.CHAR(3),
            DataTypes.VARCHAR(30), DataTypes.BINARY(16), DataTypes.VARBINARY(64),
            DataTypes.BYTES(), DataTypes.DATE(), DataTypes.TIME(), DataTypes.TIMESTAMP(3),
            DataTypes.TIMESTAMP(9), DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(6),
            DataTypes.VARIANT(),
        };
        for (DataType t : types) {
            fields.add(new DataField(id, "c" + id, t));
            id++;
        }
        fields.add(new DataField(id++, "arr", DataTypes.ARRAY(DataTypes.STRING()), "an array"));
        fields.add(
                new DataField(
                        id++, "m", DataTypes.MAP(DataTypes.STRING().notNull(), DataTypes.INT())));
        fields.add(
                new DataField(
                        id++,
                        "r",
                        DataTypes.ROW(
                                DataTypes.FIELD(30, "x", DataTypes.INT()),
                                DataTypes.FIELD(
                                        31,
                                        "y",
                                        DataTypes.ROW(DataTypes.FIELD(32, "p", DataTypes.INT()))))));
        fields.add(new DataField(id++, "ms", DataTypes.MULTISET(DataTypes.INT())));
        fields.add(new DataField(id, "v", DataTypes.VECTOR(4, DataTypes.FLOAT()), null, "null"));
        Map<String, String> options = new LinkedHashMap<>();
        options.put("bucket", "4");
        options.put("bucket-key", "c1");
        options.put("file.format", "parquet");
        options.put("merge-engine", "deduplicate");
        options.put("path.with \"quote\"", "v\\1");
        TableSchema s =
                new TableSchema(
                        3,
                        7,
                        fields,
                        40,
                        Collections.singletonList("c2"),
                        Arrays.asList("c0", "c1", "c2"),
                        options,
                        "table comment",
                        1720496663041L);
        write("java_schema_all_types.json", JsonSerdeUtil.toJson(s));

        TableSchema empty =
                new TableSchema(
                        3,
                        0,
                        Collections.emptyList(),
                        -1,
                        Collections.emptyList(),
                        Collections.emptyList(),
                        new LinkedHashMap<>(),
                        null,
                        0L);
        write("java_schema_empty.json", JsonSerdeUtil.toJson(empty));
    }

    static void schemas() throws Exception {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("primary-key", "id, dt");
        options.put("partition", "dt");
        options.put("bucket", "2");
        Schema s =
                new Schema(
                        Arrays.asList(
                                new DataField(0, "id", DataTypes.INT()),
                                new DataField(1, "dt", DataTypes.STRING()),
                                new DataField(
                                        2,
                                        "payload",
                                        DataTypes.ROW(DataTypes.FIELD(3, "x", DataTypes.DOUBLE())),
                                        "desc")),
                        Collections.emptyList(),
                        Collections.emptyList(),
                        options,
                        "c");
        write("java_create_schema.json", JsonSerdeUtil.toJson(s));
        Schema built =
                Schema.newBuilder()
                        .column("a", DataTypes.INT())
                        .column(
                                "b",
                                DataTypes.ROW(
                                        DataTypes.FIELD(0, "x", DataTypes.INT()),
                                        DataTypes.FIELD(
                                                0,
                                                "y",
                                                DataTypes.ROW(
                                                        DataTypes.FIELD(0, "p", DataTypes.INT())))))
                        .column(
                                "c",
                                DataTypes.MAP(
                                        DataTypes.INT(),
                                        DataTypes.ROW(DataTypes.FIELD(0, "q", DataTypes.INT()))))
                        .primaryKey("a")
                        .build();
        write("java_built_schema.json", JsonSerdeUtil.toJson(built));
        write(
                "java_built_table_schema.json",
                JsonSerdeUtil.toJson(
                        new TableSchema(
                                3,
                                0,
                                built.fields(),
                                RowType.currentHighestFieldId(built.fields()),
                                built.partitionKeys(),
                                built.primaryKeys(),
                                built.options(),
                                built.comment(),
                                5L)));
    }

    static void compat(String in, String out) throws Exception {
        String json = new String(Files.readAllBytes(Paths.get(in)), StandardCharsets.UTF_8);
        TableSchema s = JsonSerdeUtil.fromJson(json, TableSchema.class);
        write(out, JsonSerdeUtil.toJson(s));
    }
}
