import { sql } from 'kysely';
import type { GrantAccess, GranteeKind, GroupSource } from '@cabinet/protocol';
import type { Db } from './db.ts';
import { isStorableInteger, isStorableText } from './engine.ts';
import { bumpGrantsGeneration, grantsGeneration } from './grants-generation.ts';
import { inTransaction } from './db-transaction.ts';

/** `team`: a team folder; `people`: an item shared with people (docs/teams.md). */
export type GrantKind = 'team' | 'people';

export interface GroupRecord {
  id: number;
  name: string;
  source: GroupSource;
  members: number[];
}

export interface GranteeRecord {
  kind: GranteeKind;
  id: number;
}

export interface TeamFolderRecord {
  id: number;
  name: string;
  /** Root-relative, leading slash. */
  path: string;
  access: GrantAccess;
  quota: number;
}

export interface PeopleShareRecord {
  id: number;
  ownerId: number;
  /** The owner's scope path of the item. */
  path: string;
  /** Root-relative real path of the item (followed on moves, as share links). */
  target: string;
  isDir: boolean;
  access: GrantAccess;
  /** Unix seconds; 0 never. */
  expire: number;
}

const BITS: [keyof GrantAccess, number][] = [
  ['create', 1],
  ['rename', 2],
  ['modify', 4],
  ['delete', 8],
  ['share', 16],
];

/** GrantAccess as the integer stored. */
export function accessBits(access: GrantAccess): number {
  return BITS.reduce((bits, [flag, bit]) => (access[flag] ? bits | bit : bits), 0);
}

/** The stored integer as GrantAccess. */
export function accessOf(bits: number): GrantAccess {
  const value = Number(bits);
  return Object.fromEntries(BITS.map(([flag, bit]) => [flag, (value & bit) !== 0])) as GrantAccess;
}

/** A name compared without case (groups are unique that way). */
export function nameKey(name: string): string {
  return name.toLowerCase();
}

function toTeamFolder(row: {
  id: number;
  name: string;
  path: string;
  access: number;
  quota: number | string;
}): TeamFolderRecord {
  return {
    id: Number(row.id),
    name: row.name,
    path: row.path,
    access: accessOf(row.access),
    quota: Number(row.quota),
  };
}

function toPeopleShare(row: {
  id: number;
  owner_id: number;
  path: string;
  target: string;
  is_dir: number;
  access: number;
  expire: number | string;
}): PeopleShareRecord {
  return {
    id: Number(row.id),
    ownerId: Number(row.owner_id),
    path: row.path,
    target: row.target,
    isDir: Number(row.is_dir) === 1,
    access: accessOf(row.access),
    expire: Number(row.expire),
  };
}

/** The only code that reads and writes groups, team folders, people shares and their grantees. */
export class TeamsRepo {
  constructor(private readonly db: Db) {}

  /** Every group with its members, by name. */
  async groups(): Promise<GroupRecord[]> {
    const rows = await this.db.selectFrom('groups').selectAll().orderBy('name_key').execute();
    const members = await this.db
      .selectFrom('group_members')
      .select(['group_id', 'user_id'])
      .orderBy('user_id')
      .execute();
    const byGroup = new Map<number, number[]>();
    for (const row of members) {
      const list = byGroup.get(Number(row.group_id)) ?? [];
      list.push(Number(row.user_id));
      byGroup.set(Number(row.group_id), list);
    }
    return rows.map((row) => ({
      id: Number(row.id),
      name: row.name,
      source: row.source as GroupSource,
      members: byGroup.get(Number(row.id)) ?? [],
    }));
  }

  async group(id: number): Promise<GroupRecord | undefined> {
    if (!isStorableInteger(id)) return undefined;
    const row = await this.db
      .selectFrom('groups')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    const members = await this.db
      .selectFrom('group_members')
      .select('user_id')
      .where('group_id', '=', id)
      .orderBy('user_id')
      .execute();
    return {
      id: Number(row.id),
      name: row.name,
      source: row.source as GroupSource,
      members: members.map((member) => Number(member.user_id)),
    };
  }

