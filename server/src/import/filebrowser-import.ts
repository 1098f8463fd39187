import { randomBytes } from 'node:crypto';
import type { Settings } from '@cabinet/protocol';
import { hashPassword } from '../credentials/password.ts';
import { createStore, type Store } from '../store/store.ts';
import { SettingsRepo, type SettingsNormaliser } from '../store/settings.repo.ts';
import type { UserRecord } from '../store/users.repo.ts';
import { noOptions, type FilebrowserOptions } from './filebrowser-config-file.ts';
import { mapAuth, type MappedAuth } from './filebrowser-auth.ts';
import { mapServer } from './filebrowser-server.ts';
import { mapSettings } from './filebrowser-settings.ts';
import { mapShare, type MappedShare } from './filebrowser-share.ts';
import type { FilebrowserSource } from './filebrowser-source.ts';
import { mapUser, type MappedUser } from './filebrowser-user.ts';
import { ImportNotes, type ImportReport, type Skipped } from './import-report.ts';
import { asObject, text } from './json-fields.ts';

/** The key under which the import leaves its record (and a switched-off auth hook). */
export const IMPORT_RECORD_KEY = 'filebrowser_import';

/** Where a share's item is: its root-relative real path and whether it is a folder. */
export interface LocatedItem {
  target: string;
  isDir: boolean;
}

/** The Cabinet side of an import. */
export interface ImportTarget {
  store: Store;
  /** Brings saved settings to complete, valid ones (the settings repository's normaliser). */
  normaliseSettings: SettingsNormaliser;
  /** The name a first start gives its administrator (`adminUsername`). */
  adminUsername: string;
  /**
   * Finds a share's item in the owner's scope (as ShareService.targetOf binds links), undefined
   * when it is not there. Reads the file system only, never the database.
   */
  locateShare(owner: Pick<UserRecord, 'scope'>, path: string): Promise<LocatedItem | undefined>;
  now?: () => number;
}

export interface ImportOptions {
  /** How the source is named in the report (its path). */
  source: string;
  dryRun?: boolean;
  /** Import beside existing users; a taken name is reported, never overwritten. */
  merge?: boolean;
  /** The Cabinet database is new (only said in the report). */
  intoNewDatabase?: boolean;
  /** filebrowser's config file and FB_* variables, which override its stored server settings. */
  options?: FilebrowserOptions;
}

/** The Cabinet database holds accounts the import must not mix with (without --merge). */
export class ImportRefusedError extends Error {
  override name = 'ImportRefusedError';
}

/** Thrown inside the transaction of a dry run so that nothing it did is committed. */
class DryRunRollback extends Error {
  constructor(readonly report: ImportReport) {
    super('dry run');
  }
}

interface Plan {
  /** In filebrowser's id order: the oldest account stays the first (noauth signs in as it). */
  users: MappedUser[];
  /** The same users by their filebrowser id, which links name their owner by. */
  bySourceId: Map<number, MappedUser>;
  shares: (MappedShare & { located?: LocatedItem })[];
  settings: Settings;
  auth: MappedAuth;
  report: ImportReport;
}

/**
 * Imports a filebrowser database into Cabinet's: users with their password hashes, share links
 * with their hashes, the global settings, and the server settings as Cabinet configuration (in
 * the report, never applied). Everything is mapped first; the writes then run in one transaction,
 * which a dry run rolls back, so a dry run reports exactly what an import would do.
 */
export async function importFilebrowser(
  source: FilebrowserSource,
  target: ImportTarget,
  options: ImportOptions,
): Promise<ImportReport> {
  const plan = await makePlan(source, target, options);
  try {
    // Inside, everything goes through `trx`: on SQLite the transaction holds the only connection,
    // so a query through `target.store` would wait for it forever.
    return await target.store.db
      .transaction()
      .execute(async (trx) => writePlan(plan, createStore(trx), target, options));
  } catch (error) {
    if (error instanceof DryRunRollback) return error.report;
    throw error;
  }
}

async function makePlan(
  source: FilebrowserSource,
  target: ImportTarget,
  options: ImportOptions,
): Promise<Plan> {
  const now = (target.now ?? Date.now)();
  const notes = new ImportNotes();
  for (const { label, error } of source.unreadable) notes.warn(`${label} is unreadable: ${error}`);
  const current = await new SettingsRepo(target.store.kv, target.normaliseSettings).get();
  const settings = mapSettings(source.settings, current, notes);
  const server = asObject(source.server) ?? {};
  const auth = mapAuth(
    text(asObject(source.settings) ?? {}, 'authMethod'),
    source.auther,
    text(server, 'authHook'),
    notes,
  );
  const report: ImportReport = {
    source: options.source,
    dryRun: options.dryRun ?? false,
    intoNewDatabase: options.intoNewDatabase ?? false,
    users: { imported: [], skipped: [] },
    shares: { imported: [], unbound: [], skipped: [] },
    settingsImported: !options.merge,
    notes,
    cabinetConfig: {
      ...mapServer(source.server, options.options ?? noOptions(), notes),
      ...auth.config,
    },
  };

  const bySourceId = new Map<number, MappedUser>();
  const names = new Set<string>();
  for (const record of source.users) {
    if (record.error) {
      report.users.skipped.push({ what: record.label, reason: `unreadable: ${record.error}` });
      continue;
    }
    const mapped = mapUser(record.json, record.label, settings.defaults, notes);
    if ('skipped' in mapped) report.users.skipped.push(mapped.skipped);
    else if (bySourceId.has(mapped.user.sourceId)) {
      report.users.skipped.push({ what: record.label, reason: 'another record has its id' });
    } else if (names.has(mapped.user.record.username)) {
      report.users.skipped.push({
        what: `user "${mapped.user.record.username}"`,
        reason: 'another filebrowser user has the same name',
      });
    } else {
      bySourceId.set(mapped.user.sourceId, mapped.user);
      names.add(mapped.user.record.username);
    }
  }
  const users = [...bySourceId.values()].sort((a, b) => a.sourceId - b.sourceId);
  for (const user of users) {
    // No usable hash: a random one nobody knows, never a password to print or reset.
    if (!user.hasUsablePassword) {
      user.record.passwordHash = await hashPassword(randomBytes(32).toString('base64url'));
    }
  }

  const shares: Plan['shares'] = [];
  for (const record of source.shares) {
    const mapped = record.error
      ? { skipped: { what: record.label, reason: `unreadable: ${record.error}` } }
      : mapShare(record.json, record.label, now);
    if ('skipped' in mapped) {
      report.shares.skipped.push(mapped.skipped);
      continue;
    }
    const owner = bySourceId.get(mapped.share.sourceUserId);
    const located = owner && (await target.locateShare(owner.record, mapped.share.path));
    shares.push({ ...mapped.share, located });
  }
  return { users, bySourceId, shares, settings, auth, report };
}

