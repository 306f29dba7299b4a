# Generates the scenario plans of interop/plans (python3 interop/plans/gen_plans.py). Edit here, not the JSON.
import json, os
OUT = os.path.dirname(os.path.abspath(__file__))  # writes the plans next to this script

def F(i, name, typ): return {"id": i, "name": name, "type": typ}
def dump(name, plan):
    lines = ["{"]
    lines.append(' "db": %s, "table": %s,' % (json.dumps(plan["db"]), json.dumps(plan["table"])))
    if plan.get("dumps"):
        lines.append(' "dumps": [')
        lines.append(",\n".join("  " + json.dumps(d, ensure_ascii=False) for d in plan["dumps"]))
        lines.append(' ],')
    s = plan["schema"]
    lines.append(' "schema": {')
    lines.append('  "fields": [')
    lines.append(",\n".join("   " + json.dumps(f, ensure_ascii=False) for f in s["fields"]))
    lines.append('  ],')
    lines.append('  "partitionKeys": %s, "primaryKeys": %s,' % (json.dumps(s.get("partitionKeys", [])), json.dumps(s.get("primaryKeys", []))))
    lines.append('  "options": %s,' % json.dumps(s.get("options", {}), ensure_ascii=False))
    lines.append('  "comment": %s' % json.dumps(s.get("comment")))
    lines.append(' },')
    if plan.get("versions"):
        lines.append(' "versions": %s,' % json.dumps(plan["versions"]))
    if plan.get("skipMeta"):
        lines.append(' "skipMeta": %s,' % json.dumps(plan["skipMeta"]))
    lines.append(' "ops": [')
    lines.append(",\n".join("  " + json.dumps(o, ensure_ascii=False) for o in plan["ops"]))
    lines.append(' ]')
    lines.append('}')
    txt = "\n".join(lines) + "\n"
    json.loads(txt)
    with open(os.path.join(OUT, name + ".json"), "w") as f:
        f.write(txt)

def plan(table, fields, ops, pk=(), part=(), options=None, comment=None, dumps=None, skip_meta=None):
    # dumps: extra reads recorded as dump-<name>.jsonl (see DumpSpec in interop/golden_update_test.go)
    return {"db": "interop", "table": table,
            "schema": {"fields": fields, "partitionKeys": list(part), "primaryKeys": list(pk),
                       "options": options or {}, "comment": comment},
            "ops": ops, "dumps": dumps or [], "skipMeta": skip_meta or []}

def W(rows, kinds=None):
    o = {"op": "write", "rows": rows}
    if kinds: o["kinds"] = kinds
    return o

f64 = lambda x: "f64:" + __import__("struct").pack(">d", x).hex()
f32 = lambda x: "f32:" + __import__("struct").pack(">f", x).hex()

# ---------------------------------------------------------------- append tables
dump("append-unpartitioned", plan("append_unpartitioned",
    [F(0, "id", "INT NOT NULL"), F(1, "name", "STRING"), F(2, "score", "DOUBLE")],
    [{"op": "create"},
     W([{"id": 1, "name": "a", "score": f64(1.5)}, {"id": 2, "name": None, "score": "f64:nan"}, {"id": 3, "name": "ü😀"}]),
     W([{"id": 4, "name": "d", "score": f64(-0.0)}, {"id": 1, "name": "dup", "score": f64(float("inf"))}]),
     W([{"id": 5, "name": ""}]),
     {"op": "compact"},
     W([{"id": 6, "name": "after-compact", "score": f64(2.0)}])],
    options={"file.format": "parquet", "compaction.min.file-num": "2"}))

dump("append-partitioned-orc", plan("append_partitioned_orc",
    [F(0, "dt", "STRING NOT NULL"), F(1, "id", "BIGINT"), F(2, "v", "DECIMAL(10, 2)"), F(3, "tags", {"type": "ARRAY", "element": "STRING"})],
    [{"op": "create"},
     W([{"dt": "2024-01-01", "id": 1, "v": "1.50", "tags": ["x", None]}, {"dt": "2024-01-02", "id": 2, "v": "-0.01", "tags": []}]),
     W([{"dt": "2024-01-01", "id": 3, "v": "99999999.99"}, {"dt": "2024-01-03", "id": 4, "v": "0.00", "tags": ["y"]}]),
     W([{"dt": "2024-01-01", "id": 5, "v": "-12.30"}]),
     {"op": "compact"},
     W([{"dt": "2024-01-02", "id": 6}])],
    part=["dt"], options={"file.format": "orc", "compaction.min.file-num": "2"}))

dump("append-partitioned-avro", plan("append_partitioned_avro",
    [F(0, "dt", "DATE NOT NULL"), F(1, "hr", "INT NOT NULL"), F(2, "msg", "VARCHAR(20)"), F(3, "ts", "TIMESTAMP(3)"), F(4, "raw", "BYTES")],
    [{"op": "create"},
     W([{"dt": "2024-03-01", "hr": 0, "msg": "m0", "ts": "2024-03-01T00:00:00.001000000", "raw": "00ff"},
        {"dt": "2024-03-01", "hr": 23, "msg": "m1", "ts": "2024-03-01T23:59:59.999000000", "raw": ""}]),
     W([{"dt": "2024-03-02", "hr": 5, "msg": "ñ", "ts": "1969-12-31T23:59:59.999000000"}]),
     W([{"dt": "2024-03-01", "hr": 0, "msg": None, "raw": "deadbeef"}]),
     {"op": "compact"}],
    part=["dt", "hr"], options={"file.format": "avro", "compaction.min.file-num": "2"}))

dump("append-fixed-bucket", plan("append_fixed_bucket",
    [F(0, "k", "STRING NOT NULL"), F(1, "n", "INT"), F(2, "d", "DOUBLE")],
    [{"op": "create"},
     W([{"k": "a", "n": 1, "d": f64(0.5)}, {"k": "b", "n": 2}, {"k": "c", "n": 3}, {"k": "a", "n": 4}]),
     W([{"k": "d", "n": 5}, {"k": "e", "n": 6}, {"k": "b", "n": 7, "d": f64(-1.0)}]),
     W([{"k": "f", "n": 8}, {"k": "", "n": 9}]),
     {"op": "compact"},
     W([{"k": "g", "n": 10}])],
    options={"bucket": "3", "bucket-key": "k", "file.format": "parquet"}))

# ---------------------------------------------------------------- primary-key tables
dump("pk-dedup", plan("pk_dedup",
    [F(0, "dt", "STRING NOT NULL"), F(1, "id", "INT NOT NULL"), F(2, "name", "STRING"), F(3, "amount", "DECIMAL(12, 3)"), F(4, "ts", "TIMESTAMP(6)")],
    [{"op": "create"},
     W([{"dt": "d1", "id": 1, "name": "a", "amount": "1.000", "ts": "2024-05-01T10:00:00.123456000"},
        {"dt": "d1", "id": 2, "name": "b", "amount": "2.500"},
        {"dt": "d2", "id": 1, "name": "c", "amount": "-3.125"},
        {"dt": "d2", "id": 3, "name": "d"}]),
     W([{"dt": "d1", "id": 2, "name": "b", "amount": "2.500"}, {"dt": "d1", "id": 2, "name": "b2", "amount": "2.750"},
        {"dt": "d2", "id": 3, "name": "d"}, {"dt": "d1", "id": 4, "name": "e"}],
       ["-U", "+U", "-D", "+I"]),
     W([{"dt": "d1", "id": 1, "name": "a-new", "amount": "10.000"}, {"dt": "d2", "id": 5, "name": "f"}]),
     {"op": "compact"},
     W([{"dt": "d2", "id": 1}, {"dt": "d1", "id": 6, "name": "g"}], ["-D", "+I"])],
    pk=["dt", "id"], part=["dt"], options={"bucket": "2", "file.format": "parquet"}))

dump("pk-dedup-avro", plan("pk_dedup_avro",
    [F(0, "id", "BIGINT NOT NULL"), F(1, "v", "STRING"), F(2, "f", "FLOAT")],
    [{"op": "create"},
     W([{"id": i, "v": "v%d" % i, "f": f32(i / 2)} for i in range(1, 9)]),
     W([{"id": 3}, {"id": 4, "v": "v4b"}, {"id": 100, "v": "new"}], ["-D", "+U", "+I"]),
     {"op": "compact"},
     W([{"id": 5, "v": "v5c", "f": "f32:nan"}, {"id": 1}], ["+I", "-D"])],
    pk=["id"], options={"bucket": "2", "file.format": "avro"}))