  /** The group of a name, compared without case. */
  async groupByName(name: string): Promise<{ id: number; source: GroupSource } | undefined> {
    if (!isStorableText(name)) return undefined;
    const row = await this.db
      .selectFrom('groups')
      .select(['id', 'source'])
      .where('name_key', '=', nameKey(name))
      .executeTakeFirst();
    return row && { id: Number(row.id), source: row.source as GroupSource };
  }

  /** Inserts a group; a taken name throws (unique index). */
  async insertGroup(name: string, source: GroupSource): Promise<number> {
    const row = await this.db
      .insertInto('groups')
      .values({ name, name_key: nameKey(name), source })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  async renameGroup(id: number, name: string): Promise<void> {
    await this.db
      .updateTable('groups')
      .set({ name, name_key: nameKey(name) })
      .where('id', '=', id)
      .execute();
  }

  /** Replaces a group's members. */
  async setMembers(groupId: number, userIds: readonly number[]): Promise<void> {
    await inTransaction(this.db, async (tx) => {
      await bumpGrantsGeneration(tx);
      await tx.deleteFrom('group_members').where('group_id', '=', groupId).execute();
      const unique = [...new Set(userIds)];
      if (unique.length > 0) {
        await tx
          .insertInto('group_members')
          .values(unique.map((userId) => ({ group_id: groupId, user_id: userId })))
          .execute();
      }
    });
  }

  /** Deletes a group, its memberships and the grants made to it. */
  async removeGroup(id: number): Promise<void> {
    await inTransaction(this.db, async (tx) => {
      await bumpGrantsGeneration(tx);
      await tx.deleteFrom('group_members').where('group_id', '=', id).execute();
      await tx
        .deleteFrom('grantees')
        .where('grantee_kind', '=', 'group')
        .where('grantee_id', '=', id)
        .execute();
      await tx.deleteFrom('groups').where('id', '=', id).execute();
    });
  }

  /** The ids of a user's groups, ascending. */
  async groupsOf(userId: number): Promise<number[]> {
    if (!isStorableInteger(userId)) return [];
    const rows = await this.db
      .selectFrom('group_members')
      .select('group_id')
      .where('user_id', '=', userId)
      .orderBy('group_id')
      .execute();
    return rows.map((row) => Number(row.group_id));
  }

  /** Replaces a user's memberships among `within` (every group when absent). */
  async setGroupsOf(
    userId: number,
    groupIds: readonly number[],
    within?: readonly number[],
  ): Promise<void> {
    await inTransaction(this.db, async (tx) => {
      await bumpGrantsGeneration(tx);
      let doomed = tx.deleteFrom('group_members').where('user_id', '=', userId);
      if (within) {
        if (within.length === 0) return;
        doomed = doomed.where('group_id', 'in', [...within]);
      }
      await doomed.execute();
      const unique = [...new Set(groupIds)];
      if (unique.length > 0) {
        await tx
          .insertInto('group_members')
          .values(unique.map((groupId) => ({ group_id: groupId, user_id: userId })))
          .execute();
      }
    });
  }

  /** A deleted user leaves every group, grant list and left row. */
  async forgetUser(userId: number): Promise<void> {
    await inTransaction(this.db, async (tx) => {
      await bumpGrantsGeneration(tx);
      await tx.deleteFrom('group_members').where('user_id', '=', userId).execute();
      await tx
        .deleteFrom('grantees')
        .where('grantee_kind', '=', 'user')
        .where('grantee_id', '=', userId)
        .execute();
      await tx.deleteFrom('shared_left').where('user_id', '=', userId).execute();
      const owned = await tx
        .selectFrom('people_shares')
        .select('id')
        .where('owner_id', '=', userId)
        .execute();
      const ids = owned.map((row) => Number(row.id));
      if (ids.length > 0) {
        await tx
          .deleteFrom('grantees')
          .where('grant_kind', '=', 'people')
          .where('grant_id', 'in', ids)
          .execute();
        await tx.deleteFrom('people_shares').where('id', 'in', ids).execute();
      }
    });
  }

  /** Who a grant is for. */
  async grantees(kind: GrantKind, id: number): Promise<GranteeRecord[]> {
    const rows = await this.db
      .selectFrom('grantees')
      .select(['grantee_kind', 'grantee_id'])
      .where('grant_kind', '=', kind)
      .where('grant_id', '=', id)
      .orderBy('grantee_kind')
      .orderBy('grantee_id')
      .execute();
    return rows.map((row) => ({
      kind: row.grantee_kind as GranteeKind,
      id: Number(row.grantee_id),
    }));
  }

  /** Replaces who a grant is for; left rows of the grant are kept (leaving is the recipient's). */
  async setGrantees(
    kind: GrantKind,
    id: number,
    grantees: readonly GranteeRecord[],
  ): Promise<void> {
    await inTransaction(this.db, async (tx) => {
      await bumpGrantsGeneration(tx);
      await tx
        .deleteFrom('grantees')
        .where('grant_kind', '=', kind)
        .where('grant_id', '=', id)
        .execute();
      const unique = new Map(grantees.map((g) => [`${g.kind}:${g.id}`, g]));
      if (unique.size > 0) {
        await tx
          .insertInto('grantees')
          .values(
            [...unique.values()].map((g) => ({
              grant_kind: kind,
              grant_id: id,
              grantee_kind: g.kind,
              grantee_id: g.id,
            })),
          )
          .execute();
      }
    });
  }

  /** Removes one grantee from a grant (a recipient leaving a grant made to them directly). */
  async removeGrantee(kind: GrantKind, id: number, grantee: GranteeRecord): Promise<number> {
    return inTransaction(this.db, async (tx) => {
      await bumpGrantsGeneration(tx);
      const result = await tx
        .deleteFrom('grantees')
        .where('grant_kind', '=', kind)
        .where('grant_id', '=', id)
        .where('grantee_kind', '=', grantee.kind)
        .where('grantee_id', '=', grantee.id)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    });
  }

  /** Hides a grant from one user (they left it while their group still holds it). */
  async markLeft(userId: number, kind: GrantKind, id: number): Promise<void> {
    await inTransaction(this.db, async (tx) => {
      await bumpGrantsGeneration(tx);
      await tx
        .insertInto('shared_left')
        .values({ user_id: userId, grant_kind: kind, grant_id: id })
        .onConflict((oc) => oc.columns(['user_id', 'grant_kind', 'grant_id']).doNothing())
        .execute();
    });
  }

  async teamFolders(): Promise<TeamFolderRecord[]> {
    const rows = await this.db.selectFrom('team_folders').selectAll().orderBy('id').execute();
    return rows.map(toTeamFolder);
  }

  async teamFolder(id: number): Promise<TeamFolderRecord | undefined> {
    if (!isStorableInteger(id)) return undefined;
    const row = await this.db
      .selectFrom('team_folders')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toTeamFolder(row);
  }

  async insertTeamFolder(folder: Omit<TeamFolderRecord, 'id'>): Promise<number> {
    const row = await this.db
      .insertInto('team_folders')
      .values({
        name: folder.name,
        path: folder.path,
        access: accessBits(folder.access),
        quota: folder.quota,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  async updateTeamFolder(folder: TeamFolderRecord): Promise<void> {
    await inTransaction(this.db, async (tx) => {
      await bumpGrantsGeneration(tx);
      await tx
        .updateTable('team_folders')
        .set({
          name: folder.name,
          path: folder.path,
          access: accessBits(folder.access),
          quota: folder.quota,
        })
        .where('id', '=', folder.id)
        .execute();
    });
  }

  /** Deletes grants with their grantee and left rows. */
  async removeGrant(kind: GrantKind, id: number): Promise<void> {
    await inTransaction(this.db, async (tx) => {
      await bumpGrantsGeneration(tx);
      await tx
        .deleteFrom('grantees')
        .where('grant_kind', '=', kind)
        .where('grant_id', '=', id)
        .execute();
      await tx
        .deleteFrom('shared_left')
        .where('grant_kind', '=', kind)
        .where('grant_id', '=', id)
        .execute();
      if (kind === 'team') await tx.deleteFrom('team_folders').where('id', '=', id).execute();
      else await tx.deleteFrom('people_shares').where('id', '=', id).execute();
    });
  }

  async peopleShare(id: number): Promise<PeopleShareRecord | undefined> {
    if (!isStorableInteger(id)) return undefined;
    const row = await this.db
      .selectFrom('people_shares')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toPeopleShare(row);
  }

  async peopleSharesOf(ownerId: number): Promise<PeopleShareRecord[]> {
    if (!isStorableInteger(ownerId)) return [];
    const rows = await this.db
      .selectFrom('people_shares')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .orderBy('id')
      .execute();
    return rows.map(toPeopleShare);
  }

  async allPeopleShares(): Promise<PeopleShareRecord[]> {
    const rows = await this.db.selectFrom('people_shares').selectAll().orderBy('id').execute();
    return rows.map(toPeopleShare);
  }

  async insertPeopleShare(share: Omit<PeopleShareRecord, 'id'>): Promise<number> {
    const row = await this.db
      .insertInto('people_shares')
      .values({
        owner_id: share.ownerId,
        path: share.path,
        target: share.target,
        is_dir: share.isDir ? 1 : 0,
        access: accessBits(share.access),
        expire: share.expire,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  async updatePeopleShare(id: number, access: GrantAccess, expire: number): Promise<void> {
    await inTransaction(this.db, async (tx) => {
      await bumpGrantsGeneration(tx);
      await tx
        .updateTable('people_shares')
        .set({ access: accessBits(access), expire })
        .where('id', '=', id)
        .execute();
    });
  }

  /** People shares whose item is `target` or lies below it (root-relative real paths). */
  async peopleSharesAtOrUnder(target: string): Promise<PeopleShareRecord[]> {
    let query = this.db.selectFrom('people_shares').selectAll();
    if (target !== '/') {
      if (!isStorableText(target)) return [];
      query = query.where((eb) =>
        eb.or([
          eb('target', '=', target),
          // Folder boundary, no LIKE (as share links: shares.repo.ts).
          eb(sql<string>`substr(target, 1, ${Array.from(target).length + 1})`, '=', `${target}/`),
        ]),
      );
    }
    return (await query.execute()).map(toPeopleShare);
  }

  async relocatePeopleShare(id: number, path: string, target: string): Promise<void> {
    await inTransaction(this.db, async (tx) => {
      await bumpGrantsGeneration(tx);
      await tx.updateTable('people_shares').set({ path, target }).where('id', '=', id).execute();
    });
  }

  /**
   * The grants generation (store/grants-generation.ts): raised by every write above that can
   * change what a view mounts, and by user changes an owner's shares depend on (users.repo.ts).
   */
  generation(): Promise<number> {
    return grantsGeneration(this.db);
  }

  /**
   * The grants a user holds, directly or through a group, minus those they left: the two queries
   * a view composes from (docs/teams.md). Each row once, whatever number of ways it is held.
   */
  async grantsOf(
    userId: number,
  ): Promise<{ teams: TeamFolderRecord[]; people: PeopleShareRecord[] }> {
    if (!isStorableInteger(userId)) return { teams: [], people: [] };
    const held = (kind: GrantKind) =>
      this.db
        .selectFrom('grantees')
        .select('grant_id')
        .where('grant_kind', '=', kind)
        .where((eb) =>
          eb.or([
            eb.and([eb('grantee_kind', '=', 'user'), eb('grantee_id', '=', userId)]),
            eb.and([
              eb('grantee_kind', '=', 'group'),
              eb(
                'grantee_id',
                'in',
                eb.selectFrom('group_members').select('group_id').where('user_id', '=', userId),
              ),
            ]),
          ]),
        )
        .where((eb) =>
          eb.not(
            eb(
              'grant_id',
              'in',
              eb
                .selectFrom('shared_left')
                .select('shared_left.grant_id')
                .where('shared_left.user_id', '=', userId)
                .where('shared_left.grant_kind', '=', kind),
            ),
          ),
        );
    const teams = await this.db
      .selectFrom('team_folders')
      .selectAll()
      .where('id', 'in', held('team'))
      .orderBy('id')
      .execute();
    const people = await this.db
      .selectFrom('people_shares')
      .selectAll()
      .where('id', 'in', held('people'))
      .orderBy('id')
      .execute();
    return { teams: teams.map(toTeamFolder), people: people.map(toPeopleShare) };
  }
}
