import { UserWriteRequest, type User } from '@cabinet/protocol';
import * as z from 'zod/mini';
import type { Store } from '../store/store.ts';
import type { ServerConfig } from '../config/options.ts';
import type { SettingsRepo } from '../store/settings.repo.ts';
import type { FileRoot } from '../fs/file-root.ts';
import { errors } from '../errors.ts';
import { verifyPassword } from '../credentials/password.ts';
import { isUniqueViolation, type UserRecord } from '../store/users.repo.ts';
import {
  createUser,
  countAdmins,
  toWireUser,
  type CreationKind,
  type UserInput,
} from './users/user-records.ts';
import type { NamedLock } from '../coordination/index.ts';
import { applyUserChanges, resolveWhich } from './users/user-update.ts';
import { canManageAccount, isAdmin } from './permissions.ts';

/** Parses the `{id}` of a users route; anything but a positive integer is a 404. */
export function parseUserId(raw: string): number {
  if (!/^\d{1,15}$/.test(raw)) throw errors.notFound();
  const id = Number(raw);
  if (id < 1) throw errors.notFound();
  return id;
}

const DeleteRequest = z.object({ current_password: z.optional(z.string()) });

/** The named lock that serialises user creation. */
const PROVISIONING_LOCK = 'users:provision';

/** Parses the what/which/data envelope of POST and PUT /api/users. */
function parseEnvelope(body: unknown): UserWriteRequest {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw errors.badRequest('request body must be a JSON object');
  }
  const request = UserWriteRequest.parse(body);
  if (request.what !== 'user') throw errors.badRequest('invalid data type');
  return request;
}

/** What this uses of the runtime's context, by name (runtime.ts passes it; docs/architecture.md). */
export interface UsersDeps {
  config: Pick<ServerConfig, 'authMethod' | 'root'>;
  store: Pick<Store, 'sessions' | 'teams' | 'users'>;
  files: FileRoot;
  settings: SettingsRepo;
}

/**
 * With json auth, sensitive writes need the acting user's own password, so a stolen session
 * alone cannot take over accounts.
 */
async function checkCurrentPassword(
  ctx: UsersDeps,
  actor: UserRecord,
  currentPassword: string | undefined,
): Promise<void> {
  if (ctx.config.authMethod !== 'json') return;
  // Missing and wrong are told apart, so a form can say "required" for an empty field.
  if (!currentPassword) throw errors.badRequest('the current password is required');
  if (!(await verifyPassword(actor.passwordHash, currentPassword))) {
    throw errors.badRequest('the current password is incorrect');
  }
}

/**
 * Accounts: the users API and the CLI's user commands. Creating a user checks then inserts (a
 * free name, a free home folder), so creations run one at a time through a named lock shared by
 * every instance (docs/runtime.md).
 */
export class UsersService {
  constructor(
    private readonly ctx: UsersDeps,
    private readonly provisioning: NamedLock,
  ) {}

  /**
   * Creates a user from the settings' defaults and the given fields with every policy applied
   * (see createUser); one creation at a time across instances.
   */
  create(kind: CreationKind, input: UserInput & { username: string; password?: string }) {
    return this.provisioning.run(PROVISIONING_LOCK, () => createUser(this.ctx, kind, input));
  }

  /** GET /api/users: every user, by id, passwords blanked (admins only; the route guards it). */
  async list(): Promise<User[]> {
    return (await this.ctx.store.users.list()).map((u) => toWireUser(u));
  }

  /** GET /api/users/{id}: self or admin; non-admins see an empty scope. */
  async get(actor: UserRecord, id: number): Promise<User> {
    if (!canManageAccount(actor, id)) throw errors.forbidden();
    const user = await this.ctx.store.users.byId(id);
    if (!user) throw errors.notFound();
    return toWireUser(user, { hideScope: !isAdmin(actor) });
  }

  /** POST /api/users (admins): returns the new user's id for the Location header. */
  async createFromRequest(actor: UserRecord, body: unknown): Promise<number> {
    const request = parseEnvelope(body);
    await checkCurrentPassword(this.ctx, actor, request.current_password);
    if (request.which.length > 0) throw errors.badRequest('which must be empty when creating');
    const { id: _ignored, username, ...fields } = request.data;
    if (!username) throw errors.badRequest('username is required');
    const user = await this.create('admin', { ...fields, username });
    return user.id;
  }

