import { afterEach, beforeEach } from 'vitest';
import { openDatabase, type Db } from '../store/db.ts';
import { openTestDatabase, type TestDatabase } from '../../testing/test-database.ts';

/**
 * One fresh database per test (an SQLite file, or a PostgreSQL database under
 * CABINET_TEST_POSTGRES), reached through as many connections as the test asks for: each stands
 * for another instance. Call at the top of a test file, before the file's own afterEach hooks,
 * so that those (closing the instances) run before the connections are closed.
 */
export function oneDatabasePerTest(): {
  /** A connection of its own to the test's database, as another instance would have. */
  connect(): Promise<Db>;
  /** The connections opened so far in this test, oldest first. */
  connections: readonly Db[];
  /** Closes one connection (an instance that stops). */
  disconnect(db: Db): Promise<void>;
} {
  let database: TestDatabase;
  const connections: Db[] = [];
  beforeEach(async () => {
    database = await openTestDatabase();
  });
  afterEach(async () => {
    await Promise.all(connections.splice(0).map((db) => db.destroy()));
    await database.close();
  });
  return {
    async connect() {
      const db = await openDatabase(database.database);
      connections.push(db);
      return db;
    },
    connections,
    async disconnect(db) {
      connections.splice(connections.indexOf(db), 1);
      await db.destroy();
    },
  };
}
