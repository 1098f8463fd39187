import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import type { SiteBuild } from '@cabinet/protocol';
import type { SitesContext } from './sites-context.ts';
import type { ScopedFs } from '../../fs/scoped-fs.ts';
import type { SiteRecord } from '../../store/sites.repo.ts';
import { recordRun } from '../command-runs.ts';
import type { QuotaService } from '../quota/quota.service.ts';
import { renderBuiltin, type SiteSource } from './builtin-generator.ts';
import { runHugo } from './hugo-runner.ts';

/** A post or layout bigger than this is not one (a read refuses it with 413). */
export const MAX_SOURCE_BYTES = 8 * 1024 * 1024;
/** Output files compared byte for byte up to this size; bigger ones by size and time. */
const MAX_COMPARED_BYTES = 64 * 1024 * 1024;
/**
 * A build's own temp folder (and the old output it moves aside) starts with this. Only that build
 * removes it; one left by a crash is removed by the sweep job once older than STALE_BUILD_MS.
 */
export const BUILD_PREFIX = '.cabinet-build-';

/** Who a build runs for, as the run record names them (the scheduler runs for nobody: id 0). */
export interface BuildActor {
  userId: number;
  username: string;
}

/** Reads a site through its own ScopedFs (rooted at the site folder: nothing outside is reachable). */
export function siteSource(fs: ScopedFs): SiteSource {
  return {
    async layouts() {
      const files = new Map<string, string>();
      const dir = await fs.resolve('/layouts');
      if (!dir.stat?.isDirectory()) return files;
      for await (const entry of fs.walk(dir)) {
        if (!entry.stat?.isFile()) continue;
        const rel = entry.path.slice('/layouts/'.length);
        files.set(rel, (await fs.readAll(entry.path, MAX_SOURCE_BYTES)).toString('utf8'));
      }
      return files;
    },
    posts: () => contentPosts(fs),
    async post(path) {
      return (await fs.readAll(`/content/${path}`, MAX_SOURCE_BYTES)).toString('utf8');
    },
  };
}

/** Every `content/**\/*.md` but `_index.md` (Hugo's section pages), relative to content/, sorted. */
export async function contentPosts(fs: ScopedFs): Promise<string[]> {
  const dir = await fs.resolve('/content');
  if (!dir.stat?.isDirectory()) return [];
  const posts: string[] = [];
  for await (const entry of fs.walk(dir)) {
    if (!entry.stat?.isFile() || !entry.name.endsWith('.md') || entry.name === '_index.md') {
      continue;
    }
    posts.push(entry.path.slice('/content/'.length));
  }
  return posts.sort();
}

/** The base URL path a site's output is served from (`/sites/<name>/`). */
export function servedBase(ctx: SitesContext, name: string): string {
  return `${ctx.config.baseURL}/sites/${name}/`;
}

export interface BuildOptions {
  /** The runtime's clock: what is due, and the run record's times. */
  clock: () => number;
  /** Judges and counts the new output against the quotas of the scopes holding the site. */
  quota?: QuotaService;
  /** Aborted when the build lost the site's build lock: it then does not replace the output. */
  signal?: AbortSignal;
}

/**
 * Builds a site into its output folder: the generator writes a fresh folder of its own inside the
 * site, which then replaces the output (renamed aside, the new one renamed in, the old removed),
 * so the output is never half-written. A failed build removes its own folder and leaves the output
 * as it was. Callers serialise builds of a site (build-queue.ts). Reports what changed and records
 * the run like a command run.
 */
export async function buildSite(
  ctx: SitesContext,
  site: SiteRecord,
  fs: ScopedFs,
  actor: BuildActor,
  options: BuildOptions,
): Promise<SiteBuild> {
  const { clock, quota, signal } = options;
  const started = clock();
  const now = started;
  const temp = `/${BUILD_PREFIX}${randomBytes(8).toString('hex')}`;
  const output = `/${site.output}`;
  let log = '';
  let ok = true;
  let line = 'builtin';
  let exitCode: number | null = 0;
  let outcome = 'exited';
  try {
    if (site.generator === 'hugo') {
      const tempDir = await fs.mkdir(temp);
      const root = await fs.resolve('/');
      // The served prefix beats the site's own baseURL, so every link stays under /sites/<name>/.
      const args = ['--destination', tempDir.real, '--noBuildLock', '--quiet'];
      args.push('--baseURL', servedBase(ctx, site.name));
      line = ['hugo', ...args.map((a) => (a === tempDir.real ? `${site.output}(new)` : a))].join(
        ' ',
      );
      const result = await runHugo(ctx, root.real, args, {
        output: path.join(root.real, site.output),
      });
      log = result.log;
      exitCode = result.exitCode;
      outcome = result.outcome;
      ok = result.ok;
    } else {
      const files = await renderBuiltin(siteSource(fs), {
        name: site.name,
        title: site.title,
        baseURL: servedBase(ctx, site.name),
        now,
        includeUnpublished: false,
      });
      await fs.mkdir(temp);
      for (const [rel, text] of files) await fs.writeFile(`${temp}/${rel}`, text);
      log = `built ${files.size} files`;
    }
  } catch (error) {
    ok = false;
    exitCode = null;
    outcome = 'failed';
    log = [log, error instanceof Error ? error.message : String(error)].filter(Boolean).join('\n');
  }
  let grown = 0;
  const tempReal = (await fs.resolve(temp)).real;
  const counted = ok && quota !== undefined && (await quota.isTracked(tempReal));
  if (counted) {
    // The output's size is known only once the generator wrote it (aside, in the temp folder):
    // it is judged before it replaces the old output, so a refusal keeps the old one whole.
    // Measured only where a quota counts the site's folder: the walks are not free.
    try {
      grown = await outputGrowth(fs, temp, output);
      await quota.checkLanding(tempReal, grown);
    } catch (error) {
      ok = false;
      outcome = 'failed';
      log = [log, error instanceof Error ? describe(error) : String(error)].join('\n').trim();
    }
  }
  if (ok && signal?.aborted) {
    ok = false;
    outcome = 'failed';
    log = [log, "Stopped: the build lost the site's build lock; the output was left as it was."]
      .join('\n')
      .trim();
  }
  let changed: SiteBuild['changed'] = { added: [], updated: [], removed: [] };
  try {
    if (ok) {
      changed = await compareTrees(fs, output, temp);
      await swapIn(fs, temp, output);
      if (counted) await quota.recordChange((await fs.resolve(output)).real, grown);
    }
  } finally {
    // This build's own folder only (gone after a swap): other builds' folders are theirs.
    await removeIfThere(fs, temp);
  }
  const durationMs = clock() - started;
  await recordRun(ctx, {
    kind: 'site_build',
    userId: actor.userId,
    username: actor.username,
    path: site.folder,
    line: `site ${site.name}: ${line}`,
    outcome,
    exitCode,
    durationMs,
    startedAt: started,
  });
  return { ok, log, durationMs, changed };
}

