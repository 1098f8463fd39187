/** Query keys of the teams API (docs/teams.md): groups, team folders, shares with people. */
export const teamKeys = {
  groups: ['groups'] as const,
  teamFolders: ['team-folders'] as const,
  peopleShares: ['people-shares'] as const,
  /** Who has access to one item (the share dialog). */
  peopleSharesOf: (path: string) => ['people-shares', 'path', path] as const,
  sharedWithMe: ['shared-with-me'] as const,
  /** Users and groups matching what was typed in a picker. */
  people: (query: string) => ['people', query] as const,
};
