/**
 * Where things are in a manifest file: the line and column of the value (or key) at a manifest
 * path, and of a character inside a JSONata expression written there, so that every error can say
 * `file:line:column: streams.users.pagination.limit: ...`.
 */
import {
  isCollection,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  parseDocument,
  type Document,
  type Node,
} from 'yaml';

/** A path in the manifest: keys and list positions, e.g. `['streams', 'users', 'path']`. */
export type ManifestPath = readonly (string | number)[];

/** A place in the file: 1-based line and column. */
export interface Position {
  line: number;
  column: number;
}

/** One problem of a manifest, where it is and what is wrong. */
export interface ManifestProblem extends Position {
  /** The manifest path, e.g. `streams.users.pagination.limit`. */
  path: string;
  message: string;
}

/** `['streams', 'users', 'partitions', 0]` -> `streams.users.partitions[0]`. */
export function formatPath(path: ManifestPath): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? part : `.${part}`;
  }
  return out === '' ? '(the manifest)' : out;
}

/** A parsed manifest file with the positions of its nodes. */
export class ManifestFile {
  readonly doc: Document.Parsed;
  private readonly lines: LineCounter;
  private readonly textLines: string[];

  constructor(
    /** The name errors give, e.g. the path as the user wrote it. */
    readonly name: string,
    readonly text: string,
  ) {
    this.lines = new LineCounter();
    this.doc = parseDocument(text, { lineCounter: this.lines, keepSourceTokens: true, prettyErrors: false });
    this.textLines = text.split(/\r?\n/);
  }

  /** The position of a character offset of the file. */
  at(offset: number): Position {
    const { line, col } = this.lines.linePos(offset);
    return { line, column: col };
  }

  /** The node at `path`, or the nearest ancestor that exists (and how much of the path it covers). */
  private nearest(path: ManifestPath): { node: Node | undefined; depth: number; keyNode?: Node } {
    let node: unknown = this.doc.contents;
    let keyNode: Node | undefined;
    for (let depth = 0; depth < path.length; depth++) {
      const part = path[depth]!;
      if (isMap(node)) {
        const pair = node.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === part);
        if (pair === undefined) return { node: node, depth };
        keyNode = pair.key as Node;
        if (pair.value === null || pair.value === undefined)
          return { node: keyNode, depth: depth + 1, keyNode };
        node = pair.value;
      } else if (isSeq(node) && typeof part === 'number') {
        const item = node.items[part];
        if (item === undefined) return { node: node, depth };
        keyNode = undefined;
        node = item;
      } else {
        return { node: node as Node | undefined, depth };
      }
    }
    return { node: node as Node | undefined, depth: path.length, ...(keyNode ? { keyNode } : {}) };
  }

  /**
   * Where the value at `path` is (its key, with `key`), else where its nearest existing ancestor
   * is: a missing field is reported at the mapping it is missing from.
   */
  locate(path: ManifestPath, options: { key?: boolean } = {}): Position {
    const found = this.nearest(path);
    const node =
      options.key === true && found.depth === path.length && found.keyNode ? found.keyNode : found.node;
    const offset = node?.range?.[0];
    return offset === undefined ? { line: 1, column: 1 } : this.at(offset);
  }

  /**
   * Where character `offset` of the string value at `path` is in the file: exact for one-line
   * values and block scalars (`|`), the value's first line otherwise (folded text has no one place).
   */
  locateIn(path: ManifestPath, offset: number): Position {
    const found = this.nearest(path);
    const node = found.depth === path.length ? found.node : undefined;
    if (!isScalar(node) || typeof node.value !== 'string' || node.range === undefined || node.range === null)
      return this.locate(path);
    const start = this.at(node.range[0]);
    const value = node.value;
    const before = value.slice(0, Math.max(0, Math.min(offset, value.length)));
    const lineInValue = before.split('\n').length - 1;
    const columnInLine = before.length - (before.lastIndexOf('\n') + 1);
    if (node.type === 'BLOCK_LITERAL' || node.type === 'BLOCK_FOLDED') {
      const line = start.line + 1 + lineInValue;
      const text = this.textLines[line - 1] ?? '';
      const indent = text.length - text.trimStart().length;
      return { line, column: indent + columnInLine + 1 };
    }
    if (!value.includes('\n') && !this.textAt(start).includes('\n')) {
      const quoted = node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE' ? 1 : 0;
      return { line: start.line, column: start.column + quoted + columnInLine };
    }
    return start;
  }

  private textAt(position: Position): string {
    return this.textLines[position.line - 1] ?? '';
  }

  /** A problem at `path` (at its key, with `key`). */
  problem(
    path: ManifestPath,
    message: string,
    options: { key?: boolean; offset?: number } = {},
  ): ManifestProblem {
    const at =
      options.offset === undefined ? this.locate(path, options) : this.locateIn(path, options.offset);
    return { path: formatPath(path), line: at.line, column: at.column, message };
  }

  /** Whether the value at `path` is a collection written in the file (a mapping or a list). */
  isCollection(path: ManifestPath): boolean {
    const found = this.nearest(path);
    return found.depth === path.length && isCollection(found.node);
  }
}

/** `file:line:column: path: message`, as compilers print it (editors link it). */
export function formatProblem(file: string, problem: ManifestProblem): string {
  return `${file}:${problem.line}:${problem.column}: ${problem.path}: ${problem.message}`;
}