/**
 * The database's only user when it is the administrator a first start created and never used
 * (no live session, no link): the placeholder an import may replace.
 */
async function freshAdmin(store: Store, users: UserRecord[], adminUsername: string) {
  const only = users.length === 1 ? users[0]! : undefined;
  if (!only || only.username !== adminUsername || !only.perm.admin) return undefined;
  if ((await store.shares.byUser(only.id)).length > 0) return undefined;
  if ((await store.sessions.listActive(only.id)).length > 0) return undefined;
  return only;
}

async function writePlan(
  plan: Plan,
  store: Store,
  target: ImportTarget,
  options: ImportOptions,
): Promise<ImportReport> {
  const { report } = plan;
  const existing = await store.users.list();
  const fresh = await freshAdmin(store, existing, target.adminUsername);
  if (existing.length > 0 && !fresh && !options.merge) {
    const names = existing.map((u) => u.username);
    const shown = names.length > 5 ? `${names.slice(0, 5).join(', ')}, …` : names.join(', ');
    throw new ImportRefusedError(
      `this Cabinet database already has users (${shown}); add --merge to import beside them ` +
        '(a taken username is reported and skipped, never overwritten)',
    );
  }
  if (fresh) {
    // The generated administrator's password was printed once and never used; imported
    // administrators take over. Without one among them it stays, so someone can administer.
    const replaced = plan.users.some((u) => u.record.perm.admin);
    if (replaced) await store.users.remove(fresh.id);
    report.freshAdmin = { username: fresh.username, outcome: replaced ? 'replaced' : 'kept' };
  }

  const ids = new Map<number, number>();
  for (const user of plan.users) {
    if (await store.users.byUsername(user.record.username)) {
      report.users.skipped.push({
        what: `user "${user.record.username}"`,
        reason: 'the name is taken in this Cabinet (never overwritten)',
      });
      continue;
    }
    ids.set(user.sourceId, await store.users.insert(user.record));
    report.users.imported.push(user.record.username);
  }

  for (const share of plan.shares) {
    const skip = await shareProblem(store, plan.bySourceId, ids, share);
    if (skip) {
      report.shares.skipped.push(skip);
      continue;
    }
    await store.shares.insert({
      hash: share.hash,
      path: share.path,
      userId: ids.get(share.sourceUserId)!,
      expire: share.expire,
      passwordHash: share.passwordHash,
      target: share.located?.target ?? '',
      downloadLimit: 0,
      downloads: 0,
      isDir: share.located?.isDir ?? share.path.endsWith('/'),
      isRequest: false,
    });
    report.shares.imported.push(share.hash);
    if (!share.located) report.shares.unbound.push(share.hash);
    const owner = plan.bySourceId.get(share.sourceUserId)!.record;
    if (!owner.perm.admin && !(owner.perm.share && owner.perm.download)) {
      report.notes.warn(
        `share ${share.hash}: its owner "${owner.username}" may not share and download, so ` +
          'the link answers 403 until they may',
      );
    }
  }

  if (!options.merge) {
    const settings = new SettingsRepo(store.kv, target.normaliseSettings);
    const current = await settings.get();
    // The auth method is chosen by configuration (cabinet.json), not stored settings.
    await settings.save({ ...plan.settings, authMethod: current.authMethod });
  }
  await store.kv.set(IMPORT_RECORD_KEY, {
    importedAt: (target.now ?? Date.now)(),
    source: options.source,
    users: report.users.imported,
    ...(plan.auth.disabledHook && {
      authHook: { command: plan.auth.disabledHook.command, enabled: false },
    }),
  });
  if (options.dryRun) throw new DryRunRollback(report);
  return report;
}

/** Why a share cannot be imported now, if it cannot. */
async function shareProblem(
  store: Store,
  users: Map<number, MappedUser>,
  ids: Map<number, number>,
  share: MappedShare,
): Promise<Skipped | undefined> {
  const what = `share ${share.hash}`;
  if (!ids.has(share.sourceUserId)) {
    const owner = users.get(share.sourceUserId);
    return {
      what,
      reason: owner
        ? `its owner "${owner.record.username}" was not imported`
        : `its owner (filebrowser user #${share.sourceUserId}) does not exist`,
    };
  }
  if (await store.shares.get(share.hash)) {
    return { what, reason: 'a link with this hash exists in this Cabinet (never overwritten)' };
  }
  return undefined;
}
