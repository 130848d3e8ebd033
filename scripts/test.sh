#!/usr/bin/env bash
# The project's whole test run, from a fresh clone: install, build, lint, typecheck, the checks that
# nothing reaches outside the repository and that no comment or document cites a tracker entry or a
# document the repository lacks, import-cycle check, then the test suite on this machine's Node (20)
# and again on Node 24.
set -euo pipefail
cd "$(dirname "$0")/.."
export TURBO_TELEMETRY_DISABLED=1 NEXT_TELEMETRY_DISABLED=1

step() { printf '\n== %s\n' "$*"; }

step "system packages"
bash scripts/setup-system.sh
step "install"
bash scripts/install.sh
step "build"
npm run build
step "public API report"
# Each package's exported surface against packages/<pkg>/etc/<pkg>.api.md (`npm run api` updates them).
npm run api:check
step "plugin scaffold: generate, build and test a plugin from each template"
bash scripts/test-scaffold.sh
step "release: publish to a local registry, install oaa from it, then scaffold, build, test and run a plugin"
npm run test:release
step "typecheck"
npm run typecheck
step "lint"
npm run lint
step "self-contained: nothing reads or names a path outside the repository"
node scripts/check-self-contained.mjs
step "references: no tracker citation, no document outside the repository"
node scripts/check-references.mjs
step "import cycles and layering"
npm run cycles

reports=.test-reports
rm -rf "$reports"
status=0
step "tests on $(node --version)"
# The large multipart test (over 100 MB compressed through :parts) runs once, on Node 20.
OAA_LARGE_TESTS=1 npx vitest run --reporter=default --reporter=json --outputFile.json="$reports/node20.json" || status=$?

step "tests on Node 24"
bash scripts/with-node24.sh node node_modules/vitest/vitest.mjs run \
  --reporter=default --reporter=json --outputFile.json="$reports/node24.json" || status=$?

step "summary"
node scripts/test-summary.mjs "$reports/node20.json" "$reports/node24.json" || status=1
exit "$status"
