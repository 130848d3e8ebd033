/**
 * Where the plugin template is. It lives in the repository at `templates/plugin`; the runner's
 * package carries a copy at `templates/plugin` (put there by `scripts/bundle-templates.js` when the
 * package is packed). The copy inside the package wins; from a checkout, the repository's own
 * directory is used, so an edit to the template is seen at once.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OaaError } from '@oaakit/core';
import { SCAFFOLD_ERROR_CODES } from './scaffold-codes.js';

/** The runner package's root: this file is `src/scaffold/` or `dist/scaffold/` below it. */
export const RUNNER_PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Where the template may be, in the order they are tried, for a runner package at `packageRoot`. */
export function pluginTemplateCandidates(packageRoot: string = RUNNER_PACKAGE_ROOT): string[] {
  return [join(packageRoot, 'templates', 'plugin'), resolve(packageRoot, '..', '..', 'templates', 'plugin')];
}

/** Whether `dir` looks like the plugin template (and not some other `templates/plugin`). */
export function isPluginTemplate(dir: string): boolean {
  return existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'variants'));
}

/** Where the manifest starter may be (`oaa plugins new --template manifest`), in the order tried. */
export function manifestTemplateCandidates(packageRoot: string = RUNNER_PACKAGE_ROOT): string[] {
  return [
    join(packageRoot, 'templates', 'manifest'),
    resolve(packageRoot, '..', '..', 'templates', 'manifest'),
  ];
}

/** Whether `dir` looks like the manifest starter. */
export function isManifestTemplate(dir: string): boolean {
  return existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'manifest.yaml'));
}

/** The manifest starter's directory; throws `TEMPLATE_MISSING` naming the places it looked. */
export function findManifestTemplate(packageRoot: string = RUNNER_PACKAGE_ROOT): string {
  const candidates = manifestTemplateCandidates(packageRoot);
  const found = candidates.find(isManifestTemplate);
  if (found !== undefined) return found;
  throw new OaaError(`the manifest starter was not found; looked in ${candidates.join(' and ')}`, {
    code: SCAFFOLD_ERROR_CODES.TEMPLATE_MISSING,
    details: { candidates },
    hints: ['reinstall @oaakit/runner (its package carries templates/manifest), or pass templateDir'],
  });
}

/** The plugin template's directory; throws `TEMPLATE_MISSING` naming the places it looked. */
export function findPluginTemplate(packageRoot: string = RUNNER_PACKAGE_ROOT): string {
  const candidates = pluginTemplateCandidates(packageRoot);
  const found = candidates.find(isPluginTemplate);
  if (found !== undefined) return found;
  throw new OaaError(`the plugin template was not found; looked in ${candidates.join(' and ')}`, {
    code: SCAFFOLD_ERROR_CODES.TEMPLATE_MISSING,
    details: { candidates },
    hints: ['reinstall @oaakit/runner (its package carries templates/plugin), or pass templateDir'],
  });
}