dump("pk-dedup-orc", plan("pk_dedup_orc",
    [F(0, "k1", "INT NOT NULL"), F(1, "k2", "STRING NOT NULL"), F(2, "v", "BIGINT"), F(3, "d", "DATE")],
    [{"op": "create"},
     W([{"k1": 1, "k2": "a", "v": 10, "d": "2020-02-29"}, {"k1": 1, "k2": "b", "v": 11}, {"k1": 2, "k2": "a", "v": 12}]),
     W([{"k1": 1, "k2": "a", "v": 20}, {"k1": 2, "k2": "a"}], ["+U", "-D"]),
     {"op": "compact"},
     W([{"k1": 3, "k2": "", "v": -1, "d": "1970-01-01"}])],
    pk=["k1", "k2"], options={"bucket": "2", "file.format": "orc"}))

dump("pk-partial-update", plan("pk_partial_update",
    [F(0, "id", "INT NOT NULL"), F(1, "a", "STRING"), F(2, "b", "INT"), F(3, "c", "DOUBLE")],
    [{"op": "create"},
     W([{"id": 1, "a": "a1"}, {"id": 2, "b": 20}, {"id": 3, "a": "a3", "b": 30, "c": f64(3.0)}]),
     W([{"id": 1, "b": 10}, {"id": 2, "a": "a2", "c": f64(2.0)}, {"id": 3, "b": 31}]),
     W([{"id": 1, "c": f64(1.0)}, {"id": 4, "a": "a4"}]),
     {"op": "compact"},
     W([{"id": 4, "b": 40}, {"id": 1, "a": "a1-new"}])],
    pk=["id"], options={"bucket": "2", "merge-engine": "partial-update", "file.format": "parquet"}))

dump("pk-aggregation", plan("pk_aggregation",
    [F(0, "id", "INT NOT NULL"), F(1, "total", "BIGINT"), F(2, "mx", "INT"), F(3, "last", "STRING"), F(4, "names", "STRING")],
    [{"op": "create"},
     W([{"id": 1, "total": 5, "mx": 3, "last": "x", "names": "a"}, {"id": 2, "total": 1, "mx": -1, "names": "p"}]),
     W([{"id": 1, "total": 7, "mx": 2, "last": None, "names": "b"}, {"id": 2, "total": 10, "mx": 9, "last": "y"}]),
     W([{"id": 1, "total": 100, "mx": 50, "last": "z", "names": "c"}, {"id": 3, "total": 0}]),
     {"op": "compact"},
     W([{"id": 1, "total": 2, "mx": 1, "last": None, "names": None}, {"id": 3, "total": 4, "mx": 4, "names": "q"}])],
    pk=["id"], options={"bucket": "1", "merge-engine": "aggregation",
                        "fields.total.aggregate-function": "sum", "fields.mx.aggregate-function": "max",
                        "fields.last.aggregate-function": "last_non_null_value",
                        "fields.names.aggregate-function": "listagg", "file.format": "parquet"}))

# Aggregation with changelog-producer = lookup: Java's writer compacts level 0 into a level below the highest
# with lookups (LookupMergeTreeCompactRewriter), writing the sums folded with the value it looked up while the
# level above keeps the older sum, so a reader must merge as LookupMergeFunction does (level 0 and the lowest
# level above it only); summing every level would count the older values twice.
dump("pk-aggregation-lookup", plan("pk_aggregation_lookup",
    [F(0, "id", "INT NOT NULL"), F(1, "total", "BIGINT"), F(2, "mx", "INT")],
    [{"op": "create"},
     W([{"id": 1, "total": 10, "mx": 3}, {"id": 2, "total": 7, "mx": 1}, {"id": 3, "total": 1, "mx": 1}]),
     {"op": "compact"},
     W([{"id": 1, "total": 5, "mx": 2}, {"id": 2, "total": 2, "mx": 9}]),
     W([{"id": 1, "total": 1, "mx": 8}, {"id": 4, "total": 3, "mx": 3}]),
     W([{"id": 2, "total": 100, "mx": 0}, {"id": 5, "total": 4}])],
    pk=["id"], options={"bucket": "1", "merge-engine": "aggregation", "changelog-producer": "lookup",
                        "fields.total.aggregate-function": "sum", "fields.mx.aggregate-function": "max",
                        "file.format": "parquet"}))

dump("pk-first-row", plan("pk_first_row",
    [F(0, "id", "INT NOT NULL"), F(1, "v", "STRING")],
    [{"op": "create"},
     W([{"id": 1, "v": "first"}, {"id": 2, "v": "first"}]),
     W([{"id": 1, "v": "second"}, {"id": 3, "v": "first"}]),
     {"op": "compact"},
     W([{"id": 2, "v": "third"}, {"id": 4, "v": "first"}])],
    pk=["id"], options={"bucket": "2", "merge-engine": "first-row", "file.format": "parquet"}))

dump("pk-deletion-vectors", plan("pk_deletion_vectors",
    [F(0, "id", "INT NOT NULL"), F(1, "v", "STRING"), F(2, "n", "BIGINT")],
    [{"op": "create"},
     W([{"id": i, "v": "v%d" % i, "n": i * 10} for i in range(1, 7)]),
     W([{"id": 2, "v": "v2b", "n": 21}, {"id": 3}], ["+U", "-D"]),
     {"op": "compact"},
     W([{"id": 4, "v": "v4b", "n": 41}, {"id": 5}, {"id": 7, "v": "v7", "n": 70}], ["+U", "-D", "+I"]),
     W([{"id": 1, "v": "v1b", "n": 11}, {"id": 6}], ["+U", "-D"])],
    pk=["id"], options={"bucket": "2", "deletion-vectors.enabled": "true", "file.format": "parquet"}))

dump("pk-changelog-input", plan("pk_changelog_input",
    [F(0, "id", "INT NOT NULL"), F(1, "v", "STRING")],
    [{"op": "create"},
     W([{"id": 1, "v": "a"}, {"id": 2, "v": "b"}]),
     W([{"id": 1, "v": "a"}, {"id": 1, "v": "a2"}, {"id": 2, "v": "b"}, {"id": 3, "v": "c"}], ["-U", "+U", "-D", "+I"]),
     {"op": "compact"},
     W([{"id": 3, "v": "c2"}], ["+U"])],
    pk=["id"], options={"bucket": "1", "changelog-producer": "input", "file.format": "orc"}))

# ---------------------------------------------------------------- every data type
def all_types_fields():
    return [
        F(0, "id", "INT NOT NULL"),
        F(1, "c_bool", "BOOLEAN"), F(2, "c_tiny", "TINYINT"), F(3, "c_small", "SMALLINT"),
        F(4, "c_int", "INT"), F(5, "c_big", "BIGINT"), F(6, "c_float", "FLOAT"), F(7, "c_double", "DOUBLE"),
        F(8, "c_dec_5_2", "DECIMAL(5, 2)"), F(9, "c_dec_18_4", "DECIMAL(18, 4)"), F(10, "c_dec_38_10", "DECIMAL(38, 10)"),
        F(11, "c_char", "CHAR(5)"), F(12, "c_varchar", "VARCHAR(10)"), F(13, "c_string", "STRING"),
        F(14, "c_binary", "BINARY(4)"), F(15, "c_varbinary", "VARBINARY(8)"), F(16, "c_bytes", "BYTES"),
        F(17, "c_date", "DATE"), F(18, "c_time", "TIME"), F(19, "c_time3", "TIME(3)"),
        F(20, "c_ts0", "TIMESTAMP(0)"), F(21, "c_ts3", "TIMESTAMP(3)"), F(22, "c_ts6", "TIMESTAMP(6)"), F(23, "c_ts9", "TIMESTAMP(9)"),
        F(24, "c_ltz3", "TIMESTAMP(3) WITH LOCAL TIME ZONE"), F(25, "c_ltz6", "TIMESTAMP(6) WITH LOCAL TIME ZONE"),
        F(26, "c_ltz9", "TIMESTAMP(9) WITH LOCAL TIME ZONE"),
        F(27, "c_arr_int", {"type": "ARRAY", "element": "INT"}),
        F(28, "c_arr_str", {"type": "ARRAY", "element": "STRING"}),
        F(29, "c_map", {"type": "MAP", "key": "STRING NOT NULL", "value": "INT"}),
        F(30, "c_map_int_arr", {"type": "MAP", "key": "INT NOT NULL", "value": {"type": "ARRAY", "element": "STRING"}}),
        F(31, "c_multiset", {"type": "MULTISET", "element": "STRING NOT NULL"}),
        F(32, "c_row", {"type": "ROW", "fields": [F(33, "x", "INT"), F(34, "y", "STRING"),
                                                   F(35, "z", {"type": "ROW", "fields": [F(36, "d", "DECIMAL(20, 5)"), F(37, "t", "TIMESTAMP(9)")]})]}),
        F(38, "c_arr_row", {"type": "ARRAY", "element": {"type": "ROW", "fields": [F(39, "a", "BIGINT"), F(40, "b", "DOUBLE")]}}),
        F(41, "c_nn_str", "STRING NOT NULL"),
    ]

