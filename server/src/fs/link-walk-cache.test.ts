import { lstat, mkdir, mkdtemp, realpath, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { until } from '../../test/helpers/eventually.ts';
import { linkLeadingOut } from './outside-reach.ts';
import { LinkWalkCache } from './link-walk-cache.ts';

let base: string;
let site: string;
let elsewhere: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'link-walk-')));
  site = path.join(base, 'site');
  elsewhere = path.join(base, 'elsewhere');
  await mkdir(path.join(site, 'layouts', '_default'), { recursive: true });
  await mkdir(path.join(site, 'static'), { recursive: true });
  await mkdir(path.join(site, 'public'), { recursive: true });
  await mkdir(elsewhere, { recursive: true });
  await writeFile(path.join(site, 'layouts', '_default', 'single.html'), '{{ .Content }}');
  await symlink('../_default/single.html', path.join(site, 'layouts', '_default', 'page.html'));
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

/**
 * A cache whose clock says every folder was read long after its last change, so each one is
 * kept; the file clock is first let run past the folders' change times, so a change made after
 * the first walk moves a stamp (as the cache's settling time ensures on a real clock).
 */
async function settledCache(): Promise<LinkWalkCache> {
  const folders = [site, 'layouts', 'layouts/_default', 'static', 'public'].map((f) =>
    path.resolve(site, f),
  );
  const stamps = await Promise.all(folders.map((f) => lstat(f, { bigint: true })));
  const latest = stamps.reduce((max, s) => (s.ctimeNs > max ? s.ctimeNs : max), 0n);
  const probe = path.join(base, 'probe');
  await until(async () => {
    await writeFile(probe, String(Math.random()));
    return (await lstat(probe, { bigint: true })).ctimeNs > latest;
  });
  return new LinkWalkCache(() => Date.now() + 60_000);
}

const walk = () => ({ inside: site, skip: [path.join(site, 'public')] });

describe('the kept symlink walk of a site', () => {
  it('finds a link leading out that was added after a first walk', async () => {
    const cache = await settledCache();
    expect(await cache.linkLeadingOut(site, walk())).toBeUndefined();
    expect(await cache.linkLeadingOut(site, walk())).toBeUndefined();
    await symlink('/etc/passwd', path.join(site, 'layouts', '_default', 'list.html'));
    const fresh = await linkLeadingOut(site, walk());
    expect(fresh).toBe('layouts/_default/list.html');
    expect(await cache.linkLeadingOut(site, walk())).toBe(fresh);
  });

  it('finds a folder swapped for a link leading out', async () => {
    const cache = await settledCache();
    expect(await cache.linkLeadingOut(site, walk())).toBeUndefined();
    await rm(path.join(site, 'static'), { recursive: true });
    await symlink(elsewhere, path.join(site, 'static'));
    expect(await cache.linkLeadingOut(site, walk())).toBe('static');
  });

  it('judges again a link that leaves the site and comes back, when what lies outside changes', async () => {
    // layouts/partials → elsewhere/back → the site's static/: inside, until `back` is repointed.
    await symlink(path.join(site, 'static'), path.join(elsewhere, 'back'));
    await symlink(path.join(elsewhere, 'back'), path.join(site, 'layouts', 'partials'));
    const cache = await settledCache();
    expect(await cache.linkLeadingOut(site, walk())).toBeUndefined();
    await unlink(path.join(elsewhere, 'back'));
    await symlink('/etc', path.join(elsewhere, 'back'));
    expect(await linkLeadingOut(site, walk())).toBe('layouts/partials');
    expect(await cache.linkLeadingOut(site, walk())).toBe('layouts/partials');
  });

  it('judges again a link through the skipped output, when the output changes', async () => {
    // The output is never walked, so a link into it is judged where it lands each time.
    await mkdir(path.join(site, 'public', 'css'));
    await symlink('../public/css', path.join(site, 'static', 'css'));
    const cache = await settledCache();
    expect(await cache.linkLeadingOut(site, walk())).toBeUndefined();
    await rm(path.join(site, 'public', 'css'), { recursive: true });
    await symlink('/etc', path.join(site, 'public', 'css'));
    expect(await cache.linkLeadingOut(site, walk())).toBe('static/css');
  });
});
