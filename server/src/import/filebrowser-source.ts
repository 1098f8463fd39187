import { BoltFormatError, childBucket, readBolt, valueOf, type BoltBucket } from './bolt-reader.ts';

/** One record of a storm bucket: where it was and its decoded JSON, or why it could not be read. */
export interface StormRecord {
  /** How the record is named in messages: `user #3`, `share abc123`. */
  label: string;
  json?: unknown;
  error?: string;
}

/**
 * What a filebrowser v2 database holds, decoded from storm's JSON codec: user and share records,
 * and the `config` bucket's settings, server and authentication records.
 */
export interface FilebrowserSource {
  users: StormRecord[];
  shares: StormRecord[];
  settings?: unknown;
  server?: unknown;
  auther?: unknown;
  /** Records of `config` that did not decode (`settings`, `server`, `auther`). */
  unreadable: { label: string; error: string }[];
}

/** storm names a type's bucket after the Go type: users.User, share.Link. */
const USER_BUCKET = 'User';
const SHARE_BUCKETS = ['Link', 'Share'];
/** storm keeps its indexes and metadata beside the records, under names with this prefix. */
const STORM_PREFIX = '__storm';

function decode(bytes: Uint8Array): { json?: unknown; error?: string } {
  try {
    return { json: JSON.parse(Buffer.from(bytes).toString('utf8')) as unknown };
  } catch (error) {
    return { error: `not JSON (${(error as Error).message})` };
  }
}

/** storm's integer ids are 8-byte big-endian keys; anything else is shown as text. */
function idLabel(key: Uint8Array): string {
  return key.length === 8 ? `#${Buffer.from(key).readBigUInt64BE(0)}` : Buffer.from(key).toString();
}

function records(bucket: BoltBucket | undefined, label: (key: Uint8Array) => string) {
  if (!bucket) return [];
  return bucket.values
    .filter((entry) => !Buffer.from(entry.key).toString('latin1').startsWith(STORM_PREFIX))
    .map((entry): StormRecord => ({ label: label(entry.key), ...decode(entry.value) }));
}

/**
 * Reads a filebrowser database held in memory. Throws BoltFormatError when the file is not a
 * readable BoltDB file or is one without filebrowser's buckets.
 */
export function readFilebrowserDb(bytes: Uint8Array): FilebrowserSource {
  const root = readBolt(bytes);
  const users = childBucket(root, USER_BUCKET);
  const config = childBucket(root, 'config');
  if (!users && !config) {
    throw new BoltFormatError(
      'a BoltDB file, but not a filebrowser database (no users, no config)',
    );
  }
  const shareBucket = SHARE_BUCKETS.map((name) => childBucket(root, name)).find(Boolean);
  const source: FilebrowserSource = {
    users: records(users, (key) => `user ${idLabel(key)}`),
    shares: records(shareBucket, (key) => `share ${Buffer.from(key).toString()}`),
    unreadable: [],
  };
  for (const name of ['settings', 'server', 'auther'] as const) {
    const raw = config && valueOf(config, name);
    if (!raw) continue;
    const { json, error } = decode(raw);
    if (error) source.unreadable.push({ label: `config ${name}`, error });
    else source[name] = json;
  }
  return source;
}
