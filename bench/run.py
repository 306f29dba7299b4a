#!/usr/bin/env python3
"""Driver of the paimon-go benchmark suite (see bench/README.md); bench/run.sh installs everything and calls it.

It generates the tables once with Java Paimon (cached by scale and TABLES_VERSION), then runs every
(operation, implementation) pair --reps times, each run in its own process, interleaving the implementations
within a repetition. Each program prints one JSON line {op, impl, seconds, rows, samples, warmup_samples}; the
driver adds the process's peak resident memory (ru_maxrss from wait4) and checks the row count. It writes
results.json, RESULTS.md and results.png.
"""

import argparse
import datetime
import json
import os
import platform
import re
import shutil
import signal
import statistics
import subprocess
import sys
import time

TABLES_VERSION = "v1"  # bump when bench/java/PaimonBench.java generates different tables

SCALES = {
    # The sizes of issue 8.
    "full": dict(scan_rows=10_000_000, scan_files=10, scan_block_size="8mb", pk_rows=10_000_000, pk_buckets=4,
                 plan_commits=100, plan_small_files=10_000, plan_large_files=100_000, commit_snapshots=1_000,
                 compact_rows=10_000_000, compact_files=1_000, compact_pk_rows=10_000_000, compact_pk_buckets=4),
    # 1/20 of the rows and files, for a quick check of the whole pipeline.
    "small": dict(scan_rows=500_000, scan_files=10, scan_block_size="400kb", pk_rows=500_000, pk_buckets=4,
                  plan_commits=100, plan_small_files=500, plan_large_files=5_000, commit_snapshots=50,
                  compact_rows=500_000, compact_files=50, compact_pk_rows=500_000, compact_pk_buckets=4),
}

OPS = ["scan-all", "scan-2col", "filter-1pct", "pk-dedup", "pk-dv", "plan-10k", "plan-100k", "write-10m", "commit",
       "compact-1k", "scan-1k", "scan-1k-compacted", "compact-pk", "scan-pk-runs", "scan-pk-compacted", "scan-all-orc",
       "filter-1pct-orc", "write-10m-orc", "pk-write", "write-stream-10m"]
IMPLS = ["go", "go-parallel", "java", "java-parallel", "pypaimon", "pypaimon-rust", "raw-pqarrow", "raw-pyarrow"]
READS = ["scan-all", "scan-2col", "filter-1pct", "pk-dedup", "pk-dv", "scan-all-orc", "filter-1pct-orc"]
# Which implementation is attempted for which operation; a program may still answer "unsupported" (exit 3).
SUPPORT = {op: ["go", "go-parallel", "java", "java-parallel", "pypaimon", "pypaimon-rust", "raw-pqarrow", "raw-pyarrow"]
           for op in READS}
SUPPORT["filter-1pct"] = ["go", "go-parallel", "java", "java-parallel", "pypaimon", "pypaimon-rust"]
for _op in ("plan-10k", "plan-100k", "commit"):
    SUPPORT[_op] = ["go", "java", "pypaimon", "pypaimon-rust"]
SUPPORT["write-10m"] = ["go", "java", "pypaimon", "pypaimon-rust", "raw-pqarrow", "raw-pyarrow"]
# Compaction: paimon-go's Table.Compact (one rewrite at a time, or GOMAXPROCS) beside Java's dedicated compaction
# (AppendCompactCoordinator tasks in one thread, or a pool); pypaimon and paimon-rust do not compact.
# The primary-key form: a full compaction of every bucket of a table of 5 sorted runs (Java: write.compact(p, b,
# full) per bucket, its writer's one compaction thread, one commit, as Spark's compact procedure).
COMPACT_OPS = ("compact-1k", "scan-1k", "scan-1k-compacted")
COMPACT_PK_OPS = ("compact-pk", "scan-pk-runs", "scan-pk-compacted")
SUPPORT["compact-1k"] = ["go", "go-parallel", "java", "java-parallel"]
SUPPORT["scan-1k"] = ["go", "go-parallel", "java", "java-parallel"]
SUPPORT["scan-1k-compacted"] = ["go", "go-parallel", "java", "java-parallel"]
SUPPORT["compact-pk"] = ["go", "go-parallel", "java"]
SUPPORT["scan-pk-runs"] = ["go", "go-parallel", "java", "java-parallel"]
SUPPORT["scan-pk-compacted"] = ["go", "go-parallel", "java", "java-parallel"]
# ORC (issue 19): the scan table's rows written as ORC by Java; no raw ORC reader is measured.
ORC_OPS = ("scan-all-orc", "filter-1pct-orc", "write-10m-orc")
for _op in ("scan-all-orc", "filter-1pct-orc"):
    SUPPORT[_op] = ["go", "go-parallel", "java", "java-parallel", "pypaimon", "pypaimon-rust"]
SUPPORT["write-10m-orc"] = ["go", "java"]
# Primary-key writes (issue 17): upserts into an empty primary-key table Java creates (gen-pkwrite).
PKWRITE_OPS = ("pk-write",)
SUPPORT["pk-write"] = ["go", "java", "pypaimon", "pypaimon-rust"]
# Streaming ingest (issue 23): write-10m's rows generated batch by batch into the writer inside the timed loop, so
# the peak RSS is the writer's own. Only paimon-go has this form.
SUPPORT["write-stream-10m"] = ["go"]
WRITES = ("write-10m", "write-10m-orc", "commit", "compact-1k", "compact-pk", "pk-write", "write-stream-10m")  # they change their table: a fresh copy per run

