/**
 * The name of a new plugin package: checked against npm's rules for new package names, and the
 * names derived from it that the template needs (connector id, display name, type, variable).
 */
import { builtinModules } from 'node:module';
import { OaaError } from '@oaakit/core';
import { SCAFFOLD_ERROR_CODES } from './scaffold-codes.js';

/** npm's limit on the length of a package name. */
export const MAX_PACKAGE_NAME_LENGTH = 214;

const PART = /^[a-z0-9-][a-z0-9._-]*$/;
const RESERVED = new Set(['node_modules', 'favicon.ico']);

/** What is wrong with `name` as the name of a new npm package; undefined when nothing is. */
export function packageNameProblem(name: string): string | undefined {
  if (name === '') return 'it is empty';
  if (name.trim() !== name) return 'it has leading or trailing spaces';
  if (name.length > MAX_PACKAGE_NAME_LENGTH) return `it is longer than ${MAX_PACKAGE_NAME_LENGTH} characters`;
  if (name.toLowerCase() !== name) return 'it has capital letters';
  const scoped = /^@([^/]*)\/(.*)$/.exec(name);
  if (name.startsWith('@') && scoped === null) return 'a scoped name looks like @scope/name';
  const parts = scoped === null ? [name] : [scoped[1]!, scoped[2]!];
  for (const part of parts) {
    if (part === '') return 'a scoped name looks like @scope/name';
    if (part.startsWith('.') || part.startsWith('_')) return 'it starts with "." or "_"';
    if (!PART.test(part))
      return 'it may hold only lower-case letters, digits, "-", "." and "_" (and one "@scope/")';
  }
  if (RESERVED.has(name)) return `"${name}" is reserved`;
  if (builtinModules.includes(name)) return `"${name}" is a Node.js core module`;
  return undefined;
}

/** Throws `PLUGIN_NAME_INVALID` unless `name` is a valid name for a new npm package. */
export function assertPackageName(name: string): void {
  const problem = packageNameProblem(name);
  if (problem === undefined) return;
  throw new OaaError(`"${name}" is not a valid npm package name: ${problem}`, {
    code: SCAFFOLD_ERROR_CODES.PLUGIN_NAME_INVALID,
    details: { name, problem },
    hints: [
      'use lower-case letters, digits and dashes, optionally scoped: oaa-plugin-wiki or @acme/oaa-plugin-wiki',
    ],
  });
}

/** The names a new plugin's files use, all derived from its package name. */
export interface PluginNames {
  /** The npm package name, e.g. `@acme/oaa-plugin-wiki`. */
  packageName: string;
  /** The package name without its scope, e.g. `oaa-plugin-wiki`: the default directory name. */
  bareName: string;
  /** The connector id, e.g. `wiki`: lower-case letters, digits and dashes, starting with a letter. */
  connectorId: string;
  /** For people, e.g. `Wiki`. */
  displayName: string;
  /** The application, idp or hris type in the payload, e.g. `wiki` (graph nodes `OAA.wiki.User`). */
  sourceType: string;
  /** The environment variable the example config reads the token from, e.g. `WIKI_TOKEN`. */
  tokenVariable: string;
}

/** Words around the actual name that say "this is a plugin", e.g. `oaa-plugin-wiki`, `wiki-connector`. */
const PREFIX = /^(?:oaakit-|oaa-)?(?:plugin|connector)-/;
const SUFFIX = /-(?:oaakit-|oaa-)?(?:plugin|connector)$/;

/** The names derived from a valid package name. */
export function pluginNames(packageName: string): PluginNames {
  const bareName = packageName.replace(/^@[^/]+\//, '');
  const stem = bareName.replace(PREFIX, '').replace(SUFFIX, '');
  let connectorId = stem.replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  if (connectorId === '') connectorId = 'connector';
  if (!/^[a-z]/.test(connectorId)) connectorId = `connector-${connectorId}`;
  const words = connectorId.split('-');
  return {
    packageName,
    bareName,
    connectorId,
    displayName: words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' '),
    sourceType: words.join('_'),
    tokenVariable: `${words.join('_').toUpperCase()}_TOKEN`,
  };
}
