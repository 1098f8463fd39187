import { randomBytes } from 'node:crypto';
import {
  lstat,
  mkdir,
  open,
  readdir,
  readFile,
  realpath,
  rename,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises';
import path from 'node:path';

/** Who may see a preview, and when it was made. */
export interface PreviewMeta {
  site: string;
  userId: number;
  /** The post previewed (relative to content/): a newer preview of it replaces this one. */
  post?: string;
  /** Milliseconds since the epoch. */
  createdAt: number;
}

/** A file of a preview, found for sending. */
export interface PreviewFile {
  real: string;
  size: number;
  mtime: Date;
}

const ID = /^[a-f0-9]{32}$/;
/** Where discarded previews wait for removal (not a preview id, so never served). */
const DISCARDED = '.discarded';
/** Where the spare preview folder waits (not a preview id, so never served). */
const SPARE = '.spare';

/**
 * Scratch builds of the static-site area (docs/sites.md, "Preview"): one folder per preview in the
 * data folder, never inside a site, holding `meta.json`, the generator's `out/` and, for Hugo, a
 * `content/` holding only the post previewed. Discarded when replaced or beyond a count (their
 * files removed while the next preview renders), and removed by the runtime's sweep job after a
 * few minutes.
 */
export class SitePreviews {
  constructor(private readonly dir: string) {}

  /**
   * A fresh, unguessable preview folder: the spare one `prepare` made ahead when there is one
   * (taken by one rename), else made now.
   */
  async create(meta: PreviewMeta): Promise<{ id: string; dir: string; out: string }> {
    const id = randomBytes(16).toString('hex');
    const dir = path.join(this.dir, id);
    const spare = (await readdir(path.join(this.dir, SPARE)).catch(() => [] as string[]))[0];
    const taken =
      spare !== undefined &&
      (await rename(path.join(this.dir, SPARE, spare), dir).then(
        () => true,
        () => false, // Another request took it first.
      ));
    if (!taken) await mkdir(path.join(dir, 'out'), { recursive: true });
    // Through a temp name: a reader (the sweep, another request's lookup) never sees half of it.
    await writeFile(path.join(dir, 'meta.json.tmp'), JSON.stringify(meta));
    await rename(path.join(dir, 'meta.json.tmp'), path.join(dir, 'meta.json'));
    return { id, dir, out: path.join(dir, 'out') };
  }

  /**
   * Makes a spare preview folder for the next `create` unless one is waiting (a preview makes it
   * while it renders, so the next one's answer does not wait for the folder). It holds `out/`
   * only: nothing of a site, so nothing in it can go stale.
   */
  async prepare(): Promise<void> {
    const spares = path.join(this.dir, SPARE);
    if ((await readdir(spares).catch(() => [] as string[])).length > 0) return;
    await mkdir(path.join(spares, randomBytes(16).toString('hex'), 'out'), { recursive: true });
  }

  /** Writes a file under a preview folder (`rel` was made by Cabinet, never by a request). */
  async write(dir: string, rel: string, data: string | Uint8Array): Promise<void> {
    const target = path.join(dir, rel);
    if (!target.startsWith(dir + path.sep)) throw new Error('preview path outside its folder');
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, data);
  }

  async meta(id: string): Promise<PreviewMeta | undefined> {
    if (!ID.test(id)) return undefined;
    try {
      return JSON.parse(
        await readFile(path.join(this.dir, id, 'meta.json'), 'utf8'),
      ) as PreviewMeta;
    } catch {
      return undefined;
    }
  }

  /**
   * A file of a preview's output: `index.html` for a folder; undefined when missing or when its
   * real path (links followed) leaves the preview's output.
   */
  async find(id: string, rel: string): Promise<PreviewFile | undefined> {
    if (!ID.test(id)) return undefined;
    const out = path.join(this.dir, id, 'out');
    return findInside(out, rel);
  }

  /** Removes one preview (a superseded or failed one). */
  async remove(id: string): Promise<void> {
    if (!ID.test(id)) return;
    await rm(path.join(this.dir, id), { recursive: true, force: true });
  }

  /**
   * What a new preview `keep` replaces: the user's other previews of the same post and, past `max`
   * previews in all, the oldest (many editors at once, or one asking faster than the sweep). One
   * pass over the folder, read while the new one renders; `discard` them once it is made.
   */
  async replacedBy(keep: string, meta: PreviewMeta, max: number): Promise<string[]> {
    let names: string[];
    try {
      names = (await readdir(this.dir)).filter((name) => ID.test(name) && name !== keep);
    } catch {
      return [];
    }
    const replaced: string[] = [];
    const others: { name: string; at: number }[] = [];
    for (const name of names) {
      const other = await this.meta(name);
      if (other?.site === meta.site && other.userId === meta.userId && other.post === meta.post) {
        replaced.push(name);
      } else others.push({ name, at: other?.createdAt ?? 0 });
    }
    const extra = others.length + 1 - max;
    if (extra > 0) {
      others.sort((a, b) => a.at - b.at);
      replaced.push(...others.slice(0, extra).map((o) => o.name));
    }
    return replaced;
  }

  /**
   * Takes previews out of service at once (one rename each: their URLs answer 404 from then on);
   * their files are removed by the next `purge`, which a preview runs while it renders, or by the
   * sweep, so the answer does not wait for the removal.
   */
  async discard(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    const bin = path.join(this.dir, DISCARDED);
    await mkdir(bin, { recursive: true });
    for (const id of ids) {
      if (!ID.test(id)) continue;
      await rename(path.join(this.dir, id), path.join(bin, id)).catch(async (error: unknown) => {
        // Already gone (another request's discard, the sweep); otherwise removed here.
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
        await rm(path.join(this.dir, id), { recursive: true, force: true });
      });
    }
  }

  /**
   * Removes the files of discarded previews, one after another until `enough` says to stop (a
   * preview's render is done: its answer does not wait for more; the next one or the sweep goes
   * on).
   */
  async purge(enough: () => boolean = () => false): Promise<void> {
    const bin = path.join(this.dir, DISCARDED);
    const names = await readdir(bin).catch(() => [] as string[]);
    for (const name of names) {
      if (enough()) return;
      await rm(path.join(bin, name), { recursive: true, force: true });
    }
  }

  /** Removes previews made before `before` (ms); returns how many. */
  async sweep(before: number): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return 0;
    }
    await this.purge();
    let removed = 0;
    for (const name of names) {
      if (!ID.test(name)) continue;
      const meta = await this.meta(name);
      if (meta && meta.createdAt >= before) continue;
      await rm(path.join(this.dir, name), { recursive: true, force: true });
      removed++;
    }
    return removed;
  }
}

/** A file under `root` by a URL path, `index.html` for folders, never outside `root`'s real path. */
export async function findInside(root: string, rel: string): Promise<PreviewFile | undefined> {
  const segments = rel.split('/').filter((s) => s !== '');
  if (segments.some((s) => s === '.' || s === '..' || s.includes('\\') || s.includes('\0'))) {
    return undefined;
  }
  try {
    const rootReal = await realpath(root);
    let real = await realpath(path.join(rootReal, ...segments));
    if (real !== rootReal && !real.startsWith(rootReal + path.sep)) return undefined;
    let info = await stat(real);
    if (info.isDirectory()) {
      real = await realpath(path.join(real, 'index.html'));
      if (!real.startsWith(rootReal + path.sep)) return undefined;
      info = await lstat(real);
    }
    if (!info.isFile()) return undefined;
    return { real, size: info.size, mtime: info.mtime };
  } catch {
    return undefined;
  }
}

/** Opens a file `find` returned, for sending. */
export function openPreviewFile(real: string) {
  return open(real, 'r');
}