def descriptions(scale):
    """What each operation does, with the sizes of the scale."""
    return {
        "scan-all": "full scan of %s rows, 7 columns, append table" % f"{scale['scan_rows']:,}",
        "scan-2col": "2-column projection (id, price) of the same table",
        "filter-1pct": "id range of 1%% of the rows (%s), pruned by statistics, applied exactly"
                       % f"{scale['scan_rows'] // 100:,}",
        "pk-dedup": "primary-key table, %s rows in 5 overlapping sorted runs, deduplicate merge"
                    % f"{scale['pk_rows']:,}",
        "pk-dv": "the same rows with deletion vectors after Java compaction",
        "plan-10k": "plan a table of %s files in %d manifests" % (f"{scale['plan_small_files']:,}",
                                                                  scale["plan_commits"]),
        "plan-100k": "plan a table of %s files in %d manifests" % (f"{scale['plan_large_files']:,}",
                                                                   scale["plan_commits"]),
        "write-10m": "append %s rows (7 columns, 5 partitions) and commit" % f"{scale['scan_rows']:,}",
        "commit": "one append commit on a table with %s snapshots" % f"{scale['commit_snapshots']:,}",
        "compact-1k": "compact an append table of %s small files (%s rows): rewrite and commit"
                      % (f"{scale['compact_files']:,}", f"{scale['compact_rows']:,}"),
        "scan-1k": "full scan of that table before compaction (%s files)" % f"{scale['compact_files']:,}",
        "scan-1k-compacted": "full scan of the same rows after Java compacted them",
        "compact-pk": "fully compact a primary-key table of %s rows in 5 overlapping sorted runs per bucket (%d buckets): "
                      "rewrite and commit" % (f"{scale['compact_pk_rows']:,}", scale["compact_pk_buckets"]),
        "scan-pk-runs": "merged read of that table before compaction (5 sorted runs per bucket)",
        "scan-pk-compacted": "read of the same rows after Java fully compacted them (one sorted run)",
        "scan-all-orc": "scan-all on the same rows written as ORC by Java (zstd, stripes of file.block-size)",
        "filter-1pct-orc": "filter-1pct on the ORC table (stripes and 10,000-row row groups pruned)",
        "write-10m-orc": "write-10m into an ORC table",
        "write-stream-10m": "write-10m's rows generated batch by batch into the writer inside the timed loop "
                            "(streaming ingest: nothing pre-materialised, peak RSS is the writer's)",
        "pk-write": "upsert %s rows (30%% updates of earlier keys, %s keys) into a 4-bucket primary-key table "
                    "(write-only) and commit; rows generated batch by batch inside the timed loop"
                    % (f"{scale['scan_rows']:,}", f"{scale['scan_rows'] * 7 // 10:,}"),
    }


IMPL_NOTES = {
    "go": "paimon-go: Scan.Records with default options: GOMAXPROCS splits at once, batches in plan order "
          "(since 7327f6e; one split at a time before); a primary-key merge also decodes each sorted run ahead on a "
          "goroutine of its own (ReadAhead 2)",
    "go-parallel": "paimon-go: Scan.Records with WithWorkers(GOMAXPROCS) and WithUnordered: that many splits read at once",
    "java": "Java Paimon 1.4.2 table API: one TableRead over all splits (single thread)",
    "java-parallel": "Java Paimon 1.4.2: thread pool (one thread per core), a TableRead per split",
    "pypaimon": "pypaimon 2.1.0 (pure Python over pyarrow)",
    "pypaimon-rust": "pypaimon-rust 0.4.0 (paimon-rust core), pypaimon_rust.datafusion Table API",
    "raw-pqarrow": "limit: arrow-go pqarrow over the same files, no Paimon logic (paimon-go's Parquet library)",
    "raw-pyarrow": "reference: pyarrow.parquet over the same files, no Paimon logic",
}


