import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDuration } from './duration.ts';
import { OPTIONS, type OptionSpec, type ServerConfig } from './options.ts';

/**
 * The checkout this module runs from: the folder holding `server/package.json`, found upwards
 * from here, since the code runs both from server/src/config and bundled in server/dist.
 */
function findRepoRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'server/package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
  return dir;
}

const REPO_ROOT = findRepoRoot();

/** Values from flags, keyed by ServerConfig key; undefined means "not given". */
export type FlagValues = Partial<Record<keyof ServerConfig, unknown>>;

function coerce(spec: OptionSpec, raw: unknown, source: string): unknown {
  if (raw === undefined) return undefined;
  let value: unknown = raw;
  switch (spec.type) {
    case 'number': {
      const n = typeof raw === 'number' ? raw : Number(String(raw).trim());
      if (!Number.isFinite(n) || n < 0)
        throw new Error(`${source}: ${spec.key} must be a non-negative number`);
      value = n;
      break;
    }
    case 'boolean': {
      if (typeof raw === 'boolean') value = raw;
      else {
        const s = String(raw).trim().toLowerCase();
        if (['1', 'true', 'yes', 'on'].includes(s)) value = true;
        else if (['0', 'false', 'no', 'off', ''].includes(s)) value = false;
        else throw new Error(`${source}: ${spec.key} must be true or false`);
      }
      break;
    }
    case 'duration':
      value = typeof raw === 'number' ? raw : parseDuration(String(raw));
      break;
    case 'list': {
      // A JSON array in the config file, or one comma-separated string anywhere.
      const items = Array.isArray(raw) ? raw.map(String) : String(raw).split(',');
      value = items.map((item) => item.trim()).filter(Boolean);
      break;
    }
    case 'string':
      value = String(raw);
      if (spec.choices && !spec.choices.includes(value as string)) {
        throw new Error(`${source}: ${spec.key} must be one of ${spec.choices.join(', ')}`);
      }
  }
  return value;
}

function readConfigFile(file: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
      throw new Error('not an object');
    return parsed as Record<string, unknown>;
  } catch (error) {
    throw new Error(`config file ${file}: ${(error as Error).message}`, { cause: error });
  }
}

/** The config file in use: --config, CABINET_CONFIG, or ./cabinet.json when present. */
export function configFileOf(
  configFile: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): string | undefined {
  return (
    configFile ??
    env.CABINET_CONFIG ??
    (existsSync(path.join(cwd, 'cabinet.json')) ? path.join(cwd, 'cabinet.json') : undefined)
  );
}

/**
 * Builds the server configuration. Precedence: flags, then CABINET_* environment variables, then
 * the config file (--config, CABINET_CONFIG, or ./cabinet.json when present), then defaults.
 */
export function loadConfig(
  flags: FlagValues = {},
  env: NodeJS.ProcessEnv = process.env,
  configFile?: string,
  cwd = process.cwd(),
): ServerConfig {
  const file = configFileOf(configFile, env, cwd);
  const fromFile = file ? readConfigFile(path.resolve(cwd, file)) : {};
  const config: Record<string, unknown> = {};
  for (const spec of OPTIONS) {
    const value =
      coerce(spec, flags[spec.key], `--${spec.flag}`) ??
      coerce(spec, env[spec.env], spec.env) ??
      coerce(spec, fromFile[spec.key], file ?? 'config file') ??
      coerce(spec, spec.default, 'default');
    config[spec.key] = value;
  }
  const result = config as unknown as ServerConfig;
  result.root = path.resolve(cwd, result.root);
  result.data = path.resolve(cwd, result.data);
  if (!result.database) result.database = path.join(result.data, 'cabinet.db');
  else if (!/^postgres(ql)?:\/\//.test(result.database))
    result.database = path.resolve(cwd, result.database);
  result.baseURL = normaliseBaseURL(result.baseURL);
  result.webDist = result.webDist
    ? path.resolve(cwd, result.webDist)
    : path.join(REPO_ROOT, 'web/dist');
  return result;
}

/** "/fb/" and "fb" become "/fb"; "/" becomes "". */
export function normaliseBaseURL(raw: string): string {
  const trimmed = raw.trim().replace(/\/+$/, '');
  if (!trimmed) return '';
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}
