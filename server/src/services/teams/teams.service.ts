import {
  GroupWriteRequest,
  PeopleShareWriteRequest,
  TeamFolderWriteRequest,
  UserGroupsRequest,
  type GrantAccess,
  type Group,
  type Grantee,
  type PeopleShare,
  type PersonMatch,
  type SharedWithMe,
  type TeamFolder,
} from '@cabinet/protocol';
import type { Clock } from '../../coordination/index.ts';
import type { EventBus } from '../../coordination/event-bus.ts';
import type { FileRoot } from '../../fs/file-root.ts';
import type { Store } from '../../store/store.ts';
import { errors } from '../../errors.ts';
import { virtualOfReal } from '../../fs/canonical-path.ts';
import { ScopedFs } from '../../fs/scoped-fs.ts';
import type {
  GrantKind,
  GranteeRecord,
  PeopleShareRecord,
  TeamFolderRecord,
} from '../../store/teams.repo.ts';
import type { UserRecord } from '../../store/users.repo.ts';
import { canShare, isAdmin } from '../permissions.ts';
import { parseBody } from './parse-body.ts';
import { checkGroupName, checkMountName } from './names.ts';

/** The event a page re-reads its grants on (docs/teams.md). */
export const SHARED_EVENT = 'shared';

/** At most this many type-ahead matches (GET /api/people). */
export const PEOPLE_MATCHES = 20;

/**
 * Groups, team folders, shares with people and "Shared with me" (docs/teams.md): the management
 * side. What a grant shows in a view is composed by TeamMounts (team-mounts.ts) per request.
 */
/** What this uses of the runtime's context, by name (runtime.ts passes it; docs/architecture.md). */
export type TeamsDeps = {
  store: Pick<Store, 'teams' | 'users'>;
  files: FileRoot;
} & Parameters<typeof ScopedFs.forUser>[0];

export class TeamsService {
  constructor(
    private readonly ctx: TeamsDeps,
    private readonly events: EventBus,
    private readonly now: Clock,
  ) {}

  // ---- groups ----

  async listGroups(actor: UserRecord): Promise<Group[]> {
    if (!isAdmin(actor)) throw errors.forbidden();
    return this.ctx.store.teams.groups();
  }

  async createGroup(actor: UserRecord, body: unknown): Promise<Group> {
    if (!isAdmin(actor)) throw errors.forbidden();
    const request = parseBody(GroupWriteRequest, body);
    const name = checkGroupName(request.name);
    await this.checkUsers(request.members);
    if (await this.ctx.store.teams.groupByName(name)) {
      throw errors.conflict('a group of that name exists');
    }
    const id = await this.ctx.store.teams.insertGroup(name, 'local');
    await this.ctx.store.teams.setMembers(id, request.members);
    await this.notify(request.members);
    return (await this.ctx.store.teams.group(id))!;
  }

  async updateGroup(actor: UserRecord, id: number, body: unknown): Promise<Group> {
    if (!isAdmin(actor)) throw errors.forbidden();
    const request = parseBody(GroupWriteRequest, body);
    const group = await this.ctx.store.teams.group(id);
    if (!group) throw errors.notFound();
    const name = checkGroupName(request.name);
    await this.checkUsers(request.members);
    const taken = await this.ctx.store.teams.groupByName(name);
    if (taken && taken.id !== id) throw errors.conflict('a group of that name exists');
    await this.ctx.store.teams.renameGroup(id, name);
    await this.ctx.store.teams.setMembers(id, request.members);
    await this.notify([...group.members, ...request.members]);
    return (await this.ctx.store.teams.group(id))!;
  }

  async deleteGroup(actor: UserRecord, id: number): Promise<void> {
    if (!isAdmin(actor)) throw errors.forbidden();
    const group = await this.ctx.store.teams.group(id);
    if (!group) throw errors.notFound();
    await this.ctx.store.teams.removeGroup(id);
    await this.notify(group.members);
  }

  async groupsOf(actor: UserRecord, userId: number): Promise<number[]> {
    if (!isAdmin(actor)) throw errors.forbidden();
    if (!(await this.ctx.store.users.byId(userId))) throw errors.notFound();
    return this.ctx.store.teams.groupsOf(userId);
  }

