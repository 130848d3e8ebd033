import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ClientLogger } from '../logger.js';
import { resolveRetry } from '../retry.js';
import { startClientTestEmulator, type ClientTestEmulator } from '../private-test-helpers/emulator.js';

let emu: ClientTestEmulator;
beforeEach(async () => {
  emu = await startClientTestEmulator();
});
afterEach(async () => {
  await emu?.close();
});

async function dataSources(n: number, prefix = 'ds'): Promise<string[]> {
  const client = emu.client();
  const { provider } = await client.providers.findOrCreate({ name: `P ${prefix}`, template: 'application' });
  const ids: string[] = [];
  for (let i = 0; i < n; i++)
    ids.push((await client.dataSources.create({ providerId: provider.id, name: `${prefix}${i}` })).id);
  return ids;
}

describe('client.events', () => {
  it('lists events matching a filter and a start time, across pages', async () => {
    const ids = await dataSources(5);
    const client = emu.client();
    const listed = await client.events
      .list({
        filter: 'event_type eq "DATASOURCE_REGISTERED"',
        since: new Date(Date.now() - 3600_000),
        pageSize: 2,
      })
      .toArray();
    expect(listed.map((e) => e.entity_id)).toEqual(ids);
    const none = await client.events.list({ since: new Date(Date.now() + 3600_000) }).toArray();
    expect(none).toEqual([]);
  });

  it('refuses a start more than 32 days back with the field error', async () => {
    const client = emu.client();
    await expect(
      client.events.list({ since: new Date(Date.now() - 40 * 86_400_000) }).toArray(),
    ).rejects.toMatchObject({
      status: 400,
      violations: [expect.objectContaining({ field: 'filter.start_time' })],
    });
  });

  it('exports a continuous log that resumes from any saved cursor, events arriving meanwhile included', async () => {
    const first = await dataSources(5, 'a');
    const client = emu.client();
    const seen: string[] = [];
    let cursor = '';
    for await (const { event, cursor: c } of client.events.export({ pageSize: 2 })) {
      if (event.event_type !== 'DATASOURCE_REGISTERED') continue;
      seen.push(event.entity_id!);
      cursor = c;
      if (seen.length === 3) break; // a reader stops mid-page
    }
    const later = await dataSources(3, 'b');
    for await (const { event } of client.events.export({ cursor, pageSize: 2 }))
      if (event.event_type === 'DATASOURCE_REGISTERED') seen.push(event.entity_id!);
    expect(seen).toEqual([...first, ...later]);
  });

  it('waits after ResourceExhaused as configured, then goes on', async () => {
    await dataSources(1);
    await emu.admin.faults.add({
      method: 'GET',
      path: '/api/v1/events/export',
      status: 429,
      code: 'ResourceExhaused',
    });
    const retries: Record<string, unknown>[] = [];
    const logger: ClientLogger = { debug: () => undefined, warn: (o) => void retries.push(o) };
    const client = emu.client({ retry: { resourceExhaustedDelayMs: 25 }, logger });
    const got = [];
    for await (const e of client.events.export()) got.push(e.event.event_type);
    expect(got).toEqual(['DATASOURCE_REGISTERED']);
    expect(retries).toEqual([
      expect.objectContaining({ code: 'ResourceExhaused', status: 429, delayMs: 25 }),
    ]);
    // Without a setting, the spec's minute.
    expect(resolveRetry(undefined).resourceExhaustedDelayMs).toBe(60_000);
  });

  it('follows the log until aborted', async () => {
    const client = emu.client();
    const controller = new AbortController();
    const got: string[] = [];
    const reading = (async () => {
      for await (const { event } of client.events.export({
        follow: true,
        pollIntervalMs: 20,
        signal: controller.signal,
      })) {
        got.push(event.entity_name ?? '');
        if (got.length === 2) controller.abort();
      }
    })();
    await dataSources(2, 'f');
    await expect(reading).rejects.toThrow();
    expect(got).toEqual(['f0', 'f1']);
  });
});
