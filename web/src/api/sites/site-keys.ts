/** Query keys of the static-site area: sites, and each site's posts and archetypes. */
export const siteKeys = {
  all: ['sites'] as const,
  mine: () => ['sites', 'mine'] as const,
  admin: () => ['sites', 'admin'] as const,
  posts: (site: string) => ['sites', 'posts', site] as const,
  archetypes: (site: string) => ['sites', 'archetypes', site] as const,
  file: (filePath: string) => ['sites', 'file', filePath] as const,
};

/** `/sites/{name}` under /api: the name is one URL segment. */
export function siteApiPath(site: string, rest = ''): string {
  return `/sites/${encodeURIComponent(site)}${rest}`;
}