ROW_TYPICAL = {
    "id": 1, "c_bool": True, "c_tiny": 12, "c_small": -1234, "c_int": 123456, "c_big": 1234567890123,
    "c_float": f32(1.25), "c_double": f64(-2.5),
    "c_dec_5_2": "123.45", "c_dec_18_4": "-12345678901234.5678", "c_dec_38_10": "1234567890123456789012345678.0123456789",
    "c_char": "ab", "c_varchar": "hello", "c_string": "a longer string value ✓",
    "c_binary": "01020304", "c_varbinary": "cafe", "c_bytes": "00112233445566778899",
    "c_date": "2024-02-29", "c_time": "12:34:56.000", "c_time3": "23:59:59.999",
    "c_ts0": "2024-02-29T12:34:56.000000000", "c_ts3": "2024-02-29T12:34:56.789000000",
    "c_ts6": "2024-02-29T12:34:56.789012000", "c_ts9": "2024-02-29T12:34:56.789012345",
    "c_ltz3": "2024-02-29T12:34:56.789000000Z", "c_ltz6": "2024-02-29T12:34:56.789012000Z", "c_ltz9": "2024-02-29T12:34:56.789012345Z",
    "c_arr_int": [1, None, 3], "c_arr_str": ["a", "", None, "ü"],
    "c_map": [["k1", 1], ["k2", None]], "c_map_int_arr": [[1, ["x", "y"]], [2, None], [3, []]],
    "c_multiset": [["m", 2], ["n", 1]],
    "c_row": {"x": 7, "y": "seven", "z": {"d": "123456789012345.12345", "t": "2000-01-01T00:00:00.000000001"}},
    "c_arr_row": [{"a": 1, "b": f64(0.5)}, None, {"a": None, "b": None}],
    "c_nn_str": "required",
}
ROW_EDGE = {
    "id": 2, "c_bool": False, "c_tiny": -128, "c_small": 32767, "c_int": -2147483648, "c_big": 9223372036854775807,
    "c_float": "f32:nan", "c_double": f64(float("-inf")),
    "c_dec_5_2": "-999.99", "c_dec_18_4": "99999999999999.9999", "c_dec_38_10": "-9999999999999999999999999999.9999999999",
    "c_char": "", "c_varchar": "😀😀", "c_string": "",
    "c_binary": "00000000", "c_varbinary": "", "c_bytes": "",
    "c_date": "1969-12-31", "c_time": "00:00:00.000", "c_time3": "00:00:00.001",
    "c_ts0": "1969-12-31T23:59:59.000000000", "c_ts3": "1969-12-31T23:59:59.999000000",
    "c_ts6": "1900-01-01T00:00:00.000001000", "c_ts9": "1969-12-31T23:59:59.999999999",
    "c_ltz3": "1970-01-01T00:00:00.000000000Z", "c_ltz6": "1969-12-31T23:59:59.999999000Z", "c_ltz9": "2262-04-11T23:47:16.854775807Z",
    "c_arr_int": [], "c_arr_str": [], "c_map": [], "c_map_int_arr": [], "c_multiset": [],
    "c_row": {"x": None, "y": None, "z": None}, "c_arr_row": [],
    "c_nn_str": "edge",
}
ROW_NULLS = {"id": 3, "c_nn_str": ""}
ROW_MIXED = dict(ROW_TYPICAL, id=4, c_int=0, c_big=-1, c_float=f32(-0.0), c_double="f64:nan", c_string="x" * 40,
                 c_ts9="2038-01-19T03:14:07.999999999", c_map=[["z", 26], ["a", 1]], c_row=None)

def avro_fields(fields):
    # Java's Avro format rejects TIMESTAMP precision > 6.
    return json.loads(json.dumps(fields).replace("TIMESTAMP(9)", "TIMESTAMP(6)"))
def avro_row(row):
    r = json.loads(json.dumps(row))
    for k in ("c_ts9", "c_ltz9"):
        if isinstance(r.get(k), str):
            z = r[k].endswith("Z")
            base = r[k].rstrip("Z")
            r[k] = base[:-3] + "000" + ("Z" if z else "")
    if isinstance(r.get("c_row"), dict) and isinstance(r["c_row"].get("z"), dict):
        t = r["c_row"]["z"]["t"]
        r["c_row"]["z"]["t"] = t[:-3] + "000"
    return r
for fmt in ("parquet", "orc", "avro"):
    fields, rows = all_types_fields(), [ROW_TYPICAL, ROW_EDGE, ROW_NULLS, ROW_MIXED]
    if fmt == "avro":
        fields, rows = avro_fields(fields), [avro_row(r) for r in rows]
    dump("all-types-" + fmt, plan("all_types_" + fmt, fields,
        [{"op": "create"},
         W(rows[:2]),
         W(rows[2:3]),
         W(rows[3:])],
        options={"file.format": fmt}))

# PK table whose key uses every type that can be a key (exercises BinaryRow key encoding and bucketing).
KEY_FIELDS = [F(0, "k_bool", "BOOLEAN NOT NULL"), F(1, "k_int", "INT NOT NULL"), F(2, "k_big", "BIGINT NOT NULL"),
              F(3, "k_str", "STRING NOT NULL"), F(4, "k_dec", "DECIMAL(20, 2) NOT NULL"), F(5, "k_ts", "TIMESTAMP(9) NOT NULL"),
              F(6, "k_date", "DATE NOT NULL"), F(7, "k_bin", "BYTES NOT NULL"), F(8, "v", "STRING")]
def krow(i, v, s="k", big=0):
    return {"k_bool": i % 2 == 0, "k_int": i, "k_big": big or i * 1000000007, "k_str": s * (i % 10),
            "k_dec": "%d.%02d" % (i * 1000000000000, i % 100), "k_ts": "2024-01-01T00:00:00.%09d" % (i * 111),
            "k_date": "2024-01-%02d" % (1 + i % 28), "k_bin": "%02x" % i * (i % 12), "v": v}
dump("pk-composite-key", plan("pk_composite_key", KEY_FIELDS,
    [{"op": "create"},
     W([krow(i, "a%d" % i) for i in range(0, 12)]),
     W([krow(3, "b3"), krow(5, None), krow(20, "b20", s="中")], ["+U", "-D", "+I"]),
     {"op": "compact"},
     W([krow(7, "c7")])],
    pk=[f["name"] for f in KEY_FIELDS[:8]], options={"bucket": "4", "file.format": "parquet"}))

# ---------------------------------------------------------------- schema evolution
dump("schema-evolution", plan("schema_evolution",
    [F(0, "id", "INT NOT NULL"), F(1, "a", "INT"), F(2, "b", "STRING"), F(3, "f", "FLOAT"), F(4, "gone", "STRING")],
    [{"op": "create"},
     W([{"id": 1, "a": 10, "b": "one", "f": f32(1.5), "gone": "x"}, {"id": 2, "a": 20, "b": "two", "f": f32(2.5), "gone": "y"}]),
     {"op": "alter", "changes": [{"addColumn": {"name": "c", "type": "STRING", "comment": "added"}}]},
     W([{"id": 3, "a": 30, "b": "three", "c": "c3", "gone": "z"}]),
     {"op": "alter", "changes": [{"dropColumn": "gone"}, {"renameColumn": {"from": "b", "to": "b_renamed"}}]},
     W([{"id": 4, "a": 40, "b_renamed": "four", "c": "c4"}, {"id": 1, "a": 11}], ["+I", "+U"]),
     {"op": "alter", "changes": [{"updateColumnType": {"name": "a", "type": "BIGINT"}}, {"updateColumnType": {"name": "f", "type": "DOUBLE"}},
                                 {"setOption": {"key": "snapshot.num-retained.max", "value": "100"}}]},
     W([{"id": 5, "a": 5000000000, "b_renamed": "five", "f": f64(0.1)}]),
     {"op": "alter", "changes": [{"addColumn": {"name": "gone", "type": "INT", "comment": None}}, {"removeOption": "snapshot.num-retained.max"}]},
     W([{"id": 6, "gone": 66}]),
     {"op": "compact"},
     W([{"id": 7, "a": 7, "b_renamed": "seven", "c": "c7", "gone": 77}])],
    pk=["id"], options={"bucket": "2", "file.format": "parquet"}))

