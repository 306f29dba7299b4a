#!/usr/bin/env bash
# Installs the reference implementations the interop harness runs: Java Paimon (1.4.2 and 2.0.0) and pypaimon,
# into $PAIMON_INTEROP_HOME (default ${XDG_CACHE_HOME:-$HOME/.cache}/paimon-go-interop). Idempotent: each step
# writes a stamp named after a hash of its inputs and is skipped when the stamp exists, so a warm run takes a
# second. Only Maven Central and PyPI are contacted.
#
#   bash interop/setup.sh            # everything
#   PAIMON_INTEROP_JAVA_VERSIONS="1.4.2" PAIMON_INTEROP_PY_VERSIONS="" bash interop/setup.sh
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
H=${PAIMON_INTEROP_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/paimon-go-interop}
JAVA_VERSIONS=${PAIMON_INTEROP_JAVA_VERSIONS-1.4.2 2.0.0}
PY_VERSIONS=${PAIMON_INTEROP_PY_VERSIONS-2.1.0}
mkdir -p "$H"

log() { printf 'interop/setup.sh: %s\n' "$*" >&2; }
hash_of() { cat "$@" | sha256sum | cut -c1-16; }

need() { command -v "$1" >/dev/null 2>&1 || { log "missing required tool: $1"; exit 1; }; }

install_java() {
  local v=$1 dir="$H/java/$1" profile deps_stamp cls_stamp
  need mvn; need javac; need java
  case $v in
    1.4.2) profile=paimon-1.4 ;;
    2.0.0) profile=paimon-2.0 ;;
    *) log "unknown Java Paimon version $v"; exit 1 ;;
  esac
  deps_stamp="$dir/lib/.stamp-$(echo "$v" | cat - "$here/java/pom.xml" | sha256sum | cut -c1-16)"
  if [ ! -f "$deps_stamp" ]; then
    log "Java Paimon $v: resolving dependencies"
    rm -rf "$dir/lib"; mkdir -p "$dir/lib"
    timeout 900 mvn -B -q -Dstyle.color=never -f "$here/java/pom.xml" -P"$profile" \
      org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy-dependencies \
      -DincludeScope=runtime -DoutputDirectory="$dir/lib"
    if [ "$v" = 2.0.0 ]; then
      # paimon-bundle 2.0.0 is not served; paimon-flink-2.0 2.0.0 shades it, but its parent POM is missing, so
      # dependency resolution refuses it. Fetch the single jar from Maven Central (see the pom's comment).
      timeout 900 mvn -B -q -Dstyle.color=never org.codehaus.mojo:wagon-maven-plugin:2.0.2:download-single \
        -Dwagon.url=https://repo.maven.apache.org/maven2 \
        -Dwagon.fromFile=org/apache/paimon/paimon-flink-2.0/2.0.0/paimon-flink-2.0-2.0.0.jar \
        -Dwagon.toFile="$dir/lib/paimon-flink-2.0-2.0.0.jar"
    fi
    touch "$deps_stamp"
  fi
  # RestCatalogServerMain runs Java's REST catalog test server, which only the 1.4.2 test jar has.
  local sources=("$here/java/PaimonInterop.java")
  [ "$v" = 1.4.2 ] && sources+=("$here/java/RestCatalogServerMain.java")
  cls_stamp="$dir/classes/.stamp-$(hash_of "${sources[@]}")"
  if [ -f "$cls_stamp" ]; then log "Java Paimon $v: up to date"; return; fi
  log "Java Paimon $v: compiling ${sources[*]##*/}"
  rm -rf "$dir/classes"; mkdir -p "$dir/classes"
  javac -nowarn --release 17 -encoding UTF-8 -cp "$dir/lib/*" -d "$dir/classes" "${sources[@]}"
  touch "$cls_stamp"
}

# The plans the class-data-sharing archive is trained on (install_cds): primary-key tables with compaction,
# deletion vectors and a lookup changelog, append tables, row tracking, and every file format.
CDS_PLANS="pk-dedup pk-deletion-vectors pk-changelog-lookup append-fixed-bucket row-tracking all-types-parquet
all-types-orc all-types-avro"