  /** The group ids of a user, for the user object (no permission check: the caller did it). */
  groupIdsOf(userId: number): Promise<number[]> {
    return this.ctx.store.teams.groupsOf(userId);
  }

  async setGroupsOf(actor: UserRecord, userId: number, body: unknown): Promise<number[]> {
    if (!isAdmin(actor)) throw errors.forbidden();
    const request = parseBody(UserGroupsRequest, body);
    if (!(await this.ctx.store.users.byId(userId))) throw errors.notFound();
    const known = new Set((await this.ctx.store.teams.groups()).map((group) => group.id));
    const unknown = request.groups.find((id) => !known.has(id));
    if (unknown !== undefined) throw errors.badRequest(`no group has the id ${unknown}`);
    await this.ctx.store.teams.setGroupsOf(userId, request.groups);
    await this.notify([userId]);
    return this.ctx.store.teams.groupsOf(userId);
  }

  // ---- team folders ----

  async listTeamFolders(actor: UserRecord): Promise<TeamFolder[]> {
    if (!isAdmin(actor)) throw errors.forbidden();
    const folders = await this.ctx.store.teams.teamFolders();
    return Promise.all(folders.map((folder) => this.teamFolderJson(folder)));
  }

  async createTeamFolder(actor: UserRecord, body: unknown): Promise<TeamFolder> {
    if (!isAdmin(actor)) throw errors.forbidden();
    const request = parseBody(TeamFolderWriteRequest, body);
    const folder = await this.checkTeamFolder(request);
    const id = await this.ctx.store.teams.insertTeamFolder(folder);
    const grantees = await this.checkGrantees(request.grantees);
    await this.ctx.store.teams.setGrantees('team', id, grantees);
    await this.notify(await this.usersOf(grantees));
    return this.teamFolderJson({ ...folder, id });
  }

  async updateTeamFolder(actor: UserRecord, id: number, body: unknown): Promise<TeamFolder> {
    if (!isAdmin(actor)) throw errors.forbidden();
    const request = parseBody(TeamFolderWriteRequest, body);
    const before = await this.ctx.store.teams.teamFolder(id);
    if (!before) throw errors.notFound();
    const folder = { ...(await this.checkTeamFolder(request)), id };
    const grantees = await this.checkGrantees(request.grantees);
    const affected = await this.usersOf([
      ...(await this.ctx.store.teams.grantees('team', id)),
      ...grantees,
    ]);
    await this.ctx.store.teams.updateTeamFolder(folder);
    await this.ctx.store.teams.setGrantees('team', id, grantees);
    await this.notify(affected);
    return this.teamFolderJson(folder);
  }

  async deleteTeamFolder(actor: UserRecord, id: number): Promise<void> {
    if (!isAdmin(actor)) throw errors.forbidden();
    if (!(await this.ctx.store.teams.teamFolder(id))) throw errors.notFound();
    const affected = await this.usersOf(await this.ctx.store.teams.grantees('team', id));
    await this.ctx.store.teams.removeGrant('team', id);
    await this.notify(affected);
  }

  /** Checks a team folder's name, path (an existing folder of the root, by real location), quota. */
  private async checkTeamFolder(
    request: TeamFolderWriteRequest,
  ): Promise<Omit<TeamFolderRecord, 'id'>> {
    const name = checkMountName(request.name);
    const quota = request.quota ?? 0;
    if (!Number.isSafeInteger(quota) || quota < 0) {
      throw errors.badRequest('quota must be a whole number of bytes, 0 or more');
    }
    const rootFs = await ScopedFs.open(this.ctx.files, {
      scope: '/',
      rules: [],
      hideDotfiles: false,
    });
    const found = await rootFs.stat(request.path).catch((error: unknown) => {
      throw errors.badRequest(
        `the path ${request.path} is not a folder of the root (${String(error)})`,
      );
    });
    if (!found.stat.isDirectory()) throw errors.badRequest('a team folder must be a folder');
    // Stored where it really is: a link to a folder grants the folder, never the link's spelling.
    const path = virtualOfReal(found.real, this.ctx.files.realRoot);
    if (path === '/') throw errors.badRequest('the root itself cannot be a team folder');
    return { name, path, access: request.access, quota };
  }

