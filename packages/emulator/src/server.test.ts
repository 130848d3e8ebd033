import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startEmulator } from './server.js';

function httpsGet(url: string, options: { ca: string; key: string }): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { ca: options.ca, headers: { authorization: `Bearer ${options.key}` } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('startEmulator', () => {
  it('serves HTTPS with a self-signed certificate that clients can trust', async () => {
    const emu = await startEmulator({ tls: true });
    try {
      expect(emu.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(emu.certificate).toContain('BEGIN CERTIFICATE');
      expect(
        await httpsGet(`${emu.url}/api/v1/providers/custom/templates`, {
          ca: emu.certificate!,
          key: emu.adminKey,
        }),
      ).toBe(200);
    } finally {
      await emu.close();
    }
  });

  it('keeps state in a database file across restarts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'oaa-emu-'));
    const dbPath = join(dir, 'state.db');
    try {
      const first = await startEmulator({ dbPath, apiKeys: [{ key: 'persist-key' }] });
      const headers = { authorization: 'Bearer persist-key', 'content-type': 'application/json' };
      const created = await fetch(`${first.url}/api/v1/providers/custom`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: 'kept', custom_template: 'application' }),
      });
      expect(created.status).toBe(200);
      await first.close();
      const second = await startEmulator({ dbPath, apiKeys: [{ key: 'persist-key' }] });
      try {
        const list = (await (await fetch(`${second.url}/api/v1/providers/custom`, { headers })).json()) as {
          values: { name: string }[];
        };
        expect(list.values.map((p) => p.name)).toEqual(['kept']);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('closes idempotently', async () => {
    const emu = await startEmulator();
    await Promise.all([emu.close(), emu.close()]);
    await expect(fetch(`${emu.url}/api/v1/providers/custom`)).rejects.toThrow();
  });
});
