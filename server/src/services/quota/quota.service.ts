import path from 'node:path';
import type { Readable } from 'node:stream';
import type { QuotaUsage } from '@cabinet/protocol';
import type { AppContext } from '../../context.ts';
import { errors } from '../../errors.ts';
import { ScopedFs, type Resolved } from '../../fs/scoped-fs.ts';
import type { UserRecord } from '../../store/users.repo.ts';
import { limitBytes } from './byte-limit.ts';
import { quotaExceededReason } from './quota-words.ts';

/** The user fields quotas read. */
type QuotaUser = Pick<UserRecord, 'id' | 'quota' | 'scope' | 'rules' | 'hideDotfiles'>;

/**
 * Per-user storage quotas (docs/quotas.md). Usage is kept per scope folder in the database and
 * adjusted by each write Cabinet makes (one UPDATE over the tracked folders that hold the written
 * path), so no write walks the user's tree; the `quota.reconcile` job recounts every tracked scope
 * to catch changes made outside Cabinet. A scope is first counted when its user first needs it.
 */
export class QuotaService {
  constructor(
    private readonly ctx: AppContext,
    private readonly now: () => number = Date.now,
  ) {}

  /** The quota in bytes of a user, 0 when none. */
  quotaOf(user: Pick<UserRecord, 'quota'>): number {
    return user.quota ?? 0;
  }

  /** `GET /api/usage`: the signed-in user's usage and quota; zeros without a quota. */
  async usage(user: QuotaUser): Promise<QuotaUsage> {
    const quota = this.quotaOf(user);
    if (quota === 0) return { used: 0, quota: 0 };
    const fs = await ScopedFs.forUser(this.ctx, user);
    return { used: await this.usedOf(user, fs), quota };
  }

  /**
   * Refuses (507, naming the quota and the usage) a write that adds `bytes` net to the user's
   * scope. Writes that free room (`bytes` ≤ 0) and users without a quota always pass.
   */
  async checkRoom(user: QuotaUser, fs: ScopedFs, bytes: number): Promise<void> {
    const quota = this.quotaOf(user);
    if (quota === 0 || bytes <= 0) return;
    const used = await this.usedOf(user, fs);
    if (used + bytes > quota) throw errors.insufficientStorage(quotaExceededReason(used, quota));
  }

  /**
   * Refuses (507) `bytes` landing at the real path `real` when they do not fit the quota of any
   * user whose scope holds it: the writer's own (`writer`, counted first if need be) and the
   * tracked scopes of others that overlap (an administrator copying into a user's folder, a file
   * request's owner, a site build's users). `from`: where moved bytes come from — a scope holding
   * both places sees no change. `except`: scopes not judged (a trash restore: the owner's usage
   * already counts its trash). The one check of every way bytes land whose size is known first.
   */
  async checkLanding(
    real: string,
    bytes: number,
    options: { writer?: { user: QuotaUser; fs: ScopedFs }; from?: string; except?: string[] } = {},
  ): Promise<void> {
    if (bytes <= 0) return;
    // A team folder with a quota of its own holds its grantees' writes to it (docs/teams.md).
    const room = options.writer && (await options.writer.fs.grantRoom(real));
    if (room && room.used + bytes > room.quota) {
      throw errors.insufficientStorage(quotaExceededReason(room.used, room.quota));
    }
    const leaving = new Set(options.from === undefined ? [] : this.ancestorScopes(options.from));
    for (const key of options.except ?? []) leaving.add(key);
    const keys = this.ancestorScopes(real).filter((key) => !leaving.has(key));
    if (keys.length === 0) return;
    const writer = options.writer;
    if (writer && keys.includes(this.scopeKey(writer.fs.scopeReal))) {
      await this.checkRoom(writer.user, writer.fs, bytes);
    }
    for (const holder of await this.holders(keys, writer)) {
      await this.checkRoom(holder.user, holder.fs, bytes);
    }
  }

  /** The key of a user's scope in the usage table (a trash restore leaves it out of a check). */
  scopeKeyOf(fs: ScopedFs): string {
    return this.scopeKey(fs.scopeReal);
  }

  /**
   * A body whose size is unknown until it arrives (POST upload, PUT save, a file request): refused
   * now when the Content-Length says it will not fit, else passed through a counter that fails it
   * with 507 as soon as it goes past the room left (plus `replaced`, the bytes of the file it
   * replaces). The room is the writer's, and, given the real path `at` it lands at, the smallest
   * of every other user's whose tracked scope holds it.
   */
  async limitBody(
    user: QuotaUser,
    fs: ScopedFs,
    body: Readable,
    replaced: number,
    declaredLength?: number,
    at?: string,
  ): Promise<Readable | AsyncIterable<Uint8Array>> {
    const judged = this.quotaOf(user) > 0 ? [{ user, fs }] : [];
    if (at !== undefined)
      judged.push(...(await this.holders(this.ancestorScopes(at), { user, fs })));
    // A team folder with a quota of its own (docs/teams.md).
    const room = at === undefined ? null : await fs.grantRoom(at);
    if (judged.length === 0 && !room) return body;
    let tightest: { allowed: number; used: number; quota: number } | undefined;
    if (room) {
      const allowed = Math.max(0, room.quota - room.used) + replaced;
      tightest = { allowed, used: room.used, quota: room.quota };
    }
    for (const holder of judged) {
      const quota = this.quotaOf(holder.user);
      const used = await this.usedOf(holder.user, holder.fs);
      const allowed = Math.max(0, quota - used) + replaced;
      if (!tightest || allowed < tightest.allowed) tightest = { allowed, used, quota };
    }
    const { allowed, used, quota } = tightest!;
    const refusal = () => errors.insufficientStorage(quotaExceededReason(used, quota));
    if (declaredLength !== undefined && declaredLength > allowed) throw refusal();
    return limitBytes(body, allowed, refusal);
  }

