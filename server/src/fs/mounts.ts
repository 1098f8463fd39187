import type { GrantAccess, Rule } from '@cabinet/protocol';
import type { Placement } from './view-mounts.ts';

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
  /**
   * A share with people: its owner's stored scope. The item must lie inside it (strictly), which
   * is checked when the share is entered, where `rulePrefix` is computed from it too: the view
   * opens no owner's scope before (docs/teams.md).
   */
  ownerScope?: string;
  hideDotfiles: boolean;
  access: GrantAccess;
  /** The owner's username and id (people shares). */
  owner?: string;
  ownerId?: number;
  /** Bytes the team folder may hold (0: none of its own). */
  quota: number;
  expire: number;
}

/**
 * A user's grants as a GrantSource hands them out: the same object for as long as they hold, so
 * what is built from them (their placement in the view) is built once.
 */
export interface Grants {
  readonly specs: readonly MountSpec[];
  /** Where the view placed them last, and what that depended on (view-mounts.ts). */
  placement?: Placement;
}

/**
 * Where a view's grants come from (docs/teams.md): cached across requests, checked at each
 * against the store's grants generation, so a change holds from the next request on.
 * `globalRules`: the root's rules as this request read them.
 */
export interface GrantSource {
  grantsFor(user: { id: number }, globalRules: readonly Rule[]): Promise<Grants>;
}

/** A mount placed in a view: its spec and its path there. */
export interface PlacedMount {
  spec: MountSpec;
  /** `/Design`, `/Design (team)` or `/Shared with me/report.pdf`. */
  path: string;
}
