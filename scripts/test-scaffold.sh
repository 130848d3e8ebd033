#!/usr/bin/env bash
# Proves that every plugin template generates a working plugin: for each payload template,
# `oaa plugins new` generates a plugin inside this checkout, then it is linted with this
# repository's rules, built, type-checked and its own tests run (the connector against the
# emulator, and the acceptance kit's checks), `npm run test:acceptance` (`oaa plugins test` on the
# plugin's recorded source) must report no failed check, `oaa plugins list` must find it with its
# template, and `oaa run --dry-run` must run it on its fixture through its oaa.config.yaml.
# The manifest template (a declarative REST connector, no code) is generated the same way, and its
# manifest must pass `oaa manifest check`, `npm test` (the check and the acceptance kit on its
# recording) and `oaa run --dry-run --replay` on its recording.
#
# The plugin goes to plugins/.scaffold-check-<template>-<pid>: inside the checkout, so @oaakit/*,
# typescript and vitest resolve to this checkout's node_modules (the workspace links) with no
# install; a dot directory, so the workspaces glob, turbo and the root vitest run never pick it up.
# Then, as a user would outside any checkout: `oaa plugins new` in a temporary directory, and the
# "Next:" commands it prints run exactly as printed (npm install with the file: dependencies on this
# checkout's packages, build, test, oaa run --dry-run).
# Needs the packages built (npm run build). Removes what it generated, also on failure.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
oaa() { node "$root/packages/cli/bin/run.js" "$@"; }

templates=("$@")
if [ ${#templates[@]} -eq 0 ]; then templates=(application identity_provider hris manifest); fi

created=()
cleanup() { for dir in "${created[@]}"; do rm -rf "$dir"; done; }
outside=$(mktemp -d "${TMPDIR:-/tmp}/oaa-scaffold-outside-XXXXXX")
created+=("$outside")
trap cleanup EXIT

for template in "${templates[@]}"; do
  name="oaa-plugin-scaffold-check-${template//_/-}"
  dir="plugins/.scaffold-check-$template-$$"
  created+=("$root/$dir")
  printf '\n== %s: oaa plugins new %s --template %s --dir %s\n' "$template" "$name" "$template" "$dir"
  oaa plugins new "$name" --template "$template" --dir "$dir" >/dev/null
  if [ "$template" = manifest ]; then
    (
      cd "$dir"
      token="SCAFFOLD_CHECK_MANIFEST_TOKEN=unused"
      printf -- '-- oaa manifest check\n'
      oaa manifest check manifest.yaml >/dev/null
      printf -- '-- npm test (the check, then the acceptance kit on the recording)\n'
      env "$token" npm test --silent
      printf -- '-- oaa run --dry-run --replay fixtures/source.har\n'
      env "$token" node "$root/packages/cli/bin/run.js" run --dry-run --replay fixtures/source.har >/dev/null
    )
    printf -- '-- %s: ok\n' "$template"
    continue
  fi
  printf -- '-- lint\n'
  npx --no-install eslint --max-warnings 0 --parser-options "project:$dir/tsconfig.test.json" "$dir"
  (
    cd "$dir"
    printf -- '-- build\n'
    npm run --silent build
    printf -- '-- typecheck\n'
    npm run --silent typecheck
    printf -- '-- test\n'
    npm test --silent
    printf -- '-- npm run test:acceptance\n'
    env "SCAFFOLD_CHECK_${template^^}_TOKEN=unused" npm run --silent test:acceptance
    printf -- '-- oaa plugins list\n'
    listed=$(oaa plugins list --json)
    node -e '
      const [id, template] = process.argv.slice(1);
      const plugins = JSON.parse(require("node:fs").readFileSync(0, "utf8"));
      const p = plugins.find((x) => x.id === id);
      if (!p || p.template !== template || !p.supported || p.error) {
        console.error(`oaa plugins list does not show ${id} (${template}) as a working plugin:`, JSON.stringify(plugins, null, 2));
        process.exit(1);
      }' "scaffold-check-${template//_/-}" "$template" <<<"$listed"
    printf -- '-- oaa run --dry-run\n'
    env "SCAFFOLD_CHECK_${template^^}_TOKEN=unused" node "$root/packages/cli/bin/run.js" run --dry-run >/dev/null
  )
  printf -- '-- %s: ok\n' "$template"
done

printf '\n== outside the checkout: oaa plugins new oaa-plugin-outside in %s, then the printed next steps\n' "$outside"
(
  cd "$outside"
  printed=$(oaa plugins new oaa-plugin-outside --template application)
  steps=$(sed -n '/^Next:$/,$p' <<<"$printed" | tail -n +2 | sed 's/^  //')
  if [ -z "$steps" ]; then
    echo "oaa plugins new printed no next steps:" >&2
    echo "$printed" >&2
    exit 1
  fi
  printf -- '-- %s\n' "$steps"
  # Run as printed, with this checkout's oaa off the PATH: `npx oaa` must find the plugin's own.
  env -u npm_config_prefix bash -euo pipefail -c "$steps" >/dev/null
)
printf -- '-- outside the checkout: ok\n'
