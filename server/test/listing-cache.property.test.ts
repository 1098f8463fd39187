/**
 * The listing cache under random changes (docs/benchmarks.md, "Listing cache"): every listing a
 * server with the cache and watches gives, as JSON and in the compact form, is byte for byte what
 * a second server on the same folder gives with no cache and no watching (a fresh read).
 *
 * Each step first lets every folder be cached (watched, its last change older than a clock tick,
 * listed once), then makes one change through Cabinet's API or straight on disk: create, write in
 * place, rename, move of an ancestor away and back with a change inside, delete, chmod, an
 * mtime-only touch, a folder replaced in one step, an append through a hard link in another
 * folder. Then it lists every folder at once. Changes that do not touch a folder's own stamp (a
 * file written in place, chmod, touch, and a child folder's mtime when another program changed
 * inside it) are reported by the watch; those folders are compared once the listings agree,
 * bounded by `eventually`'s attempts. Every other listing must agree at once.
 */
import {
  appendFile,
  chmod,
  link,
  mkdir,
  readdir,
  rename,
  rm,
  stat,
  utimes,
  writeFile,
} from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzRuns } from '../testing/hostile-paths.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { eventually } from './helpers/eventually.ts';
import { watched } from './helpers/watched.ts';

const NAMES = ['a.txt', 'b.md', 'c', 'Z.bin', 'é.txt'];

type Via = 'api' | 'disk';
type Change =
  | { kind: 'create' | 'write' | 'delete' | 'rename'; via: Via; pick: number; name: number }
  | { kind: 'moveAncestor'; via: Via; pick: number; name: number }
  | { kind: 'chmod' | 'touch' | 'linkAppend'; pick: number; seed: number }
  | { kind: 'replace'; how: 0 | 1 | 2; pick: number };

const via = fc.constantFrom<Via>('api', 'disk');
const pick = fc.nat(1000);
const name = fc.nat(NAMES.length - 1);
const change: fc.Arbitrary<Change> = fc.oneof(
  fc.record({ kind: fc.constantFrom('create', 'write', 'delete', 'rename'), via, pick, name }),
  fc.record({ kind: fc.constant('moveAncestor'), via, pick, name }),
  fc.record({ kind: fc.constantFrom('chmod', 'touch', 'linkAppend'), pick, seed: fc.nat(1000) }),
  fc.record({ kind: fc.constant('replace'), how: fc.constantFrom(0, 1, 2), pick }),
) as fc.Arbitrary<Change>;