  private async teamFolderJson(folder: TeamFolderRecord): Promise<TeamFolder> {
    return {
      id: folder.id,
      name: folder.name,
      path: folder.path,
      grantees: await this.named(await this.ctx.store.teams.grantees('team', folder.id)),
      access: folder.access,
      quota: folder.quota,
    };
  }

  // ---- shares with people ----

  /** The caller's own shares with people; with `path`, those of that item (every owner's for admins). */
  async listPeopleShares(actor: UserRecord, path?: string): Promise<PeopleShare[]> {
    if (!canShare(actor)) throw errors.forbidden();
    await this.forgetExpired();
    let shares: PeopleShareRecord[];
    if (path !== undefined && path !== '') {
      const fs = await ScopedFs.forUser(this.ctx, actor);
      if (fs.mountOf(path)) return [];
      const item = await fs.stat(path);
      const target = virtualOfReal(item.real, this.ctx.files.realRoot);
      shares = (await this.ctx.store.teams.peopleSharesAtOrUnder(target)).filter(
        (share) => share.target === target && (share.ownerId === actor.id || isAdmin(actor)),
      );
    } else {
      shares = await this.ctx.store.teams.peopleSharesOf(actor.id);
    }
    return Promise.all(shares.map((share) => this.peopleShareJson(share)));
  }

  async createPeopleShare(actor: UserRecord, body: unknown): Promise<PeopleShare> {
    if (!canShare(actor)) throw errors.forbidden();
    const request = parseBody(PeopleShareWriteRequest, body);
    if (request.path === undefined || request.path === '') {
      throw errors.badRequest('path is missing');
    }
    const fs = await ScopedFs.forUser(this.ctx, actor);
    // Sharing what was shared with you would hand on someone else's grant: refused for now.
    if (fs.mountOf(request.path)) {
      throw errors.forbidden('items of shared folders cannot be shared with people');
    }
    const item = await fs.stat(request.path);
    if (item.path === '/') throw errors.badRequest('your whole scope cannot be shared');
    const grantees = await this.checkGrantees(request.grantees, actor.id);
    const expire = this.checkExpire(request.expire);
    const share: Omit<PeopleShareRecord, 'id'> = {
      ownerId: actor.id,
      path: item.path,
      target: virtualOfReal(item.real, this.ctx.files.realRoot),
      isDir: item.stat.isDirectory(),
      access: request.access,
      expire,
    };
    const id = await this.ctx.store.teams.insertPeopleShare(share);
    await this.ctx.store.teams.setGrantees('people', id, grantees);
    await this.notify([actor.id, ...(await this.usersOf(grantees))]);
    return this.peopleShareJson({ ...share, id });
  }

  async updatePeopleShare(actor: UserRecord, id: number, body: unknown): Promise<PeopleShare> {
    const share = await this.ownedShare(actor, id);
    const request = parseBody(PeopleShareWriteRequest, body);
    const grantees = await this.checkGrantees(request.grantees, share.ownerId);
    const expire = this.checkExpire(request.expire);
    const affected = await this.usersOf([
      ...(await this.ctx.store.teams.grantees('people', id)),
      ...grantees,
    ]);
    await this.ctx.store.teams.updatePeopleShare(id, request.access, expire);
    await this.ctx.store.teams.setGrantees('people', id, grantees);
    await this.notify([share.ownerId, ...affected]);
    return this.peopleShareJson({ ...share, access: request.access, expire });
  }

  async deletePeopleShare(actor: UserRecord, id: number): Promise<void> {
    const share = await this.ownedShare(actor, id);
    const affected = await this.usersOf(await this.ctx.store.teams.grantees('people', id));
    await this.ctx.store.teams.removeGrant('people', id);
    await this.notify([share.ownerId, ...affected]);
  }

