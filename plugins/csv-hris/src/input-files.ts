/** The configured files: where they are, and one error naming every file that cannot be read, and why. */
import { access, constants, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { OaaError } from '@oaakit/core';
import type { CsvHrisConfig } from './config.js';
import type { CsvHrisErrorCode } from './error-codes.js';

/** Where a configured file is read from: relative paths start at the config file's directory. */
export function filePath(file: string, baseDir: string | undefined): string {
  return resolve(baseDir ?? process.cwd(), file);
}

/** The configured files as a list. */
export function configuredFiles(config: CsvHrisConfig): string[] {
  return typeof config.files === 'string' ? [config.files] : config.files;
}

/** A file that cannot be read, and why (`ENOENT: no such file`). */
export interface UnreadableFile {
  file: string;
  reason: string;
}

/** The file system's codes in words, for the users who do not know them by heart. */
const REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'a directory, not a file',
  ENOTDIR: 'a part of the path is not a directory',
  ELOOP: 'too many symbolic links',
  EIO: 'input/output error',
};

/** An error of the file system (it names a system call), rather than one of ours. */
export function isFileSystemError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).syscall === 'string';
}

function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== 'string') return error instanceof Error ? error.message : String(error);
  const words = REASONS[code];
  return words === undefined ? code : `${code}: ${words}`;
}

/** The error naming the files that cannot be read. */
export function unreadable(
  failed: UnreadableFile[],
  baseDir: string | undefined,
  cause?: unknown,
): OaaError<CsvHrisErrorCode> {
  return new OaaError<CsvHrisErrorCode>(
    `cannot read ${failed.map((f) => `${f.file} (${f.reason})`).join(', ')}`,
    {
      code: 'CSV_FILE_UNREADABLE',
      cause,
      details: { files: failed },
      hints: [
        `check the files setting of the connector: relative paths start at ${baseDir ?? 'the working directory'}`,
      ],
    },
  );
}

/** `error`, met reading `file`, as the error `assertReadable` would have thrown for it. */
export function readFailure(
  file: string,
  error: NodeJS.ErrnoException,
  baseDir: string | undefined,
): OaaError<CsvHrisErrorCode> {
  return unreadable([{ file, reason: reason(error) }], baseDir, error);
}

/**
 * Fails before any reading when a file cannot be read, naming every such file. A directory is
 * refused here: reading it fails only later, with a bare `EISDIR` that names no file.
 */
export async function assertReadable(files: string[], baseDir: string | undefined): Promise<void> {
  const failed: UnreadableFile[] = [];
  for (const file of files) {
    const path = filePath(file, baseDir);
    try {
      if ((await stat(path)).isDirectory()) {
        failed.push({ file, reason: `EISDIR: ${REASONS.EISDIR}` });
        continue;
      }
      await access(path, constants.R_OK);
    } catch (cause) {
      failed.push({ file, reason: reason(cause) });
    }
  }
  if (failed.length) throw unreadable(failed, baseDir);
}
