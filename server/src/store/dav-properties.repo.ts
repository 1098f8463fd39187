import { sql } from 'kysely';
import type { Db } from './db.ts';

/** One dead property: its `{namespace}local` name and the element as XML. */
export interface DeadProperty {
  name: string;
  xml: string;
}

const idOf = (path: string, name: string) => JSON.stringify([path, name]);

/**
 * The path itself or anything below it. substr counts characters (code points) on both engines; LIKE
 * would fold case on SQLite and treat `%` and `_` in names as wildcards.
 */
function atOrUnder(path: string) {
  const prefix = `${path}/`;
  const length = [...prefix].length;
  return sql<boolean>`(path = ${path} or substr(path, 1, ${length}) = ${prefix})`;
}

/**
 * WebDAV dead properties (PROPPATCH) per path from the served root. They follow their file through
 * WebDAV copies, moves and deletes; changes made elsewhere leave them behind harmlessly.
 */
export class DavPropertiesRepo {
  constructor(private readonly db: Db) {}

  async list(path: string): Promise<DeadProperty[]> {
    const rows = await this.db
      .selectFrom('dav_properties')
      .select(['name', 'xml'])
      .where('path', '=', path)
      .execute();
    return rows.sort((a, b) => (a.name < b.name ? -1 : 1));
  }

  /** Applies sets and removals in one transaction (PROPPATCH is all or nothing). */
  async apply(
    path: string,
    changes: readonly (
      { kind: 'set'; name: string; xml: string } | { kind: 'remove'; name: string }
    )[],
  ): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      for (const change of changes) {
        const id = idOf(path, change.name);
        await tx.deleteFrom('dav_properties').where('id', '=', id).execute();
        if (change.kind === 'set') {
          await tx
            .insertInto('dav_properties')
            .values({ id, path, name: change.name, xml: change.xml })
            .execute();
        }
      }
    });
  }

  /** Forgets the properties of a path and everything under it. */
  async removeTree(path: string): Promise<void> {
    await this.db.deleteFrom('dav_properties').where(atOrUnder(path)).execute();
  }

  /** Copies (or with `move`, moves) the properties of a tree to another path. */
  async transferTree(from: string, to: string, move: boolean): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      const rows = await tx
        .selectFrom('dav_properties')
        .selectAll()
        .where(atOrUnder(from))
        .execute();
      const moved = rows
        .filter((row) => row.path === from || row.path.startsWith(`${from}/`))
        .map((row) => {
          const path = to + row.path.slice(from.length);
          return { id: idOf(path, row.name), path, name: row.name, xml: row.xml };
        });
      if (move) {
        for (const row of rows)
          await tx.deleteFrom('dav_properties').where('id', '=', row.id).execute();
      }
      for (const row of moved) {
        await tx.deleteFrom('dav_properties').where('id', '=', row.id).execute();
        await tx.insertInto('dav_properties').values(row).execute();
      }
    });
  }
}
