#!/usr/bin/env bash
# Runs the test suite N times in a row (default 3) while `stress --cpu 2` keeps both cores busy:
# the suite must hold on a loaded machine, since no test may depend on how concurrent work
# interleaves. Installs Debian's `stress` when it is missing. Needs the packages built
# (npm run build). Usage: bash scripts/test-loaded.sh [RUNS] [vitest args...]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
shift || true
if ! command -v stress >/dev/null 2>&1; then
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends stress
fi
stress --cpu 2 >/dev/null 2>&1 &
stress_pid=$!
trap 'kill "$stress_pid" 2>/dev/null || true; wait "$stress_pid" 2>/dev/null || true' EXIT
failed=0
for run in $(seq 1 "$runs"); do
  printf '\n== loaded run %s of %s (stress --cpu 2)\n' "$run" "$runs"
  if ! npx vitest run "$@"; then
    failed=$((failed + 1))
  fi
done
printf '\n== %s of %s loaded runs failed\n' "$failed" "$runs"
[ "$failed" -eq 0 ]