dump("schema-evolution-append", plan("schema_evolution_append",
    [F(0, "id", "INT NOT NULL"), F(1, "small", "SMALLINT"), F(2, "s", "STRING"), F(3, "d", "DECIMAL(10, 2)")],
    [{"op": "create"},
     W([{"id": 1, "small": 1, "s": "a", "d": "1.10"}, {"id": 2, "small": -2, "s": "b", "d": "2.20"}]),
     {"op": "alter", "changes": [{"updateColumnType": {"name": "small", "type": "INT"}}, {"addColumn": {"name": "extra", "type": "DOUBLE", "comment": None}}]},
     W([{"id": 3, "small": 100000, "s": "c", "d": "3.30", "extra": f64(3.0)}]),
     {"op": "alter", "changes": [{"updateColumnType": {"name": "d", "type": "DECIMAL(20, 2)"}}, {"renameColumn": {"from": "s", "to": "s2"}}, {"dropColumn": "extra"}]},
     W([{"id": 4, "small": 4, "s2": "d", "d": "123456789012345.67"}]),
     {"op": "compact"}],
    options={"file.format": "orc", "compaction.min.file-num": "2"}))

# Schema evolution read across formats, without compaction, so the latest snapshot still holds files of every
# schema: widening (SMALLINT->INT->BIGINT, FLOAT->DOUBLE, DECIMAL precision, TIMESTAMP precision), INT->STRING,
# STRING->INT, rename, drop and add, partitioned so that pruning meets evolved partitions too.
for fmt in ("parquet", "avro"):
    dump("schema-evolution-append-" + fmt, plan("schema_evolution_append_" + fmt,
        [F(0, "id", "INT NOT NULL"), F(1, "part", "STRING"), F(2, "small", "SMALLINT"), F(3, "s", "STRING"),
         F(4, "d", "DECIMAL(10, 2)"), F(5, "f", "FLOAT"), F(6, "n", "INT"), F(7, "txt", "STRING"), F(8, "ts", "TIMESTAMP(3)")],
        [{"op": "create"},
         W([{"id": 1, "part": "p1", "small": 1, "s": "a", "d": "1.10", "f": f32(1.5), "n": 10, "txt": "12", "ts": "2024-01-01T00:00:00.123000000"},
            {"id": 2, "part": "p2", "small": -2, "s": None, "d": "-2.20", "f": None, "n": -7, "txt": "34", "ts": None},
            {"id": 3, "part": "p1", "small": None, "s": "c", "d": None, "f": f32(-0.25), "n": None, "txt": None, "ts": "1969-12-31T23:59:59.999000000"}]),
         {"op": "alter", "changes": [{"updateColumnType": {"name": "small", "type": "INT"}}, {"updateColumnType": {"name": "f", "type": "DOUBLE"}},
                                     {"updateColumnType": {"name": "n", "type": "STRING"}}, {"addColumn": {"name": "extra", "type": "DOUBLE", "comment": None}}]},
         W([{"id": 4, "part": "p2", "small": 100000, "s": "d", "d": "4.40", "f": f64(0.1), "n": "x", "txt": "56", "ts": "2024-06-01T12:00:00.000000000", "extra": f64(3.0)},
            {"id": 5, "part": "p3", "small": 5, "s": "e", "d": "5.55", "f": None, "n": "55", "txt": "78", "ts": None, "extra": None}]),
         {"op": "alter", "changes": [{"updateColumnType": {"name": "d", "type": "DECIMAL(20, 2)"}}, {"renameColumn": {"from": "s", "to": "s2"}},
                                     {"dropColumn": "extra"}, {"updateColumnType": {"name": "small", "type": "BIGINT"}},
                                     {"updateColumnType": {"name": "txt", "type": "INT"}}, {"updateColumnType": {"name": "ts", "type": "TIMESTAMP(6)"}},
                                     {"addColumn": {"name": "added", "type": "STRING", "comment": None}}]},
         W([{"id": 6, "part": "p1", "small": 9000000000, "s2": "f", "d": "123456789012345.67", "f": f64(2.5), "n": "66", "txt": 90, "ts": "2024-07-01T00:00:00.123456000", "added": "new"}])],
        part=["part"], options={"file.format": fmt}))

# ---------------------------------------------------------------- tags, expire, rollback
dump("tag-expire", plan("tag_expire",
    [F(0, "id", "INT NOT NULL"), F(1, "v", "STRING")],
    [{"op": "create"},
     W([{"id": 1, "v": "s1"}, {"id": 2, "v": "s1"}]),
     {"op": "tag", "name": "t1"},
     W([{"id": 1, "v": "s2"}, {"id": 3, "v": "s2"}]),
     W([{"id": 2}], ["-D"]),
     {"op": "tag", "name": "t2", "snapshot": 2},
     {"op": "tag", "name": "t3"},
     {"op": "compact"},
     W([{"id": 4, "v": "s5"}]),
     {"op": "deleteTag", "name": "t3"},
     {"op": "expire", "retainMax": 1, "retainMin": 1}],
    pk=["id"], options={"bucket": "1", "file.format": "parquet"}))

dump("rollback", plan("rollback",
    [F(0, "dt", "STRING NOT NULL"), F(1, "id", "INT NOT NULL"), F(2, "v", "STRING")],
    [{"op": "create"},
     W([{"dt": "a", "id": 1, "v": "s1"}]),
     W([{"dt": "a", "id": 2, "v": "s2"}]),
     {"op": "tag", "name": "keep", "snapshot": 2},
     W([{"dt": "b", "id": 3, "v": "s3"}]),
     W([{"dt": "b", "id": 4, "v": "s4"}]),
     {"op": "rollback", "snapshot": 3},
     W([{"dt": "c", "id": 5, "v": "after-rollback-1"}]),
     {"op": "rollback", "tag": "keep"},
     W([{"dt": "c", "id": 6, "v": "after-rollback-2"}])],
    part=["dt"], options={"file.format": "avro"}))

# ---------------------------------------------------------------- overwrite, drop partition
dump("overwrite-partition", plan("overwrite_partition",
    [F(0, "dt", "STRING NOT NULL"), F(1, "id", "INT NOT NULL"), F(2, "v", "STRING")],
    [{"op": "create"},
     W([{"dt": "2024-01-01", "id": 1, "v": "old"}, {"dt": "2024-01-01", "id": 2, "v": "old"},
        {"dt": "2024-01-02", "id": 3, "v": "old"}, {"dt": "2024-01-03", "id": 4, "v": "old"}]),
     {"op": "overwrite", "partition": {"dt": "2024-01-01"}, "rows": [{"dt": "2024-01-01", "id": 10, "v": "static"}]},
     {"op": "overwrite", "rows": [{"dt": "2024-01-02", "id": 20, "v": "dynamic"}, {"dt": "2024-01-05", "id": 50, "v": "dynamic"}]},
     W([{"dt": "2024-01-03", "id": 5, "v": "append"}])],
    part=["dt"], options={"file.format": "parquet"}))

dump("overwrite-pk", plan("overwrite_pk",
    [F(0, "dt", "INT NOT NULL"), F(1, "id", "INT NOT NULL"), F(2, "v", "STRING")],
    [{"op": "create"},
     W([{"dt": 1, "id": 1, "v": "a"}, {"dt": 1, "id": 2, "v": "b"}, {"dt": 2, "id": 1, "v": "c"}]),
     {"op": "overwrite", "partition": {"dt": "1"}, "rows": [{"dt": 1, "id": 2, "v": "b-over"}, {"dt": 1, "id": 3, "v": "new"}]},
     W([{"dt": 2, "id": 2, "v": "d"}]),
     {"op": "overwrite", "partition": {"dt": "2"}, "rows": []}],
    pk=["dt", "id"], part=["dt"], options={"bucket": "2", "file.format": "orc"}))

dump("drop-partition", plan("drop_partition",
    [F(0, "region", "STRING NOT NULL"), F(1, "dt", "DATE NOT NULL"), F(2, "id", "INT NOT NULL"), F(3, "v", "DOUBLE")],
    [{"op": "create"},
     W([{"region": "eu", "dt": "2024-01-01", "id": 1, "v": f64(1)}, {"region": "eu", "dt": "2024-01-02", "id": 2, "v": f64(2)},
        {"region": "us", "dt": "2024-01-01", "id": 3, "v": f64(3)}]),
     W([{"region": "us", "dt": "2024-01-02", "id": 4, "v": f64(4)}, {"region": "eu", "dt": "2024-01-01", "id": 5}]),
     {"op": "dropPartition", "partition": {"region": "eu", "dt": "2024-01-01"}},
     W([{"region": "eu", "dt": "2024-01-03", "id": 6, "v": f64(6)}]),
     {"op": "dropPartition", "partition": {"region": "us"}}],
    pk=["region", "dt", "id"], part=["region", "dt"], options={"bucket": "1", "file.format": "parquet"}))

