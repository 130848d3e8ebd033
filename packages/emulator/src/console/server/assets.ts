/**
 * The console's bundled browser code (dist/console-ui/, built by scripts/build-console.mjs from
 * src/console/ui/). Both this module's source (src/console/server/) and its build
 * (dist/console/server/) sit three levels below the package root, so one relative path finds the
 * bundle from either.
 */
import { readFile } from 'node:fs/promises';

const BUNDLE_DIR = new URL('../../../dist/console-ui/', import.meta.url);

/**
 * The files the console serves, by the name in `/console/assets/<name>`, with their content types.
 * A `Map`: a request's name looked up in an object would find `constructor` or `__proto__`.
 */
export const CONSOLE_ASSET_TYPES: ReadonlyMap<string, string> = new Map([
  ['app.js', 'text/javascript; charset=utf-8'],
  ['style.css', 'text/css; charset=utf-8'],
]);

const cache = new Map<string, Promise<Buffer>>();

/** The bytes of asset `name`; rejects with a hint when the bundle was not built. */
export function consoleAsset(name: string): Promise<Buffer> {
  let bytes = cache.get(name);
  if (bytes === undefined) {
    bytes = readFile(new URL(name, BUNDLE_DIR)).catch((err: unknown) => {
      cache.delete(name);
      throw new Error(
        `the console bundle ${name} is missing: run "npm run build" in packages/emulator (${String(err)})`,
      );
    });
    cache.set(name, bytes);
  }
  return bytes;
}
