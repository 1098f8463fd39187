import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { CommandRun, Settings } from '@cabinet/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../src/cli/program.ts';
import { describeDatabase } from '../src/store/db.ts';
import { commandUrl, runCommand } from '../testing/command-socket.ts';
import { testDatabaseFor, type TestDatabaseHandle } from '../testing/test-database.ts';
import { ADMIN_PASSWORD, startTestServer } from '../testing/test-server.ts';
import { login } from './helpers/auth.ts';
import { rawRequest } from './helpers/raw-http.ts';
import { createUpload, headUpload, patchChunk } from './helpers/tus.ts';
import { STRONG, createAsAdmin, newUser, send } from './helpers/users.ts';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/cabinet.js');
const SHARE_PASSWORD = 'share pässword';

/** Runs the CLI in-process; resolves with what it printed and the error it ended with. */
async function cli(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const program = buildProgram({ out: (t) => out.push(t), err: (t) => err.push(t) });
  program.exitOverride();
  for (const command of program.commands) {
    command.exitOverride();
    for (const sub of command.commands) sub.exitOverride();
  }
  let error: Error | undefined;
  try {
    await program.parseAsync(['node', 'cabinet', ...args]);
  } catch (e) {
    error = e as Error;
  }
  return { out, err: err.join('\n'), error };
}

/** The lines `db copy` prints for these row counts, all matching. */
const countLines = (counts: Record<string, number>) => {
  const width = Math.max(...Object.keys(counts).map((t) => t.length));
  return Object.entries(counts).map(([t, n]) => `${t.padEnd(width)} ${n} → ${n} ✓`);
};