for producer in ("lookup", "full-compaction"):
    name = "pk-changelog-" + producer
    dump(name, plan(name.replace("-", "_"),
        [F(0, "id", "INT NOT NULL"), F(1, "v", "STRING"), F(2, "n", "INT")],
        [{"op": "create"},
         W([{"id": 1, "v": "a", "n": 1}, {"id": 2, "v": "b", "n": 2}, {"id": 3, "v": "c", "n": 3}]),
         W([{"id": 1, "v": "a2", "n": 10}, {"id": 2}, {"id": 4, "v": "d", "n": 4}], ["+U", "-D", "+I"]),
         {"op": "compact"},
         W([{"id": 3, "v": "c2", "n": 30}, {"id": 5, "v": "e", "n": 5}]),
         {"op": "compact"}],
        pk=["id"], options={"bucket": "2", "changelog-producer": producer, "file.format": "parquet"}))

# ---------------------------------------------------------------- row tracking, data evolution (issue 16)
def WC(cols, first, rows):
    # a partial-column write: the files get first row id `first` (Java DataEvolutionTableTest)
    return {"op": "writeColumns", "cols": cols, "firstRowId": first, "rows": rows}

dump("row-tracking", plan("row_tracking",
    [F(0, "dt", "STRING NOT NULL"), F(1, "id", "INT"), F(2, "name", "STRING")],
    [{"op": "create"},
     W([{"dt": "d1", "id": 1, "name": "a"}, {"dt": "d1", "id": 2, "name": "b"}, {"dt": "d2", "id": 3}]),
     W([{"dt": "d1", "id": 4, "name": "d"}, {"dt": "d2", "id": 5, "name": "e"}]),
     {"op": "compact"},
     W([{"dt": "d2", "id": 6, "name": "f"}]),
     {"op": "alter", "changes": [{"addColumn": {"name": "score", "type": "DOUBLE"}}]},
     W([{"dt": "d1", "id": 7, "name": "g", "score": f64(7.5)}]),
     {"op": "tag", "name": "t5"}],
    part=["dt"], options={"row-tracking.enabled": "true", "compaction.min.file-num": "2", "file.format": "parquet"},
    dumps=[{"name": "rt", "system": "row_tracking"},
           {"name": "rt-cols", "system": "row_tracking", "cols": ["_SEQUENCE_NUMBER", "id", "_ROW_ID"]},
           {"name": "rt-snapshot-2", "system": "row_tracking", "snapshot": 2},
           {"name": "rt-tag", "system": "row_tracking", "tag": "t5"},
           {"name": "rt-filter", "system": "row_tracking", "filter": "id >= 4"},
           {"name": "rt-filter-dt", "system": "row_tracking", "filter": "dt = \"d2\""},
           {"name": "inc-1-2", "incremental": "1,2"},
           {"name": "inc-2-5", "incremental": "2,5"}]))

dump("data-evolution", plan("data_evolution",
    [F(0, "id", "INT"), F(1, "name", "STRING"), F(2, "score", "DOUBLE")],
    [{"op": "create"},
     W([{"id": 1, "name": "a", "score": f64(1)}, {"id": 2, "name": "b", "score": f64(2)}, {"id": 3, "name": "c"}]),
     WC(["name"], 0, [{"name": "A"}, {"name": "B"}, {"name": None}]),
     W([{"id": 4, "name": "d", "score": f64(4)}]),
     WC(["score", "id"], 0, [{"id": 10, "score": f64(10)}, {"id": 20, "score": f64(20)}, {"id": 30, "score": f64(30)}]),
     WC(["name"], 3, [{"name": "D"}]),
     {"op": "tag", "name": "before-compact"},
     {"op": "compact"},
     W([{"id": 5, "name": "e", "score": f64(5)}, {"id": 6, "name": "f"}]),
     {"op": "alter", "changes": [{"addColumn": {"name": "extra", "type": "STRING"}}]},
     WC(["extra"], 4, [{"extra": "x5"}, {"extra": None}]),
     WC(["name", "extra"], 4, [{"name": "E", "extra": "y5"}, {"name": "F", "extra": "y6"}]),
     W([{"id": 7, "name": "g", "score": f64(7), "extra": "x7"}])],
    options={"row-tracking.enabled": "true", "data-evolution.enabled": "true", "compaction.min.file-num": "2",
             "file.format": "parquet"},
    dumps=[{"name": "rt", "system": "row_tracking"},
           {"name": "cols-name", "cols": ["name"]},
           {"name": "cols-score-id", "cols": ["score", "id"]},
           {"name": "rt-seq-name", "system": "row_tracking", "cols": ["_SEQUENCE_NUMBER", "name"]},
           {"name": "rt-seq-score", "system": "row_tracking", "cols": ["score", "_SEQUENCE_NUMBER"]},
           {"name": "rt-rowid", "system": "row_tracking", "cols": ["_ROW_ID"]},
           # a column added after rows 0-3 were compacted: Java 1.4.2 drops those rows (its read-type
           # pruning leaves their group without files); 2.0.0 returns them with NULL
           {"name": "cols-extra", "cols": ["extra"], "versions": ["2.0.0"]},
           {"name": "rt-extra-seq", "system": "row_tracking", "cols": ["extra", "_SEQUENCE_NUMBER"], "versions": ["2.0.0"]},
           {"name": "rt-snapshot-3", "system": "row_tracking", "snapshot": 3},
           {"name": "rt-tag", "system": "row_tracking", "tag": "before-compact"},
           {"name": "filter-score", "filter": "score > \"%s\"" % f64(4.5)},
           {"name": "filter-name", "filter": "name = \"D\""},
           {"name": "filter-name-null", "filter": "name is null"},
           {"name": "filter-extra", "filter": "extra = \"y5\""},
           {"name": "inc-0-2", "incremental": "0,2"},
           {"name": "inc-3-5", "incremental": "3,5"},
           {"name": "inc-7-10", "incremental": "7,10"}]))

# ---------------------------------------------------------------- BLOB columns (issue 16)
# A BLOB column lives in .blob files beside the data files (Java BlobFileFormat): blob.target-file-size is
# small so one data file's rows spread over several .blob files; a NULL blob, an empty blob, a partial-column
# write of a normal column over rows that have blobs, and a column added later.
def blob_hex(i, n):
    return "".join("%02x" % ((i * 31 + k * 7) % 256) for k in range(n))
dump("blob", plan("blob",
    [F(0, "id", "INT"), F(1, "name", "STRING"), F(2, "pic", "BLOB")],
    [{"op": "create"},
     W([{"id": 1, "name": "a", "pic": blob_hex(1, 300)}, {"id": 2, "name": "b", "pic": None},
        {"id": 3, "name": "c", "pic": blob_hex(3, 700)}, {"id": 4, "name": "d", "pic": ""}]),
     W([{"id": 5, "name": "e", "pic": blob_hex(5, 40)}]),
     WC(["name"], 0, [{"name": "A"}, {"name": "B"}, {"name": None}, {"name": "D"}]),
     {"op": "tag", "name": "t3"},
     {"op": "alter", "changes": [{"addColumn": {"name": "extra", "type": "STRING"}}]},
     W([{"id": 6, "name": "f", "pic": blob_hex(6, 1500), "extra": "x6"}, {"id": 7, "name": "g", "pic": blob_hex(7, 9), "extra": None}])],
    options={"row-tracking.enabled": "true", "data-evolution.enabled": "true", "file.format": "parquet",
             "blob.target-file-size": "1 kb"},
    dumps=[{"name": "rt", "system": "row_tracking"},
           {"name": "cols-pic", "cols": ["pic"]},
           {"name": "cols-pic-id", "cols": ["pic", "id"]},
           {"name": "cols-name", "cols": ["name"]},
           # read from the .blob files alone: Java 1.4.2 numbers their rows from 1 (BlobFileMeta.returnedPosition
           # is one ahead, fixed in 2.0.0); we follow 2.0.0
           {"name": "rt-pic-rowid", "system": "row_tracking", "cols": ["pic", "_ROW_ID"], "versions": ["2.0.0"]},
           {"name": "rt-pic-rowid-name", "system": "row_tracking", "cols": ["pic", "_ROW_ID", "name", "_SEQUENCE_NUMBER"]},
           {"name": "rt-tag", "system": "row_tracking", "tag": "t3"},
           {"name": "cols-extra-pic", "cols": ["extra", "pic"]},
           {"name": "filter-id", "filter": "id >= 3"},
           {"name": "filter-name", "filter": "name = \"D\""},
           {"name": "filter-pic-null", "filter": "pic is null"},
           {"name": "inc-0-2", "incremental": "0,2"},
           {"name": "inc-2-4", "incremental": "2,4"}],
    # Java 1.4.2's $files fails on this table (ArrayIndexOutOfBoundsException in
    # SimpleStatsEvolution$NullCountsEvoArray: a .blob file's one-column statistics)
    skip_meta=[{"name": "files", "versions": ["1.4.2"]}]))

