/** Where programs are looked up when the server itself has no PATH. */
const FALLBACK_PATH = '/usr/local/bin:/usr/bin:/bin';

/**
 * The whole environment a command or hook gets: PATH, HOME (the user's scope folder) and LANG,
 * plus the hook's own variables. Nothing else of the server's environment is passed on, so
 * secrets given to the server (an admin password, database URLs, tokens) never reach a command.
 */
export function commandEnvironment(
  home: string,
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  return {
    PATH: process.env.PATH || FALLBACK_PATH,
    HOME: home,
    LANG: process.env.LANG || 'C.UTF-8',
    ...extra,
  };
}

/**
 * The first command of a parsed line that is not on the allow-list, or undefined when all are.
 * Names are matched exactly; a path (`/bin/rm`, `./x`) is never allowed, whatever its base name,
 * because the allow-list names programs found on PATH.
 */
export function firstDisallowed(
  commands: readonly (readonly string[])[],
  allowed: readonly string[],
): string | undefined {
  for (const argv of commands) {
    const name = argv[0] ?? '';
    if (name.includes('/') || !allowed.includes(name)) return name;
  }
  return undefined;
}
