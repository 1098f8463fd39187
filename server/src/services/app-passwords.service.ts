import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AppPassword, AppPasswordCreate, AppPasswordCreated } from '@cabinet/protocol';
import type { Store } from '../store/store.ts';
import type { SettingsRepo } from '../store/settings.repo.ts';
import type { FileRoot } from '../fs/file-root.ts';
import { errors } from '../errors.ts';
import { verifyAgainstDummy, verifyPassword } from '../credentials/password.ts';
import type { AttemptCounter } from '../coordination/index.ts';
import { canonicalPath, virtualOfReal } from '../fs/canonical-path.ts';
import { ScopedFs } from '../fs/scoped-fs.ts';
import type { AppPasswordRecord } from '../store/app-passwords.repo.ts';
import type { UserRecord } from '../store/users.repo.ts';
import { assertUnderLimit } from './sign-in/rate-limit.ts';
import { canManageAccount } from './permissions.ts';
import { systemClock, type Clock } from '../coordination/index.ts';

/**
 * A user as a credential lets them act: an app password narrows the account (read-only drops every
 * write permission, a folder re-roots the scope there with the account's rules still judging the
 * account's paths, as public shares do). `appPasswordId` marks requests made with one.
 */
export type CredentialUser = UserRecord & { rulePrefix?: string; appPasswordId?: string };

/** `cab_<16 hex id>_<43 base64url secret>`: the id finds the row, the secret is 256 random bits. */
const FORMAT = /^cab_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;
/** Last-used times are precise to a minute, so busy clients do not write on every request. */
const TOUCH_INTERVAL_MS = 60_000;
/** How many app passwords one user may hold. */
const MAX_PER_USER = 100;

const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');
const ipKey = (ip: string) => `ip:${ip}`;
const userAtIpKey = (username: string, ip: string) => `user:${username.toLowerCase()}@${ip}`;

/** Whether a string has the shape of an app password (not whether it is one). */
export function looksLikeAppPassword(value: string): boolean {
  return FORMAT.test(value);
}

/** The permissions left to a read-only credential: reading and downloading only. */
function readOnlyPerm(perm: UserRecord['perm']): UserRecord['perm'] {
  return {
    ...perm,
    admin: false,
    execute: false,
    create: false,
    rename: false,
    modify: false,
    delete: false,
    share: false,
  };
}

/** What this uses of the runtime's context, by name (runtime.ts passes it; docs/architecture.md). */
export interface AppPasswordsDeps {
  store: Pick<Store, 'appPasswords' | 'users'>;
  files: FileRoot;
  settings: SettingsRepo;
}

/**
 * App passwords (docs/webdav.md): named credentials for WebDAV clients and scripts, shown once and
 * stored as a SHA-256 of their secret, optionally read-only or limited to a folder. Also the Basic
 * sign-in of WebDAV with the account password, which the admin may turn off and which two-factor
 * users never have. Failures count on the login's attempt counter.
 */
export class AppPasswordsService {
  constructor(
    private readonly ctx: AppPasswordsDeps,
    private readonly login: AttemptCounter,
    /** Whether a user signs in with a second factor: then the bare account password is refused. */
    private readonly hasTwoFactor: (userId: number) => Promise<boolean> = async () => false,
    private readonly now: Clock = systemClock,
  ) {}

  private present(record: AppPasswordRecord): AppPassword {
    return {
      id: record.id,
      userId: record.userId,
      name: record.name,
      readOnly: record.readOnly,
      folder: record.folder,
      createdAt: record.createdAt,
      lastUsedAt: record.lastUsedAt,
    };
  }

  /** App passwords manage accounts only from a real sign-in: one cannot mint or list others. */
  private assertSignedIn(actor: CredentialUser): void {
    if (actor.appPasswordId) throw errors.forbidden();
  }

  /** GET /api/app-passwords: one's own, or (administrators) those of `userId`. */
  async list(actor: CredentialUser, userId = actor.id): Promise<AppPassword[]> {
    this.assertSignedIn(actor);
    if (!canManageAccount(actor, userId)) throw errors.forbidden();
    if (!(await this.ctx.store.users.byId(userId))) throw errors.notFound();
    return (await this.ctx.store.appPasswords.listForUser(userId)).map((r) => this.present(r));
  }

