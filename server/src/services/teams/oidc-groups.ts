import type { Store } from '../../store/store.ts';
import { checkGroupName } from './names.ts';

/** The group names a groups claim carries (a list, or one name); null when it is absent. */
export function claimedGroups(value: unknown): string[] | null {
  if (Array.isArray(value)) return value.filter((name): name is string => typeof name === 'string');
  if (typeof value === 'string') return [value];
  return null;
}

/**
 * Single sign-on (docs/teams.md): makes the user's memberships of `oidc` groups the provider's
 * list at each sign-in, creating the groups it names that do not exist yet. Local groups (kept by
 * administrators) are never touched, even when the provider names one. Returns whether the
 * memberships changed.
 */
export async function syncOidcGroups(
  store: Store,
  userId: number,
  names: readonly string[],
): Promise<boolean> {
  const ids: number[] = [];
  for (const raw of new Set(names)) {
    let name: string;
    try {
      name = checkGroupName(raw);
    } catch {
      continue; // A name Cabinet cannot hold is no group here.
    }
    const found = await store.teams.groupByName(name);
    if (found && found.source !== 'oidc') continue;
    ids.push(found ? found.id : await insertOidcGroup(store, name));
  }
  const oidcGroups = (await store.teams.groups())
    .filter((group) => group.source === 'oidc')
    .map((group) => group.id);
  const before = await store.teams.groupsOf(userId);
  await store.teams.setGroupsOf(userId, ids, oidcGroups);
  const after = await store.teams.groupsOf(userId);
  return before.join() !== after.join();
}

async function insertOidcGroup(store: Store, name: string): Promise<number> {
  try {
    return await store.teams.insertGroup(name, 'oidc');
  } catch (error) {
    // Another instance's sign-in created it meanwhile.
    const found = await store.teams.groupByName(name);
    if (found) return found.id;
    throw error;
  }
}
