/** Reads an icon file for `oaa providers icon set`: PNG or SVG, at most the service's 64 KB. */
import { MAX_ICON_BYTES, OaaError } from '@oaakit/core';
import { formatBytes } from '../output/format.js';
import { readInputFile } from './read-payload-file.js';

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The icon's MIME type from its bytes, or undefined when it is neither PNG nor SVG. */
export function iconMimeType(bytes: Uint8Array): 'image/png' | 'image/svg+xml' | undefined {
  if (PNG_MAGIC.every((b, i) => bytes[i] === b)) return 'image/png';
  const head = Buffer.from(bytes.subarray(0, 1024))
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(head))
    return 'image/svg+xml';
  return undefined;
}

/** The icon's bytes and type; `ICON_INVALID` when the file is not a PNG or SVG or is too large. */
export async function readIconFile(path: string): Promise<{ bytes: Buffer; mimeType: string }> {
  const bytes = await readInputFile(path);
  const mimeType = iconMimeType(bytes);
  if (mimeType === undefined) {
    throw new OaaError(`${path} is neither a PNG nor an SVG image`, {
      code: 'ICON_INVALID',
      details: { path },
      hints: ['provider icons are PNG or SVG files'],
    });
  }
  if (bytes.byteLength > MAX_ICON_BYTES) {
    throw new OaaError(
      `${path} is ${formatBytes(bytes.byteLength)}; icons may be at most ${MAX_ICON_BYTES} bytes`,
      {
        code: 'ICON_INVALID',
        details: { path, bytes: bytes.byteLength, max: MAX_ICON_BYTES },
        hints: ['shrink the image (fewer pixels, or an optimised SVG)'],
      },
    );
  }
  return { bytes, mimeType };
}