# install_cds makes the JVM start of every harness command cheaper: a Paimon command spends most of its ~4 s of
# CPU loading and verifying classes from the jars. A dynamic class-data-sharing archive (JDK 13+,
# -XX:ArchiveClassesAtExit) of the classes a training run loads maps them ready-made, which cuts a command's CPU
# by more than half. CDS archives classes from jars only, so the harness classes are jarred; the archive is
# valid only for this JVM build and these exact jars (the JVM checks their sizes and times and silently ignores
# a stale archive), so the stamp hashes the JVM version and the installed files. internal/interop.Java uses
# cds/interop.jar and cds/paimon.jsa when both exist; the java options below must keep the classpath it uses.
install_cds() {
  local v=$1 dir="$H/java/$1" java=${JAVA_HOME:+$JAVA_HOME/bin/}java stamp wh script p t opens=() rc=0
  stamp="$dir/cds/.stamp-$( { "$java" -version 2>&1; ls -lA --time-style=+%s "$dir/lib" "$dir/classes";
    for p in $CDS_PLANS; do cat "$here/plans/$p.json"; done; declare -f install_cds; } | sha256sum | cut -c1-16)"
  if [ -f "$stamp" ]; then return; fi
  need jar
  log "Java Paimon $v: class-data-sharing archive"
  rm -rf "$dir/cds"; mkdir -p "$dir/cds"
  jar --create --file "$dir/cds/interop.jar" -C "$dir/classes" .
  wh=$(mktemp -d); script="$wh/train.tsv"
  for p in $CDS_PLANS; do
    t=$(sed -n 's/.*"table": *"\([^"]*\)".*/\1/p' "$here/plans/$p.json" | head -1)
    printf '%s\tapply\t%s\t%s\n' "$wh/out" "$wh/w" "$here/plans/$p.json" >>"$script"
    printf '%s\tdump\t%s\tinterop.%s\n' "$wh/out" "$wh/w" "$t" >>"$script"
    printf '%s\tdump\t%s\tinterop.%s\t--mode\taudit\n' "$wh/out" "$wh/w" "$t" >>"$script"
    printf '%s\tmeta\t%s\tinterop.%s\tfiles\n' "$wh/out" "$wh/w" "$t" >>"$script"
  done
  for t in snapshots schemas options manifests tags partitions buckets; do
    printf '%s\tmeta\t%s\tinterop.pk_dedup\t%s\n' "$wh/out" "$wh/w" "$t" >>"$script"
  done
  printf '%s\tdump\t%s\tinterop.pk_changelog_lookup\t--incremental\t1,3\n' "$wh/out" "$wh/w" >>"$script"
  # The --add-opens of internal/interop.Java, which the training run needs as the tests do.
  for p in java.lang java.lang.invoke java.lang.reflect java.io java.net java.nio java.util java.util.concurrent \
    java.util.concurrent.atomic jdk.internal.ref sun.nio.ch sun.nio.cs sun.security.action sun.util.calendar; do
    opens+=("--add-opens=java.base/$p=ALL-UNNAMED")
  done
  "$java" -Xss4m -XX:+IgnoreUnrecognizedVMOptions "${opens[@]}" -Duser.timezone=UTC \
    -Xlog:disable -Xlog:all=error:stderr -XX:ArchiveClassesAtExit="$dir/cds/paimon.jsa" \
    -cp "$dir/cds/interop.jar:$dir/lib/*" PaimonInterop batch "$script" >"$wh/log" 2>&1 || rc=$?
  # The archive must map: -Xshare:on fails where the JVM would silently run without it.
  if [ $rc -ne 0 ] || ! "$java" -Xshare:on -XX:SharedArchiveFile="$dir/cds/paimon.jsa" \
    -cp "$dir/cds/interop.jar:$dir/lib/*" -version >>"$wh/log" 2>&1; then
    tail -20 "$wh/log" >&2; rm -rf "$wh" "$dir/cds"
    log "Java Paimon $v: the class-data-sharing training run failed"; exit 1
  fi
  rm -rf "$wh"
  touch "$stamp"
}

install_python() {
  local v=$1 dir="$H/py/$1" req="$here/python/requirements-$1.txt" stamp
  need python3
  [ -f "$req" ] || { log "no $req"; exit 1; }
  stamp="$dir/.stamp-$(hash_of "$req")"
  if [ -f "$stamp" ]; then log "pypaimon $v: up to date"; return; fi
  log "pypaimon $v: creating venv"
  rm -rf "$dir"
  python3 -m venv "$dir"
  timeout 900 "$dir/bin/pip" install -q --disable-pip-version-check -r "$req"
  touch "$stamp"
}

for v in $JAVA_VERSIONS; do install_java "$v"; install_cds "$v"; done
for v in $PY_VERSIONS; do install_python "$v"; done
log "ready in $H"
