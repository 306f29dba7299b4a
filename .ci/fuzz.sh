#!/usr/bin/env bash
# Runs every Go fuzz target of the module for a bounded time each (FUZZTIME,
# default 10s; any value `go test -fuzztime` accepts, such as 30s or 500x).
# A crasher makes `go test` fail and store the input under the package's
# testdata/fuzz/<Target>/; this script then lists the new inputs and exits 1,
# so that they get committed and replay as regression cases in every later
# `go test` run. Usage: bash .ci/fuzz.sh [package-dir-regexp]
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

FUZZTIME=${FUZZTIME:-10s}
filter=${1:-.}
failed=()
ran=0

# Existing corpus files, to tell new crashers from committed ones.
before=$(mktemp)
trap 'rm -f "$before"' EXIT
find . -path '*/testdata/fuzz/*' -type f | sort >"$before"

while IFS=: read -r file _ decl; do
  dir=$(dirname "$file")
  name=$(sed -E 's/^func (Fuzz[A-Za-z0-9_]*)\(.*/\1/' <<<"$decl")
  [[ $dir =~ $filter ]] || continue
  echo "=== fuzz $dir $name ($FUZZTIME)"
  ran=$((ran + 1))
  out=$(go test -run '^$' -fuzz "^${name}\$" -fuzztime "$FUZZTIME" "./${dir#./}" 2>&1)
  rc=$?
  echo "$out"
  # Go's fuzzing engine itself sometimes fails a target with a bare "context deadline exceeded" when -fuzztime ends
  # while a worker is still busy (no crasher is stored then; seen on FuzzParse, which uses no context). Run such a
  # target once more; a crasher or any other failure is never retried.
  if [ $rc -ne 0 ] && grep -qx '    context deadline exceeded' <<<"$out" && ! grep -q 'Failing input written' <<<"$out"; then
    echo "=== fuzz $dir $name: the engine's deadline error, once more"
    go test -run '^$' -fuzz "^${name}\$" -fuzztime "$FUZZTIME" "./${dir#./}"
    rc=$?
  fi
  if [ $rc -ne 0 ]; then
    failed+=("$dir $name")
  fi
done < <(grep -rn --include='*_test.go' -E '^func Fuzz[A-Za-z0-9_]*\(' . | sort)

new=$(find . -path '*/testdata/fuzz/*' -type f | sort | comm -13 "$before" -)
echo
echo "fuzz targets run: $ran, failed: ${#failed[@]}"
if [ -n "$new" ]; then
  echo "new crashers (commit them as regression inputs):"
  for f in $new; do
    echo "--- $f"
    cat "$f"
  done
fi
if [ ${#failed[@]} -gt 0 ] || [ -n "$new" ]; then
  printf 'FAILED: %s\n' "${failed[@]}"
  exit 1
fi