  private async ownedShare(actor: UserRecord, id: number): Promise<PeopleShareRecord> {
    const share = await this.ctx.store.teams.peopleShare(id);
    if (!share) throw errors.notFound();
    if (share.ownerId !== actor.id && !isAdmin(actor)) throw errors.forbidden();
    return share;
  }

  private checkExpire(expire: number | undefined): number {
    const value = expire ?? 0;
    if (!Number.isSafeInteger(value) || value < 0) {
      throw errors.badRequest('expire must be Unix seconds, or 0 for never');
    }
    if (value !== 0 && value * 1000 <= this.now()) {
      throw errors.badRequest('expire lies in the past');
    }
    return value;
  }

  /** Shares past their expiry end (their recipients are told). */
  private async forgetExpired(): Promise<void> {
    const now = this.now();
    for (const share of await this.ctx.store.teams.allPeopleShares()) {
      if (share.expire === 0 || share.expire * 1000 > now) continue;
      const affected = await this.usersOf(await this.ctx.store.teams.grantees('people', share.id));
      await this.ctx.store.teams.removeGrant('people', share.id);
      await this.notify([share.ownerId, ...affected]);
    }
  }

  private async peopleShareJson(share: PeopleShareRecord): Promise<PeopleShare> {
    const owner = await this.ctx.store.users.byId(share.ownerId);
    return {
      id: share.id,
      path: share.path,
      isDir: share.isDir,
      ownerID: share.ownerId,
      owner: owner?.username ?? '',
      grantees: await this.named(await this.ctx.store.teams.grantees('people', share.id)),
      access: share.access,
      expire: share.expire,
    };
  }

  // ---- the recipient's side ----

  /** GET /api/shared-with-me: where each grant the user holds sits in their view. */
  async sharedWithMe(user: UserRecord): Promise<SharedWithMe[]> {
    const fs = await ScopedFs.forUser(this.ctx, user);
    // A share whose item left its owner's scope (outside Cabinet, or the owner's scope changed)
    // cannot be entered: it is not listed either.
    const mounts = (
      await Promise.all(
        (await fs.mountList()).map(async (mount) =>
          mount.spec.ownerScope === undefined ||
          (await fs.viewOf(mount.path).then(
            () => true,
            () => false,
          ))
            ? mount
            : null,
        ),
      )
    ).filter((mount) => mount !== null);
    return mounts.map((mount) => ({
      kind: mount.spec.kind,
      id: mount.spec.id,
      path: mount.path,
      name: mount.path.slice(mount.path.lastIndexOf('/') + 1),
      isDir: mount.spec.isDir,
      ...(mount.spec.owner !== undefined && { owner: mount.spec.owner }),
      access: mount.spec.access,
      expire: mount.spec.expire,
    }));
  }

  /**
   * A recipient leaves a grant: a grant made to them directly loses them; one they hold through a
   * group is hidden for them (a left row), as is a direct one they also hold through a group.
   */
  async leave(user: UserRecord, kind: string, id: number): Promise<void> {
    if (kind !== 'team' && kind !== 'people') throw errors.badRequest('kind is team or people');
    const grantKind: GrantKind = kind;
    const grants = await this.ctx.store.teams.grantsOf(user.id);
    const held =
      grantKind === 'team'
        ? grants.teams.some((folder) => folder.id === id)
        : grants.people.some((share) => share.id === id);
    if (!held) throw errors.notFound();
    await this.ctx.store.teams.removeGrantee(grantKind, id, { kind: 'user', id: user.id });
    const still = await this.ctx.store.teams.grantsOf(user.id);
    const stillHeld =
      grantKind === 'team'
        ? still.teams.some((folder) => folder.id === id)
        : still.people.some((share) => share.id === id);
    if (stillHeld) await this.ctx.store.teams.markLeft(user.id, grantKind, id);
    const owner =
      grantKind === 'people' ? (await this.ctx.store.teams.peopleShare(id))?.ownerId : undefined;
    await this.notify(owner === undefined ? [user.id] : [user.id, owner]);
  }

