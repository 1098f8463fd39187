import type { Store } from '../../store/store.ts';
import type { ServerConfig } from '../../config/options.ts';
import type { FastifyBaseLogger } from 'fastify';
import { AppError, errors } from '../../errors.ts';
import type { UserRecord } from '../../store/users.repo.ts';
import type { UsersService } from '../users.service.ts';

/** What this uses of the runtime's context, by name (runtime.ts passes it; docs/architecture.md). */
export interface ProxyDeps {
  config: Pick<ServerConfig, 'authHeader'>;
  store: Pick<Store, 'users'>;
  log: FastifyBaseLogger;
}

/**
 * proxy method: the reverse proxy names the user in the configured header and is trusted to
 * have authenticated them. Unknown names are provisioned on first sight with defaults, a random
 * locked password and no admin, execute or commands. A missing header is a 401 that says which
 * header was expected, since it almost always means the proxy is misconfigured.
 */
export async function proxyUser(
  ctx: ProxyDeps,
  users: UsersService,
  headers: Record<string, string | string[] | undefined>,
): Promise<UserRecord> {
  const headerName = ctx.config.authHeader;
  const raw = headers[headerName.toLowerCase()];
  const username = (Array.isArray(raw) ? raw[0] : raw)?.trim() ?? '';
  if (!username)
    throw errors.unauthorizedBecause(`the proxy did not send the ${headerName} header`);
  const existing = await ctx.store.users.byUsername(username);
  if (existing) return existing;
  try {
    const created = await users.create('proxy', { username });
    ctx.log.info({ username, id: created.id }, 'proxy user provisioned');
    return created;
  } catch (error) {
    // Two first requests of the same new user race: the loser reads the winner's record.
    if (error instanceof AppError && error.code === 'conflict') {
      const raced = await ctx.store.users.byUsername(username);
      if (raced) return raced;
    }
    throw error;
  }
}
