// What the teams tests share (docs/teams.md): grant access levels, JSON calls as a user, files
// written straight into the root, and a share with one person.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import type { PeopleShare } from '@cabinet/protocol';
import type { TestServer, TestUser } from '../../testing/test-server.ts';

export const VIEW = { create: false, rename: false, modify: false, delete: false, share: false };
export const EDIT = { create: true, rename: true, modify: true, delete: true, share: false };
export const SHARE = { ...VIEW, share: true };
export type Access = typeof VIEW;

/** A request as `user`; a body is sent as JSON (a string as it is). */
export function callAs(
  server: TestServer,
  user: TestUser,
  method: string,
  url: string,
  body?: unknown,
): Promise<Response> {
  return server.fetch(url, {
    method,
    token: user.token,
    ...(body !== undefined && {
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  });
}

/** Writes a file into the root, as another program would. */
export async function putFile(server: TestServer, relative: string, content = 'x'): Promise<void> {
  const file = path.join(server.root, relative);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
}

/** Shares `item` (the owner's path) with one user. */
export async function shareWithUser(
  server: TestServer,
  owner: TestUser,
  item: string,
  to: TestUser,
  access: Access,
): Promise<PeopleShare> {
  const res = await callAs(server, owner, 'POST', '/api/people-shares', {
    path: item,
    grantees: [{ kind: 'user', id: to.user.id }],
    access,
  });
  expect(res.status).toBe(201);
  return (await res.json()) as PeopleShare;
}
