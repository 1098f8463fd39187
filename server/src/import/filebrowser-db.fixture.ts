/**
 * Test-only: filebrowser databases as filebrowser v2 writes them (storm's buckets, JSON records,
 * 8-byte big-endian user ids, index buckets beside the records), built with the test-only BoltDB
 * writer, for the cases the two real fixtures lack: shares, rules, several users, every auth
 * method.
 */
import { hash } from '@node-rs/bcrypt';
import {
  bucket,
  writeBolt,
  type BoltWriteOptions,
  type WriterBucket,
} from './bolt-writer.fixture.ts';

/** The real databases filebrowser wrote, kept in the repository (see their README). */
export const REAL_FIXTURES = new URL('../../test/fixtures/filebrowser-db/', import.meta.url);

const BCRYPT_VERSION = { $2a$: '2a', $2b$: '2b', $2y$: '2y' } as const;

/** A bcrypt hash as filebrowser makes them (cost 4 keeps tests fast; the format is the same). */
export function bcryptHash(password: string, prefix: keyof typeof BCRYPT_VERSION = '$2a$') {
  return hash(password, { cost: 4, version: BCRYPT_VERSION[prefix] });
}

const id8 = (id: number) => {
  const key = Buffer.alloc(8);
  key.writeBigUInt64BE(BigInt(id));
  return key;
};

/** A filebrowser user record with filebrowser's defaults; `password` must be a hash. */
export function fbUser(
  id: number,
  username: string,
  password: string,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    id,
    username,
    password,
    scope: '.',
    locale: 'en',
    lockPassword: false,
    viewMode: 'mosaic',
    singleClick: false,
    perm: {
      admin: false,
      execute: true,
      create: true,
      rename: true,
      modify: true,
      delete: true,
      share: true,
      download: true,
    },
    commands: [],
    sorting: { by: 'name', asc: false },
    rules: [],
    hideDotfiles: false,
    dateFormat: false,
    ...overrides,
  };
}

/** A filebrowser share link record. */
export function fbLink(
  hash: string,
  path: string,
  userID: number,
  extra: { expire?: number; password_hash?: string; token?: string } = {},
): Record<string, unknown> {
  return { hash, path, userID, expire: 0, ...extra };
}

/** filebrowser's global settings as `config init` writes them, with `overrides` on top. */
export function fbSettings(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    key: Buffer.alloc(64, 7).toString('base64'),
    signup: false,
    createUserDir: false,
    userHomeBasePath: '/users',
    defaults: {
      scope: '.',
      locale: 'en',
      viewMode: 'mosaic',
      singleClick: false,
      sorting: { by: '', asc: false },
      perm: {
        admin: false,
        execute: true,
        create: true,
        rename: true,
        modify: true,
        delete: true,
        share: true,
        download: true,
      },
      commands: [],
      hideDotfiles: false,
      dateFormat: false,
    },
    authMethod: 'json',
    branding: {
      name: '',
      disableExternal: false,
      disableUsedPercentage: false,
      files: '',
      theme: '',
      color: '',
    },
    tus: { chunkSize: 10485760, retryCount: 5 },
    commands: {},
    shell: [],
    rules: [],
    ...overrides,
  };
}

/** filebrowser's server record. */
export function fbServer(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    root: '/srv',
    baseURL: '',
    socket: '',
    tlsKey: '',
    tlsCert: '',
    port: '8080',
    address: '127.0.0.1',
    log: 'stdout',
    enableThumbnails: true,
    resizePreview: true,
    enableExec: false,
    typeDetectionByHeader: true,
    authHook: '',
    tokenExpirationTime: '',
    ...overrides,
  };
}

export interface FilebrowserDbSpec {
  users?: Record<string, unknown>[];
  links?: Record<string, unknown>[];
  settings?: Record<string, unknown>;
  server?: Record<string, unknown>;
  auther?: Record<string, unknown>;
  /** Records stored as they are (to test unreadable ones): bucket name → key → raw bytes. */
  raw?: Record<string, [Buffer | string, Buffer | string][]>;
}

const json = (value: unknown) => JSON.stringify(value);
const meta = () => bucket([['codec', 'json']]);

/** A filebrowser database file holding `spec`, laid out by storm. */
export function filebrowserDb(spec: FilebrowserDbSpec, options?: BoltWriteOptions): Uint8Array {
  const users = spec.users ?? [];
  const links = spec.links ?? [];
  const entries: [string, WriterBucket][] = [
    [
      'User',
      bucket([
        ...users.map((u): [Buffer, string] => [id8(u.id as number), json(u)]),
        ['__storm_index_ID', bucket(users.map((u) => [id8(u.id as number), id8(u.id as number)]))],
        [
          '__storm_index_Username',
          bucket(users.map((u) => [String(u.username), id8(u.id as number)])),
        ],
        [
          '__storm_metadata',
          bucket([
            ['codec', 'json'],
            ['IDcounter', id8(users.length)],
          ]),
        ],
      ]),
    ],
    [
      'config',
      bucket([
        ['settings', json(spec.settings ?? fbSettings())],
        ['server', json(spec.server ?? fbServer())],
        ['auther', json(spec.auther ?? { recaptcha: null })],
        ['version', '2'],
        ['__storm_metadata', meta()],
      ]),
    ],
    [
      '__storm_db',
      bucket([
        ['version', '"2.0.0"'],
        ['__storm_metadata', meta()],
      ]),
    ],
  ];
  if (links.length > 0) {
    entries.push([
      'Link',
      bucket([
        ...links.map((l): [string, string] => [String(l.hash), json(l)]),
        ['__storm_index_Hash', bucket(links.map((l) => [String(l.hash), String(l.hash)]))],
        ['__storm_metadata', meta()],
      ]),
    ]);
  }
  for (const [name, records] of Object.entries(spec.raw ?? {})) {
    const existing = entries.find(([n]) => n === name);
    if (existing) existing[1].entries.push(...records);
    else entries.push([name, bucket(records)]);
  }
  return writeBolt(bucket(entries), options);
}
