import type { Db } from './db.ts';

/** A site as stored: the wire `Site` with the generator as text. */
export interface SiteRecord {
  name: string;
  title: string;
  folder: string;
  generator: string;
  output: string;
  serve: boolean;
  users: number[];
}

/** A failed scheduled publication of one post. */
export interface PostFailureRecord {
  path: string;
  /** Milliseconds since the epoch. */
  at: number;
  message: string;
  log: string;
}

function failureId(site: string, path: string): string {
  return `${site}:${path}`;
}

/** Sites of the static-site area and their posts' last scheduled-publication failures. */
export class SitesRepo {
  constructor(private readonly db: Db) {}

  async list(): Promise<SiteRecord[]> {
    const rows = await this.db.selectFrom('sites').selectAll().orderBy('name').execute();
    return rows.map(toRecord);
  }

  async get(name: string): Promise<SiteRecord | undefined> {
    const row = await this.db
      .selectFrom('sites')
      .selectAll()
      .where('name', '=', name)
      .executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  /** Inserts a site; false when the name is taken (the primary key decides, across instances). */
  async insert(site: SiteRecord, now: number): Promise<boolean> {
    const result = await this.db
      .insertInto('sites')
      .values({ ...toRow(site), created_at: now })
      .onConflict((c) => c.column('name').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async update(site: SiteRecord): Promise<void> {
    await this.db.updateTable('sites').set(toRow(site)).where('name', '=', site.name).execute();
  }

  /** Removes a site and its failures; false when there was none. */
  async delete(name: string): Promise<boolean> {
    await this.db.deleteFrom('site_post_failures').where('site', '=', name).execute();
    const result = await this.db.deleteFrom('sites').where('name', '=', name).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async failures(site: string): Promise<PostFailureRecord[]> {
    const rows = await this.db
      .selectFrom('site_post_failures')
      .select(['path', 'at', 'message', 'log'])
      .where('site', '=', site)
      .execute();
    return rows.map((row) => ({ ...row, at: Number(row.at) }));
  }

  /** Keeps one failure per post: a newer one replaces it. */
  async setFailure(site: string, failure: PostFailureRecord): Promise<void> {
    const id = failureId(site, failure.path);
    await this.db.deleteFrom('site_post_failures').where('id', '=', id).execute();
    await this.db
      .insertInto('site_post_failures')
      .values({ id, site, ...failure })
      .onConflict((c) => c.column('id').doNothing())
      .execute();
  }

  async clearFailure(site: string, path: string): Promise<void> {
    await this.db
      .deleteFrom('site_post_failures')
      .where('id', '=', failureId(site, path))
      .execute();
  }
}

function toRow(site: SiteRecord) {
  return {
    name: site.name,
    title: site.title,
    folder: site.folder,
    generator: site.generator,
    output: site.output,
    serve: site.serve ? 1 : 0,
    users: JSON.stringify(site.users),
  };
}

function toRecord(row: {
  name: string;
  title: string;
  folder: string;
  generator: string;
  output: string;
  serve: number;
  users: string;
}): SiteRecord {
  const users: unknown = JSON.parse(row.users);
  return {
    name: row.name,
    title: row.title,
    folder: row.folder,
    generator: row.generator,
    output: row.output,
    serve: Number(row.serve) === 1,
    users: Array.isArray(users) ? users.map(Number) : [],
  };
}
