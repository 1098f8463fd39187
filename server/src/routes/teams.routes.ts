import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Runtime } from '../runtime.ts';
import { currentUser, requireUser } from '../http/authenticate.ts';
import { sendStatus } from '../http/reply.ts';
import { audit } from '../http/audit.ts';
import { errors } from '../errors.ts';

/** A positive integer id from a route parameter (400 otherwise). */
function idOf(request: FastifyRequest): number {
  const raw = (request.params as { id?: string }).id ?? '';
  const id = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id) || id <= 0) throw errors.badRequest('the id is a positive number');
  return id;
}

/**
 * Teams (docs/teams.md): groups and team folders for administrators, shares with people for users
 * who may share, "Shared with me" and the people type-ahead for everyone signed in.
 */
export async function teamsRoutes(app: FastifyInstance, runtime: Runtime): Promise<void> {
  const { services } = runtime;
  const teams = services.teams;
  // Permission checks are the service's, before any body is parsed (401, then 403, then 400).
  const guard = { preHandler: requireUser(services.sessions) };

  app.get('/groups', guard, async (request) => teams.listGroups(currentUser(request)));
  app.post('/groups', guard, async (request, reply) => {
    const audited = audit(request, 'group.create');
    const group = await teams.createGroup(currentUser(request), request.body);
    audited.target = `group:${group.id}`;
    audited.details.name = group.name;
    return reply.code(201).send(group);
  });
  app.put('/groups/:id', guard, async (request) => {
    const id = idOf(request);
    audit(request, 'group.update', `group:${id}`);
    return teams.updateGroup(currentUser(request), id, request.body);
  });
  app.delete('/groups/:id', guard, async (request, reply) => {
    const id = idOf(request);
    audit(request, 'group.delete', `group:${id}`);
    await teams.deleteGroup(currentUser(request), id);
    return sendStatus(reply, 200);
  });
  app.get('/users/:id/groups', guard, async (request) =>
    teams.groupsOf(currentUser(request), idOf(request)),
  );
  app.put('/users/:id/groups', guard, async (request) => {
    const id = idOf(request);
    const audited = audit(request, 'group.update', `user:${id}`);
    const groups = await teams.setGroupsOf(currentUser(request), id, request.body);
    audited.details.groups = groups;
    return groups;
  });

  app.get('/team-folders', guard, async (request) => teams.listTeamFolders(currentUser(request)));
  app.post('/team-folders', guard, async (request, reply) => {
    const audited = audit(request, 'team-folder.grant');
    const folder = await teams.createTeamFolder(currentUser(request), request.body);
    audited.target = `team-folder:${folder.id}`;
    audited.details = { name: folder.name, path: folder.path, grantees: folder.grantees };
    return reply.code(201).send(folder);
  });
  app.put('/team-folders/:id', guard, async (request) => {
    const id = idOf(request);
    const audited = audit(request, 'team-folder.change', `team-folder:${id}`);
    const folder = await teams.updateTeamFolder(currentUser(request), id, request.body);
    audited.details = { name: folder.name, path: folder.path, grantees: folder.grantees };
    return folder;
  });
  app.delete('/team-folders/:id', guard, async (request, reply) => {
    const id = idOf(request);
    audit(request, 'team-folder.revoke', `team-folder:${id}`);
    await teams.deleteTeamFolder(currentUser(request), id);
    return sendStatus(reply, 200);
  });

  app.get('/people-shares', guard, async (request) => {
    const path = (request.query as { path?: unknown }).path;
    return teams.listPeopleShares(
      currentUser(request),
      typeof path === 'string' ? path : undefined,
    );
  });
  app.post('/people-shares', guard, async (request, reply) => {
    const audited = audit(request, 'people-share.grant');
    const share = await teams.createPeopleShare(currentUser(request), request.body);
    audited.target = share.path;
    audited.details = { id: share.id, grantees: share.grantees, access: share.access };
    return reply.code(201).send(share);
  });
  app.put('/people-shares/:id', guard, async (request) => {
    const id = idOf(request);
    const audited = audit(request, 'people-share.change', `people-share:${id}`);
    const share = await teams.updatePeopleShare(currentUser(request), id, request.body);
    audited.details = { grantees: share.grantees, access: share.access };
    return share;
  });
  app.delete('/people-shares/:id', guard, async (request, reply) => {
    const id = idOf(request);
    audit(request, 'people-share.revoke', `people-share:${id}`);
    await teams.deletePeopleShare(currentUser(request), id);
    return sendStatus(reply, 200);
  });

  app.get('/shared-with-me', guard, async (request) => teams.sharedWithMe(currentUser(request)));
  app.post('/shared-with-me/:kind/:id/leave', guard, async (request, reply) => {
    const id = idOf(request);
    const kind = (request.params as { kind: string }).kind;
    audit(request, 'shared.leave', `${kind}:${id}`);
    await teams.leave(currentUser(request), kind, id);
    return sendStatus(reply, 200);
  });

  app.get('/people', guard, async (request) => {
    const q = (request.query as { q?: unknown }).q;
    return teams.people(currentUser(request), typeof q === 'string' ? q : '');
  });
}
