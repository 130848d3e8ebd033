/**
 * Fault injection for tests: the next N calls matching a method and path pattern fail with a given
 * status and code, are delayed, or lose their connection.
 */
import { randomUUID } from 'node:crypto';
import type { ErrorCode } from './errors.js';
import { pathMatcher } from './glob.js';

/** What a fault does and which calls it hits. */
export interface FaultSpec {
  /** HTTP method to match, or `*` (default). */
  method: string;
  /** Path pattern; `*` matches any run of characters, `?` one (default `*`). The query string is ignored. */
  path: string;
  /** How many matching calls it hits (default 1). */
  count: number;
  /** Answer with this status (and `code`, derived from the status when absent). */
  status?: number;
  code?: ErrorCode;
  message?: string;
  /** Seconds for a `Retry-After` header. */
  retry_after_s?: number;
  /** Delay before the call is answered or failed. */
  latency_ms?: number;
  /** Destroy the connection without an answer. */
  drop?: boolean;
}

/** A registered fault. */
export interface Fault extends FaultSpec {
  id: string;
  remaining: number;
}

/** The registered faults, matched in registration order. */
export class FaultStore {
  private faults: { fault: Fault; matches: (path: string) => boolean }[] = [];

  add(spec: FaultSpec): Fault {
    const fault: Fault = { ...spec, id: randomUUID(), remaining: spec.count };
    this.faults.push({ fault, matches: pathMatcher(spec.path) });
    return fault;
  }

  /** How many faults are registered. */
  get size(): number {
    return this.faults.length;
  }

  list(): Fault[] {
    return this.faults.map((f) => ({ ...f.fault }));
  }

  remove(id: string): boolean {
    const before = this.faults.length;
    this.faults = this.faults.filter((f) => f.fault.id !== id);
    return this.faults.length < before;
  }

  clear(): void {
    this.faults = [];
  }

  /** Consumes one hit of the first fault matching the call, if any. */
  take(method: string, path: string): Fault | undefined {
    const hit = this.faults.find(
      (f) => (f.fault.method === '*' || f.fault.method === method) && f.matches(path),
    );
    if (!hit) return undefined;
    hit.fault.remaining -= 1;
    if (hit.fault.remaining <= 0) this.faults = this.faults.filter((f) => f !== hit);
    return { ...hit.fault };
  }
}
