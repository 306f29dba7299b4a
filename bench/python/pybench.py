#!/usr/bin/env python3
"""The Python side of the paimon-go benchmark suite (bench/README.md).

Times one operation of the suite with one Python implementation and prints ONE JSON line on stdout:
{"op", "impl", "seconds" (median of the timed iterations), "rows", "samples", "warmup_samples"}.

    pybench.py --impl pypaimon|pypaimon-rust|raw-pyarrow --op <op> --warehouse <dir> [...]

Implementations:
  pypaimon       pypaimon 2.1.0 (pure Python over pyarrow), its read/write API
  pypaimon-rust  pypaimon-rust 0.4.0 (the Rust core of paimon-rust): pypaimon_rust.datafusion Table API
  raw-pyarrow    pyarrow.parquet alone over the same files (no Paimon logic): a reference limit

Exit status 3 with "unsupported: ..." on stderr when the implementation cannot do the operation.
Only planning and reading (or writing and committing) are timed, never imports, catalog or table opening, or
generating the rows to write.
"""

import argparse
import json
import os
import statistics
import sys
import time

DB = "bench"
FIRST_DAY = 19_901
TS_BASE = 1_735_689_600_000_000
DAYS = 5
COMMIT_ROWS = 10
READ_TABLES = {"scan-all": "scan", "scan-2col": "scan", "filter-1pct": "scan", "pk-dedup": "pk", "pk-dv": "pk_dv",
               "scan-all-orc": "scan_orc", "filter-1pct-orc": "scan_orc"}
WRITE_TABLES = {"write-10m": "write", "write-10m-orc": "write_orc", "pk-write": "pk_write"}
PLAN_TABLES = {"plan-10k": "plan_10k", "plan-100k": "plan_100k"}
PROJECTED = ["id", "price"]


class Unsupported(Exception):
    pass


# ---------------------------------------------------------------------------------------------------------------
# Rows to write: the append schema of bench.write / bench.commit with PaimonBench.AppendRows' distributions
# ---------------------------------------------------------------------------------------------------------------

def append_schema():
    import pyarrow as pa
    return pa.schema([
        pa.field("id", pa.int64(), nullable=False),
        pa.field("qty", pa.int32()),
        pa.field("price", pa.float64()),
        pa.field("name", pa.string()),
        pa.field("amount", pa.decimal128(18, 2)),
        pa.field("ts", pa.timestamp("us")),
        pa.field("day", pa.date32()),
    ])


