#!/usr/bin/env bash
# Runs a command with Node 24 first on PATH (from the `node` npm package), rebuilding native addons
# for Node 24's ABI first and restoring the default Node's build afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
npx -y node@24 --version >/dev/null
node24_pkg=$(dirname "$(dirname "$(npx -y node@24 -p 'process.execPath')")")
bin_dir=$(mktemp -d)
ln -s "$(npx -y node@24 -p 'process.execPath')" "$bin_dir/node"
headers=$(find "$node24_pkg" -path '*/include/node/node_api.h' -print -quit)
headers_root=${headers%/include/node/node_api.h}

native=()
[ -d node_modules/better-sqlite3 ] && native+=(better-sqlite3)
restore() {
  if [ ${#native[@]} -gt 0 ]; then
    npm rebuild "${native[@]}" >/dev/null 2>&1 || echo "warning: could not rebuild ${native[*]} for $(node --version)" >&2
  fi
  rm -rf "$bin_dir"
}
trap restore EXIT
if [ ${#native[@]} -gt 0 ]; then
  PATH="$bin_dir:$PATH" npm_config_nodedir="$headers_root" npm rebuild "${native[@]}" >/dev/null
fi
echo "node: $(PATH="$bin_dir:$PATH" node --version) (${node24_pkg})"
PATH="$bin_dir:$PATH" "$@"
