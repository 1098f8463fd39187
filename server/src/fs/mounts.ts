import type { GrantAccess, Rule } from '@cabinet/protocol';

/**
 * One grant as a view mounts it (docs/teams.md): a folder of the root (or one file, for a file
 * shared with people) shown at `name` on top of the recipient's own scope. The folder is opened
 * as its own ScopedFs, so nothing under the mount reaches beyond it (symlinks by real location).
 */
export interface MountSpec {
  kind: 'team' | 'people';
  /** The team folder's or the people share's id. */
  id: number;
  /** The wanted name in the view; a clash with the user's own content changes it. */
  name: string;
  /** Root-relative path of the folder the mount's view opens (a shared file's parent folder). */
  scope: string;
  /** A shared file's name in `scope`; absent for folders (the whole scope is shared). */
  file?: string;
  isDir: boolean;
  /** Global rules then the owner's rules (team folders: global rules only). */
  rules: readonly Rule[];
  /** The owner's scope path of `scope`, so the owner's rules judge their own paths. */
  rulePrefix?: string;
  hideDotfiles: boolean;
  access: GrantAccess;
  /** The owner's username and id (people shares). */
  owner?: string;
  ownerId?: number;
  /** Bytes the team folder may hold (0: none of its own). */
  quota: number;
  expire: number;
}

/** Where a view's grants come from: the store, read once per view (per request). */
export interface GrantSource {
  mountsFor(user: { id: number }): Promise<MountSpec[]>;
}

/** A mount placed in a view: its spec and its path there. */
export interface PlacedMount {
  spec: MountSpec;
  /** `/Design`, `/Design (team)` or `/Shared with me/report.pdf`. */
  path: string;
}