/** Bytes a new output adds over the one it replaces (negative when smaller). */
async function outputGrowth(fs: ScopedFs, temp: string, output: string): Promise<number> {
  return (await fs.bytesUnder(temp)) - (await fs.bytesUnder(output));
}

/** A refusal's words (a quota's 507 names usage and quota) for the build log. */
function describe(error: Error): string {
  const reason = (error as { reason?: string }).reason;
  return reason ?? error.message;
}

async function removeIfThere(fs: ScopedFs, folder: string): Promise<void> {
  const found = await fs.resolve(folder).catch(() => undefined);
  if (found?.stat || found?.isSymlink) await fs.remove(folder).catch(() => undefined);
}

/**
 * Removes the build folders (`.cabinet-build-*`) at the top of a site that were last changed
 * before `before` (ms): left by a build a crash or a stop cut short. Younger ones may belong to a
 * build running now, on this instance or another, and are left alone. Returns how many went.
 */
export async function sweepStaleBuilds(fs: ScopedFs, before: number): Promise<number> {
  const { entries } = await fs.list('/');
  let removed = 0;
  for (const entry of entries) {
    if (!entry.name.startsWith(BUILD_PREFIX) || !entry.stat) continue;
    if (entry.stat.mtimeMs >= before) continue;
    await fs.remove(`/${entry.name}`).catch(() => undefined);
    removed++;
  }
  return removed;
}

async function swapIn(fs: ScopedFs, temp: string, output: string): Promise<void> {
  const current = await fs.resolve(output);
  if (current.stat || current.isSymlink) {
    const aside = `/${BUILD_PREFIX}old-${randomBytes(8).toString('hex')}`;
    await fs.move(output, aside);
    await fs.move(temp, output);
    await fs.remove(aside);
  } else {
    await fs.move(temp, output);
  }
}

async function fingerprints(fs: ScopedFs, dir: string): Promise<Map<string, string>> {
  const prints = new Map<string, string>();
  const resolved = await fs.resolve(dir);
  if (!resolved.stat?.isDirectory()) return prints;
  for await (const entry of fs.walk(resolved)) {
    if (!entry.stat?.isFile()) continue;
    const rel = entry.path.slice(dir.length + 1);
    if (entry.stat.size > MAX_COMPARED_BYTES) {
      prints.set(rel, `${entry.stat.size}:${entry.stat.mtimeMs}`);
      continue;
    }
    const bytes = await fs.readAll(entry.path, MAX_COMPARED_BYTES);
    prints.set(rel, createHash('sha256').update(bytes).digest('hex'));
  }
  return prints;
}

/** What a new output does to the old one, file by file (sorted). */
async function compareTrees(
  fs: ScopedFs,
  before: string,
  after: string,
): Promise<SiteBuild['changed']> {
  const old = await fingerprints(fs, before);
  const fresh = await fingerprints(fs, after);
  const added: string[] = [];
  const updated: string[] = [];
  for (const [rel, print] of fresh) {
    const previous = old.get(rel);
    if (previous === undefined) added.push(rel);
    else if (previous !== print) updated.push(rel);
  }
  const removed = [...old.keys()].filter((rel) => !fresh.has(rel));
  return { added: added.sort(), updated: updated.sort(), removed: removed.sort() };
}

/**
 * How old a build folder must be before the sweep removes it: past any build's time limit (twice
 * the commands' limit, `commandTimeoutS`, Hugo's 120 s when none), and at least an hour.
 */
export function staleBuildMs(commandTimeoutS: number): number {
  const limitMs = (commandTimeoutS > 0 ? commandTimeoutS : 120) * 1000;
  return Math.max(60 * 60 * 1000, 2 * limitMs);
}