# ---------------------------------------------------------------- BLOB values given as descriptors
# blob-as-descriptor: the writer is handed descriptors (URI, offset, length: Blob.fromFile, as Flink and Spark
# pass them) and copies the ranges they name into its .blob files, which then hold the bytes as in `blob`; a
# read through the table API returns the bytes (Blob.toData), whatever the option says to engines.
def DESC(i, n, off): return {"file": blob_hex(i, n), "offset": off}
dump("blob-as-descriptor", plan("blob_as_descriptor",
    [F(0, "id", "INT"), F(1, "name", "STRING"), F(2, "pic", "BLOB")],
    [{"op": "create"},
     W([{"id": 1, "name": "a", "pic": DESC(1, 300, 0)}, {"id": 2, "name": "b", "pic": None},
        {"id": 3, "name": "c", "pic": DESC(3, 700, 17)}, {"id": 4, "name": "d", "pic": DESC(4, 0, 5)}]),
     W([{"id": 5, "name": "e", "pic": DESC(5, 40, 3)}]),
     WC(["name"], 0, [{"name": "A"}, {"name": "B"}, {"name": None}, {"name": "D"}])],
    options={"row-tracking.enabled": "true", "data-evolution.enabled": "true", "file.format": "parquet",
             "blob.target-file-size": "1 kb", "blob-as-descriptor": "true"},
    dumps=[{"name": "cols-pic", "cols": ["pic"]},
           {"name": "cols-pic-id", "cols": ["pic", "id"]},
           {"name": "filter-id", "filter": "id >= 3"},
           {"name": "filter-pic-null", "filter": "pic is null"},
           {"name": "inc-1-3", "incremental": "1,3"}],
    skip_meta=[{"name": "files", "versions": ["1.4.2"]}]))

# blob-descriptor-field: the data file (Parquet) holds each value's serialized descriptor (URI, offset, length)
# instead of the bytes, and a read fetches the range through the table's file system (Java ColumnarRow.getBlob,
# BlobRef.toData); the sources live in <warehouse>/blob-source. Length -1 ("whole") reads up to the end.
dump("blob-descriptor-field", plan("blob_descriptor_field",
    [F(0, "id", "INT"), F(1, "name", "STRING"), F(2, "pic", "BLOB")],
    [{"op": "create"},
     W([{"id": 1, "name": "a", "pic": DESC(1, 300, 0)}, {"id": 2, "name": "b", "pic": None},
        {"id": 3, "name": "c", "pic": DESC(3, 700, 17)}, {"id": 4, "name": "d", "pic": DESC(4, 0, 5)}]),
     W([{"id": 5, "name": "e", "pic": dict(DESC(5, 40, 0), whole=True)}]),
     WC(["name"], 0, [{"name": "A"}, {"name": "B"}, {"name": None}, {"name": "D"}])],
    options={"row-tracking.enabled": "true", "data-evolution.enabled": "true", "file.format": "parquet",
             "blob-descriptor-field": "pic"},
    dumps=[{"name": "cols-pic", "cols": ["pic"]},
           {"name": "cols-pic-id", "cols": ["pic", "id"]},
           {"name": "cols-name-pic", "cols": ["name", "pic"]},
           {"name": "filter-id", "filter": "id >= 3"},
           {"name": "filter-pic-null", "filter": "pic is null"},
           {"name": "inc-1-3", "incremental": "1,3"}]))

# ---------------------------------------------------------------- BLOB updates with placeholders (Java 2.0.0)
# A partial-column write of a BLOB column (as Spark's MERGE INTO does it, DataEvolutionTableDataWrite) writes
# .blob files over the whole row-id range with a placeholder (length -2 in the index) for every row it does
# not change; a read takes each row's value from the newest file that holds one for it, NULL included
# (BlobFallbackRecordReader), rows a newer file does not cover falling back too. 1.4.2 has no placeholders.
PH = {"placeholder": True}
dump("blob-update", dict(plan("blob_update",
    [F(0, "id", "INT"), F(1, "name", "STRING"), F(2, "pic", "BLOB")],
    [{"op": "create"},
     W([{"id": 1, "name": "a", "pic": blob_hex(1, 300)}, {"id": 2, "name": "b", "pic": blob_hex(2, 500)},
        {"id": 3, "name": "c", "pic": None}, {"id": 4, "name": "d", "pic": blob_hex(4, 700)},
        {"id": 5, "name": "e", "pic": blob_hex(5, 200)}, {"id": 6, "name": "f", "pic": blob_hex(6, 600)}]),
     W([{"id": 7, "name": "g", "pic": blob_hex(7, 50)}, {"id": 8, "name": "h", "pic": None}]),
     # rows 0 and 4 keep their value, row 3 becomes NULL, row 2 gets one where it was NULL; the rows roll over
     # .blob files whose row-id ranges differ from the first write's
     WC(["pic"], 0, [{"pic": PH}, {"pic": blob_hex(22, 120)}, {"pic": blob_hex(23, 30)}, {"pic": None},
                     {"pic": PH}, {"pic": blob_hex(26, 900)}]),
     {"op": "tag", "name": "t3"},
     # covers rows 0-2 only: rows 3-5 fall back past this write (a gap Java reads as placeholders)
     WC(["pic"], 0, [{"pic": PH}, {"pic": PH}, {"pic": blob_hex(33, 40)}]),
     WC(["name"], 6, [{"name": "G"}, {"name": "H"}])],
    options={"row-tracking.enabled": "true", "data-evolution.enabled": "true", "file.format": "parquet",
             "blob.target-file-size": "1 kb"},
    dumps=[{"name": "rt", "system": "row_tracking"},
           {"name": "cols-pic", "cols": ["pic"]},
           {"name": "cols-pic-id", "cols": ["pic", "id"]},
           {"name": "rt-pic-rowid-seq", "system": "row_tracking", "cols": ["pic", "_ROW_ID", "_SEQUENCE_NUMBER"]},
           {"name": "rt-tag", "system": "row_tracking", "tag": "t3"},
           {"name": "filter-id", "filter": "id >= 3"},
           {"name": "filter-pic-null", "filter": "pic is null"},
           {"name": "inc-0-3", "incremental": "0,3"},
           {"name": "inc-1-4", "incremental": "1,4"}]), versions=["2.0.0"]))

# ---------------------------------------------------------------- data evolution with deletion vectors (Java 2.0.0)
# 1.4.2 refuses deletion vectors on a data-evolution table; 2.0.0 keeps one vector per row-id group on the
# group's anchor file (oldest data file), positions counted from the anchor's first row id (deleteRows as
# Flink's DataEvolutionDelete). Deletes land before and after partial-column writes, in a group of one
# file and in groups of several.
dump("data-evolution-dv", dict(plan("data_evolution_dv",
    [F(0, "id", "INT"), F(1, "name", "STRING"), F(2, "score", "DOUBLE")],
    [{"op": "create"},
     W([{"id": i, "name": "n%d" % i, "score": f64(i)} for i in range(1, 7)]),
     W([{"id": 7, "name": "n7"}, {"id": 8, "name": "n8", "score": f64(8)}]),
     {"op": "deleteRows", "column": "id", "values": [2]},
     WC(["name"], 0, [{"name": "N%d" % i} for i in range(1, 7)]),
     {"op": "tag", "name": "t4"},
     {"op": "deleteRows", "column": "id", "values": [5, 8]},
     W([{"id": 9, "name": "n9", "score": f64(9)}]),
     WC(["score"], 6, [{"score": f64(70)}, {"score": f64(80)}])],
    options={"row-tracking.enabled": "true", "data-evolution.enabled": "true", "deletion-vectors.enabled": "true",
             "file.format": "parquet"},
    dumps=[{"name": "rt", "system": "row_tracking"},
           {"name": "cols-name", "cols": ["name"]},
           {"name": "cols-score-id", "cols": ["score", "id"]},
           {"name": "rt-rowid", "system": "row_tracking", "cols": ["_ROW_ID"]},
           {"name": "rt-name-seq", "system": "row_tracking", "cols": ["name", "_SEQUENCE_NUMBER"]},
           {"name": "filter-id", "filter": "id >= 4"},
           {"name": "filter-name", "filter": "name = \"N3\""},
           {"name": "inc-0-3", "incremental": "0,3"},
           {"name": "inc-3-6", "incremental": "3,6"}]), versions=["2.0.0"]))

