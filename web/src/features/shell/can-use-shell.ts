import type { TokenUser } from '@cabinet/protocol';
import { pageConfig } from '../../config/page-config.ts';
import { hasPerm } from '../../auth/permissions.ts';

/** The shell button and panel need execution enabled on the server and execute. */
export function canUseShell(user: TokenUser | null): boolean {
  return pageConfig.EnableExec && hasPerm(user, 'execute');
}
