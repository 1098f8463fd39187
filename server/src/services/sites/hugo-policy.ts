import path from 'node:path';
import { landsInside, linkLeadingOut, realLanding, type LinkWalk } from '../../fs/outside-reach.ts';

/** How the site folder is walked for links leading out (fresh, or a preview's cached walk). */
export type LinkWalker = (folder: string, walk: LinkWalk) => Promise<string | undefined>;

/**
 * Hugo's security policy for every run, given as environment variables: Hugo lets `HUGO_*`
 * variables override every configuration file, the site's `hugo.toml` and its `config/` folder
 * alike, so a site (which its users edit) cannot widen it again. No external program
 * (`security.exec`), no environment for one, no environment variable readable by templates
 * (`os.Getenv`), and no network (`resources.GetRemote`, `getJSON`, `getCSV`).
 */
export const HUGO_POLICY: Readonly<Record<string, string>> = {
  HUGO_SECURITY_EXEC_ALLOW: 'none',
  HUGO_SECURITY_EXEC_OSENV: 'none',
  HUGO_SECURITY_FUNCS_GETENV: 'none',
  HUGO_SECURITY_HTTP_URLS: 'none',
  HUGO_SECURITY_HTTP_METHODS: 'none',
};

/** One module of `hugo config mounts`: its folder and what it mounts from where. */
export interface HugoModule {
  path: string;
  dir: string;
  mounts: Array<{ source: string; target: string }> | null;
}

/**
 * The modules `hugo config mounts` prints: one JSON object after another (not an array), split at
 * the top level by a small scanner that knows strings.
 */
export function parseMounts(text: string): HugoModule[] {
  const modules: HugoModule[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{') {
      if (depth++ === 0) start = i;
    } else if (char === '}' && --depth === 0) {
      modules.push(JSON.parse(text.slice(start, i + 1)) as HugoModule);
    }
  }
  return modules;
}

/**
 * Why Hugo would read outside the site folder, or undefined when it would not. Hugo lets the main
 * project mount any folder (`module.mounts`, `contentDir = "/etc"`, a `themesDir` elsewhere) and
 * follows the project's symlinks, so both are checked before a run: every module folder and mount
 * source must land inside the site folder (or `extra`, the preview's scratch folder), and no
 * symlink in the site folder may lead out of it. The output folder (`output`, real) is not walked:
 * Hugo only writes there (a build's goes to a new folder anyway), and reads from it only what a
 * module or mount names, which is walked.
 */
export async function reachOutside(
  siteReal: string,
  modules: readonly HugoModule[],
  extra: readonly string[] = [],
  output?: string,
  walker: LinkWalker = linkLeadingOut,
): Promise<string | undefined> {
  const walks: string[] = [siteReal];
  if (output !== undefined) {
    for (const module of modules) {
      const dir = path.resolve(siteReal, module.dir);
      const read = [dir, ...(module.mounts ?? []).map((m) => path.resolve(dir, m.source))];
      walks.push(...read.filter((folder) => isUnder(folder, output)));
    }
  }
  // The modules and mounts are judged while the folders are walked; a refusal of the first kind
  // is told first.
  const [judged, links] = await Promise.all([
    judgeModules(siteReal, modules, extra),
    Promise.all(
      walks.map((folder) =>
        walker(folder, { inside: siteReal, skip: output === undefined ? [] : [output] }),
      ),
    ),
  ]);
  if (judged !== undefined) return judged;
  const link = links.find((found) => found !== undefined);
  return link === undefined ? undefined : `the symlink ${link} leads outside the site folder`;
}

/** Why a module folder or a mount source lands outside the site folder (and `extra`), if one does. */
async function judgeModules(
  siteReal: string,
  modules: readonly HugoModule[],
  extra: readonly string[],
): Promise<string | undefined> {
  const roots = await Promise.all([siteReal, ...extra].map(realLanding));
  // Every module folder and mount source is judged at once; the first refusal in order is told.
  const judged = await Promise.all(
    modules.map(async (module) => {
      const dir = path.resolve(siteReal, module.dir);
      const mounts = module.mounts ?? [];
      const [dirInside, ...mountsInside] = await Promise.all([
        landsInside(dir, roots),
        ...mounts.map((mount) => landsInside(path.resolve(dir, mount.source), roots)),
      ]);
      if (!dirInside) return `Hugo module ${module.path} lies outside the site folder`;
      const out = mounts.find((_, i) => !mountsInside[i]);
      return out && `the mount of ${out.source} (to ${out.target}) lies outside the site folder`;
    }),
  );
  return judged.find((reason) => reason !== undefined);
}

function isUnder(folder: string, parent: string): boolean {
  return folder === parent || folder.startsWith(parent + path.sep);
}
