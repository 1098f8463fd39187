/** Commands kept per user; the oldest go first. */
export const HISTORY_LIMIT = 100;

const keyOf = (username: string) => `cabinet.shell-history.${username}`;

/** The user's earlier commands in this browser, oldest first. */
export function readHistory(username: string): string[] {
  try {
    const raw: unknown = JSON.parse(localStorage.getItem(keyOf(username)) ?? '[]');
    return Array.isArray(raw) ? raw.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

/** Adds a command (a repeat of the last one is kept once) and returns the new history. */
export function rememberCommand(username: string, history: string[], line: string): string[] {
  const next = history.at(-1) === line ? history : [...history, line].slice(-HISTORY_LIMIT);
  try {
    localStorage.setItem(keyOf(username), JSON.stringify(next));
  } catch {
    // Storage full or disabled: the history still works for this page.
  }
  return next;
}
