/** Parses durations such as "90s", "30m", "2h", "1d" or a plain number of seconds. */
export function parseDuration(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(text);
  if (!match) throw new Error(`invalid duration "${text}" (use e.g. 30s, 15m, 2h, 1d)`);
  const value = Number(match[1]);
  const unit = match[2] ?? 's';
  const seconds = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86400 }[unit] ?? 1;
  return value * seconds;
}
