import path from 'node:path';
import type { Rule } from '@cabinet/protocol';
import { virtualOfReal } from '../../fs/canonical-path.ts';
import type { FileRoot } from '../../fs/file-root.ts';
import type { Grants, GrantSource, MountSpec } from '../../fs/mounts.ts';
import type { Clock } from '../../coordination/index.ts';
import type { Store } from '../../store/store.ts';
import type { PeopleShareRecord } from '../../store/teams.repo.ts';
import type { UserRecord } from '../../store/users.repo.ts';

/** One user's grants as kept between requests, and what they hold under. */
interface Held extends Grants {
  /** The store's grants generation they were read at. */
  readonly generation: number;
  /** The root's rules they were composed with. */
  readonly rulesKey: string;
  /** When the first of its shares with people expires (ms; Infinity when none does). */
  readonly until: number;
  /**
   * What it counts against MAX_HELD: its specs, and its team folders once more for the entries and
   * JSON its root listing keeps with the placement (fs/mounted-parts.ts); at least 1.
   */
  readonly weight: number;
}

/**
 * Weight kept across users at most (a user with 100 team folders and 100 shares counts 300, one
 * with none 1): about 700 bytes each, some 35 MB in all (measured: such a user holds about 220 KB,
 * a third of it the entries and JSON kept for their root listing).
 */
const MAX_HELD = 50_000;

/**
 * The grants each user's view mounts (docs/teams.md), read from the store (two queries, plus one
 * for the owners of the shares) and kept between requests under the store's grants generation:
 * every write that can change anyone's grants raises it in its own transaction
 * (store/grants-generation.ts), and each view reads it first (one row by key), so a revocation, a
 * removed member or a deleted group holds from the next request on, on every instance. The
 * root's rules are checked against those the grants were composed with; an expiry by the clock.
 * Least recently used users go first past MAX_HELD.
 */
export class TeamMounts implements GrantSource {
  private readonly held = new Map<number, Held>();
  private weight = 0;
  /** The generation last seen; what is held was read at it. */
  private generation = -1;

  constructor(
    private readonly store: Store,
    private readonly files: FileRoot,
    private readonly now: Clock,
  ) {}

  async grantsFor(user: { id: number }, globalRules: readonly Rule[]): Promise<Grants> {
    const generation = await this.store.teams.generation();
    // Any other number drops what is kept (a database restored from a backup may go back).
    if (generation !== this.generation) {
      this.held.clear();
      this.weight = 0;
      this.generation = generation;
    }
    const rulesKey = JSON.stringify(globalRules);
    const now = this.now();
    const kept = this.held.get(user.id);
    if (kept && kept.generation === generation && kept.rulesKey === rulesKey && now < kept.until) {
      // Most recently used last.
      this.held.delete(user.id);
      this.held.set(user.id, kept);
      return kept;
    }
    const read = await this.read(user, globalRules, now);
    const entry: Held = {
      ...read,
      generation,
      rulesKey,
      weight: Math.max(1, read.specs.length + read.specs.filter((s) => s.kind === 'team').length),
    };
    // Another request saw another generation meanwhile: served, not kept.
    if (generation === this.generation) this.keep(user.id, entry);
    return entry;
  }

  private keep(userId: number, entry: Held): void {
    const old = this.held.get(userId);
    if (old) this.weight -= old.weight;
    this.held.delete(userId);
    this.held.set(userId, entry);
    this.weight += entry.weight;
    for (const [id, first] of this.held) {
      if (this.weight <= MAX_HELD) break;
      this.held.delete(id);
      this.weight -= first.weight;
    }
  }

  /** The user's grants from the store, live at `now`, and when the first of them expires. */
  private async read(
    user: { id: number },
    rules: readonly Rule[],
    now: number,
  ): Promise<{ specs: MountSpec[]; until: number }> {
    const { teams, people } = await this.store.teams.grantsOf(user.id);
    const specs: MountSpec[] = teams.map((folder) => ({
      kind: 'team',
      id: folder.id,
      name: folder.name,
      scope: folder.path,
      isDir: true,
      // The root's global rules judge a team folder as they judge a scope.
      rules,
      hideDotfiles: false,
      access: folder.access,
      quota: folder.quota,
      expire: 0,
    }));
    const live = people.filter(
      (share) => share.ownerId !== user.id && (share.expire === 0 || share.expire * 1000 > now),
    );
    const until = Math.min(
      Infinity,
      ...live.filter((share) => share.expire > 0).map((share) => share.expire * 1000),
    );
    if (live.length === 0) return { specs, until };
    const owners = new Map(
      (await this.store.users.byIds(live.map((share) => share.ownerId))).map((owner) => [
        owner.id,
        owner,
      ]),
    );
    for (const share of live) {
      const owner = owners.get(share.ownerId);
      const spec = owner && this.peopleSpec(share, owner, rules);
      if (spec) specs.push(spec);
    }
    return { specs, until };
  }

  /**
   * A share with people as a mount: judged by the owner's rules on the owner's paths, with at
   * most what the owner may do. Whether its item still lies inside the owner's scope is checked
   * when it is entered (ScopedFs, `ownerScope`).
   */
  private peopleSpec(
    share: PeopleShareRecord,
    owner: UserRecord,
    globalRules: readonly Rule[],
  ): MountSpec | null {
    if (share.target === '/') return null;
    const real = path.join(this.files.realRoot, share.target);
    const folderReal = share.isDir ? real : path.dirname(real);
    const perm = owner.perm;
    const may = (flag: 'create' | 'rename' | 'modify' | 'delete' | 'share') =>
      share.access[flag] && (perm.admin || perm[flag]);
    return {
      kind: 'people',
      id: share.id,
      name: path.basename(real),
      scope: virtualOfReal(folderReal, this.files.realRoot),
      ...(!share.isDir && { file: path.basename(real) }),
      isDir: share.isDir,
      rules: [...globalRules, ...owner.rules],
      ownerScope: owner.scope,
      hideDotfiles: owner.hideDotfiles,
      access: {
        create: may('create'),
        rename: may('rename'),
        modify: may('modify'),
        delete: may('delete'),
        share: may('share'),
      },
      owner: owner.username,
      ownerId: owner.id,
      quota: 0,
      expire: share.expire,
    };
  }
}
