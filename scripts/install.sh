#!/usr/bin/env bash
# Installs the workspace's npm packages from package-lock.json.
# `npm ci` is tried first. The package registry this project is built against does not serve the
# other-platform builds of some optional native packages (rollup's and turbo's for macOS, Windows,
# Android...), so npm cannot record them in the lockfile and `npm ci` may refuse it as out of sync;
# `npm install` then installs the same locked versions.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! npm ci --no-audit --no-fund; then
  echo "npm ci refused the lockfile (optional packages for other platforms are not served here); using npm install" >&2
  npm install --no-audit --no-fund
fi
