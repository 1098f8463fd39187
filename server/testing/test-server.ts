import { mkdtemp, rm } from 'node:fs/promises';
import type { Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { pino } from 'pino';
import type { Perm, Settings, User } from '@cabinet/protocol';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config/load-config.ts';
import type { ServerConfig } from '../src/config/options.ts';
import {
  closeContext,
  createContext,
  type AppContext,
  type ContextOptions,
} from '../src/context.ts';
import { createRuntime, type Runtime } from '../src/runtime.ts';
import type { Timers } from '../src/coordination/timers.ts';
import { hashPassword } from '../src/credentials/password.ts';
import { signToken } from '../src/credentials/tokens.ts';
import type { UserRecord } from '../src/store/users.repo.ts';
import { testDatabaseFor } from './test-database.ts';

export const ADMIN_PASSWORD = 'correct-horse-battery-staple-42';

export interface TestUser {
  user: UserRecord;
  password: string;
  /** A valid token with a live session. */
  token: string;
}

export interface TestServer {
  /** http://127.0.0.1:<port> plus the base URL, no trailing slash. */
  url: string;
  root: string;
  dataDir: string;
  config: ServerConfig;
  ctx: AppContext;
  /** The services and long-lived parts the app runs on. */
  runtime: Runtime;
  app: FastifyInstance;
  admin: TestUser;
  /** Creates a user straight in the store (defaults applied) and signs a token for it. */
  createUser(
    overrides?: Partial<Omit<User, 'perm'>> & { perm?: Partial<Perm>; password?: string },
  ): Promise<TestUser>;
  /** Signs a fresh token (new session) for an existing user, issued now or at `issuedAtMs`. */
  tokenFor(user: UserRecord, issuedAtMs?: number): Promise<string>;
  /** Replaces parts of the global settings. */
  updateSettings(patch: Partial<Settings>): Promise<void>;
  /** fetch() against the server with the path appended to `url`. */
  fetch(pathAndQuery: string, init?: RequestInit & { token?: string }): Promise<Response>;
  /**
   * Stops the server and removes its temp folder (with root and data, unless the caller passed them
   * in) and its PostgreSQL database (unless another live server shares it), unless `removeFiles` is
   * false.
   */
  close(options?: { removeFiles?: boolean }): Promise<void>;
}

export interface TestServerOptions {
  config?: Partial<ServerConfig>;
  /** Reuse folders of an earlier server (to test restarts). */
  root?: string;
  dataDir?: string;
  /** A logger to capture what the server logs (default: silent unless CABINET_TEST_LOG). */
  log?: FastifyBaseLogger;
  /** Holds the search index's background walks until it resolves. */
  searchGate?: Promise<void>;
  /** The clock uploads and share links expire by (see RuntimeOptions.now): advance it instead of waiting. */
  now?: () => number;
  /** Off runs without the audit log (see RuntimeOptions.auditLog; the benchmark's baseline). */
  auditLog?: boolean;
  /** The waits of the tree's reconciliation and relay (see RuntimeOptions.timers): fire them instead of waiting. */
  timers?: Timers;
  /** This instance's id and its lease's clock and timers (see ContextOptions.instance). */
  instance?: ContextOptions['instance'];
  /** Awaited after each file a copy job lands (see RuntimeOptions.afterJobFile; FileJobHold). */
  afterJobFile?: () => Promise<void>;
}

let userCounter = 0;

/**
 * Starts a real server on 127.0.0.1, port 0, with a temp root and data folder and a real database,
 * as Fastify's testing guide suggests: an SQLite file in the data folder, or a PostgreSQL database
 * of its own under CABINET_TEST_POSTGRES (testing/test-database.ts). The admin's password is
 * ADMIN_PASSWORD.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const base = await mkdtemp(path.join(os.tmpdir(), 'cabinet-test-'));
  const root = options.root ?? path.join(base, 'files');
  const dataDir = options.dataDir ?? path.join(base, 'data');
  // A database named by the caller is the caller's to remove.
  const testDatabase = options.config?.database ? undefined : await testDatabaseFor(dataDir);
  const config: ServerConfig = {
    ...loadConfig({}, {}, undefined, base),
    root,
    data: dataDir,
    database: testDatabase?.database ?? '',
    address: '127.0.0.1',
    port: 0,
    logLevel: process.env.CABINET_TEST_LOG ?? 'silent',
    logFormat: 'json',
    adminPassword: ADMIN_PASSWORD,
    rateLimitMax: 1000,
    ...options.config,
  };
  const log = options.log ?? pino({ level: config.logLevel });
  let ctx: AppContext;
  try {
    ctx = await createContext(config, log, {
      searchGate: options.searchGate,
      instance: options.instance,
      now: options.now,
    });
  } catch (error) {
    await testDatabase?.release();
    throw error;
  }
  const runtime = createRuntime(ctx, {
    now: options.now,
    auditLog: options.auditLog,
    timers: options.timers,
    afterJobFile: options.afterJobFile,
  });
  let app: Awaited<ReturnType<typeof buildApp>>;
  try {
    app = await buildApp(runtime);
  } catch (error) {
    await closeContext(ctx);
    await testDatabase?.release();
    throw error;
  }
  // Port 0 (the default) lets the OS pick; a caller that restarts a server asks for its old port.
  // Every socket, to drop them all on close (tests end; see close()).
  const sockets = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const address = await app.listen({ host: '127.0.0.1', port: config.port });
  const url = `${address}${config.baseURL}`;

  const tokenFor = async (user: UserRecord, issuedAtMs?: number) => {
    const signed = await signToken(
      ctx.signingKey,
      user,
      config.tokenExpiration,
      undefined,
      issuedAtMs,
    );
    await ctx.store.sessions.create({
      id: signed.sessionId,
      userId: user.id,
      createdAt: Date.now(),
      expiresAt: signed.expiresAt,
    });
    return signed.token;
  };
  const adminRecord = (await ctx.store.users.byUsername(config.adminUsername))!;
  const admin: TestUser = {
    user: adminRecord,
    password: config.adminPassword ?? ADMIN_PASSWORD,
    token: await tokenFor(adminRecord),
  };

  const server: TestServer = {
    url,
    root,
    dataDir,
    config,
    ctx,
    runtime,
    app,
    admin,
    tokenFor,
    async createUser(overrides = {}) {
      const settings = await ctx.settings.get();
      const { password = `pw-${++userCounter}-long-enough-secret`, perm, ...rest } = overrides;
      const record = {
        ...settings.defaults,
        username: `user${++userCounter}`,
        lockPassword: false,
        rules: [],
        ...rest,
        perm: { ...settings.defaults.perm, admin: false, ...perm },
        passwordHash: await hashPassword(password),
      };
      delete (record as Partial<User>).password;
      delete (record as Partial<User>).id;
      const id = await ctx.store.users.insert(record);
      const user = (await ctx.store.users.byId(id))!;
      return { user, password, token: await tokenFor(user) };
    },
    async updateSettings(patch) {
      await ctx.settings.save({ ...(await ctx.settings.get()), ...patch });
    },
    fetch(pathAndQuery, init = {}) {
      const { token, headers, ...rest } = init;
      const h = new Headers(headers);
      if (token) h.set('X-Auth', token);
      return fetch(`${url}${pathAndQuery}`, { ...rest, headers: h, redirect: 'manual' });
    },
    async close({ removeFiles = true } = {}) {
      const closing = app.close();
      // A keep-alive socket whose last response was still finishing when close() began would hold
      // the server open until the keep-alive timeout (72 s), and an upgrade request's socket is not
      // the HTTP server's to close at all: tests end, so drop every socket.
      for (const socket of sockets) socket.destroy();
      await closing;
      await closeContext(ctx);
      if (removeFiles) {
        await testDatabase?.drop();
        await rm(base, { recursive: true, force: true });
      } else {
        await testDatabase?.release();
      }
    },
  };
  return server;
}
