/**
 * The manifest a `oaa manifest` command names: a file, or the id of a manifest shipped in
 * `@oaakit/plugin-rest` (`scim`). Loaded when a command runs, not at start-up.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { OaaError } from '@oaakit/core';

/** The text of the manifest and the name errors give it. */
export interface ManifestText {
  /** As the user wrote it (a path), or the shipped file's name. */
  name: string;
  path: string;
  text: string;
}

/** Reads `spec`: a file, else a shipped manifest's id. Throws `FILE_UNREADABLE`. */
export async function readManifestFile(spec: string): Promise<ManifestText> {
  const { SHIPPED_MANIFESTS_DIR, shippedManifests } = await import('@oaakit/plugin-rest');
  const asFile = resolve(spec);
  const shipped = shippedManifests().includes(spec) && !existsSync(asFile);
  const path = shipped ? resolve(SHIPPED_MANIFESTS_DIR, `${spec}.yaml`) : asFile;
  try {
    return { name: shipped ? `${spec}.yaml` : spec, path, text: await readFile(path, 'utf8') };
  } catch (cause) {
    throw new OaaError(`cannot read the manifest ${spec}: ${(cause as Error).message}`, {
      code: 'FILE_UNREADABLE',
      cause,
      details: { file: spec },
      hints: [`give a manifest file, or a shipped manifest: ${shippedManifests().join(', ')}`],
    });
  }
}