describe('cabinet db copy', () => {
  let dir: string;
  /** The SQLite file of the instance that is copied. */
  let sourceFile: string;
  /** Its served folder, kept for the servers started on the copies. */
  let root: string;
  /** An SQLite file, or a fresh PostgreSQL database under CABINET_TEST_POSTGRES. */
  let target: TestDatabaseHandle;
  let carolToken: string;
  let shareHash: string;
  const expected = {
    users: 2,
    /** The settings, the signing key, and the grants generation dave's deletion raised. */
    kv: 3,
    /** The source admin's token and carol's sign-in. */
    sessions: 2,
    shares: 1,
    upload_sessions: 1,
    command_runs: 1,
    /**
     * The recurring jobs (the upload sweep, session pruning, the trash purge, the quota reconcile,
     * the coordination's prune, the site preview sweep, the site build sweep, the audit purge, the
     * file jobs prune, the temp-file sweep) and one scheduled post publication.
     */
    scheduled_jobs: 11,
    sites: 1,
    site_post_failures: 1,
    /** The admin's deleted file. */
    trash_items: 1,
    app_passwords: 0,
    dav_properties: 0,
    /** Carol's scope, counted when her upload checked her quota. */
    quota_usage: 1,
    /** The visit that downloaded the shared report (docs/sharing.md). */
    share_visits: 1,
    /** Carol's started two-factor enrolment. */
    two_factor: 1,
    oidc_sessions: 0,
    /**
     * The admin's delete, carol's and dave's creation, dave's deletion, carol's login, her share,
     * its download, the settings change and carol's command (docs/audit.md).
     */
    audit_log: 9,
    /** Background file jobs: none started. */
    file_jobs: 0,
    /** Teams (docs/teams.md): none made. */
    groups: 0,
    group_members: 0,
    team_folders: 0,
    people_shares: 0,
    grantees: 0,
    shared_left: 0,
  };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'cabinet-db-copy-'));
    sourceFile = path.join(dir, 'source.db');
    const source = await startTestServer({ config: { database: sourceFile, enableExec: true } });
    root = source.root;
    try {
      await writeFile(path.join(root, 'report.txt'), 'quarterly figures');
      await mkdir(path.join(root, 'incoming'));
      await writeFile(path.join(root, 'discarded.txt'), 'old');
      const discarded = await source.fetch('/api/resources/discarded.txt', {
        method: 'DELETE',
        token: source.admin.token,
      });
      expect(discarded.status).toBe(204);
      const created = await createAsAdmin(
        source,
        newUser({
          username: 'carol',
          scope: '/',
          quota: 10_000_000,
          commands: ['echo'],
          perm: { ...newUser().perm!, execute: true, share: true, download: true },
        }),
      );
      expect(created.status).toBe(201);
      // A user deleted after the last one was made: the copy must not hand out its id again.
      const dave = await createAsAdmin(source, newUser({ username: 'dave' }));
      const daveId = Number(dave.headers.get('location')!.split('/').pop());
      const deleted = await send(source, 'DELETE', `/api/users/${daveId}`, source.admin.token, {
        current_password: ADMIN_PASSWORD,
      });
      expect(deleted.status).toBe(200);

      const signedIn = await login(source, { username: 'carol', password: STRONG });
      expect(signedIn.status).toBe(200);
      carolToken = (await signedIn.text()).trim();
      await source.runtime.services.twoFactor.setup(
        (await source.ctx.store.users.byUsername('carol'))!,
      );

      const shared = await source.fetch('/api/share/report.txt', {
        method: 'POST',
        token: carolToken,
        body: JSON.stringify({ password: SHARE_PASSWORD }),
      });
      expect(shared.status).toBe(200);
      shareHash = ((await shared.json()) as { hash: string }).hash;
      const page = (await (
        await source.fetch(`/api/public/share/${shareHash}`, {
          headers: { 'X-SHARE-PASSWORD': SHARE_PASSWORD },
        })
      ).json()) as { token: string; visit: string };
      const visited = await source.fetch(
        `/api/public/dl/${shareHash}?token=${page.token}&visit=${encodeURIComponent(page.visit)}`,
      );
      expect(await visited.text()).toBe('quarterly figures');

      const settings = (await (
        await source.fetch('/api/settings', { token: source.admin.token })
      ).json()) as Settings;
      const saved = await source.fetch('/api/settings', {
        method: 'PUT',
        token: source.admin.token,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...settings, branding: { ...settings.branding, name: 'Copied' } }),
      });
      expect(saved.status).toBe(200);

      expect((await createUpload(source, carolToken, '/incoming/big.bin', 1000)).status).toBe(201);
      const patched = await patchChunk(
        source,
        carolToken,
        '/incoming/big.bin',
        0,
        Buffer.alloc(100),
      );
      expect(patched.status).toBe(204);

      const ran = await runCommand(commandUrl(source.url, ''), 'echo copied', {
        'X-Auth': carolToken,
      });
      expect(ran.messages).toEqual(['copied']);

      // A site with a scheduled post and a failed publication of another (docs/sites.md).
      await source.ctx.store.sites.insert(
        {
          name: 'blog',
          title: 'Blog',
          folder: '/blog',
          generator: 'builtin',
          output: 'public',
          serve: false,
          users: [],
        },
        Date.now(),
      );
      await source.ctx.store.sites.setFailure('blog', {
        path: 'posts/a.md',
        at: Date.now(),
        message: 'failed',
        log: 'log',
      });
      await source.runtime.coordination.scheduler.schedule(
        'site.publish',
        Date.now() + 3_600_000,
        { site: 'blog', path: 'posts/b.md' },
        { key: 'site-publish:blog:posts/b.md' },
      );
    } finally {
      await source.close({ removeFiles: false });
    }
    target = await testDatabaseFor(path.join(dir, 'target'));
  });

  afterAll(async () => {
    await target.drop();
    await rm(dir, { recursive: true, force: true });
    await rm(path.dirname(root), { recursive: true, force: true });
  });

  it('copies every table and prints the row count of each on both sides', async () => {
    const copied = await cli('db', 'copy', '--from', sourceFile, '--to', target.database);
    expect(copied.error).toBeUndefined();
    expect(copied.out).toEqual([
      `copied ${sourceFile} → ${describeDatabase(target.database)}`,
      ...countLines(expected),
    ]);
  });

  it('serves the copy: sign-ins, tokens, the share, settings, the upload and the run record', async () => {
    const copy = await startTestServer({ root, config: { database: target.database } });
    try {
      expect((await login(copy, { username: 'carol', password: STRONG })).status).toBe(200);
      // The signing key and the session came along: a token of the source still works.
      expect((await copy.fetch('/api/resources/', { token: carolToken })).status).toBe(200);

      const locked = await rawRequest(copy.url, 'GET', `/api/public/share/${shareHash}`);
      expect(locked.status).toBe(401);
      const opened = await rawRequest(copy.url, 'GET', `/api/public/share/${shareHash}`, {
        headers: { 'X-SHARE-PASSWORD': encodeURIComponent(SHARE_PASSWORD) },
      });
      expect(opened.status).toBe(200);

      const settings = (await (
        await copy.fetch('/api/settings', { token: copy.admin.token })
      ).json()) as Settings;
      expect(settings.branding.name).toBe('Copied');

      const head = await headUpload(copy, carolToken, '/incoming/big.bin');
      expect(head.headers.get('upload-offset')).toBe('100');

      const runs = (await (
        await copy.fetch('/api/command-runs', { token: copy.admin.token })
      ).json()) as CommandRun[];
      expect(runs.map((r) => [r.username, r.line])).toEqual([['carol', 'echo copied']]);

      // Ids go on past the source's (dave had 3 before he was deleted).
      const erin = await createAsAdmin(copy, newUser({ username: 'erin' }));
      expect(erin.status).toBe(201);
      const users = (await (
        await copy.fetch('/api/users', { token: copy.admin.token })
      ).json()) as {
        id: number;
        username: string;
      }[];
      expect(users.map((u) => [u.id, u.username])).toEqual([
        [1, 'admin'],
        [2, 'carol'],
        [4, 'erin'],
      ]);
    } finally {
      await copy.close();
    }
  });

  it('copies the copy back into a new SQLite file', async () => {
    const back = path.join(dir, 'back', 'cabinet.db');
    const copied = await cli('db', 'copy', '--from', target.database, '--to', back);
    expect(copied.error).toBeUndefined();
    expect(copied.out.slice(1)).toEqual(
      countLines({ ...expected, users: 3, sessions: 4, audit_log: 11 }),
    );
  });

  it('refuses a target that holds users unless --force, which replaces its contents', async () => {
    const refused = await cli('db', 'copy', '--from', sourceFile, '--to', target.database);
    expect(refused.error?.message).toBe(
      'the target already holds 3 users; give --force to replace its contents',
    );
    const forced = await cli(
      'db',
      'copy',
      '--from',
      sourceFile,
      '--to',
      target.database,
      '--force',
    );
    expect(forced.error).toBeUndefined();
    expect(forced.out.slice(1)).toEqual(countLines(expected));
  });

  it('names what is wrong with its input', async () => {
    const missing = path.join(dir, 'missing.db');
    expect(
      (await cli('db', 'copy', '--from', missing, '--to', target.database)).error?.message,
    ).toBe(`source: no SQLite database at ${missing}`);
    const unreachable = 'postgres://cabinet:secret@127.0.0.1:1/nothing';
    const refused = await cli('db', 'copy', '--from', sourceFile, '--to', unreachable);
    expect(refused.error?.message).toMatch(
      /^target: cannot connect to postgres:\/\/cabinet@127\.0\.0\.1:1\/nothing: .*ECONNREFUSED/,
    );
    expect(refused.error?.message).not.toContain('secret');
    expect((await cli('db', 'copy', '--from', sourceFile, '--to', sourceFile)).error?.message).toBe(
      '--from and --to name the same database',
    );
    expect((await cli('db', 'copy', '--from', sourceFile)).error?.message).toMatch(
      /required option '--to <database>' not specified/,
    );
  });

  it('exits non-zero with the message on stderr when run as a program', async () => {
    const missing = path.join(dir, 'missing.db');
    await expect(
      promisify(execFile)('node', [BIN, 'db', 'copy', '--from', missing, '--to', target.database]),
    ).rejects.toMatchObject({
      code: 1,
      stderr: `cabinet: source: no SQLite database at ${missing}\n`,
    });
  });
});
