/**
 * A real BullMQ worker of the runs queue that a test drives by hand: it takes one waiting job when
 * told to, and can be held at the point where a worker that took a scheduled job has not yet added
 * the scheduler's next one. BullMQ does the two in separate steps (take the job, then add the next
 * tick), so a scheduler registering its schedule in between finds the tick taken and no next one.
 * Not part of the build (see tsconfig.json).
 *
 * The hold goes through BullMQ's telemetry interface: the worker traces adding the next tick as an
 * `add` span, and the context manager runs that span's work only once the test releases it.
 */
import { randomUUID } from 'node:crypto';
import { Worker } from 'bullmq';
import type { ContextManager, Job, Span, Telemetry, Tracer } from 'bullmq';
import { Redis } from 'ioredis';
import { KEY_PREFIX, RUNS_QUEUE } from '../connection.js';
import { RUN_JOB_NAME } from '../run-jobs.js';
import type { RunJobData } from '../run-jobs.js';

/** The span in which a worker adds the next tick of the scheduler of the job it took. */
const NEXT_TICK_SPAN = `add ${RUNS_QUEUE}.${RUN_JOB_NAME}`;

/** A job taken by a worker that holds before adding the next tick. */
export interface HeldTick {
  /** The lock token of the taken job, as its worker holds it. */
  token: string;
  /** Lets the worker add the next tick; resolves with the job it took once it has. */
  release(): Promise<Job<RunJobData>>;
}

export interface TickTaker {
  /** Takes the oldest waiting job (and adds its scheduler's next tick, as every worker does). */
  take(): Promise<Job<RunJobData>>;
  /** Takes the oldest waiting job and stops before adding its scheduler's next tick. */
  takeAndHold(): Promise<HeldTick>;
  close(): Promise<void>;
}

interface Context {
  span?: string;
}

export function startTickTaker(url: string): TickTaker {
  const connection = new Redis(url, { maxRetriesPerRequest: null });
  /** Set while a take waits to be held: called on reaching the next tick's span. */
  let hold: ((work: () => unknown) => unknown) | undefined;
  const span = (name: string): Span<Context> => ({
    setSpanOnContext: (context) => ({ ...context, span: name }),
    setAttribute: () => undefined,
    setAttributes: () => undefined,
    addEvent: () => undefined,
    recordException: () => undefined,
    end: () => undefined,
  });
  const tracer: Tracer<Context> = { startSpan: (name) => span(name) };
  const contextManager: ContextManager<Context> = {
    with<A extends (...args: unknown[]) => unknown>(context: Context, fn: A): ReturnType<A> {
      const held = hold;
      if (context.span !== NEXT_TICK_SPAN || held === undefined) return fn() as ReturnType<A>;
      hold = undefined;
      return held(fn) as ReturnType<A>;
    },
    active: () => ({}),
    getMetadata: () => '',
    fromMetadata: (active) => active,
  };
  const telemetry: Telemetry<Context> = { tracer, contextManager };
  let closed: Promise<void> | undefined;
  const worker = new Worker<RunJobData>(RUNS_QUEUE, null, {
    connection,
    prefix: KEY_PREFIX,
    autorun: false,
    telemetry,
  });

  async function next(token = randomUUID()): Promise<Job<RunJobData>> {
    const job = (await worker.getNextJob(token, { block: false })) as Job<RunJobData> | undefined;
    if (job === undefined) throw new Error('no waiting job to take');
    return job;
  }

  return {
    take: () => next(),
    async takeAndHold() {
      let reached!: () => void;
      const atNextTick = new Promise<void>((resolve) => (reached = resolve));
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      hold = (work) => {
        reached();
        return released.then(work);
      };
      const token = randomUUID();
      const taking = next(token);
      // The take ends only after the release; a job without a scheduler never reaches the span.
      await Promise.race([
        atNextTick,
        taking.then(() => {
          throw new Error('the job taken has no scheduler: there is no next tick to hold');
        }),
      ]);
      return {
        token,
        release: () => {
          release();
          return taking;
        },
      };
    },
    close() {
      hold = undefined;
      // A held take stays held: closed, the worker never adds the next tick.
      closed ??= (async () => {
        await worker.close(true);
        connection.disconnect();
      })();
      return closed;
    },
  };
}
