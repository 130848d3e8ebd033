/** `/_emulator/calls` (admin): the recorded API calls (never their headers), and a reset. */
import type { FastifyInstance } from 'fastify';
import { allow, ADMIN } from '../auth/route-access.js';
import type { EmulatorContext } from '../context.js';
import { pathMatcher } from '../glob.js';

/** Registers the call log routes. */
export function registerCallRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get<{ Querystring: { method?: string; path?: string } }>('/_emulator/calls', allow(ADMIN), (req) => {
    const { method, path } = req.query;
    const matches = typeof path === 'string' ? pathMatcher(path) : undefined;
    const values = ctx.calls
      .list()
      .filter(
        (c) =>
          (typeof method !== 'string' || c.method === method.toUpperCase()) &&
          (matches === undefined || matches(c.path)),
      );
    return { values };
  });
  app.delete('/_emulator/calls', allow(ADMIN), () => {
    ctx.calls.clear();
    return {};
  });
}
