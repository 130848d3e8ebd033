/**
 * `/_emulator/users` (admin): the console's users. `POST` with `{ email, given_name, family_name,
 * password }` (the password is stored as an scrypt hash and never answered), `GET` lists them,
 * `GET/DELETE /_emulator/users/{sub or email}`. Deleting a user ends their sessions and revokes what
 * they consented to (their codes and tokens are deleted).
 */
import { userCreateSchema } from '@oaakit/core';
import type { FastifyInstance } from 'fastify';
import { recordAdminEvent } from '../console/auth/admin-events.js';
import { createUser, deleteUser, findUser, listUsers } from '../console/auth/users.js';
import { allow, ADMIN } from '../auth/route-access.js';
import type { EmulatorContext } from '../context.js';
import { badField, notFound } from '../errors.js';
import { parseBody } from '../http/parse-body.js';

/** Most console users the emulator holds. */
export const MAX_USERS = 1000;

/** Registers the user administration routes. */
export function registerUserRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.post('/_emulator/users', allow(ADMIN), async (req) => {
    const input = parseBody(userCreateSchema, req.body);
    if (listUsers(ctx.db).length >= MAX_USERS)
      throw badField('body', `the emulator holds at most ${MAX_USERS} users; delete one first`);
    const user = await createUser(ctx.db, input, ctx.clock.iso());
    if (!user) throw badField('email', `a user with email ${input.email.toLowerCase()} already exists`);
    recordAdminEvent(ctx.db, {
      at: ctx.clock.iso(),
      eventType: 'USER_CREATED',
      name: 'User created',
      message: `User ${user.email} was created`,
      entityId: user.sub,
      entityName: user.email,
    });
    return { value: user };
  });

  app.get('/_emulator/users', allow(ADMIN), () => ({ values: listUsers(ctx.db) }));

  app.get<{ Params: { user: string } }>('/_emulator/users/:user', allow(ADMIN), (req) => {
    const user = findUser(ctx.db, req.params.user);
    if (!user) throw notFound('user', req.params.user);
    return { value: user };
  });

  app.delete<{ Params: { user: string } }>('/_emulator/users/:user', allow(ADMIN), (req) => {
    const user = deleteUser(ctx.db, req.params.user);
    if (!user) throw notFound('user', req.params.user);
    recordAdminEvent(ctx.db, {
      at: ctx.clock.iso(),
      eventType: 'USER_DELETED',
      name: 'User deleted',
      message: `User ${user.email} was deleted`,
      entityId: user.sub,
      entityName: user.email,
    });
    return {};
  });
}
