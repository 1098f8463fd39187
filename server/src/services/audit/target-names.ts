import type { Store } from '../../store/store.ts';

/**
 * The human name of an audited target, read when the entry is written so it still reads right
 * once the target is renamed or gone (docs/audit.md): a user's name, a trashed item's path, an app
 * password's name, a share link's path. Paths name themselves; an unknown target has no name ('').
 */
export async function targetNameOf(store: Store, target: string): Promise<string> {
  const colon = target.indexOf(':');
  if (colon <= 0) return '';
  const kind = target.slice(0, colon);
  const id = target.slice(colon + 1);
  try {
    switch (kind) {
      case 'user': {
        const userId = Number(id);
        if (!Number.isSafeInteger(userId)) return '';
        return (await store.users.byId(userId))?.username ?? '';
      }
      case 'trash':
        return (await store.trash.get(id))?.path ?? '';
      case 'app-password':
        return (await store.appPasswords.get(id))?.name ?? '';
      case 'share':
        return (await store.shares.get(id))?.path ?? '';
      default:
        return '';
    }
  } catch {
    // A name is a courtesy: the entry is written with its id alone rather than not at all.
    return '';
  }
}