def append_batch(start, n, total_rows):
    """Rows [start, start+n) as one pyarrow RecordBatch, built column-wise with numpy."""
    import numpy as np
    import pyarrow as pa
    rng = np.random.default_rng([20_250_101, start])
    ids = np.arange(start, start + n, dtype=np.int64)
    qty = rng.integers(0, 1000, n, dtype=np.int32)
    qty_null = rng.integers(0, 20, n) == 0
    price = rng.random(n) * 1000
    letters = rng.integers(ord("a"), ord("z") + 1, (n, 11), dtype=np.uint8)
    names = np.empty((n, 16), dtype=np.uint8)
    names[:, :5] = np.frombuffer(b"user-", dtype=np.uint8)
    names[:, 5:] = letters
    offsets = np.arange(0, 16 * (n + 1), 16, dtype=np.int32)
    name_arr = pa.StringArray.from_buffers(n, pa.py_buffer(offsets), pa.py_buffer(names.tobytes()))
    unscaled = np.zeros((n, 2), dtype=np.int64)  # little-endian 128-bit: low word, high word (values >= 0)
    unscaled[:, 0] = rng.integers(0, 100_000_000, n, dtype=np.int64)
    amount = pa.Array.from_buffers(pa.decimal128(18, 2), n, [None, pa.py_buffer(unscaled.tobytes())])
    ts = TS_BASE + ids * 1_000 + rng.integers(0, 1_000, n, dtype=np.int64)
    per_day = max(1, total_rows // DAYS)
    day = (FIRST_DAY + np.minimum(DAYS - 1, ids // per_day)).astype(np.int32)
    return pa.RecordBatch.from_arrays([
        pa.array(ids),
        pa.array(qty, mask=qty_null),
        pa.array(price),
        name_arr,
        amount,
        pa.array(ts, type=pa.timestamp("us")),
        pa.array(day, type=pa.date32()),
    ], schema=append_schema())


def generate_append(total_rows, batch_rows=65_536):
    """total_rows rows as batches that never straddle a day partition."""
    per_day = max(1, total_rows // DAYS)
    out = []
    start = 0
    while start < total_rows:
        end = min(total_rows, start + batch_rows)
        d = start // per_day
        if d < DAYS - 1:
            end = min(end, (d + 1) * per_day)
        out.append(append_batch(start, end - start, total_rows))
        start = end
    return out


# ---------------------------------------------------------------------------------------------------------------
# Rows of pk-write (bench/ops/pkwrite.go): row i is k = key(i), v = i, s = "v-<i>", d = i / 2; of each block of
# ten rows seven insert new keys and three update keys written before
# ---------------------------------------------------------------------------------------------------------------

def pk_write_schema():
    import pyarrow as pa
    return pa.schema([
        pa.field("k", pa.int64(), nullable=False),
        pa.field("v", pa.int64()),
        pa.field("s", pa.string()),
        pa.field("d", pa.float64()),
    ])


def pk_write_batch(start, n):
    """Rows [start, start+n) of pk-write as one RecordBatch, vectorized (numpy, pyarrow.compute)."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc
    i = np.arange(start, start + n, dtype=np.int64)
    block, r = i // 10, i % 10
    k = np.where(r < 7, block * 7 + r, (i * 2_654_435_761) % (block * 7 + 7))
    v = pa.array(i)
    s = pc.binary_join_element_wise("v-", pc.cast(v, pa.string()), "")
    return pa.RecordBatch.from_arrays([pa.array(k), v, s, pa.array(i / 2.0)], schema=pk_write_schema())


def pk_write_batches(total_rows, batch_rows=65_536):
    """The batches of pk-write, each generated when it is asked for (inside the timed loop, as everywhere)."""
    for start in range(0, total_rows, batch_rows):
        yield pk_write_batch(start, min(batch_rows, total_rows - start))


# ---------------------------------------------------------------------------------------------------------------
# pypaimon
# ---------------------------------------------------------------------------------------------------------------

class PyPaimon:
    name = "pypaimon"

    def __init__(self, warehouse):
        from pypaimon import CatalogFactory
        self.catalog = CatalogFactory.create({"warehouse": warehouse})

    def table(self, name):
        return self.catalog.get_table(DB + "." + name)

    def read(self, op, args):
        table = self.table(READ_TABLES[op])

        def body():
            rb = table.new_read_builder()
            if op == "scan-2col":
                rb = rb.with_projection(PROJECTED)
            if op.startswith("filter-1pct"):
                pb = rb.new_predicate_builder()
                rb = rb.with_filter(pb.and_predicates([pb.greater_or_equal("id", args.lo), pb.less_than("id", args.hi)]))
            splits = rb.new_scan().plan().splits()
            n = 0
            for batch in rb.new_read().to_arrow_batch_reader(splits):
                n += batch.num_rows
            return n
        return body

    def plan(self, op, args):
        table = self.table(PLAN_TABLES[op])

        def body():
            return sum(s.row_count for s in table.new_read_builder().new_scan().plan().splits())
        return body

    def write(self, args, table_name="write"):
        import pyarrow as pa
        table = self.table(table_name)
        if table_name == "pk_write":
            return self.write_pk(table, args.rows)
        data = pa.Table.from_batches(generate_append(args.rows))

        def body():
            wb = table.new_batch_write_builder()
            tw = wb.new_write()
            tc = wb.new_commit()
            try:
                tw.write_arrow(data)
                tc.commit(tw.prepare_commit())
            finally:
                tw.close()
                tc.close()
            return data.num_rows
        return body

    def write_pk(self, table, rows):
        import pyarrow as pa

        def body():
            wb = table.new_batch_write_builder()
            tw = wb.new_write()
            tc = wb.new_commit()
            n = 0
            try:
                for b in pk_write_batches(rows):
                    tw.write_arrow(pa.Table.from_batches([b]))
                    n += b.num_rows
                tc.commit(tw.prepare_commit())
            finally:
                tw.close()
                tc.close()
            return n
        return body

    def commit_once(self, table, batch):
        import pyarrow as pa
        wb = table.new_batch_write_builder()
        tw = wb.new_write()
        try:
            tw.write_arrow(pa.Table.from_batches([batch]))
            msgs = tw.prepare_commit()
        finally:
            tw.close()
        start = time.perf_counter()
        tc = wb.new_commit()
        try:
            tc.commit(msgs)
        finally:
            tc.close()
        return time.perf_counter() - start


# ---------------------------------------------------------------------------------------------------------------
# pypaimon-rust
# ---------------------------------------------------------------------------------------------------------------

class PyPaimonRust:
    name = "pypaimon-rust"

    def __init__(self, warehouse):
        from pypaimon_rust.datafusion import PaimonCatalog
        self.catalog = PaimonCatalog({"warehouse": warehouse})

    def table(self, name):
        return self.catalog.get_table(DB + "." + name)

    def read(self, op, args):
        table = self.table(READ_TABLES[op])

        def body():
            rb = table.new_read_builder()
            if op == "scan-2col":
                rb = rb.with_projection(PROJECTED)
            if op.startswith("filter-1pct"):
                rb = rb.with_filter({"method": "and", "children": [
                    {"method": "greaterOrEqual", "field": "id", "literals": [args.lo]},
                    {"method": "lessThan", "field": "id", "literals": [args.hi]},
                ]})
            splits = rb.new_scan().plan().splits()
            n = 0
            for batch in rb.new_read().read_arrow(splits):
                n += batch.num_rows
            return n
        return body

    def plan(self, op, args):
        table = self.table(PLAN_TABLES[op])

        def body():
            return sum(s.row_count() for s in table.new_read_builder().new_scan().plan().splits())
        return body

    def write(self, args, table_name="write"):
        table = self.table(table_name)
        if table_name == "pk_write":
            return self.write_pk(table, args.rows)
        batches = generate_append(args.rows)

        def body():
            wb = table.new_batch_write_builder()
            tw = wb.new_write()
            tc = wb.new_commit()
            try:
                for b in batches:
                    tw.write_arrow(b)
                tc.commit(tw.prepare_commit())
            finally:
                tw.close()
                tc.close()
            return sum(b.num_rows for b in batches)
        return body

    def write_pk(self, table, rows):
        def body():
            wb = table.new_batch_write_builder()
            tw = wb.new_write()
            tc = wb.new_commit()
            n = 0
            try:
                for b in pk_write_batches(rows):
                    tw.write_arrow(b)
                    n += b.num_rows
                tc.commit(tw.prepare_commit())
            finally:
                tw.close()
                tc.close()
            return n
        return body

    def commit_once(self, table, batch):
        wb = table.new_batch_write_builder()
        tw = wb.new_write()
        try:
            tw.write_arrow(batch)
            msgs = tw.prepare_commit()
        finally:
            tw.close()
        start = time.perf_counter()
        tc = wb.new_commit()
        try:
            tc.commit(msgs)
        finally:
            tc.close()
        return time.perf_counter() - start


# ---------------------------------------------------------------------------------------------------------------
# raw pyarrow
# ---------------------------------------------------------------------------------------------------------------

class RawPyArrow:
    name = "raw-pyarrow"

    def __init__(self, warehouse):
        self.warehouse = warehouse

    def read(self, op, args):
        import pyarrow.parquet as pq
        if op.startswith("filter-1pct"):
            raise Unsupported("a filter has no raw form")
        if op.endswith("-orc"):
            raise Unsupported("raw-pyarrow reads Parquet")
        with open(os.path.join(self.warehouse, "files-%s.txt" % READ_TABLES[op])) as f:
            files = [os.path.join(self.warehouse, line.strip()) for line in f if line.strip()]
        cols = PROJECTED if op == "scan-2col" else None

        def body():
            n = 0
            for p in files:
                for batch in pq.ParquetFile(p).iter_batches(batch_size=4096, columns=cols):
                    n += batch.num_rows
            return n
        return body

    def plan(self, op, args):
        raise Unsupported("planning has no raw form")

    def write(self, args, table_name="write"):
        import pyarrow.parquet as pq
        if table_name != "write":
            raise Unsupported("raw-pyarrow writes Parquet")
        batches = generate_append(args.rows)
        out = os.path.join(self.warehouse, "raw-write")
        os.makedirs(out, exist_ok=True)

        def body():
            n = 0
            writer = None
            day = None
            for b in batches:
                d = b.column(6)[0].value
                if d != day:
                    if writer is not None:
                        writer.close()
                    writer = pq.ParquetWriter(os.path.join(out, "day-%d.parquet" % d), b.schema,
                                              compression="zstd", compression_level=1)
                    day = d
                writer.write_batch(b)
                n += b.num_rows
            if writer is not None:
                writer.close()
            return n
        return body


IMPLS = {c.name: c for c in (PyPaimon, PyPaimonRust, RawPyArrow)}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--impl", required=True, choices=sorted(IMPLS))
    ap.add_argument("--op", required=True)
    ap.add_argument("--warehouse", required=True)
    ap.add_argument("--lo", type=int, default=0)
    ap.add_argument("--hi", type=int, default=0)
    ap.add_argument("--rows", type=int, default=0)
    ap.add_argument("--warmup", type=int, default=0)
    ap.add_argument("--iters", type=int, default=1)
    args = ap.parse_args()
    try:
        impl = IMPLS[args.impl](args.warehouse)
        warm, samples, rows = run(impl, args)
    except (Unsupported, ImportError, NotImplementedError) as e:
        print("unsupported: %s: %s" % (type(e).__name__, e), file=sys.stderr)
        sys.exit(3)
    print(json.dumps({"op": args.op, "impl": args.impl, "seconds": statistics.median(samples), "rows": rows,
                      "samples": samples, "warmup_samples": warm}), flush=True)


def run(impl, args):
    """Returns (warmup samples, timed samples, rows of the last timed iteration)."""
    op = args.op
    if op == "commit":
        if not hasattr(impl, "commit_once"):
            raise Unsupported("commit")
        table = impl.table("commit")
        secs = []
        for i in range(args.warmup + args.iters):
            batch = append_batch(1_000_000_000 + i * COMMIT_ROWS, COMMIT_ROWS, 1 << 62)
            secs.append(impl.commit_once(table, batch))
        return secs[:args.warmup], secs[args.warmup:], COMMIT_ROWS
    if op in READ_TABLES:
        body = impl.read(op, args)
    elif op in PLAN_TABLES:
        body = impl.plan(op, args)
    elif op in WRITE_TABLES:
        if args.warmup + args.iters != 1:
            raise SystemExit(op + " runs once per process")
        body = impl.write(args, WRITE_TABLES[op])
    else:
        raise Unsupported("operation " + op)
    warm, samples, rows = [], [], 0
    for i in range(args.warmup + args.iters):
        start = time.perf_counter()
        rows = body()
        (warm if i < args.warmup else samples).append(time.perf_counter() - start)
    return warm, samples, rows


if __name__ == "__main__":
    main()