  /** POST /api/app-passwords: a new one for the actor; the password is in this reply only. */
  async create(actor: CredentialUser, body: AppPasswordCreate): Promise<AppPasswordCreated> {
    this.assertSignedIn(actor);
    const existing = await this.ctx.store.appPasswords.listForUser(actor.id);
    if (existing.length >= MAX_PER_USER) throw errors.conflict('too many app passwords');
    let folder = '/';
    if (body.folder !== undefined && body.folder.trim() !== '') {
      const fs = await ScopedFs.forUser(this.ctx, actor);
      const target = await fs.stat(canonicalPath(body.folder).path);
      if (!target.stat.isDirectory()) throw errors.badRequest('folder is not a folder');
      folder = target.path;
    }
    const id = randomBytes(8).toString('hex');
    const secret = randomBytes(32).toString('base64url');
    const record: AppPasswordRecord = {
      id,
      userId: actor.id,
      name: body.name,
      secretHash: hashSecret(secret),
      readOnly: body.readOnly ?? false,
      folder,
      createdAt: this.now(),
      lastUsedAt: null,
    };
    await this.ctx.store.appPasswords.create(record);
    return { ...this.present(record), password: `cab_${id}_${secret}` };
  }

  /** DELETE /api/app-passwords/{id}: the owner or an administrator; 404 for anyone else. */
  async revoke(actor: CredentialUser, id: string): Promise<void> {
    this.assertSignedIn(actor);
    const record = await this.ctx.store.appPasswords.get(id);
    if (!record || !canManageAccount(actor, record.userId)) throw errors.notFound();
    await this.ctx.store.appPasswords.remove(id);
  }

  /**
   * An app password presented as a Bearer token or Basic password, on its own (the user it names is
   * its owner). 401 for anything else; 429 once the address failed too often.
   */
  async authenticate(password: string, ip: string): Promise<CredentialUser> {
    await assertUnderLimit(this.login, [ipKey(ip)]);
    const user = await this.check(password);
    if (!user) {
      await this.login.hit(ipKey(ip));
      throw errors.unauthorized();
    }
    return user;
  }

  /**
   * Basic sign-in of WebDAV: the user's app password, or the account password unless the admin
   * turned that off or the user has two-factor sign-in.
   */
  async authenticateBasic(username: string, password: string, ip: string): Promise<CredentialUser> {
    const nameKey = userAtIpKey(username, ip);
    await assertUnderLimit(this.login, [ipKey(ip), nameKey]);
    const fail = async () => {
      await this.login.hit(ipKey(ip));
      await this.login.hit(nameKey);
      return errors.unauthorized();
    };
    if (looksLikeAppPassword(password)) {
      const user = await this.check(password);
      if (!user || user.username !== username) throw await fail();
      return user;
    }
    const settings = await this.ctx.settings.get();
    const user = username ? await this.ctx.store.users.byUsername(username) : undefined;
    const allowed =
      settings.davAccountPassword !== false &&
      user !== undefined &&
      !(await this.hasTwoFactor(user.id));
    // Unknown names and refused accounts cost a hash comparison too, so timing tells nothing.
    const ok =
      allowed && user
        ? await verifyPassword(user.passwordHash, password)
        : await verifyAgainstDummy(password);
    if (!ok || !user || !allowed) throw await fail();
    return user;
  }

  /** The narrowed user of a well-formed, known app password with the right secret. */
  private async check(password: string): Promise<CredentialUser | undefined> {
    const match = FORMAT.exec(password);
    if (!match) return undefined;
    const record = await this.ctx.store.appPasswords.get(match[1]!);
    if (!record) return undefined;
    const expected = Buffer.from(record.secretHash, 'hex');
    const given = Buffer.from(hashSecret(match[2]!), 'hex');
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
    const user = await this.ctx.store.users.byId(record.userId);
    if (!user) return undefined;
    const now = this.now();
    if (record.lastUsedAt === null || now - record.lastUsedAt >= TOUCH_INTERVAL_MS) {
      await this.ctx.store.appPasswords.touch(record.id, now);
    }
    return this.narrow(user, record);
  }

  private async narrow(user: UserRecord, record: AppPasswordRecord): Promise<CredentialUser> {
    const narrowed: CredentialUser = { ...user, appPasswordId: record.id };
    if (record.readOnly) narrowed.perm = readOnlyPerm(user.perm);
    if (record.folder !== '/') {
      const fs = await ScopedFs.forUser(this.ctx, user);
      let real: string;
      try {
        const folder = await fs.stat(record.folder);
        if (!folder.stat.isDirectory()) throw errors.unauthorized();
        real = folder.real;
      } catch {
        // The folder is gone or no longer allowed: the password opens nothing.
        throw errors.unauthorized();
      }
      narrowed.scope = virtualOfReal(real, this.ctx.files.realRoot);
      narrowed.rulePrefix = fs.virtualOf(real);
      // A folder-limited credential never administers: that reaches past its folder.
      narrowed.perm = { ...narrowed.perm, admin: false };
    }
    return narrowed;
  }
}
