/**
 * The console's sign-in and sign-out: `GET/POST /console/login` (public: this is where visitors
 * without a session are sent) and `POST /console/logout` (session, CSRF-checked). A successful
 * sign-in opens a session (cookie `oaa_emulator_session`) and goes back to `next`, a same-origin
 * path only. The sign-in form itself is protected against login CSRF by a double-submitted token.
 * Failed sign-ins are counted by email and by address, and lock sign-in for a while past a limit
 * (`../auth/sign-in-limits.ts`).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { recordAdminEvent } from '../auth/admin-events.js';
import { readCookie, setCookie } from '../auth/cookies.js';
import { sendPage } from '../pages/html.js';
import { loginPage } from '../pages/login-page.js';
import { verifyPassword } from '../auth/passwords.js';
import {
  checkCsrf,
  csrfToken,
  CSRF_FIELD,
  formField,
  requireSameOrigin,
  requireSession,
  safeNext,
  sameSecret,
  sessionOf,
  setSessionCookie,
  SIGN_IN_PATH,
} from '../auth/request-session.js';
import { closeSession, openSession, SESSION_COOKIE, SESSION_TTL_MS } from '../auth/sessions.js';
import { LOCKOUT_MS, type NewLock } from '../auth/sign-in-limits.js';
import { normalizeEmail, userWithPassword } from '../auth/users.js';
import { recordEvent } from '../../store/events.js';
import { allow, PUBLIC, SESSION } from '../../auth/route-access.js';
import type { EmulatorContext } from '../../context.js';

const LOGIN_CSRF_COOKIE = 'oaa_emulator_login_csrf';
const LOGIN_CSRF_TTL_S = 3600;

function showLogin(
  req: FastifyRequest,
  reply: FastifyReply,
  input: { next: string; email?: string; error?: string },
  status = 200,
): FastifyReply {
  const token = randomBytes(24).toString('base64url');
  setCookie(req, reply, LOGIN_CSRF_COOKIE, token, LOGIN_CSRF_TTL_S);
  return sendPage(reply, loginPage({ csrfToken: token, ...input }), status);
}

/** The sign-in page refusing an attempt while its email or address is locked: 429 with `Retry-After`. */
function tooManyAttempts(
  req: FastifyRequest,
  reply: FastifyReply,
  input: { next: string; email: string },
  waitMs: number,
): FastifyReply {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  const minutes = Math.ceil(seconds / 60);
  void reply.header('retry-after', String(seconds));
  const error = `Too many failed sign-ins. Sign-in is locked for ${minutes === 1 ? '1 minute' : `${minutes} minutes`}; try again then.`;
  return showLogin(req, reply, { ...input, error }, 429);
}

/** Records the start of a sign-in lock as an event (category SYSTEM, severity WARNING). */
function recordLockout(ctx: EmulatorContext, lock: NewLock): void {
  const minutes = LOCKOUT_MS / 60_000;
  recordEvent(ctx.db, {
    timestamp: ctx.clock.iso(),
    category: 'SYSTEM',
    severity: 'WARNING',
    name: 'User login locked',
    message:
      lock.kind === 'account'
        ? `Console sign-in as ${lock.subject} is locked for ${minutes} minutes after ${lock.failures} failed attempts`
        : `Console sign-in from ${lock.subject} is locked for ${minutes} minutes after ${lock.failures} failed attempts`,
    provider_id: null,
    entity: null,
    entity_id: lock.subject,
    entity_name: lock.subject,
    event_type: 'USER_LOGIN_LOCKED',
    error: null,
  });
}

/** Registers the sign-in page and sign-out. */
export function registerConsoleLoginRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get<{ Querystring: { next?: string } }>(SIGN_IN_PATH, allow(PUBLIC), (req, reply) => {
    const next = safeNext(typeof req.query.next === 'string' ? req.query.next : undefined);
    if (sessionOf(ctx, req)) return reply.redirect(next, 303);
    return showLogin(req, reply, { next });
  });

  app.post(SIGN_IN_PATH, allow(PUBLIC), async (req, reply) => {
    const next = safeNext(formField(req.body, 'next'));
    const email = formField(req.body, 'email') ?? '';
    const password = formField(req.body, 'password') ?? '';
    if (!sameSecret(formField(req.body, CSRF_FIELD), readCookie(req, LOGIN_CSRF_COOKIE))) {
      return showLogin(req, reply, { next, email, error: 'The form expired. Please sign in again.' }, 403);
    }
    const keys = { account: normalizeEmail(email.slice(0, 254)), address: req.ip };
    const waitMs = ctx.signInLimits.begin(keys, ctx.clock.nowMs());
    if (waitMs > 0) return tooManyAttempts(req, reply, { next, email }, waitMs);
    const found =
      email.length <= 254 && password.length <= 1024 ? userWithPassword(ctx.db, email) : undefined;
    if (!(await verifyPassword(password, found?.passwordHash)) || !found) {
      const locks = ctx.signInLimits.failed(keys, ctx.clock.nowMs());
      for (const lock of locks) recordLockout(ctx, lock);
      if (locks.length > 0) return tooManyAttempts(req, reply, { next, email }, LOCKOUT_MS);
      return showLogin(req, reply, { next, email, error: 'Wrong email or password.' }, 401);
    }
    ctx.signInLimits.succeeded(keys);
    const max = ctx.limits.maxSessionsPerUser;
    const { id, ended } = openSession(ctx.db, found.user, ctx.clock.nowMs(), max);
    setSessionCookie(req, reply, id, Math.floor(SESSION_TTL_MS / 1000));
    setCookie(req, reply, LOGIN_CSRF_COOKIE, '', 0);
    // The event says so when the sign-in ended older sessions, so a user sent back to the sign-in
    // page in another browser can learn why.
    const endedNote =
      ended === 0
        ? ''
        : `; ${ended === 1 ? 'their oldest session was' : `their ${ended} oldest sessions were`} ended (at most ${max} sessions per user)`;
    recordAdminEvent(ctx.db, {
      at: ctx.clock.iso(),
      eventType: 'USER_LOGIN',
      name: 'User login',
      message: `User ${found.user.email} signed in to the console${endedNote}`,
      entityId: found.user.sub,
      entityName: found.user.email,
    });
    return reply.redirect(next, 303);
  });

  // The signed-in user and the CSRF token, for the console's scripts (which send it as x-csrf-token),
  // answered only to a same-origin request: the cookie alone does not yield the token.
  app.get('/console/session', allow(SESSION), (req, reply) => {
    const session = requireSession(req);
    requireSameOrigin(req);
    void reply.header('cache-control', 'no-store');
    return {
      user: session.user,
      csrf_token: csrfToken(session),
      expires_at: new Date(session.expiresAtMs).toISOString(),
    };
  });

  app.post('/console/logout', allow(SESSION), (req, reply) => {
    const session = requireSession(req);
    checkCsrf(req);
    const id = readCookie(req, SESSION_COOKIE);
    if (id !== undefined) closeSession(ctx.db, id);
    setSessionCookie(req, reply, undefined, 0);
    recordAdminEvent(ctx.db, {
      at: ctx.clock.iso(),
      eventType: 'USER_LOGOUT',
      name: 'User logout',
      message: `User ${session.user.email} signed out of the console`,
      entityId: session.user.sub,
      entityName: session.user.email,
    });
    return reply.redirect(SIGN_IN_PATH, 303);
  });
}
