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

for v in $JAVA_VERSIONS; do install_java "$v"; done
for v in $PY_VERSIONS; do install_python "$v"; done
log "ready in $H"
