/**
 * A run's log never shows one of the run's secret values, wherever it is: in a message, in a field
 * of any name, in an error's text or stack, in a child's bindings; the logger's own redaction by
 * key still applies.
 */
import { CONNECTOR_API_VERSION, defineConnector, z } from '@oaakit/core';
import type { DestinationStream } from 'pino';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { runConnector } from './run-connector.js';
import { scrubbingLogger } from './scrubbing-logger.js';
import { StateStore } from '../state/state-store.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SECRET = 'tok-"quoted"-5f2a9c';
const SHORT = 'abc';

function capture(): { lines: string[]; destination: DestinationStream } {
  const lines: string[] = [];
  return { lines, destination: { write: (line: string) => void lines.push(line) } };
}

describe('the scrubbing logger', () => {
  it('takes secret values out of messages, fields, errors and child bindings', () => {
    const { lines, destination } = capture();
    const logger = scrubbingLogger(createLogger({ level: 'info', destination }), [SECRET, SHORT]);
    const error = new Error(`refused ${SECRET}`);
    logger.info(`GET https://src.example/?key=${SECRET} failed`);
    logger.warn({ request: { url: `https://src.example/?key=${SECRET}` }, attempt: 2 }, 'retrying');
    logger.error({ err: error }, 'gave up');
    logger.child({ endpoint: `https://${SECRET}@src.example` }).info('child line');
    logger.info({ apiKey: 'by-key-9999' }, 'redacted by key as before');
    logger.debug(`not logged at info: ${SECRET}`);
    logger.info('abcdef is an ordinary word');
    const text = lines.join('');
    expect(lines).toHaveLength(6);
    expect(text).not.toContain('tok-');
    expect(text).not.toContain('by-key-9999');
    expect(text).toContain('[REDACTED]');
    // What is not secret stays: the rest of the message, other fields, the error's type.
    const [first, second, third, fourth] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(first!['msg']).toBe('GET https://src.example/?key=[REDACTED] failed');
    expect(second).toMatchObject({ attempt: 2, request: { url: 'https://src.example/?key=[REDACTED]' } });
    expect(third!['err']).toMatchObject({ type: 'Error', message: 'refused [REDACTED]' });
    expect(String((third!['err'] as { stack: string }).stack)).toContain('refused [REDACTED]');
    expect(fourth!['endpoint']).toBe('https://[REDACTED]@src.example');
    // A value shorter than four characters would censor ordinary words; it is left alone.
    expect(JSON.parse(lines[5]!)).toMatchObject({ msg: 'abcdef is an ordinary word' });
  });

  it('cleans an object met twice in one call, and one that refers back to itself', () => {
    const { lines, destination } = capture();
    const logger = scrubbingLogger(createLogger({ level: 'info', destination }), [SECRET]);
    const shared = { url: `https://src.example/?key=${SECRET}` };
    const looped: Record<string, unknown> = { token_hint: `ends in ${SECRET}` };
    looped['self'] = looped;
    logger.info({ first: shared, second: shared, list: [shared] }, 'shared');
    logger.info({ looped }, 'looped');
    const text = lines.join('');
    expect(lines).toHaveLength(2);
    expect(text).not.toContain('5f2a9c');
    expect(JSON.parse(lines[0]!)).toMatchObject({
      first: { url: 'https://src.example/?key=[REDACTED]' },
      second: { url: 'https://src.example/?key=[REDACTED]' },
      list: [{ url: 'https://src.example/?key=[REDACTED]' }],
    });
    expect(JSON.parse(lines[1]!)).toMatchObject({ looped: { token_hint: 'ends in [REDACTED]' } });
  });

  it('is the logger itself when the run has no secret worth hiding', () => {
    const logger = createLogger({ level: 'silent' });
    expect(scrubbingLogger(logger, [])).toBe(logger);
    expect(scrubbingLogger(logger, ['ab'])).toBe(logger);
  });
});

describe('a run', () => {
  it('logs nothing of its secrets, whatever the connector and the runner write', async () => {
    const connector = defineConnector({
      id: 'chatty',
      version: '1.0.0',
      apiVersion: CONNECTOR_API_VERSION,
      template: 'application',
      configSchema: z.object({}),
      secrets: [{ name: 'token', description: 'the source token' }],
      extract(ctx) {
        ctx.logger.info(`calling https://api.example/users?access_token=${ctx.secrets.token}`);
        ctx.logger.warn({ header: `Bearer ${ctx.secrets.token}` }, 'odd answer');
        throw new Error(`the source refused ${ctx.secrets.token}`);
      },
    });
    const { lines, destination } = capture();
    const dir = await mkdtemp(join(tmpdir(), 'scrub-run-'));
    try {
      const failure = await runConnector({
        connector,
        config: {},
        secrets: { token: SECRET },
        provider: 'Chatty',
        dataSource: 'chatty',
        dryRun: true,
        state: new StateStore(join(dir, 'state')),
        logger: createLogger({ level: 'debug', destination }),
      }).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(Error);
      const text = lines.join('');
      expect(lines.length).toBeGreaterThanOrEqual(2);
      expect(text).toContain('access_token=[REDACTED]');
      expect(text).toContain('Bearer [REDACTED]');
      expect(text).not.toContain('5f2a9c');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