  /**
   * Users with a quota, other than the writer, whose tracked scope is one of `keys`. The users are read
   * only when such a scope exists (a write where scopes overlap), never on an ordinary write.
   */
  private async holders(
    keys: string[],
    writer?: { user: QuotaUser; fs: ScopedFs },
  ): Promise<{ user: QuotaUser; fs: ScopedFs }[]> {
    // The writer's own scope is judged by the writer's quota (users sharing one scope folder share
    // its usage): an ordinary write in one's own scope reads no users.
    const own = writer && this.scopeKey(writer.fs.scopeReal);
    const tracked = (await this.ctx.store.quotaUsage.tracked(keys)).filter((key) => key !== own);
    if (tracked.length === 0) return [];
    const found: { user: QuotaUser; fs: ScopedFs }[] = [];
    for (const user of await this.ctx.store.users.list()) {
      if (this.quotaOf(user) === 0 || user.id === writer?.user.id) continue;
      const fs = await ScopedFs.forUser(this.ctx, user);
      if (tracked.includes(this.scopeKey(fs.scopeReal))) found.push({ user, fs });
    }
    return found;
  }

  /**
   * Counts `delta` bytes written (or freed, when negative) at a real path against every tracked
   * scope that holds it: the writer's, and those of other users whose scope overlaps.
   */
  async recordChange(real: string, delta: number): Promise<void> {
    if (delta === 0) return;
    await this.ctx.store.quotaUsage.adjust(this.ancestorScopes(real), delta);
  }

  /** Whether any tracked scope holds a real path: only then is a delete or move worth measuring. */
  async isTracked(real: string): Promise<boolean> {
    return (await this.ctx.store.quotaUsage.tracked(this.ancestorScopes(real))).length > 0;
  }

  /**
   * Bytes at or under a resolved path, measured only when a tracked scope holds it (0 otherwise):
   * what a delete frees or an overwrite replaces. This walks the removed subtree, never the scope.
   */
  async measureIfTracked(fs: ScopedFs, target: Resolved): Promise<number> {
    // A link is removed or replaced as itself; its target's bytes stay where they are.
    if (!target.stat || target.isSymlink) return 0;
    if (!(await this.isTracked(target.real))) return 0;
    return fs.bytesUnder(target);
  }

  /**
   * For the trash (and any later part that keeps a user's bytes outside their scope): adds `delta`
   * bytes to the usage of a user's scope. The reconcile walk recounts only the scope, so a caller
   * keeping bytes elsewhere also registers them with `countAlso`.
   */
  async adjustUser(user: QuotaUser, delta: number): Promise<void> {
    const fs = await ScopedFs.forUser(this.ctx, user);
    await this.ctx.store.quotaUsage.adjust([this.scopeKey(fs.scopeReal)], delta);
  }

  private readonly extraCounters: ((user: QuotaUser, signal: AbortSignal) => Promise<number>)[] =
    [];

  /** Registers bytes a user owns outside their scope (their trash), added by every recount. */
  countAlso(counter: (user: QuotaUser, signal: AbortSignal) => Promise<number>): void {
    this.extraCounters.push(counter);
  }

  /**
   * The `quota.reconcile` job: recounts the scope of every user with a quota (once per folder
   * when scopes are shared) and forgets the rows no quota needs any more. Returns how many scopes
   * were counted.
   */
  async reconcile(signal: AbortSignal = new AbortController().signal): Promise<number> {
    const users = (await this.ctx.store.users.list()).filter((u) => this.quotaOf(u) > 0);
    const counted = new Set<string>();
    for (const user of users) {
      signal.throwIfAborted();
      const fs = await ScopedFs.forUser(this.ctx, user);
      const key = this.scopeKey(fs.scopeReal);
      if (counted.has(key)) continue;
      counted.add(key);
      await this.ctx.store.quotaUsage.set(key, await this.count(fs, user, signal), this.now());
    }
    const stale = (await this.ctx.store.quotaUsage.scopes()).filter((s) => !counted.has(s));
    await this.ctx.store.quotaUsage.forget(stale);
    return counted.size;
  }

  /** Bytes counted for a user's scope, counting it first if it is not tracked yet. */
  private async usedOf(user: QuotaUser, fs: ScopedFs): Promise<number> {
    const key = this.scopeKey(fs.scopeReal);
    const known = await this.ctx.store.quotaUsage.used(key);
    if (known !== undefined) return known;
    const bytes = await this.count(fs, user, new AbortController().signal);
    return this.ctx.store.quotaUsage.setIfAbsent(key, bytes, this.now());
  }

  private async count(fs: ScopedFs, user: QuotaUser, signal: AbortSignal): Promise<number> {
    let bytes = await fs.scopeBytes(signal);
    for (const extra of this.extraCounters) bytes += await extra(user, signal);
    return bytes;
  }

  /** A scope folder's key: its real path relative to the root, '/'-separated, '' for the root. */
  private scopeKey(scopeReal: string): string {
    return path.relative(this.ctx.files.realRoot, scopeReal).split(path.sep).join('/');
  }

  /** The keys of every folder that holds a real path: '', 'a', 'a/b', … and the path itself. */
  private ancestorScopes(real: string): string[] {
    const relative = this.scopeKey(real);
    if (relative.startsWith('..')) return [];
    const keys = [''];
    if (relative === '') return keys;
    const parts = relative.split('/');
    for (let i = 1; i <= parts.length; i += 1) keys.push(parts.slice(0, i).join('/'));
    return keys;
  }
}
