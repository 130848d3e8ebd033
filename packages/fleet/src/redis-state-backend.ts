/**
 * The state of a fleet's connectors in Redis, so every worker sees what any worker committed: one
 * hash per connector (`oaa:state:<id>`) whose fields are the entries the runner writes (`state.json`
 * with the ids, digest, counts and connector cursors; the gzip snapshot; `last-run.json`) plus a
 * version counter, a set of the connector ids, and one lock per data source (`redis-lock.ts`).
 *
 * A commit is one Lua script, so it is atomic: it checks that the committer still holds its lock
 * and that the version is the one it read, then writes every entry and bumps the version. A late
 * worker (paused past its lease while another worker ran the data source) is refused with
 * `STATE_CONFLICT` instead of overwriting newer state. Entries are held in memory while written:
 * the snapshot is gzip, and Redis keeps values up to 512 MB.
 */
import type { Redis } from 'ioredis';
import { OaaError } from '@oaakit/core';
import { RUNNER_ERROR_CODES, stateConflict } from '@oaakit/runner';
import type {
  BackendLockOptions,
  EntryCommit,
  EntryWriter,
  HeldLock,
  StateBackend,
  VersionedEntry,
} from '@oaakit/runner';
import { KEY_PREFIX } from './connection.js';
import { acquireRedisLock } from './redis-lock.js';

const VERSION_FIELD = '@version';
const NO_VERSION = '0';

// KEYS: hash, lock, ids. ARGV: expected version, lock token, connector id, number of puts, name/value pairs, removed names.
const COMMIT = `
if ARGV[2] ~= '' then
  local held = redis.call('GET', KEYS[2])
  if not held or cjson.decode(held).token ~= ARGV[2] then return redis.error_reply('LOCK_LOST') end
end
local current = redis.call('HGET', KEYS[1], '${VERSION_FIELD}') or '${NO_VERSION}'
if ARGV[1] ~= '' and current ~= ARGV[1] then return redis.error_reply('CONFLICT') end
local i = 5
for _ = 1, tonumber(ARGV[4]) do
  redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
  i = i + 2
end
while i <= #ARGV do
  redis.call('HDEL', KEYS[1], ARGV[i])
  i = i + 1
end
redis.call('SADD', KEYS[3], ARGV[3])
return redis.call('HINCRBY', KEYS[1], '${VERSION_FIELD}', 1)
`;

/** An entry written into memory until its commit. */
class BufferedEntry implements EntryWriter {
  private chunks: Buffer[] = [];
  constructor(readonly backend: RedisStateBackend) {}
  write(chunk: Uint8Array): Promise<void> {
    this.chunks.push(Buffer.from(chunk));
    return Promise.resolve();
  }
  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
  discard(): Promise<void> {
    this.chunks = [];
    return Promise.resolve();
  }
}

/** Options of {@link RedisStateBackend}. */
export interface RedisStateBackendOptions {
  /** Lease of the data-source locks; renewed every third of it. Default 30 s. */
  leaseMs?: number;
  /** Key prefix; default `oaa`. */
  prefix?: string;
}

/** The runner's state entries and locks in Redis. */
export class RedisStateBackend implements StateBackend {
  private readonly prefix: string;
  readonly leaseMs: number;

  constructor(
    private readonly redis: Redis,
    options: RedisStateBackendOptions = {},
  ) {
    this.prefix = options.prefix ?? KEY_PREFIX;
    this.leaseMs = options.leaseMs ?? 30_000;
  }

  private hashKey(connectorId: string): string {
    return `${this.prefix}:state:${connectorId}`;
  }

  /** Key of a connector's lock. */
  lockKey(connectorId: string): string {
    return `${this.prefix}:lock:${connectorId}`;
  }

  private idsKey(): string {
    return `${this.prefix}:state-ids`;
  }

  locationOf(connectorId: string, name?: string): string {
    return `redis ${this.hashKey(connectorId)}${name === undefined ? '' : ` field ${name}`}`;
  }

  async connectors(): Promise<string[]> {
    return (await this.redis.smembers(this.idsKey())).sort();
  }

  async names(connectorId: string): Promise<string[]> {
    return (await this.redis.hkeys(this.hashKey(connectorId))).filter((n) => n !== VERSION_FIELD);
  }

  async read(connectorId: string, name: string): Promise<VersionedEntry> {
    const [data, version] = await this.redis.hmgetBuffer(this.hashKey(connectorId), name, VERSION_FIELD);
    return { data: data ?? undefined, version: version?.toString('utf8') ?? NO_VERSION };
  }

  open(): Promise<EntryWriter> {
    return Promise.resolve(new BufferedEntry(this));
  }

  async commit(connectorId: string, commit: EntryCommit): Promise<string> {
    const pairs: (string | Buffer)[] = [];
    for (const { name, data } of commit.put) {
      if (data instanceof BufferedEntry && data.backend === this) pairs.push(name, data.bytes());
      else if (data instanceof Uint8Array) pairs.push(name, Buffer.from(data));
      else throw new TypeError(`entry ${name}: a writer of another backend`);
    }
    const args = [
      commit.expectVersion ?? '',
      commit.lock?.holder.token ?? '',
      connectorId,
      String(commit.put.length),
      ...pairs,
      ...(commit.remove ?? []),
    ];
    try {
      const version = (await this.redis.eval(
        COMMIT,
        3,
        this.hashKey(connectorId),
        this.lockKey(connectorId),
        this.idsKey(),
        ...args,
      )) as number;
      return String(version);
    } catch (error) {
      const message = (error as Error).message;
      if (message.includes('CONFLICT')) throw stateConflict(connectorId, this.locationOf(connectorId));
      if (message.includes('LOCK_LOST')) throw lockLost(connectorId, this.lockKey(connectorId));
      throw error;
    }
  }

  lock(connectorId: string, options: BackendLockOptions): Promise<HeldLock> {
    return acquireRedisLock(this.redis, this.lockKey(connectorId), { ...options, leaseMs: this.leaseMs });
  }

  sweep(): Promise<void> {
    // Nothing is written outside a commit, so nothing is left behind.
    return Promise.resolve();
  }

  async reset(connectorId: string): Promise<boolean> {
    const [[, removed]] = (await this.redis
      .multi()
      .del(this.hashKey(connectorId))
      .srem(this.idsKey(), connectorId)
      .exec()) as [[Error | null, number]];
    return removed > 0;
  }
}

function lockLost(connectorId: string, key: string): OaaError {
  return new OaaError(
    `connector "${connectorId}": this run's lock ran out before its commit (another run may hold it now); not committing`,
    {
      code: RUNNER_ERROR_CODES.STATE_CONFLICT,
      retryable: true,
      details: { connectorId, lockKey: key },
      hints: ['the worker was paused or cut off from Redis for longer than the lock lease'],
    },
  );
}
