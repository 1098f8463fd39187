import type { Perm } from '@cabinet/protocol';

/**
 * The permission policy: one named check per action, the only place that reads a user's `perm`
 * flags to decide what they may do. Administrators hold every permission (stored records are
 * normalised that way too, but the policy does not depend on it). The services call these checks
 * first and keep their own status codes: a refused action is usually 403, a refused download a 202
 * with no body (the filebrowser behaviour clients expect).
 */
interface PermissionHolder {
  perm: Perm;
}

function holds(user: PermissionHolder, perm: keyof Perm): boolean {
  return user.perm.admin || user.perm[perm];
}

/** May read file content: raw downloads, previews, subtitles, checksums, text in listings. */
export function canDownload(user: PermissionHolder): boolean {
  return holds(user, 'download');
}

/** May create files and folders (uploads, copies, file requests). */
export function canCreate(user: PermissionHolder): boolean {
  return holds(user, 'create');
}

/** May rename and move. */
export function canRename(user: PermissionHolder): boolean {
  return holds(user, 'rename');
}

/** May change existing files: save, and replace a file on upload, copy or move. */
export function canModify(user: PermissionHolder): boolean {
  return holds(user, 'modify');
}

/** May delete files and folders, and terminate uploads. */
export function canDelete(user: PermissionHolder): boolean {
  return holds(user, 'delete');
}

/** May make and manage share links: sharing hands out content, so it needs download too. */
export function canShare(user: PermissionHolder): boolean {
  return holds(user, 'share') && holds(user, 'download');
}

/** May run commands (the server must also enable them). */
export function canExecute(user: PermissionHolder): boolean {
  return holds(user, 'execute');
}

/** Is an administrator: user management, settings, everyone's shares. */
export function isAdmin(user: PermissionHolder): boolean {
  return user.perm.admin;
}

/** May read and change the account (and sessions) of user `id`: oneself, or an administrator. */
export function canManageAccount(actor: PermissionHolder & { id: number }, id: number): boolean {
  return actor.id === id || isAdmin(actor);
}
