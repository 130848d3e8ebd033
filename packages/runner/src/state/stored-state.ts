/** The shape of `state.json`, the record of a data source's last successful push. */
import * as z from 'zod';
import { TEMPLATES } from '@oaakit/core';

/** Version of the state file format; a newer file is refused rather than misread. */
export const STATE_FORMAT_VERSION = 1;

const ref = z.strictObject({ id: z.string(), name: z.string() });

/** What the runner remembers about one connector's data source. */
export const storedStateSchema = z.strictObject({
  version: z.literal(STATE_FORMAT_VERSION),
  connectorId: z.string(),
  plugin: z.strictObject({ id: z.string(), version: z.string() }),
  template: z.enum(TEMPLATES),
  provider: ref,
  dataSource: ref,
  /** `digest(template, payload)` of the last pushed payload. */
  digest: z.string(),
  /** Entities per kind in the last pushed payload (the deletion guard's base). */
  counts: z.record(z.string(), z.number()),
  /** Entry name of the snapshot of the last push (its entity hashes), next to this one. */
  snapshot: z.string(),
  /** When the payload was last pushed. */
  pushedAt: z.string(),
  /** When this record was last written (a skipped run updates it too). */
  updatedAt: z.string(),
  /** The connector's `ctx.state` values. */
  connectorState: z.record(z.string(), z.unknown()),
});

/** The contents of `state.json`. */
export type StoredState = z.infer<typeof storedStateSchema>;