def log(msg):
    print("bench/run.py: " + msg, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------------------------
# Table generation
# ---------------------------------------------------------------------------------------------------------------

def java_cmd(args):
    cp = os.path.join(args.home, "java-classes") + ":" + os.path.join(args.interop_home, "java", "1.4.2", "lib", "*")
    opts = os.environ.get("PAIMON_BENCH_JAVA_OPTS", "").split()
    return ["java"] + opts + ["-cp", cp, "PaimonBench"]


def gen_extra(args, scale, wh, what, command, meta_name, prefix, tables=()):
    """Generates extra tables once into an existing warehouse with `PaimonBench <command>` (its description in
    meta_name), passing the scale parameters that start with prefix; tables left by an interrupted generation are
    removed first."""
    if os.path.exists(os.path.join(wh, meta_name)):
        return
    for t in tables:
        shutil.rmtree(os.path.join(wh, "bench.db", t), ignore_errors=True)
    log("generating the %s %s tables with Java Paimon 1.4.2 (once)" % (args.scale, what))
    start = time.time()
    params = ["%s=%s" % kv for kv in scale.items() if kv[0].startswith(prefix)]
    with open(os.path.join(os.path.dirname(wh), command + ".log"), "w") as logf:
        rc = subprocess.call(java_cmd(args) + [command, wh] + params, stdout=logf, stderr=subprocess.STDOUT)
    if rc != 0:
        log("%s table generation failed (exit %d); see %s" % (what, rc, logf.name))
        sys.exit(1)
    log("%s tables generated in %.0f s" % (what, time.time() - start))


def ensure_compact_tables(args, scale, wh):
    """The compaction tables, generated once into the warehouse (meta-compact.json) when an operation needs them."""
    gen_extra(args, scale, wh, "compaction", "gen-compact", "meta-compact.json", "compact_")


def ensure_compact_pk_tables(args, scale, wh):
    """The primary-key compaction tables (bench.compact_pk, bench.compact_pk_done), generated once into the warehouse
    (meta-compact-pk.json) when an operation needs them."""
    gen_extra(args, scale, wh, "primary-key compaction", "gen-compact-pk", "meta-compact-pk.json", "compact_pk_",
              ("compact_pk", "compact_pk_done"))


def ensure_orc_tables(args, scale, wh):
    """The ORC tables (bench.scan_orc: the scan table's rows written as ORC; bench.write_orc), generated once into
    the warehouse (meta-orc.json) when an operation needs them."""
    gen_extra(args, scale, wh, "ORC", "gen-orc", "meta-orc.json", "scan_", ("scan_orc", "write_orc"))


def ensure_pkwrite_tables(args, scale, wh):
    """The empty primary-key table of pk-write (bench.pk_write), created once by Java (meta-pkwrite.json)."""
    gen_extra(args, scale, wh, "primary-key write", "gen-pkwrite", "meta-pkwrite.json", "pk_write_", ("pk_write",))


def ensure_tables(args, scale):
    base = os.path.join(args.home, "tables", "%s-%s" % (args.scale, TABLES_VERSION))
    wh = os.path.join(base, "warehouse")
    if os.path.exists(os.path.join(base, "READY")):
        return wh
    tmp = base + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    log("generating the %s tables with Java Paimon 1.4.2 into %s (once)" % (args.scale, base))
    start = time.time()
    cmd = java_cmd(args) + ["gen", os.path.join(tmp, "warehouse")] + ["%s=%s" % kv for kv in scale.items()]
    with open(os.path.join(tmp, "gen.log"), "w") as logf:
        rc = subprocess.call(cmd, stdout=logf, stderr=subprocess.STDOUT)
    if rc != 0:
        log("table generation failed (exit %d); see %s" % (rc, os.path.join(tmp, "gen.log")))
        sys.exit(1)
    took = time.time() - start
    with open(os.path.join(tmp, "READY"), "w") as f:
        json.dump({"scale": scale, "seconds": took, "version": TABLES_VERSION}, f)
    shutil.rmtree(base, ignore_errors=True)
    os.rename(tmp, base)
    log("tables generated in %.0f s" % took)
    return wh


# ---------------------------------------------------------------------------------------------------------------
# Running one measurement
# ---------------------------------------------------------------------------------------------------------------

def iterations(op, impl, args):
    """(warm-up, timed) iterations inside one process."""
    if op.startswith("plan-"):
        return 1, 5
    if op == "commit":
        return 1, 10
    if op in ("write-10m", "write-10m-orc", "compact-1k", "compact-pk", "pk-write", "write-stream-10m"):
        return 0, 1
    # Reads: the JVM gets warm-up iterations (JIT); Go and Python have no JIT and are measured cold.
    return (args.jvm_warmup if impl.startswith("java") else 0), 1


def command(impl, op, wh, params, warmup, iters, args):
    lo, hi, rows = params["lo"], params["hi"], params["rows"]
    if impl in ("go", "go-parallel", "raw-pqarrow"):
        return [os.path.join(args.home, "bin", "gobench"), "-op", op, "-impl", impl, "-warehouse", wh,
                "-lo", str(lo), "-hi", str(hi), "-rows", str(rows), "-warmup", str(warmup), "-iters", str(iters)]
    if impl in ("java", "java-parallel"):
        return java_cmd(args) + ["run", op, "warehouse=" + wh, "parallel=%s" % str(impl == "java-parallel").lower(),
                                 "lo=%d" % lo, "hi=%d" % hi, "rows=%d" % rows, "warmup=%d" % warmup,
                                 "iters=%d" % iters]
    py = {"pypaimon": args.pypaimon_python, "raw-pyarrow": args.pypaimon_python,
          "pypaimon-rust": args.rust_python}[impl]
    return [py, os.path.join(os.path.dirname(os.path.abspath(__file__)), "python", "pybench.py"), "--impl", impl,
            "--op", op, "--warehouse", wh, "--lo", str(lo), "--hi", str(hi), "--rows", str(rows),
            "--warmup", str(warmup), "--iters", str(iters)]


def run_process(argv, timeout, workdir):
    """Runs argv in its own session; returns (status, exit code, stdout, stderr, rusage, wall seconds)."""
    out_path = os.path.join(workdir, "stdout")
    err_path = os.path.join(workdir, "stderr")
    start = time.time()
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        p = subprocess.Popen(argv, stdout=out, stderr=err, stdin=subprocess.DEVNULL, start_new_session=True)
        status = "ok"
        while True:
            pid, wstatus, ru = os.wait4(p.pid, os.WNOHANG)
            if pid != 0:
                break
            if time.time() - start > timeout:
                os.killpg(p.pid, signal.SIGKILL)  # the process group of the child started above
                pid, wstatus, ru = os.wait4(p.pid, 0)
                status = "timeout"
                break
            time.sleep(0.05)
        p.returncode = os.waitstatus_to_exitcode(wstatus)
    wall = time.time() - start
    with open(out_path, encoding="utf-8", errors="replace") as f:
        stdout = f.read()
    with open(err_path, encoding="utf-8", errors="replace") as f:
        stderr = f.read()
    return status, p.returncode, stdout, stderr, ru, wall


def prewarm(path):
    """Reads every file under path once, so that no implementation pays for a cold page cache."""
    for root, _, files in os.walk(path):
        for name in files:
            with open(os.path.join(root, name), "rb") as f:
                while f.read(1 << 20):
                    pass


def fresh_copy(wh, table, scratch):
    """A new warehouse holding a copy of bench.<table> (for operations that change their table)."""
    shutil.rmtree(scratch, ignore_errors=True)
    shutil.copytree(os.path.join(wh, "bench.db", table), os.path.join(scratch, "bench.db", table))
    return scratch


def expected_rows(op, impl, meta, params):
    if impl.startswith("raw-"):
        table = {"scan-all": "scan", "scan-2col": "scan", "pk-dedup": "pk", "pk-dv": "pk_dv"}.get(op)
        if table:
            return meta[table]["file_rows"]
        return params["rows"] if op == "write-10m" else None
    want = {
        "scan-all": lambda: meta["scan"]["file_rows"],
        "scan-2col": lambda: meta["scan"]["file_rows"],
        "filter-1pct": lambda: params["hi"] - params["lo"],
        "pk-dedup": lambda: meta["pk"]["distinct"],
        "pk-dv": lambda: meta["pk_dv"]["distinct"],
        "plan-10k": lambda: meta["plan_10k"]["file_rows"],
        "plan-100k": lambda: meta["plan_100k"]["file_rows"],
        "write-10m": lambda: params["rows"],
        "commit": lambda: 10,
        "compact-1k": lambda: meta["compact"]["file_rows"],
        "scan-1k": lambda: meta["compact"]["file_rows"],
        "scan-1k-compacted": lambda: meta["compact_done"]["file_rows"],
        "compact-pk": lambda: meta["compact_pk"]["distinct"],
        "scan-pk-runs": lambda: meta["compact_pk"]["distinct"],
        "scan-pk-compacted": lambda: meta["compact_pk_done"]["distinct"],
        "scan-all-orc": lambda: meta["scan_orc"]["file_rows"],
        "filter-1pct-orc": lambda: params["hi"] - params["lo"],
        "write-10m-orc": lambda: params["rows"],
        "pk-write": lambda: params["rows"],
        "write-stream-10m": lambda: params["rows"],
    }[op]
    return want()


def measure(args, wh, meta, params, ops, impls):
    runs = []
    scratch_root = os.path.join(args.home, "scratch")
    os.makedirs(scratch_root, exist_ok=True)
    table_of = {"scan-all": "scan", "scan-2col": "scan", "filter-1pct": "scan", "pk-dedup": "pk", "pk-dv": "pk_dv",
                "plan-10k": "plan_10k", "plan-100k": "plan_100k", "write-10m": "write", "commit": "commit",
                "compact-1k": "compact", "scan-1k": "compact", "scan-1k-compacted": "compact_done",
                "compact-pk": "compact_pk", "scan-pk-runs": "compact_pk", "scan-pk-compacted": "compact_pk_done",
                "scan-all-orc": "scan_orc", "filter-1pct-orc": "scan_orc", "write-10m-orc": "write_orc",
                "pk-write": "pk_write", "write-stream-10m": "write"}
    for op in ops:
        todo = [i for i in impls if i in SUPPORT[op]]
        dropped = set()
        prewarm(os.path.join(wh, "bench.db", table_of[op]))
        for rep in range(args.reps):
            # The order rotates each repetition, so that no implementation always runs first, or always right
            # after a JVM has given back its memory.
            shift = rep % len(todo) if todo else 0
            for impl in todo[shift:] + todo[:shift]:
                if impl in dropped:
                    continue
                warmup, iters = iterations(op, impl, args)
                target = wh
                if op in WRITES:
                    target = fresh_copy(wh, table_of[op], os.path.join(scratch_root, "warehouse"))
                argv = command(impl, op, target, params, warmup, iters, args)
                status, code, stdout, stderr, ru, wall = run_process(argv, args.timeout, scratch_root)
                rss = ru.ru_maxrss
                # cpu_seconds covers the whole process (start-up and untimed preparation included).
                rec = {"op": op, "impl": impl, "rep": rep, "status": status, "exit": code, "peak_rss_kb": rss,
                       "wall_seconds": wall, "cpu_seconds": ru.ru_utime + ru.ru_stime, "warmup": warmup,
                       "iters": iters}
                if status == "ok" and code == 3:
                    rec["status"] = "unsupported"
                    rec["reason"] = stderr.strip().splitlines()[-1] if stderr.strip() else ""
                elif status == "ok" and code != 0:
                    rec["status"] = "error"
                elif status == "ok":
                    try:
                        res = json.loads(stdout.strip().splitlines()[-1])
                        rec.update(seconds=res["seconds"], rows=res["rows"], samples=res.get("samples", []),
                                   warmup_samples=res.get("warmup_samples", []))
                        want = expected_rows(op, impl, meta, params)
                        if want is not None and res["rows"] != want:
                            rec["status"] = "wrong-rows"
                            rec["reason"] = "read %d rows, want %d" % (res["rows"], want)
                    except (ValueError, IndexError, KeyError) as e:
                        rec["status"] = "error"
                        rec["reason"] = "bad result line: %s" % e
                if rec["status"] in ("error", "timeout"):
                    rec["stderr_tail"] = "\n".join(stderr.strip().splitlines()[-15:])
                if rec["status"] != "ok" and "reason" not in rec:
                    tail = rec.get("stderr_tail", "").splitlines()
                    rec["reason"] = tail[-1] if tail else rec["status"]
                if rec["status"] in ("unsupported", "error", "timeout"):
                    dropped.add(impl)  # no further repetitions of a pair that cannot succeed
                runs.append(rec)
                log("%-11s %-13s rep %d: %-11s %s  peak %d MiB  (%.1f s wall)" % (
                    op, impl, rep, rec["status"],
                    "%.4f s" % rec["seconds"] if "seconds" in rec else rec.get("reason", "")[:60],
                    rss // 1024, wall))
                if op in WRITES:
                    shutil.rmtree(os.path.join(scratch_root, "warehouse"), ignore_errors=True)
    return runs


# ---------------------------------------------------------------------------------------------------------------
# Environment and reporting
# ---------------------------------------------------------------------------------------------------------------

def sh(cmd, **kw):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=60, **kw)
        return (r.stdout + r.stderr).strip()
    except (OSError, subprocess.TimeoutExpired):
        return ""


def py_version(python, pkg):
    return sh([python, "-c", "import importlib.metadata as m, sys; print(m.version(%r))" % pkg]) or "?"


def cpu_times():
    """(total, steal) jiffies of all CPUs from /proc/stat, or None off Linux."""
    try:
        with open("/proc/stat") as f:
            vals = [int(x) for x in f.readline().split()[1:]]
        return sum(vals[:8]), vals[7]
    except (OSError, ValueError, IndexError):
        return None


def environment(args, repo):
    cpu = "?"
    mem = "?"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name")), "?")
        with open("/proc/meminfo") as f:
            kb = int(next(ln.split()[1] for ln in f if ln.startswith("MemTotal")))
            mem = "%.1f GiB" % (kb / 1024 / 1024)
    except OSError:
        pass
    osname = platform.system()
    try:
        with open("/etc/os-release") as f:
            osname = next((ln.split("=", 1)[1].strip().strip('"') for ln in f if ln.startswith("PRETTY_NAME")), osname)
    except OSError:
        pass
    arrow = "?"
    try:
        with open(os.path.join(repo, "go.mod")) as f:
            m = re.search(r"github.com/apache/arrow-go/v18 (\S+)", f.read())
            arrow = m.group(1) if m else "?"
    except OSError:
        pass
    dirty = sh(["git", "-C", repo, "status", "--porcelain", "--untracked-files=no"])
    java_version = sh(["java", "-version"]).splitlines()
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "cpu": cpu, "cores": os.cpu_count(), "memory": mem, "os": osname, "kernel": platform.release(),
        "go": sh(["go", "version"]),
        "java": java_version[0] if java_version else "?",
        "paimon_go_commit": sh(["git", "-C", repo, "rev-parse", "--short", "HEAD"]) + (" (dirty tree)" if dirty else ""),
        "arrow_go": arrow,
        "java_paimon": "1.4.2",
        "pypaimon": py_version(args.pypaimon_python, "pypaimon"),
        "pypaimon_python": sh([args.pypaimon_python, "--version"]),
        "pyarrow_for_pypaimon": py_version(args.pypaimon_python, "pyarrow"),
        "pypaimon_rust": py_version(args.rust_python, "pypaimon-rust"),
        "pyarrow_for_pypaimon_rust": py_version(args.rust_python, "pyarrow"),
        "java_opts": os.environ.get("PAIMON_BENCH_JAVA_OPTS", ""),
        "loadavg_start": os.getloadavg(),
        "cpu_times_start": cpu_times(),
    }


def summarize(runs, ops, impls):
    out = {}
    for op in ops:
        for impl in impls:
            rs = [r for r in runs if r["op"] == op and r["impl"] == impl]
            if not rs:
                continue
            ok = [r for r in rs if r["status"] == "ok"]
            s = {"runs": len(rs), "ok": len(ok)}
            if ok:
                secs = [r["seconds"] for r in ok]
                s.update(median=statistics.median(secs), min=min(secs), max=max(secs), rows=ok[-1]["rows"],
                         peak_rss_kb=int(statistics.median(r["peak_rss_kb"] for r in ok)),
                         max_peak_rss_kb=max(r["peak_rss_kb"] for r in ok))
                warm = [r["warmup_samples"][0] for r in ok if r.get("warmup_samples")]
                if warm:
                    s["first_iteration_median"] = statistics.median(warm)
            bad = [r for r in rs if r["status"] != "ok"]
            if bad:
                s["status"] = bad[0]["status"]
                s["reason"] = bad[0].get("reason", "")
            out.setdefault(op, {})[impl] = s
    for op, by in out.items():
        base = by.get("go", {}).get("median")
        for s in by.values():
            if base and s.get("median"):
                s["vs_go"] = s["median"] / base
    return out


def fmt_secs(x):
    if x >= 100:
        return "%.0f s" % x
    if x >= 1:
        return "%.2f s" % x
    return "%.1f ms" % (x * 1000)


def fmt_rate(rows, secs, op):
    if op.startswith("plan-") or op == "commit" or not secs:
        return ""
    r = rows / secs
    return "%.2fM rows/s" % (r / 1e6) if r >= 1e6 else "%.0fk rows/s" % (r / 1e3)


# The targets of issue 8. Each is a ratio of medians from the same run: how many times faster (or the share of
# the speed) of an implementation we measure against. The single-reader "go" is the one held to every target, since
# the raw limits decode on one goroutine too; "go-parallel" is listed beside it where the peer may use several cores.
TARGETS = [
    # (what, operations, our implementations, reference, required speed ratio reference/ours)
    ("append scan at least as fast as pypaimon-rust", ["scan-all", "scan-2col", "filter-1pct"],
     ["go", "go-parallel"], "pypaimon-rust", 1.0),
    ("append scan at least 85% of the raw decode rate", ["scan-all", "scan-2col"], ["go"], "raw-pqarrow", 0.85),
    ("primary-key merge read at least 2x pypaimon", ["pk-dedup", "pk-dv"], ["go", "go-parallel"], "pypaimon", 2.0),
    ("primary-key merge read at least as fast as Java's single reader thread", ["pk-dedup", "pk-dv"],
     ["go", "go-parallel"], "java", 1.0),
    ("planning at least as fast as Java", ["plan-10k", "plan-100k"], ["go"], "java", 1.0),
    ("write at least 80% of the raw write rate", ["write-10m"], ["go"], "raw-pqarrow", 0.8),
    # Issue 23.
    ("write at least 1.2x pypaimon", ["write-10m"], ["go"], "pypaimon", 1.2),
    ("write at least as fast as pypaimon-rust", ["write-10m"], ["go"], "pypaimon-rust", 1.0),
    ("write at least as fast as raw pyarrow", ["write-10m"], ["go"], "raw-pyarrow", 1.0),
    ("default read (no options) at least 1.1x pypaimon-rust", ["scan-all"], ["go"], "pypaimon-rust", 1.1),
    ("default read at least as fast as Java's single reader thread", ["pk-dv"], ["go"], "java", 1.0),
    ("default read at least as fast as pypaimon-rust", ["pk-dv"], ["go"], "pypaimon-rust", 1.0),
    ("default merge read at least 1.5x Java's single reader thread", ["pk-dedup"], ["go"], "java", 1.5),
    ("default merge read at least 1.3x pypaimon-rust", ["pk-dedup"], ["go"], "pypaimon-rust", 1.3),
    ("parallel reader at least as fast as Java's parallel reader", ["scan-all", "pk-dv"], ["go-parallel"],
     "java-parallel", 1.0),
    # Issue 19. A reference "impl@op" is another operation's median: here the same rows read as Parquet.
    ("ORC parallel reader at least as fast as pypaimon", ["scan-all-orc", "filter-1pct-orc"], ["go-parallel"],
     "pypaimon", 1.0),
    ("ORC single reader at least 75% of the Parquet single reader on the same rows", ["scan-all-orc"], ["go"],
     "go@scan-all", 0.75),
]
PEAK_RSS_LIMIT_MIB = 512  # primary-key merge reads
STREAM_RSS_LIMIT_MIB = 256  # streaming ingest (issue 23), the whole process


def targets_markdown(summary):
    """The "Targets" section: each target of issue 8 against this run's medians, met or missed by how much."""
    L = ["## Targets", "",
         "Speed ratio = the reference's median time / ours (above 1: ours is faster). A target is met when the "
         "ratio reaches the required one; otherwise `missed by` is how much faster ours would have to be.", "",
         "| target | operation | ours | reference | required | measured | met |",
         "|---|---|---|---|---:|---:|---|"]
    for what, ops, ours, ref, need in TARGETS:
        for op in ops:
            ref_impl, _, ref_op = ref.partition("@")
            r = summary.get(ref_op or op, {}).get(ref_impl, {}).get("median")
            for impl in ours:
                g = summary.get(op, {}).get(impl, {}).get("median")
                if not r or not g:
                    L.append("| %s | %s | %s | %s | %.2f | not measured | |" % (what, op, impl, ref, need))
                    continue
                got = r / g
                verdict = "yes" if got >= need else "no, missed by %.0f%%" % (100 * (need / got - 1))
                L.append("| %s | %s | %s | %s | %.2f | %.2f | %s |" % (what, op, impl, ref, need, got, verdict))
    for op in ("pk-dedup", "pk-dv"):
        for impl in ("go", "go-parallel"):
            s = summary.get(op, {}).get(impl, {})
            if s.get("max_peak_rss_kb"):
                mib = s["max_peak_rss_kb"] / 1024
                L.append("| peak memory of a primary-key merge read under %d MiB | %s | %s | (highest of the runs) | "
                         "< %d MiB | %.0f MiB | %s |" % (PEAK_RSS_LIMIT_MIB, op, impl, PEAK_RSS_LIMIT_MIB, mib,
                                                       "yes" if mib < PEAK_RSS_LIMIT_MIB else "no"))
    s = summary.get("write-stream-10m", {}).get("go", {})
    if s.get("max_peak_rss_kb"):
        mib = s["max_peak_rss_kb"] / 1024
        L.append("| peak memory of streaming ingest under %d MiB | write-stream-10m | go | (highest of the runs) | "
                 "< %d MiB | %.0f MiB | %s |" % (STREAM_RSS_LIMIT_MIB, STREAM_RSS_LIMIT_MIB, mib,
                                                "yes" if mib < STREAM_RSS_LIMIT_MIB else "no"))
    L.append("")
    return L


def write_markdown(path, doc):
    env, scale_name, scale, meta, summary = doc["environment"], doc["scale"], doc["scale_params"], doc["tables"], \
        doc["summary"]
    reps, total_wall, gen_info = doc["reps"], doc["wall_seconds"], doc.get("generation", {})
    L = []
    L.append("# paimon-go benchmark results")
    L.append("")
    if scale_name != "full":
        L.append("> **Scale `%s` (1/20 of the issue's sizes): a quick check of the suite, not a result.** "
                 "Run `bash bench/run.sh --scale full` on a quiet machine for the numbers to quote." % scale_name)
        L.append("")
    la = env["loadavg_start"]
    if la[0] > 0.5 * (env["cores"] or 1):
        L.append("> **The machine was busy** (load average %.1f on %d cores when the run started, %.1f at the end): "
                 "timings are not comparable." % (la[0], env["cores"], env.get("loadavg_end", (0,))[0]))
        L.append("")
    cmd = "bash bench/run.sh --scale %s --reps %d" % (scale_name, reps)
    if doc.get("ops") and doc["ops"] != OPS:
        cmd += " --ops " + ",".join(doc["ops"])
    if doc.get("impls") and doc["impls"] != IMPLS:
        cmd += " --impls " + ",".join(doc["impls"])
    L.append("Generated by `%s` on %s in %.0f min (table generation not included). Every number is the median "
             "over %d repetitions, each in a fresh process; `× go` is that median divided by paimon-go's (`go`); "
             "below 1 is faster than paimon-go. Peak RSS is the process's maximum resident set (`ru_maxrss`), "
             "median over the repetitions." % (cmd, env["date"], total_wall / 60, reps))
    L.append("")
    L.append("## Machine and versions")
    L.append("")
    L.append("| | |")
    L.append("|---|---|")
    for k, label in [("cpu", "CPU"), ("cores", "cores"), ("memory", "memory"), ("os", "OS"), ("kernel", "kernel"),
                     ("go", "Go"), ("java", "Java"), ("paimon_go_commit", "paimon-go commit"),
                     ("arrow_go", "arrow-go"), ("java_paimon", "Java Paimon"), ("pypaimon", "pypaimon"),
                     ("pypaimon_python", "Python"), ("pyarrow_for_pypaimon", "pyarrow (pypaimon venv)"),
                     ("pypaimon_rust", "pypaimon-rust"), ("pyarrow_for_pypaimon_rust", "pyarrow (pypaimon-rust venv)"),
                     ("java_opts", "JVM options")]:
        L.append("| %s | %s |" % (label, env.get(k) or "(default)"))
    L.append("| load average (1/5/15 min) | start %s, end %s |" % (
        "/".join("%.1f" % x for x in env["loadavg_start"]), "/".join("%.1f" % x for x in env.get("loadavg_end", ()))))
    if env.get("cpu_steal") is not None:
        L.append("| CPU time stolen by the hypervisor during the run | %.0f%% |" % (100 * env["cpu_steal"]))
    L.append("")
    L.append("## Results")
    L.append("")
    L.append("![results](results.png)")
    L.append("")
    L.append("| operation | implementation | median | min – max | rate | × go | peak RSS | runs ok |")
    L.append("|---|---|---:|---:|---:|---:|---:|---:|")
    for op in summary:
        first = True
        for impl in IMPLS:
            s = summary[op].get(impl)
            if s is None:
                continue
            name = "**%s**" % op if first else ""
            first = False
            if s.get("median") is None:
                L.append("| %s | %s | %s | | | | | 0/%d |" % (name, impl, s.get("status", "?"), s["runs"]))
                continue
            L.append("| %s | %s | %s | %s – %s | %s | %s | %d MiB | %d/%d |" % (
                name, impl, fmt_secs(s["median"]), fmt_secs(s["min"]), fmt_secs(s["max"]),
                fmt_rate(s["rows"], s["median"], op),
                "%.2f" % s["vs_go"] if s.get("vs_go") else "", s["peak_rss_kb"] // 1024, s["ok"], s["runs"]))
    L.append("")
    L.append("Operations:")
    L.append("")
    desc = descriptions(scale)
    for op in summary:
        L.append("- `%s`: %s." % (op, desc[op]))
    L.append("")
    L.append("Implementations:")
    L.append("")
    for impl in IMPLS:
        L.append("- `%s`: %s." % (impl, IMPL_NOTES[impl]))
    L.append("")
    L.extend(targets_markdown(summary))
    notes = os.path.join(os.path.dirname(os.path.abspath(__file__)), "NOTES.md")
    if doc["scale"] == "full" and os.path.exists(notes):
        with open(notes) as f:
            L.append(f.read().rstrip("\n"))
        L.append("")
    gaps = [(op, impl, s) for op in summary for impl, s in summary[op].items() if s.get("status")]
    if gaps:
        L.append("## Not measured or failed")
        L.append("")
        L.append("| operation | implementation | status | reason |")
        L.append("|---|---|---|---|")
        for op, impl, s in gaps:
            L.append("| %s | %s | %s | %s |" % (op, impl, s["status"], s.get("reason", "").replace("|", "\\|")[:200]))
        L.append("")
    L.append("## Method")
    L.append("")
    L.append("- Tables are written by Java Paimon 1.4.2 (`bench/java/PaimonBench.java gen`), so every "
             "implementation reads the same bytes. Parquet, zstd (level 1), page cache warm (each table is read "
             "once before its operation).")
    L.append("- Timed: planning and reading every row (rows are counted; each batch is released), or writing and "
             "committing. Not timed: process start, imports, opening the catalog and table, generating the rows to "
             "write.")
    L.append("- Java runs %d untimed warm-up iteration(s) of a read in the same JVM before the timed one (JIT); "
             "Go and Python have no JIT and are measured in cold processes. results.json keeps Java's first "
             "iterations (`first_iteration_median`)." % doc["jvm_warmup"])
    L.append("- Planning: 1 warm-up and the median of 5 plans per process. Commit: 1 warm-up and the median of "
             "10 commits per process, each with a fresh committer on a fresh copy of the table; the 10-row data "
             "file of each commit is written before the clock starts. Catalog caches are off (Java "
             "`cache-enabled=false`).")
    L.append("- Filter: `id >= %d AND id < %d` pushed down and applied exactly." % (
        doc["params"]["lo"], doc["params"]["hi"]))
    L.append("- Raw limits read the data files a full scan plans (listed by Java), with no merging, deletion "
             "vectors or filtering, so their row counts for the primary-key tables are the file rows.")
    if doc.get("order") == "rotated":
        L.append("- Within a repetition the implementations run one after the other; the order rotates each "
                 "repetition.")
    else:
        L.append("- Within a repetition the implementations ran one after the other in the same order every "
                 "repetition (`go` first; the suite now rotates the order).")
    L.append("")
    L.append("## Tables")
    L.append("")
    L.append("Scale `%s`: `%s`. Generated in %s." % (
        scale_name, " ".join("%s=%s" % kv for kv in scale.items()),
        ("%.0f s" % gen_info["seconds"]) if gen_info.get("seconds") else "an earlier run"))
    L.append("")
    L.append("| table | splits | data files | rows in files | files with deletion vectors | levels | other |")
    L.append("|---|---:|---:|---:|---:|---|---|")
    for name, m in meta.items():
        other = []
        if "distinct" in m:
            other.append("%d rows written, %d distinct keys" % (m["written"], m["distinct"]))
        if "snapshots" in m:
            other.append("%d snapshots" % m["snapshots"])
        L.append("| %s | %s | %s | %s | %s | %s | %s |" % (
            name, m.get("splits", ""), m.get("files", ""), m.get("file_rows", ""), m.get("files_with_dv", ""),
            m.get("levels", ""), "; ".join(other)))
    L.append("")
    with open(path, "w") as f:
        f.write("\n".join(L))


def write_chart(path, doc):
    summary, scale_name, env = doc["summary"], doc["scale"], doc["environment"]
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        log("matplotlib is missing: no chart")
        return
    ops = [op for op in summary if any(s.get("median") for s in summary[op].values())]
    if not ops:
        return
    cols = 3
    rows = (len(ops) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(15, 3.6 * rows), squeeze=False)
    palette = {"go": "#00add8", "go-parallel": "#0089a8", "java": "#e76f00", "java-parallel": "#b35600",
               "pypaimon": "#3776ab", "pypaimon-rust": "#8b4513", "raw-pqarrow": "#9e9e9e", "raw-pyarrow": "#c8c8c8"}
    for ax, op in zip(axes.flat, ops):
        impls = [i for i in IMPLS if summary[op].get(i, {}).get("median")]
        vals = [summary[op][i]["median"] for i in impls]
        ax.barh(range(len(impls)), vals, color=[palette[i] for i in impls])
        ax.set_yticks(range(len(impls)))
        ax.set_yticklabels(impls, fontsize=8)
        ax.invert_yaxis()
        ax.set_title("%s" % op, fontsize=10)
        ax.set_xlabel("seconds (median)", fontsize=8)
        ax.tick_params(axis="x", labelsize=8)
        for y, i in enumerate(impls):
            r = summary[op][i].get("vs_go")
            label = fmt_secs(summary[op][i]["median"]) + ("  ×%.2f" % r if r else "")
            ax.text(summary[op][i]["median"], y, " " + label, va="center", fontsize=7)
        ax.set_xlim(0, max(vals) * 1.45)
    for ax in list(axes.flat)[len(ops):]:
        ax.axis("off")
    fig.suptitle("paimon-go benchmark suite, scale %s, %s, %d cores (%s)" % (
        scale_name, env["cpu"], env["cores"] or 0, env["date"]), fontsize=11)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(here)
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scale", choices=sorted(SCALES), default="full")
    ap.add_argument("--reps", type=int, default=5, help="processes per (operation, implementation)")
    ap.add_argument("--ops", default=",".join(OPS), help="comma-separated operations")
    ap.add_argument("--impls", default=",".join(IMPLS), help="comma-separated implementations")
    ap.add_argument("--timeout", type=float, default=1800, help="seconds before one process is killed")
    ap.add_argument("--jvm-warmup", type=int, default=1, help="untimed JVM iterations before a timed read")
    ap.add_argument("--out", default=here, help="directory for RESULTS.md, results.json and results.png")
    ap.add_argument("--home", required=True, help="cache directory (bench/run.sh sets it)")
    ap.add_argument("--interop-home", required=True)
    ap.add_argument("--pypaimon-python", required=True)
    ap.add_argument("--rust-python", required=True)
    ap.add_argument("--tables-only", action="store_true", help="generate the tables, print the warehouse, exit")
    ap.add_argument("--report-only", action="store_true",
                    help="rewrite RESULTS.md and results.png from the results.json in --out; measure nothing")
    args = ap.parse_args()
    if args.report_only:
        with open(os.path.join(args.out, "results.json")) as f:
            report(args.out, json.load(f))
        return
    ops = [o for o in args.ops.split(",") if o]
    impls = [i for i in args.impls.split(",") if i]
    for o in ops:
        if o not in OPS:
            ap.error("unknown operation %s" % o)
    for i in impls:
        if i not in IMPLS:
            ap.error("unknown implementation %s" % i)
    scale = SCALES[args.scale]
    if ops and all(o in COMPACT_OPS + COMPACT_PK_OPS for o in ops) and not args.tables_only:
        # The compaction operations need only their own tables: skip generating the others.
        wh = os.path.join(args.home, "tables", "%s-compact-%s" % (args.scale, TABLES_VERSION), "warehouse")
        os.makedirs(wh, exist_ok=True)
        for name, body in (("meta.json", {}), (os.path.join("..", "READY"), {"scale": scale, "compact_only": True})):
            if not os.path.exists(os.path.join(wh, name)):
                with open(os.path.join(wh, name), "w") as f:
                    json.dump(body, f)
    else:
        wh = ensure_tables(args, scale)
    if args.tables_only:
        print(wh)
        return
    if any(o in COMPACT_OPS for o in ops):
        ensure_compact_tables(args, scale, wh)
    if any(o in COMPACT_PK_OPS for o in ops):
        ensure_compact_pk_tables(args, scale, wh)
    if any(o in ORC_OPS for o in ops):
        ensure_orc_tables(args, scale, wh)
    if any(o in PKWRITE_OPS for o in ops):
        ensure_pkwrite_tables(args, scale, wh)
    with open(os.path.join(wh, "meta.json")) as f:
        meta = json.load(f)
    for extra in ("meta-compact.json", "meta-compact-pk.json", "meta-orc.json", "meta-pkwrite.json"):
        if os.path.exists(os.path.join(wh, extra)):
            with open(os.path.join(wh, extra)) as f:
                meta.update(json.load(f))
    with open(os.path.join(os.path.dirname(wh), "READY")) as f:
        gen_info = json.load(f)
    rows = meta.get("scan", {}).get("file_rows", 0)
    lo = rows * 42 // 100  # ops.FilterRange in Go
    params = dict(lo=lo, hi=lo + rows // 100, rows=rows)
    env = environment(args, repo)
    log("machine: %s, %s cores, load %s" % (env["cpu"], env["cores"], env["loadavg_start"]))
    start = time.time()
    runs = measure(args, wh, meta, params, ops, impls)
    env["loadavg_end"] = os.getloadavg()
    end = cpu_times()
    if end and env.get("cpu_times_start"):
        total, steal = end[0] - env["cpu_times_start"][0], end[1] - env["cpu_times_start"][1]
        if total > 0:
            # A virtual machine's CPUs may be busy elsewhere: stolen time slows every implementation alike but
            # widens the spread of the samples.
            env["cpu_steal"] = steal / total
    doc = {"scale": args.scale, "scale_params": scale, "reps": args.reps, "jvm_warmup": args.jvm_warmup,
           "order": "rotated",
           "params": params, "environment": env, "tables": meta, "generation": gen_info,
           "wall_seconds": time.time() - start, "ops": ops, "impls": impls, "runs": runs}
    report(args.out, doc)


def report(out, doc):
    """Writes results.json, RESULTS.md and results.png of a run."""
    doc["summary"] = summarize(doc["runs"], doc["ops"], doc["impls"])
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "results.json"), "w") as f:
        json.dump(doc, f, indent=1)
    write_markdown(os.path.join(out, "RESULTS.md"), doc)
    write_chart(os.path.join(out, "results.png"), doc)
    log("wrote %s/RESULTS.md, results.json and results.png (%.0f s of measurements)" % (out, doc["wall_seconds"]))


if __name__ == "__main__":
    main()
