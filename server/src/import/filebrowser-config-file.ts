/**
 * filebrowser's own configuration outside its database: a `.filebrowser.json`, `.yaml`/`.yml` or
 * `.toml` file and `FB_*` environment variables, which override what the database stores (flags,
 * then environment, then file, then database). Its files are flat lists of its command-line
 * options, so a flat reader of the three syntaxes is all this needs; nesting is refused clearly.
 */
export type OptionValue = string | number | boolean;

/** Options by normalised name (lower case, no dashes or underscores), with where each came from. */
export interface FilebrowserOptions {
  values: Map<string, OptionValue>;
  origin: Map<string, string>;
}

/** `baseURL`, `base-url` and `FB_BASEURL` all name one option, as filebrowser's viper sees it. */
export function optionKey(name: string): string {
  return name.toLowerCase().replace(/[-_]/g, '');
}

/** An empty set of options. */
export function noOptions(): FilebrowserOptions {
  return { values: new Map(), origin: new Map() };
}

function scalar(raw: string, where: string): OptionValue {
  let value = raw.trim();
  // A comment may follow a bare value; a quoted one may itself hold a "#".
  if (!/^["']/.test(value)) value = value.replace(/\s+#.*$/, '').trim();
  const quoted =
    /^"((?:[^"\\]|\\.)*)"\s*(?:#.*)?$/.exec(value) ?? /^'([^']*)'\s*(?:#.*)?$/.exec(value);
  if (quoted && value.startsWith("'")) return quoted[1]!;
  if (quoted) {
    try {
      return JSON.parse(`"${quoted[1]}"`) as string;
    } catch {
      throw new Error(`${where}: unreadable escape in a quoted value`);
    }
  }
  if (value === '' || value === '~' || value === 'null') return '';
  if (/^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  if (/^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  if (value.startsWith('{') || value.startsWith('[')) {
    throw new Error(`${where}: only flat "key: value" options are read`);
  }
  return value;
}

function flatLines(text: string, separator: ':' | '=', file: string): [string, OptionValue][] {
  const entries: [string, OptionValue][] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith('#') || trimmed === '---') return;
    const where = `${file} line ${index + 1}`;
    if (line !== line.trimStart() || trimmed.startsWith('[')) {
      throw new Error(`${where}: only flat "key${separator} value" options are read`);
    }
    const at = trimmed.indexOf(separator);
    if (at <= 0) throw new Error(`${where}: expected "key${separator} value"`);
    const key = trimmed
      .slice(0, at)
      .trim()
      .replace(/^["']|["']$/g, '');
    entries.push([key, scalar(trimmed.slice(at + 1), where)]);
  });
  return entries;
}

/** Parses a filebrowser config file by its extension. Throws a one-line Error when unreadable. */
export function parseConfigFile(text: string, file: string): [string, OptionValue][] {
  const extension = file.toLowerCase().split('.').pop();
  if (extension === 'json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new Error(`${file}: not JSON (${(error as Error).message})`, { cause: error });
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new Error(`${file}: not a JSON object`);
    }
    return Object.entries(parsed).map(([key, value]): [string, OptionValue] => {
      if (['string', 'number', 'boolean'].includes(typeof value))
        return [key, value as OptionValue];
      throw new Error(`${file}: "${key}" is not a plain value; only flat options are read`);
    });
  }
  if (extension === 'yaml' || extension === 'yml') return flatLines(text, ':', file);
  if (extension === 'toml') return flatLines(text, '=', file);
  throw new Error(`${file}: a filebrowser config file ends in .json, .yaml, .yml or .toml`);
}

/**
 * filebrowser's options from its config file (already parsed) and the `FB_*` variables of `env`,
 * the variables winning as they do in filebrowser.
 */
export function filebrowserOptions(
  fileEntries: [string, OptionValue][],
  file: string | undefined,
  env: NodeJS.ProcessEnv,
): FilebrowserOptions {
  const options = noOptions();
  for (const [key, value] of fileEntries) {
    options.values.set(optionKey(key), value);
    options.origin.set(optionKey(key), `${file} (${key})`);
  }
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith('FB_') || value === undefined) continue;
    const key = optionKey(name.slice(3));
    options.values.set(key, value);
    options.origin.set(key, name);
  }
  return options;
}