# ---------------------------------------------------------------- postpone buckets (bucket = -2)
# Batch reads, time travel and incremental ranges see only the real buckets: rows in the postpone bucket
# appear once a compaction moved them (Java onlyReadRealBuckets).
dump("postpone-bucket", plan("postpone_bucket",
    [F(0, "dt", "STRING NOT NULL"), F(1, "id", "INT NOT NULL"), F(2, "v", "STRING")],
    [{"op": "create"},
     W([{"dt": "a", "id": 1, "v": "v1"}, {"dt": "a", "id": 2, "v": "v2"}, {"dt": "b", "id": 3, "v": "v3"}]),
     W([{"dt": "a", "id": 1, "v": "v1b"}, {"dt": "b", "id": 3}], ["+U", "-D"])],
    pk=["dt", "id"], part=["dt"], options={"bucket": "-2", "file.format": "parquet"},
    dumps=[{"name": "audit", "system": "audit_log"},
           {"name": "inc-0-2", "incremental": "0,2"}]))

dump("postpone-bucket-compacted", plan("postpone_bucket_compacted",
    [F(0, "dt", "STRING NOT NULL"), F(1, "id", "INT NOT NULL"), F(2, "v", "STRING")],
    [{"op": "create"},
     W([{"dt": "a", "id": 1, "v": "v1"}, {"dt": "a", "id": 2, "v": "v2"}, {"dt": "b", "id": 3, "v": "v3"}]),
     W([{"dt": "a", "id": 1, "v": "v1b"}, {"dt": "b", "id": 3}, {"dt": "b", "id": 4, "v": "v4"}], ["+U", "-D", "+I"]),
     {"op": "compact"},
     W([{"dt": "a", "id": 2, "v": "v2c"}, {"dt": "c", "id": 5, "v": "v5"}]),
     {"op": "compact"},
     W([{"dt": "a", "id": 1}, {"dt": "c", "id": 6, "v": "pending"}], ["-D", "+I"])],
    pk=["dt", "id"], part=["dt"], options={"bucket": "-2", "postpone.default-bucket-num": "2", "file.format": "parquet"},
    dumps=[{"name": "audit", "system": "audit_log"},
           {"name": "cols-v", "cols": ["v"]},
           {"name": "filter-dt", "filter": "dt = \"a\""},
           {"name": "filter-v", "filter": "v >= \"v2\""},
           {"name": "inc-0-3", "incremental": "0,3"},
           {"name": "inc-2-6", "incremental": "2,6"},
           {"name": "inc-3-4-delta", "incremental": "3,4", "incrementalMode": "delta"}]))

# ---------------------------------------------------------------- fallback and primary branches
# scan.fallback-branch: partitions the table's branch lacks are read from the fallback branch (Java
# FallbackReadFileStoreTable); scan.primary-branch: partitions the primary branch has are read from it.
# Time travel carries a snapshot id over to the other branch by time; an incremental range applies to both.
dump("fallback-branch", plan("fallback_branch",
    [F(0, "dt", "STRING NOT NULL"), F(1, "id", "INT"), F(2, "v", "STRING")],
    [{"op": "create"},
     W([{"dt": "a", "id": 1, "v": "main-a1"}]),
     {"op": "createBranch", "name": "fb"},
     dict(W([{"dt": "a", "id": 2, "v": "fb-a2"}, {"dt": "b", "id": 3, "v": "fb-b3"}]), branch="fb"),
     dict(W([{"dt": "c", "id": 4, "v": "fb-c4"}, {"dt": "e", "id": 7, "v": None}]), branch="fb"),
     {"op": "alter", "changes": [{"setOption": {"key": "scan.fallback-branch", "value": "fb"}}]},
     W([{"dt": "c", "id": 5, "v": "main-c5"}]),
     W([{"dt": "d", "id": 6, "v": "main-d6"}])],
    part=["dt"], options={"file.format": "parquet"},
    dumps=[{"name": "branch-fb", "branch": "fb"},
           {"name": "audit", "system": "audit_log"},
           {"name": "cols", "cols": ["v", "dt"]},
           {"name": "filter-dt", "filter": "dt = \"b\""},
           {"name": "filter-dt-c", "filter": "dt = \"c\""},
           {"name": "filter-id", "filter": "id >= 3"},
           {"name": "filter-v-null", "filter": "v is null"},
           {"name": "inc-1-2", "incremental": "1,2"},
           {"name": "inc-0-2", "incremental": "0,2"}]))

dump("primary-branch", plan("primary_branch",
    [F(0, "dt", "STRING NOT NULL"), F(1, "id", "INT"), F(2, "v", "STRING")],
    [{"op": "create"},
     W([{"dt": "a", "id": 1, "v": "main-a1"}, {"dt": "b", "id": 2, "v": "main-b2"}]),
     {"op": "createBranch", "name": "pb"},
     dict(W([{"dt": "b", "id": 20, "v": "pb-b20"}, {"dt": "c", "id": 30, "v": "pb-c30"}]), branch="pb"),
     {"op": "alter", "changes": [{"setOption": {"key": "scan.primary-branch", "value": "pb"}}]},
     W([{"dt": "d", "id": 4, "v": "main-d4"}, {"dt": "b", "id": 5, "v": "main-b5"}])],
    part=["dt"], options={"file.format": "parquet"},
    dumps=[{"name": "branch-pb", "branch": "pb"},
           {"name": "cols", "cols": ["id"]},
           {"name": "filter-dt", "filter": "dt = \"b\""},
           {"name": "filter-id", "filter": "id < 10"},
           {"name": "inc-0-1", "incremental": "0,1"}]))

# ---------------------------------------------------------------- Parquet LZ4 (Hadoop frames) and LZ4_RAW
for codec in ("lz4", "lz4_raw"):
    name = "parquet-" + codec.replace("_", "-")
    dump(name, plan(name.replace("-", "_"),
        [F(0, "dt", "STRING NOT NULL"), F(1, "id", "INT"), F(2, "s", "STRING"), F(3, "d", "DOUBLE")],
        [{"op": "create"},
         W([{"dt": "a", "id": i, "s": "value-%d-%s" % (i, "x" * (i % 7)), "d": f64(i / 4)} for i in range(40)]),
         W([{"dt": "b", "id": i, "s": None if i % 5 == 0 else "b%d" % i} for i in range(40, 60)]),
         W([{"dt": "a", "id": 100, "s": "last", "d": f64(-1)}]),
         {"op": "compact"},
         W([{"dt": "c", "id": 200, "s": "after-compact"}])],
        part=["dt"], options={"file.format": "parquet", "file.compression": codec, "compaction.min.file-num": "2"},
        dumps=[{"name": "cols", "cols": ["s", "id"]},
               {"name": "filter-id", "filter": "id >= 45"},
               {"name": "inc-1-3", "incremental": "1,3"}]))

# ---------------------------------------------------------------- VARIANT (unshredded: Java's default layout)
dump("variant", plan("variant",
    [F(0, "id", "INT NOT NULL"), F(1, "v", "VARIANT"), F(2, "s", "STRING")],
    [{"op": "create"},
     W([{"id": 1, "v": "{\"a\":1,\"b\":[true,null,\"x\"],\"c\":{\"d\":-7}}", "s": "obj"},
        {"id": 2, "v": "[1,2,300,70000,5000000000]", "s": "ints"},
        {"id": 3, "v": "\"plain \\\"text\\\" é\\n\"", "s": "string"},
        {"id": 4, "v": None, "s": "null"},
        {"id": 5, "v": "null", "s": "json-null"}]),
     W([{"id": 6, "v": "12.50", "s": "decimal"},
        {"id": 7, "v": "{\"zeta\":\"a long string value that is longer than sixty-four bytes, so not a short string\",\"alpha\":false}", "s": "long"},
        {"id": 8, "v": "-1.5e300", "s": "double"}]),
     W([{"id": 9, "v": "{}", "s": "empty"}, {"id": 10, "v": "[[],[{}]]", "s": "nested"}]),
     {"op": "compact"},
     W([{"id": 11, "v": "true", "s": "after-compact"}])],
    options={"file.format": "parquet", "compaction.min.file-num": "2"},
    dumps=[{"name": "cols", "cols": ["v"]},
           {"name": "filter-id", "filter": "id >= 6"},
           {"name": "inc-1-3", "incremental": "1,3"}]))