  /**
   * PUT /api/users/{id}: self or admin, with the which-list rules (user-update.ts). A password
   * change revokes the user's other sessions (the acting session survives when it is theirs).
   */
  async updateFromRequest(
    actor: UserRecord,
    actorSessionId: string | null,
    id: number,
    body: unknown,
  ): Promise<string[]> {
    if (!canManageAccount(actor, id)) throw errors.forbidden();
    const request = parseEnvelope(body);
    if (request.data.id !== id)
      throw errors.badRequest('data.id does not match the user in the URL');
    const which = resolveWhich(request.which, isAdmin(actor));
    if (which.needsCurrentPassword)
      await checkCurrentPassword(this.ctx, actor, request.current_password);
    const target = await this.ctx.store.users.byId(id);
    if (!target) throw errors.notFound();
    const { record, passwordChanged } = await applyUserChanges(
      this.ctx,
      { isAdmin: isAdmin(actor) },
      target,
      which,
      request.data,
    );
    try {
      await this.ctx.store.users.update(record);
    } catch (error) {
      if (isUniqueViolation(error)) throw errors.conflict('username already taken');
      throw error;
    }
    if (passwordChanged) {
      await this.ctx.store.sessions.revokeAllForUser(
        id,
        actor.id === id ? (actorSessionId ?? undefined) : undefined,
      );
    }
    return changedFields(target, record);
  }

  /**
   * DELETE /api/users/{id}: self or admin; a JSON body (at least `{}`) is required. The last
   * administrator cannot be deleted. Sessions and shares go with the user (foreign keys cascade).
   */
  async deleteFromRequest(actor: UserRecord, id: number, body: unknown): Promise<string> {
    if (!canManageAccount(actor, id)) throw errors.forbidden();
    if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw errors.badRequest('request body must be a JSON object');
    }
    const request = DeleteRequest.parse(body);
    await checkCurrentPassword(this.ctx, actor, request.current_password);
    return this.delete(id);
  }

  /** Deletes a user unless it is the last administrator (403) or unknown (404). */
  async delete(id: number): Promise<string> {
    const target = await this.ctx.store.users.byId(id);
    if (!target) throw errors.notFound();
    if (isAdmin(target) && (await countAdmins(this.ctx)) <= 1) {
      throw errors.forbidden('the last administrator cannot be deleted');
    }
    await this.ctx.store.sessions.revokeAllForUser(id);
    await this.ctx.store.users.remove(id);
    // Their memberships, the grants made to them and their shares with people go too.
    await this.ctx.store.teams.forgetUser(id);
    return target.username;
  }

  /**
   * Changes the named fields of a user with administrator rights and the same checks as the API
   * (the CLI's `users update`). A new password revokes every session of the user.
   */
  async updateFields(
    id: number,
    fields: string[],
    data: UserWriteRequest['data'],
  ): Promise<UserRecord> {
    const target = await this.ctx.store.users.byId(id);
    if (!target) throw errors.notFound(`no user with id ${id}`);
    if (fields.length === 0) return target;
    const which = resolveWhich(fields, true);
    const { record, passwordChanged } = await applyUserChanges(
      this.ctx,
      { isAdmin: true },
      target,
      which,
      data,
    );
    try {
      await this.ctx.store.users.update(record);
    } catch (error) {
      if (isUniqueViolation(error)) throw errors.conflict('username already taken');
      throw error;
    }
    if (passwordChanged) await this.ctx.store.sessions.revokeAllForUser(id);
    return (await this.ctx.store.users.byId(id))!;
  }

  /** Finds a user by numeric id or by exact name (the CLI's `<id|name>` arguments). */
  async find(idOrName: string): Promise<UserRecord> {
    const user = /^\d+$/.test(idOrName)
      ? await this.ctx.store.users.byId(Number(idOrName))
      : await this.ctx.store.users.byUsername(idOrName);
    const byName = user ?? (await this.ctx.store.users.byUsername(idOrName));
    if (!byName) throw errors.notFound(`no user "${idOrName}"`);
    return byName;
  }
}

/**
 * The names of the fields an update changed, for the audit log: a new password hash is named
 * `password`, and no value is ever part of the answer (docs/audit.md).
 */
function changedFields(before: UserRecord, after: UserRecord): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  names.delete('updatedAt');
  return [...names]
    .filter((name) => {
      const key = name as keyof UserRecord;
      return JSON.stringify(before[key]) !== JSON.stringify(after[key]);
    })
    .map((name) => (name === 'passwordHash' ? 'password' : name))
    .sort();
}
