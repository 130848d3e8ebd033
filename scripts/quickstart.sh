#!/usr/bin/env bash
# The main job on a fresh clone: install, build, then run the sample CSV HRIS connector into the
# embedded emulator and read back the provider and data source it created.
set -euo pipefail
cd "$(dirname "$0")/.."
export TURBO_TELEMETRY_DISABLED=1
if [ ! -d node_modules ]; then
  bash scripts/install.sh
fi
npm run build >/dev/null
cd examples/quickstart
oaa() { node ../../packages/cli/bin/run.js "$@"; }
echo '$ oaa run --config oaa.config.yaml'
oaa run --config oaa.config.yaml
echo
echo '$ oaa providers list'
oaa providers list
echo
echo '$ oaa datasources list --provider "Acme HR"'
oaa datasources list --provider "Acme HR"
