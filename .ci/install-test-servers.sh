#!/usr/bin/env bash
# Installs the object-store servers the store tests run (internal/testservers): versitygw (S3), fake-gcs-server
# (GCS) and Azurite (Azure Blob), into ${PAIMON_TEST_SERVERS_CACHE:-$HOME/.cache/paimon-go-servers}:
#
#   bin/versitygw  bin/fake-gcs-server  azurite/node_modules/.bin/azurite-blob  stamps/<name>@<version>
#
# Idempotent: a step whose stamp exists (and whose executable is there) is skipped, so a warm run is a no-op.
# Only the Go module proxy and the npm registry are contacted. Needs go, node and npm.
set -euo pipefail

cache=${PAIMON_TEST_SERVERS_CACHE:-$HOME/.cache/paimon-go-servers}
VERSITYGW_VERSION=v1.8.0
FAKE_GCS_VERSION=v1.56.1
AZURITE_VERSION=3.37.0

mkdir -p "$cache/bin" "$cache/stamps"
log() { printf 'install-test-servers: %s\n' "$*" >&2; }
need() { command -v "$1" >/dev/null 2>&1 || { log "missing required tool: $1"; exit 1; }; }

# step NAME@VERSION EXECUTABLE COMMAND...: runs COMMAND unless the stamp and the executable exist, then stamps.
step() {
  local stamp="$cache/stamps/$1" exe=$2 start
  shift 2
  if [ -f "$stamp" ] && [ -x "$exe" ]; then
    log "${stamp##*/}: cached"
    return
  fi
  start=$(date +%s)
  log "${stamp##*/}: installing"
  rm -f "$stamp"
  "$@"
  if [ ! -x "$exe" ]; then
    log "${stamp##*/}: $exe missing after install"
    exit 1
  fi
  touch "$stamp"
  log "${stamp##*/}: installed in $(( $(date +%s) - start ))s"
}

go_install() { need go; GOBIN="$cache/bin" go install "$1"; }
npm_install() {
  need node; need npm
  npm install --prefix "$cache/azurite" --no-audit --no-fund --save-exact "azurite@$AZURITE_VERSION"
}

total=$(date +%s)
step "versitygw@$VERSITYGW_VERSION" "$cache/bin/versitygw" \
  go_install "github.com/versity/versitygw/cmd/versitygw@$VERSITYGW_VERSION"
step "fake-gcs-server@$FAKE_GCS_VERSION" "$cache/bin/fake-gcs-server" \
  go_install "github.com/fsouza/fake-gcs-server@$FAKE_GCS_VERSION"
step "azurite@$AZURITE_VERSION" "$cache/azurite/node_modules/.bin/azurite-blob" npm_install
log "done in $(( $(date +%s) - total ))s ($cache)"
