#!/usr/bin/env bash
# The project's whole test run, from a fresh clone: install, build, lint, typecheck, import-cycle
# check, then the test suite on this machine's Node (20) and again on Node 24.
set -euo pipefail
cd "$(dirname "$0")/.."
export TURBO_TELEMETRY_DISABLED=1 NEXT_TELEMETRY_DISABLED=1

step() { printf '\n== %s\n' "$*"; }

step "system packages"
bash scripts/setup-system.sh
step "install"
npm ci --no-audit --no-fund
step "build"
npm run build
step "typecheck"
npm run typecheck
step "lint"
npm run lint
step "import cycles and layering"
npm run cycles

step "tests on $(node --version)"
npx vitest run

step "tests on Node 24"
bash scripts/with-node24.sh node node_modules/vitest/vitest.mjs run
