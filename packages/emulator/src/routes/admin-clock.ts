/**
 * `/_emulator/clock` (admin): read, set, advance, freeze and unfreeze the emulator's time. A change
 * evaluates the event subscriptions it made due before answering.
 */
import type { FastifyInstance } from 'fastify';
import { allow, ADMIN } from '../auth/route-access.js';
import type { EmulatorContext } from '../context.js';
import { badField } from '../errors.js';

function clockView(ctx: EmulatorContext): { now: string; frozen: boolean } {
  return { now: ctx.clock.iso(), frozen: ctx.clock.frozen };
}

/** Registers the clock routes. */
export function registerClockRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get('/_emulator/clock', allow(ADMIN), () => clockView(ctx));
  app.post('/_emulator/clock', allow(ADMIN), async (req) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    if (typeof b !== 'object' || Array.isArray(b)) throw badField('body', 'must be a JSON object');
    if (b.set !== undefined && (typeof b.set !== 'string' || !Number.isFinite(Date.parse(b.set))))
      throw badField('set', 'must be an RFC 3339 time');
    if (b.advance_ms !== undefined && (typeof b.advance_ms !== 'number' || !Number.isFinite(b.advance_ms)))
      throw badField('advance_ms', 'must be a number of milliseconds');
    if (b.frozen !== undefined && typeof b.frozen !== 'boolean')
      throw badField('frozen', 'must be a boolean');
    if (b.frozen === true) ctx.clock.freeze();
    if (typeof b.set === 'string') ctx.clock.set(b.set);
    if (typeof b.advance_ms === 'number') ctx.clock.advance(b.advance_ms);
    if (b.frozen === false) ctx.clock.unfreeze();
    // Moving time evaluates the event subscriptions that became due; answered once they are sent.
    await ctx.subscriptions.tick();
    return clockView(ctx);
  });
}