  /**
   * GET /api/people?q=: users and groups whose name contains `q` (without case), names starting
   * with it first, at most PEOPLE_MATCHES. Anyone who may share sees every username and group name
   * (docs/teams.md): picking a recipient needs them, and the names say nothing of anyone's files.
   */
  async people(actor: UserRecord, query: string): Promise<PersonMatch[]> {
    if (!canShare(actor)) throw errors.forbidden();
    const needle = query.trim().toLowerCase();
    const users = (await this.ctx.store.users.names())
      .filter((user) => user.id !== actor.id)
      .map((user) => ({ kind: 'user' as const, id: user.id, name: user.username }));
    const groups = (await this.ctx.store.teams.groups()).map((group) => ({
      kind: 'group' as const,
      id: group.id,
      name: group.name,
    }));
    const rank = (name: string) => {
      const at = name.toLowerCase().indexOf(needle);
      return at < 0 ? -1 : at === 0 ? 0 : 1;
    };
    return [...users, ...groups]
      .filter((match) => rank(match.name) >= 0)
      .sort((a, b) => rank(a.name) - rank(b.name) || a.name.localeCompare(b.name))
      .slice(0, PEOPLE_MATCHES);
  }

  // ---- helpers ----

  private async checkUsers(ids: readonly number[]): Promise<void> {
    const found = new Set((await this.ctx.store.users.byIds(ids)).map((user) => user.id));
    const missing = ids.find((id) => !found.has(id));
    if (missing !== undefined) throw errors.badRequest(`no user has the id ${missing}`);
  }

  private async checkGrantees(
    grantees: readonly { kind: 'user' | 'group'; id: number }[],
    ownerId?: number,
  ): Promise<GranteeRecord[]> {
    const users = grantees.filter((g) => g.kind === 'user').map((g) => g.id);
    await this.checkUsers(users);
    if (ownerId !== undefined && users.includes(ownerId)) {
      throw errors.badRequest('an item is not shared with its owner');
    }
    const known = new Set((await this.ctx.store.teams.groups()).map((group) => group.id));
    const missing = grantees.find((g) => g.kind === 'group' && !known.has(g.id));
    if (missing) throw errors.badRequest(`no group has the id ${missing.id}`);
    return grantees.map((g) => ({ kind: g.kind, id: g.id }));
  }

  private async named(grantees: readonly GranteeRecord[]): Promise<Grantee[]> {
    const users = new Map(
      (
        await this.ctx.store.users.byIds(grantees.filter((g) => g.kind === 'user').map((g) => g.id))
      ).map((user) => [user.id, user.username]),
    );
    const groups = new Map(
      (await this.ctx.store.teams.groups()).map((group) => [group.id, group.name]),
    );
    return grantees.map((g) => ({
      kind: g.kind,
      id: g.id,
      name: (g.kind === 'user' ? users.get(g.id) : groups.get(g.id)) ?? '',
    }));
  }

  /** Every user a list of grantees reaches (groups expanded). */
  private async usersOf(grantees: readonly GranteeRecord[]): Promise<number[]> {
    const ids = new Set(grantees.filter((g) => g.kind === 'user').map((g) => g.id));
    const wanted = new Set(grantees.filter((g) => g.kind === 'group').map((g) => g.id));
    if (wanted.size > 0) {
      for (const group of await this.ctx.store.teams.groups()) {
        if (wanted.has(group.id)) for (const member of group.members) ids.add(member);
      }
    }
    return [...ids];
  }

  /** Sends `shared` to each affected user's streams, so open pages re-read. */
  async notify(userIds: readonly number[]): Promise<void> {
    await Promise.all([...new Set(userIds)].map((id) => this.events.publish(id, SHARED_EVENT, {})));
  }

  /** Everyone a grant reaches, for callers outside (moves and deletes of shared items). */
  async recipientsOf(kind: GrantKind, id: number): Promise<number[]> {
    return this.usersOf(await this.ctx.store.teams.grantees(kind, id));
  }
}

/** Whether an access allows nothing but viewing. */
export function isViewOnly(access: GrantAccess): boolean {
  return !access.create && !access.rename && !access.modify && !access.delete && !access.share;
}
