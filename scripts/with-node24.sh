#!/usr/bin/env bash
# Runs a command with Node 24 first on PATH. Node 24 comes from the `node-linux-<arch>` npm package,
# installed once into a cache directory. Native addons need no rebuild: on Node >= 22 the emulator
# uses better-sqlite3 13 (Node-API, prebuilt; see packages/emulator/src/db/sqlite.ts).
set -euo pipefail
cd "$(dirname "$0")/.."
arch=$(uname -m | sed 's/x86_64/x64/; s/aarch64/arm64/')
cache="${OAA_NODE24_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/oaakit/node24}"
root="$cache/node_modules/node-linux-$arch"
if [ ! -x "$root/bin/node" ]; then
  npm install --prefix "$cache" --no-save --no-audit --no-fund --loglevel=error "node-linux-$arch@24" >/dev/null
fi
echo "node: $(PATH="$root/bin:$PATH" node --version) ($root)"
PATH="$root/bin:$PATH" "$@"