/** Every folder below a real path (itself first), as paths relative to `root`. */
async function foldersUnder(root: string, relative: string): Promise<string[]> {
  const found = [relative];
  const entries = await readdir(path.join(root, relative), { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (entry.isDirectory()) found.push(...(await foldersUnder(root, `${relative}/${entry.name}`)));
  }
  return found;
}

/** Files (not folders) directly in some folder below `relative`. */
async function filesUnder(root: string, relative: string): Promise<string[]> {
  const files: string[] = [];
  for (const folder of await foldersUnder(root, relative)) {
    const entries = await readdir(path.join(root, folder), { withFileTypes: true });
    for (const entry of entries) if (entry.isFile()) files.push(`${folder}/${entry.name}`);
  }
  return files;
}

describe('listing cache against a fresh read, under random changes', () => {
  let cached: TestServer;
  let fresh: TestServer;
  let cases = 0;

  beforeAll(async () => {
    cached = await startTestServer();
    fresh = await startTestServer({
      root: cached.root,
      config: { listingCache: 0, searchWatch: false },
    });
  });
  afterAll(async () => {
    await fresh?.close({ removeFiles: false });
    await cached?.close();
  });

  const enc = (relative: string) => relative.split('/').map(encodeURIComponent).join('/');

  /** A folder's listing as JSON and compact text from one server. */
  async function listed(server: TestServer, folder: string): Promise<string> {
    const [plain, compact] = await Promise.all(
      ['', '?format=compact'].map(async (query) => {
        const res = await server.fetch(`/api/resources/${enc(folder)}/${query}`, {
          token: server.admin.token,
        });
        return `${res.status}\n${await res.text()}`;
      }),
    );
    return `${plain}\n---\n${compact}`;
  }

  async function api(method: string, pathAndQuery: string, body?: string): Promise<void> {
    const res = await cached.fetch(pathAndQuery, { method, token: cached.admin.token, body });
    // A change the tree no longer allows (its target gone, its name taken) is refused: fine.
    expect(res.status).toBeLessThan(500);
  }

  /** Makes one change; returns the folders whose listings only a watch's report brings up to date. */
  async function apply(run: string, step: Change, counter: number): Promise<Set<string>> {
    const root = cached.root;
    const at = (relative: string) => path.join(root, relative);
    const folders = await foldersUnder(root, run);
    const files = await filesUnder(root, run);
    const folder = folders[step.pick % folders.length]!;
    const file = files.length > 0 ? files[step.pick % files.length]! : null;
    const eventual = new Set<string>();
    // Another program changing a folder changes its mtime, shown in its parent's listing.
    const touchedOnDisk = (changed: string) => eventual.add(path.posix.dirname(changed));
    switch (step.kind) {
      case 'create': {
        const target = `${folder}/${NAMES[step.name]}-${counter}`;
        if (step.via === 'api')
          await api('POST', `/api/resources/${enc(target)}?override=true`, 'new');
        else {
          await writeFile(at(target), 'new');
          touchedOnDisk(folder);
        }
        break;
      }
      case 'write': {
        if (!file) break;
        const content = 'x'.repeat(counter % 7);
        if (step.via === 'api')
          await api('POST', `/api/resources/${enc(file)}?override=true`, content);
        else {
          await writeFile(at(file), content); // in place: the same inode, truncated and written
          eventual.add(path.posix.dirname(file));
        }
        break;
      }
      case 'delete': {
        const target = step.name % 2 === 0 && file ? file : folder;
        if (target === run) break;
        if (step.via === 'api') await api('DELETE', `/api/resources/${enc(target)}`);
        else {
          await rm(at(target), { recursive: true, force: true });
          touchedOnDisk(path.posix.dirname(target));
        }
        break;
      }
      case 'rename': {
        const source = step.name % 2 === 0 && file ? file : folder;
        if (source === run) break;
        const target = `${path.posix.dirname(source)}/${NAMES[step.name]}-r${counter}`;
        if (step.via === 'api') {
          await api(
            'PATCH',
            `/api/resources/${enc(source)}?action=rename&destination=${encodeURIComponent(`/${target}`)}`,
          );
        } else {
          await rename(at(source), at(target));
          touchedOnDisk(path.posix.dirname(source));
        }
        break;
      }
      case 'moveAncestor': {
        // A top folder goes away, something changes inside it there, and it comes back.
        const top = folder === run ? null : folder.split('/').slice(0, 2).join('/');
        if (!top) break;
        const away = `${run}/away-${counter}`;
        const inside = folders.filter((f) => f === top || f.startsWith(`${top}/`));
        const target = inside[step.name % inside.length]!.replace(top, away);
        const created = `${target}/${NAMES[step.name]}-m${counter}`;
        if (step.via === 'api') {
          const move = (from: string, to: string) =>
            api(
              'PATCH',
              `/api/resources/${enc(from)}?action=rename&destination=${encodeURIComponent(`/${to}`)}`,
            );
          await move(top, away);
          await api('POST', `/api/resources/${enc(created)}?override=true`, 'moved');
          await move(away, top);
        } else {
          await rename(at(top), at(away));
          await writeFile(at(created), 'moved');
          await rename(at(away), at(top));
          touchedOnDisk(target.replace(away, top));
        }
        break;
      }
      case 'chmod': {
        if (!file) break;
        await chmod(at(file), step.seed % 2 === 0 ? 0o600 : 0o644);
        eventual.add(path.posix.dirname(file));
        break;
      }
      case 'touch': {
        if (!file) break;
        const when = new Date(Date.UTC(2020, 0, 1 + (step.seed % 300)));
        await utimes(at(file), when, when);
        eventual.add(path.posix.dirname(file));
        break;
      }
      case 'linkAppend': {
        // The log in links/ has another name in the run's first folder, if it is still there.
        const log = at(`${run}/links/shared.log`);
        // (Unless a rename or delete took it away: appending would create it.)
        if (await stat(log).catch(() => null)) await appendFile(log, `line ${step.seed}\n`);
        break;
      }
      case 'replace': {
        if (folder === run || folder === `${run}/links`) break;
        const real = at(folder);
        if (step.how === 0) {
          await rm(real, { recursive: true });
          await mkdir(real);
        } else if (step.how === 1) {
          await rename(real, `${real}.old${counter}`);
          await mkdir(real);
        } else {
          await mkdir(`${real}.new`);
          await writeFile(`${real}.new/swapped-in.txt`, 'new');
          await rename(real, `${real}.old${counter}`);
          await rename(`${real}.new`, real);
        }
        await writeFile(`${real}/after-${counter}.txt`, 'after');
        touchedOnDisk(folder);
        break;
      }
    }
    return eventual;
  }

  it('gives a fresh read’s bytes for every listing', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(change, { minLength: 1, maxLength: 12 }), async (steps) => {
        const run = `run-${runs++}`;
        const at = (relative: string) => path.join(cached.root, relative);
        for (const relative of ['a/c', 'b/d', 'links'])
          await mkdir(at(`${run}/${relative}`), { recursive: true });
        await writeFile(at(`${run}/a/x.txt`), 'x');
        await writeFile(at(`${run}/a/c/y.txt`), 'yy');
        await writeFile(at(`${run}/b/z.txt`), 'zzz');
        await writeFile(at(`${run}/links/shared.log`), 'start\n');
        await link(at(`${run}/links/shared.log`), at(`${run}/a/shared.log`));
        let counter = 0;
        for (const step of steps) {
          // Every folder cached first, with what a fresh read gives.
          const folders = await foldersUnder(cached.root, run);
          for (const folder of folders) await watched(cached, folder);
          for (const folder of folders) {
            await eventually(
              async () => [await listed(cached, folder), await listed(fresh, folder)],
              ([mine, theirs]) => mine === theirs,
            );
          }
          const eventual = await apply(run, step, counter++);
          for (const folder of await foldersUnder(cached.root, run)) {
            cases++;
            if (eventual.has(folder)) {
              await eventually(
                async () => [await listed(cached, folder), await listed(fresh, folder)],
                ([mine, theirs]) => mine === theirs,
              );
            } else {
              expect(await listed(cached, folder), `${folder} after ${JSON.stringify(step)}`).toBe(
                await listed(fresh, folder),
              );
            }
          }
        }
      }),
      { numRuns: fuzzRuns(12) },
    );
    // The report's count of listings compared (docs/benchmarks.md).
    console.log(`listing cache property: ${runs} runs, ${cases} listings compared`);
  }, 120_000);
});
