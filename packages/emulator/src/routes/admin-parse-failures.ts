/**
 * `/_emulator/parse_failures` (admin): make the next push to a data source be answered 200 and then
 * reported failed (data source status FAILED, an OAA_PUSH event of severity ERROR), as a service
 * that parses after answering can. For testing clients that wait for the parse outcome.
 */
import type { FastifyInstance } from 'fastify';
import { allow, ADMIN } from '../auth/route-access.js';
import type { EmulatorContext } from '../context.js';
import { badField, notFound } from '../errors.js';

/** Registers the parse-failure control. */
export function registerParseFailureRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.post('/_emulator/parse_failures', allow(ADMIN), (req) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    if (typeof b.data_source_id !== 'string' || b.data_source_id === '')
      throw badField('data_source_id', 'must be the id of a data source');
    const message = b.message ?? 'the payload could not be parsed';
    if (typeof message !== 'string' || message.length > 1024)
      throw badField('message', 'must be a string of at most 1024 characters');
    const exists = ctx.db.prepare('SELECT 1 FROM data_sources WHERE id = ?').get(b.data_source_id);
    if (exists === undefined) throw notFound('datasource', b.data_source_id);
    ctx.db
      .prepare(
        'INSERT INTO parse_failures (data_source_id, message) VALUES (?, ?) ON CONFLICT (data_source_id) DO UPDATE SET message = excluded.message',
      )
      .run(b.data_source_id, message);
    return { value: { data_source_id: b.data_source_id, message } };
  });
}
