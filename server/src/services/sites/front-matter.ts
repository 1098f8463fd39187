import { createRequire } from 'node:module';
import { errors } from '../../errors.ts';

// Loaded with the first front matter read, not with the server: most servers host no site, and
// the two parsers hold ~1 MiB of heap (issue #37's memory budget).
const load = createRequire(import.meta.url);
let toml: typeof import('smol-toml') | undefined;
let yaml: typeof import('yaml') | undefined;
const tomlParser = () => (toml ??= load('smol-toml') as typeof import('smol-toml'));
const yamlParser = () => (yaml ??= load('yaml') as typeof import('yaml'));

/** A Markdown file split into its front matter and body. */
export interface FrontMatter {
  /** `---` YAML, `+++` TOML, or none. */
  format: 'yaml' | 'toml' | 'none';
  /** The front matter's fields; dates become ISO 8601 strings. */
  data: Record<string, unknown>;
  body: string;
}

const FENCES = { '---': 'yaml', '+++': 'toml' } as const;

function split(text: string): { fence: '---' | '+++' | undefined; head: string; body: string } {
  const lines = text.split('\n');
  const first = lines[0]?.replace(/\r$/, '');
  if (first !== '---' && first !== '+++') return { fence: undefined, head: '', body: text };
  const end = lines.findIndex((line, i) => i > 0 && line.replace(/\r$/, '') === first);
  if (end < 0) return { fence: undefined, head: '', body: text };
  return {
    fence: first,
    head: lines.slice(1, end).join('\n'),
    body: lines.slice(end + 1).join('\n'),
  };
}

function plain(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  }
  return value;
}

/** Parses front matter; malformed front matter is a 400 naming the file's problem. */
export function parseFrontMatter(text: string): FrontMatter {
  const { fence, head, body } = split(text);
  if (!fence) return { format: 'none', data: {}, body };
  try {
    if (fence === '+++') {
      const data = plain(tomlParser().parse(head)) as Record<string, unknown>;
      return { format: 'toml', data, body };
    }
    const doc = yamlParser().parseDocument(head);
    if (doc.errors.length > 0) throw doc.errors[0]!;
    const data: unknown = doc.toJS();
    return { format: 'yaml', data: isRecord(data) ? data : {}, body };
  } catch {
    throw errors.badRequest(`invalid ${FENCES[fence]} front matter`);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Sets (or with `undefined` removes) front-matter fields, keeping the rest of the file as it was:
 * YAML keeps its comments and order; TOML is written again from its values. `dates` names the
 * fields written as dates (a TOML datetime; YAML's plain scalar reads as one in Hugo).
 */
export function setFields(text: string, fields: Record<string, unknown>): string {
  const { fence, head, body } = split(text);
  if (fence === '+++') {
    const data = tomlParser().parse(head) as Record<string, unknown>;
    for (const [key, value] of Object.entries(fields)) {
      if (value === undefined) delete data[key];
      else
        data[key] =
          /date$/i.test(key) && typeof value === 'string'
            ? new (tomlParser().TomlDate)(value)
            : value;
    }
    return `+++\n${tomlParser().stringify(data).trimEnd()}\n+++\n${body}`;
  }
  const doc = yamlParser().parseDocument(fence ? head : '');
  if (doc.errors.length > 0) throw errors.badRequest('invalid yaml front matter');
  if (!isRecord(doc.toJS())) doc.contents = doc.createNode({}) as typeof doc.contents;
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) doc.delete(key);
    else doc.set(key, value);
  }
  return `---\n${doc.toString({ lineWidth: 0 }).trimEnd()}\n---\n${fence ? body : text}`;
}