# ---------------------------------------------------------------- VARIANT shredded (parquet.variant.shreddingSchema)
# 1.4.2 hands its Parquet writer only the "parquet."-prefixed options (prefix stripped), so the key carries it;
# 2.0.0 reads the same key as the fallback of variant.shreddingSchema.
# Java shreds v by the schema below: each file's v group is metadata, value, typed_value (issue 16). The rows
# cover fully shredded objects, missing and mistyped fields (left in value), extra fields (a partially
# shredded object), non-objects (typed_value null), a nested object, an array of ints, a decimal, and nulls.
VARIANT_SHREDDING = json.dumps({"type": "ROW", "fields": [{"name": "v", "type": {"type": "ROW", "fields": [
    {"name": "a", "type": "INT"}, {"name": "b", "type": "STRING"},
    {"name": "c", "type": {"type": "ROW", "fields": [{"name": "d", "type": "BIGINT"}]}},
    {"name": "arr", "type": {"type": "ARRAY", "element": "INT"}},
    {"name": "dec", "type": "DECIMAL(10, 2)"}, {"name": "dbl", "type": "DOUBLE"}, {"name": "flag", "type": "BOOLEAN"}]}}]},
    separators=(",", ":"))
dump("variant-shredded", plan("variant-shredded",
    [F(0, "id", "INT NOT NULL"), F(1, "v", "VARIANT"), F(2, "s", "STRING")],
    [{"op": "create"},
     W([{"id": 1, "v": "{\"a\":1,\"b\":\"x\",\"c\":{\"d\":-7},\"arr\":[1,2,300],\"dec\":12.50,\"dbl\":1.5e10,\"flag\":true}", "s": "full"},
        {"id": 2, "v": "{\"a\":5000000000,\"b\":7,\"zz\":\"extra\",\"c\":{\"d\":1,\"e\":[null]}}", "s": "mistyped"},
        {"id": 3, "v": "{\"b\":\"only b\"}", "s": "missing"},
        {"id": 4, "v": None, "s": "null"},
        {"id": 5, "v": "null", "s": "json-null"}]),
     W([{"id": 6, "v": "[1,{\"a\":2}]", "s": "array"},
        {"id": 7, "v": "\"a long string value that is longer than sixty-four bytes, so not a short one\"", "s": "string"},
        {"id": 8, "v": "{\"arr\":[1,\"two\",null,40000],\"dec\":1.234,\"flag\":\"yes\",\"\u00e9\":{}}", "s": "partial"},
        {"id": 9, "v": "{}", "s": "empty"},
        {"id": 10, "v": "{\"c\":5,\"dbl\":-0.0,\"a\":-128}", "s": "scalar-c"}]),
     {"op": "compact"},
     W([{"id": 11, "v": "{\"a\":3,\"dec\":-99999999.99}", "s": "after-compact"}])],
    options={"file.format": "parquet", "compaction.min.file-num": "2", "parquet.variant.shreddingSchema": VARIANT_SHREDDING},
    dumps=[{"name": "cols", "cols": ["v"]},
           {"name": "cols-s-v", "cols": ["s", "v"]},
           {"name": "filter-id", "filter": "id >= 6"},
           {"name": "inc-1-3", "incremental": "1,3"}]))

# ---------------------------------------------------------------- VARIANT shredded by inference (variant.inferShreddingSchema)
# Java infers each file's shredding schema from the rows it buffers (InferVariantShreddingSchema). 1.4.2 reads
# the key from its Parquet writer's options ("parquet."-prefixed, prefix stripped), 2.0.0 from the table's:
# both keys are set. Most objects share fields a, b, c so they are shredded; one row per file is mistyped.
def variant_infer_rows(lo, hi):
    rows = []
    for i in range(lo, hi):
        if i % 7 == 3:
            v = "{\"a\":\"text-%d\",\"z\":[%d]}" % (i, i)
        elif i % 11 == 5:
            v = None
        else:
            v = "{\"a\":%d,\"b\":\"s%d\",\"c\":{\"d\":%d.5,\"e\":%s}}" % (i, i, i, "true" if i % 2 else "false")
        rows.append({"id": i, "v": v, "s": "r%d" % i})
    return rows
dump("variant-inferred", plan("variant_inferred",
    [F(0, "id", "INT NOT NULL"), F(1, "v", "VARIANT"), F(2, "s", "STRING")],
    [{"op": "create"},
     W(variant_infer_rows(0, 20)),
     W(variant_infer_rows(20, 30)),
     {"op": "compact"},
     W([{"id": 100, "v": "[1,2,3]", "s": "array"}, {"id": 101, "v": "\"str\"", "s": "string"}])],
    options={"file.format": "parquet", "compaction.min.file-num": "2",
             "variant.inferShreddingSchema": "true", "parquet.variant.inferShreddingSchema": "true"},
    dumps=[{"name": "cols", "cols": ["v"]},
           {"name": "filter-id", "filter": "id >= 15"},
           {"name": "inc-1-2", "incremental": "1,2"}]))

# ---------------------------------------------------------------- ORC compression codecs and string encodings (issue 19)
# One table whose data files use, one write each, every codec Java's ORC writer offers (orc-core 1.9 as
# Paimon bundles it; file.compression is Paimon's orc.compress, changed between writes). Every file holds a
# low-cardinality string (DICTIONARY_V2), a unique string (DIRECT_V2: above orc.dictionary.key.threshold), a
# low-cardinality string forced DIRECT_V2 by orc.column.encoding.direct, integers for the RLE v2
# sub-encodings, doubles, decimals, pre-1970 timestamps and a list. Only the last snapshot is kept.
ORC_CODECS = ("none", "zlib", "snappy", "lz4", "zstd", "lzo")
def orc_codec_rows(lo, hi):
    rows = []
    for i in range(lo, hi):
        rows.append({"id": i,
             "city": ["berlin", "paris", "rome", "oslo", "lima"][i % 5],
             "uid": "u-%08x-%d" % ((i * 2654435761) % (1 << 32), i),
             "grade": "g%d" % (i % 3),
             "seq": 1000 + i * 7,
             "jitter": ((i * 7919) % 1001) - 500 if i % 11 else None,
             "big": (1 << 40) + (i * i * 104729) if i % 13 else -(1 << 62) + i,
             "score": f64(i / 8.0 - 20.0),
             "price": "%d.%02d" % (i * 37 % 10000 - 5000, i % 100) if i % 7 else None,
             "ts": "%04d-%02d-%02dT%02d:%02d:%02d.%06d000" % (1950 + i % 40, 1 + i % 12, 1 + i % 28, i % 24, i % 60, (i * 7) % 60, (i * 12345) % 1000000),
             "tags": [["x", "y"][i % 2] * (1 + i % 3)] * (i % 4) if i % 9 else None})
    return rows
def orc_codec_ops():
    ops = [{"op": "create"}]
    for n, codec in enumerate(ORC_CODECS):
        if n:
            ops.append({"op": "alter", "changes": [{"setOption": {"key": "file.compression", "value": codec}}]})
        ops.append(W(orc_codec_rows(n * 40, n * 40 + 40)))
    # only the latest snapshot is dumped (the files of every write stay live)
    ops.append({"op": "expire", "retainMax": 1, "retainMin": 1})
    return ops
dump("orc-codecs", plan("orc_codecs",
    [F(0, "id", "INT NOT NULL"), F(1, "city", "STRING"), F(2, "uid", "STRING"), F(3, "grade", "VARCHAR(8)"),
     F(4, "seq", "BIGINT"), F(5, "jitter", "INT"), F(6, "big", "BIGINT"), F(7, "score", "DOUBLE"),
     F(8, "price", "DECIMAL(12, 2)"), F(9, "ts", "TIMESTAMP(6)"), F(10, "tags", {"type": "ARRAY", "element": "STRING"})],
    orc_codec_ops(),
    options={"file.format": "orc", "file.compression": ORC_CODECS[0], "orc.column.encoding.direct": "grade"},
    dumps=[{"name": "filter-id", "filter": "id >= 215"},
           {"name": "filter-city", "filter": "city = \"rome\""},
           {"name": "cols", "cols": ["uid", "tags"]}]))
