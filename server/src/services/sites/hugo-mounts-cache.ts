import path from 'node:path';
import { filesFingerprint } from '../../fs/files-fingerprint.ts';
import type { HugoModule } from './hugo-policy.ts';

/** A probe's answer is reused at most this long, whatever the configuration files say. */
const MAX_AGE_MS = 60_000;
/** Sites remembered at once. */
const MAX_SITES = 64;
/** Hugo's configuration files at a project's or a theme's root. */
const CONFIG_FILE = /^(hugo|config)\.(toml|ya?ml|json)$/;

interface Entry {
  print: string;
  at: number;
  modules: HugoModule[];
}

/**
 * `hugo config mounts` answers for previews (docs/sites.md, "Preview"): starting Hugo once more
 * before each preview doubled its time, so the answer is kept while the files it comes from are
 * unchanged: the configuration files (`hugo.*`, `config.*`, `config/`) of the site and of every
 * module the answer named (themes), by name, size, time and inode, and for at most a minute.
 * Builds always ask Hugo.
 */
export class HugoMountsCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly now: () => number) {}

  /**
   * The answer kept for the site if it is young enough, not checked against the files: a guess to
   * judge while `get` checks it (`get` returns this same array while it holds).
   */
  peek(siteReal: string): readonly HugoModule[] | undefined {
    const known = this.entries.get(siteReal);
    return known && known.at > this.now() - MAX_AGE_MS ? known.modules : undefined;
  }

  /** The site's modules, from `probe` when the cached answer is missing, old or stale. */
  async get<F>(
    siteReal: string,
    probe: () => Promise<HugoModule[] | F>,
  ): Promise<HugoModule[] | F> {
    const known = this.entries.get(siteReal);
    if (known && known.at > this.now() - MAX_AGE_MS) {
      if ((await fingerprint(siteReal, known.modules)) === known.print) return known.modules;
    }
    const answer = await probe();
    if (!Array.isArray(answer)) return answer;
    this.entries.delete(siteReal);
    if (this.entries.size >= MAX_SITES) {
      this.entries.delete(this.entries.keys().next().value!);
    }
    const print = await fingerprint(siteReal, answer);
    this.entries.set(siteReal, { print, at: this.now(), modules: answer });
    return answer;
  }
}

function fingerprint(siteReal: string, modules: readonly HugoModule[]): Promise<string> {
  const dirs = new Set([siteReal, ...modules.map((m) => path.resolve(siteReal, m.dir))]);
  return filesFingerprint(dirs, { names: CONFIG_FILE, folders: ['config'] });
}
