/**
 * The log of API calls the emulator answered, for tests that assert what a client did (e.g. "no push
 * happened"). Headers are never recorded, so no credential can end up here.
 */

/** One answered (or dropped) call. */
export interface CallRecord {
  seq: number;
  /** Emulator-clock time the call arrived. */
  time: string;
  method: string;
  path: string;
  /** The raw query string, without the leading `?`. */
  query: string;
  /** HTTP status, or null when the connection was dropped by a fault. */
  status: number | null;
  request_id: string;
}

/** Most calls kept; older ones are forgotten first. */
export const MAX_CALLS = 10_000;

export class CallLog {
  private calls: CallRecord[] = [];
  private seq = 0;

  record(call: Omit<CallRecord, 'seq'>): void {
    this.seq += 1;
    this.calls.push({ seq: this.seq, ...call });
    if (this.calls.length > MAX_CALLS) this.calls.splice(0, this.calls.length - MAX_CALLS);
  }

  list(): CallRecord[] {
    return [...this.calls];
  }

  clear(): void {
    this.calls = [];
  }
}
