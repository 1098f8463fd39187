import { asObject, count, text, type JsonObject } from './json-fields.ts';
import type { CabinetConfig, ImportNotes } from './import-report.ts';
import { optionKey, type FilebrowserOptions, type OptionValue } from './filebrowser-config-file.ts';
import { formatDuration, parseGoDuration } from './go-duration.ts';

/** Reads `key` from the config file or FB_* variables first, then the database's server record. */
class ServerValues {
  constructor(
    private readonly stored: JsonObject,
    private readonly options: FilebrowserOptions,
  ) {}

  option(name: string): OptionValue | undefined {
    return this.options.values.get(optionKey(name));
  }

  origin(name: string): string | undefined {
    return this.options.origin.get(optionKey(name));
  }

  /** A string setting: an option named `optionName`, else the stored `field`. */
  string(optionName: string, field: string): string {
    const option = this.option(optionName);
    if (option !== undefined) return String(option);
    const value = this.stored[field];
    return typeof value === 'number' ? String(value) : text(this.stored, field);
  }

  /** A stored boolean, unless a `disable-…` option says otherwise. */
  enabled(disableOption: string, field: string): boolean | undefined {
    const option = this.option(disableOption);
    if (option !== undefined) return !isTrue(option);
    const value = this.stored[field];
    return typeof value === 'boolean' ? value : undefined;
  }
}

function isTrue(value: OptionValue): boolean {
  return value === true || ['1', 'true', 'yes', 'on'].includes(String(value).toLowerCase());
}

/** filebrowser's server settings that Cabinet has no place for, and what to do instead. */
const SERVER_NO_EQUIVALENT: [option: string, field: string, reason: string][] = [
  [
    'socket',
    'socket',
    'Cabinet listens on an address and port only; let the reverse proxy listen on the socket',
  ],
  ['cert', 'tlsCert', 'Cabinet serves plain HTTP; terminate TLS at the reverse proxy'],
  ['key', 'tlsKey', 'Cabinet serves plain HTTP; terminate TLS at the reverse proxy'],
  ['cache-dir', 'cacheDir', 'Cabinet keeps its caches in its data folder'],
];

/**
 * Maps filebrowser's server settings (the database's `server` record, overridden by its config
 * file and FB_* variables) onto Cabinet configuration keys: root, address, port, base URL, token
 * lifetime, thumbnails, preview resizing, command execution, image processors.
 */
export function mapServer(
  json: unknown,
  options: FilebrowserOptions,
  notes: ImportNotes,
): CabinetConfig {
  const values = new ServerValues(asObject(json) ?? {}, options);
  const config: CabinetConfig = {};

  const root = values.string('root', 'root');
  if (root) {
    config.root = root;
    if (!root.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(root)) {
      notes.warn(
        `filebrowser's root "${root}" is relative to the folder it ran in; Cabinet resolves it ` +
          'against its own working folder: write the absolute path',
      );
    }
  }
  const baseURL = values.string('baseurl', 'baseURL');
  if (baseURL && baseURL !== '/') config.baseURL = baseURL;

  const address = values.string('address', 'address');
  config.address = address || '0.0.0.0';
  if (!address) notes.map('address "" (every interface) → "0.0.0.0"');

  const port = values.string('port', 'port');
  if (port) {
    const number = Number(port);
    if (Number.isInteger(number) && number >= 0 && number <= 65535) config.port = number;
    else notes.warn(`filebrowser's port "${port}" is not a port number; Cabinet's is kept`);
  }

  const lifetime = values.string('token-expiration-time', 'tokenExpirationTime');
  if (lifetime) {
    const seconds = parseGoDuration(lifetime);
    if (seconds === undefined || seconds <= 0) {
      notes.warn(`token expiration "${lifetime}" is not a duration; Cabinet's default is kept`);
    } else {
      config.tokenExpiration = formatDuration(seconds);
      if (config.tokenExpiration !== lifetime) {
        notes.map(`token expiration "${lifetime}" → "${config.tokenExpiration}"`);
      }
    }
  }

  const toggles: [disable: string, field: string, key: string][] = [
    ['disable-thumbnails', 'enableThumbnails', 'enableThumbs'],
    ['disable-preview-resize', 'resizePreview', 'resizePreview'],
    ['disable-exec', 'enableExec', 'enableExec'],
  ];
  const fromDatabase: string[] = [];
  for (const [disable, field, key] of toggles) {
    const value = values.enabled(disable, field);
    if (value === undefined) continue;
    config[key] = value;
    if (values.option(disable) === undefined) fromDatabase.push(key);
  }
  if (fromDatabase.length > 0) {
    notes.warn(
      `${fromDatabase.join(', ')} come from filebrowser's database; its start-up flags ` +
        '(--disable-thumbnails, --disable-preview-resize, --disable-exec) may have overridden ' +
        'them: give its config file with --config, or check these values',
    );
  }
  if (config.enableExec === true) {
    notes.warn(
      'command execution is on: the shell panel and event hooks run programs on the server',
    );
  }
  const processors = values.option('img-processors') ?? values.option('imageProcessors');
  const storedProcessors = count(asObject(json) ?? {}, 'imageProcessors');
  const imageProcessors = processors !== undefined ? Number(processors) : storedProcessors;
  if (imageProcessors !== undefined && Number.isInteger(imageProcessors) && imageProcessors > 0) {
    config.imageProcessors = imageProcessors;
  }

  if (values.enabled('disable-type-detection-by-header', 'typeDetectionByHeader') === false) {
    notes.drop(
      'type detection by header turned off',
      'Cabinet always reads the first bytes of a file to tell its type',
    );
  }
  for (const [option, field, reason] of SERVER_NO_EQUIVALENT) {
    const value = values.string(option, field);
    if (value) notes.drop(`${option} "${value}"`, reason);
  }
  const log = values.string('log', 'log');
  if (log && log !== 'stdout' && log !== 'stderr') {
    notes.drop(`log "${log}"`, 'Cabinet logs to stdout; let the service manager keep the log');
  }
  for (const option of ['username', 'password']) {
    if (values.option(option) !== undefined) {
      notes.drop(`option "${option}"`, "it only sets up filebrowser's first start");
    }
  }
  const read = [...options.origin.values()];
  if (read.length > 0) notes.map(`filebrowser options read from ${read.join(', ')}`);
  return config;
}
