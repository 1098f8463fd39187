import path from 'node:path';
import type { Rule } from '@cabinet/protocol';
import { isRealInside, virtualOfReal } from '../../fs/canonical-path.ts';
import type { FileRoot } from '../../fs/file-root.ts';
import type { GrantSource, MountSpec } from '../../fs/mounts.ts';
import { ScopedFs } from '../../fs/scoped-fs.ts';
import type { Clock } from '../../coordination/index.ts';
import type { Store } from '../../store/store.ts';
import type { PeopleShareRecord } from '../../store/teams.repo.ts';
import type { UserRecord } from '../../store/users.repo.ts';

/**
 * The grants a view mounts, read from the store for each view (docs/teams.md): two queries (team
 * folders, shares with people) plus one for the owners of the shares, and nothing kept between
 * requests, so a revocation, a removed member or a deleted group holds from the next request on,
 * on every instance.
 */
export class TeamMounts implements GrantSource {
  constructor(
    private readonly store: Store,
    private readonly settings: { get(): Promise<{ rules: Rule[] }> },
    private readonly files: FileRoot,
    private readonly now: Clock,
  ) {}

  async mountsFor(user: { id: number }): Promise<MountSpec[]> {
    const { teams, people } = await this.store.teams.grantsOf(user.id);
    if (teams.length === 0 && people.length === 0) return [];
    const { rules } = await this.settings.get();
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
    const now = this.now();
    const live = people.filter(
      (share) => share.ownerId !== user.id && (share.expire === 0 || share.expire * 1000 > now),
    );
    const owners = new Map(
      (await this.store.users.byIds(live.map((share) => share.ownerId))).map((owner) => [
        owner.id,
        owner,
      ]),
    );
    // Each owner's scope folder by real location, looked up together.
    const scopes = new Map(
      await Promise.all(
        [...owners.values()].map(
          async (owner) =>
            [
              owner.id,
              await ScopedFs.open(this.files, {
                scope: owner.scope,
                rules: [],
                hideDotfiles: false,
              })
                .then((fs) => fs.scopeReal)
                .catch(() => null),
            ] as const,
        ),
      ),
    );
    for (const share of live) {
      const owner = owners.get(share.ownerId);
      const ownerReal = owner && scopes.get(owner.id);
      const spec = owner && ownerReal && this.peopleSpec(share, owner, ownerReal, rules);
      if (spec) specs.push(spec);
    }
    return specs;
  }

  /**
   * A share with people as a mount: only while its item lies inside its owner's scope, judged by
   * the owner's rules on the owner's paths, with at most what the owner may do.
   */
  private peopleSpec(
    share: PeopleShareRecord,
    owner: UserRecord,
    ownerReal: string,
    globalRules: readonly Rule[],
  ): MountSpec | null {
    const real = path.join(this.files.realRoot, share.target);
    if (share.target === '/' || !isRealInside(real, ownerReal) || real === ownerReal) return null;
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
      rulePrefix: virtualOfReal(folderReal, ownerReal),
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
