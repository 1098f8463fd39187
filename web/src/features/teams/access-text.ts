import type { GrantAccess } from '@cabinet/protocol';
import type { TFunction } from 'i18next';

/** Access that only lets grantees look: every flag off. */
export const VIEW_ONLY: GrantAccess = {
  create: false,
  rename: false,
  modify: false,
  delete: false,
  share: false,
};

/** The usual edit access: every write flag on, no sharing. */
export const EDIT_ACCESS: GrantAccess = {
  create: true,
  rename: true,
  modify: true,
  delete: true,
  share: false,
};

/** The edit flags in the order the forms show them. */
export const EDIT_FLAGS = ['create', 'rename', 'modify', 'delete'] as const;

/** Whether a grant lets its grantees change anything. */
export function canWrite(access: GrantAccess): boolean {
  return EDIT_FLAGS.some((flag) => access[flag]);
}

/** "Can view" or "Can edit", for lists of grants. */
export function accessText(access: GrantAccess, t: TFunction): string {
  return canWrite(access) ? t('teams.canEdit') : t('teams.canView');
}
