#!/usr/bin/env bash
# The paimon-go benchmark suite in one command (bench/README.md):
#
#   bash bench/run.sh                      # full scale (the issue's sizes), 5 repetitions
#   bash bench/run.sh --scale small        # 1/20 of the rows and files: a quick check
#   bash bench/run.sh --scale small --tables-only   # generate the tables, print the warehouse
#   bash bench/run.sh --ops scan-all,commit --impls go,java --reps 3
#
# Installs what it needs into $PAIMON_BENCH_HOME (default ${XDG_CACHE_HOME:-$HOME/.cache}/paimon-go-bench-suite):
# Java Paimon 1.4.2 and pypaimon 2.1.0 through interop/setup.sh (into $PAIMON_INTEROP_HOME, default
# $PAIMON_BENCH_HOME/interop), a venv with pypaimon-rust 0.4.0, a venv with matplotlib, the compiled
# PaimonBench.java and the gobench binary. Every step is idempotent. Then bench/run.py generates the tables
# once (cached by scale) and measures; the results land in bench/RESULTS.md, bench/results.json and
# bench/results.png. PAIMON_BENCH_JAVA_OPTS adds JVM options to every Java process.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
BH=${PAIMON_BENCH_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/paimon-go-bench-suite}
export PAIMON_INTEROP_HOME=${PAIMON_INTEROP_HOME:-$BH/interop}
mkdir -p "$BH"

log() { printf 'bench/run.sh: %s\n' "$*" >&2; }
hash_of() { cat "$@" | sha256sum | cut -c1-16; }
need() { command -v "$1" >/dev/null 2>&1 || { log "missing required tool: $1"; exit 1; }; }
need go; need java; need javac; need python3

# 1. Java Paimon 1.4.2 and pypaimon 2.1.0, exactly as the interop harness installs them.
PAIMON_INTEROP_JAVA_VERSIONS=1.4.2 PAIMON_INTEROP_PY_VERSIONS=2.1.0 bash "$root/interop/setup.sh"

# 2. The pypaimon-rust venv and the report venv.
venv() {
  local dir=$1 req=$2 stamp
  stamp="$dir/.stamp-$(hash_of "$req")"
  [ -f "$stamp" ] && return
  log "creating $dir"
  rm -rf "$dir"
  python3 -m venv "$dir"
  timeout 900 "$dir/bin/pip" install -q --disable-pip-version-check -r "$req"
  touch "$stamp"
}
venv "$BH/venv-rust" "$here/python/requirements-rust.txt"
venv "$BH/venv-report" "$here/python/requirements-report.txt"

# 3. The Java program, against the interop harness's Java Paimon 1.4.2 classpath.
lib="$PAIMON_INTEROP_HOME/java/1.4.2/lib"
cls_stamp="$BH/java-classes/.stamp-$(hash_of "$here/java/PaimonBench.java" <(ls "$lib"))"
if [ ! -f "$cls_stamp" ]; then
  log "compiling PaimonBench.java"
  rm -rf "$BH/java-classes"; mkdir -p "$BH/java-classes"
  javac -nowarn --release 17 -encoding UTF-8 -cp "$lib/*" -d "$BH/java-classes" "$here/java/PaimonBench.java"
  touch "$cls_stamp"
fi

# 4. The Go program (the go build cache makes this quick when nothing changed).
(cd "$root" && go build -o "$BH/bin/gobench" ./bench/cmd/gobench)

# 5. Generate (once) and measure.
exec "$BH/venv-report/bin/python" "$here/run.py" --home "$BH" --interop-home "$PAIMON_INTEROP_HOME" \
  --pypaimon-python "$PAIMON_INTEROP_HOME/py/2.1.0/bin/python" --rust-python "$BH/venv-rust/bin/python" "$@"
