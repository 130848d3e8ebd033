#!/usr/bin/env bash
# Installs the workspace's npm packages from package-lock.json.
# `npm ci` is tried first. The package registry this project is built against does not serve the
# other-platform builds of some optional native packages (rollup's and turbo's for macOS, Windows,
# Android...), so npm cannot record them in the lockfile and `npm ci` may refuse it as out of sync;
# `npm install` then installs the same locked versions. npm ci's own explanation of the refusal
# (a screen of "Missing: ... from lock file") is kept in a log, not printed.
set -euo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp "${TMPDIR:-/tmp}/oaakit-npm-ci-XXXXXX.log")
trap 'rm -f "$log"' EXIT
if npm ci --no-audit --no-fund >"$log" 2>&1; then
  grep -v '^npm warn' "$log" || true
elif grep -q 'EUSAGE' "$log"; then
  missing=$(grep -c 'Missing: .* from lock file' "$log" || true)
  echo "npm ci refused the lockfile ($missing optional packages for other platforms are not served here); installing the locked versions with npm install" >&2
  npm install --no-audit --no-fund
else
  cat "$log" >&2
  exit 1
fi
