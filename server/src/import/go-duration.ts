/** Seconds per unit of Go's time.ParseDuration syntax ("µs" and "us" both mean microseconds). */
const UNIT_SECONDS: Record<string, number> = {
  ns: 1e-9,
  us: 1e-6,
  µs: 1e-6,
  μs: 1e-6,
  ms: 1e-3,
  s: 1,
  m: 60,
  h: 3600,
};

/**
 * Parses a duration as filebrowser stores it (Go's syntax: "2h", "1h30m", "2h0m0s", "90s",
 * "1.5h"), in seconds; undefined when the text is not one. Negative durations are refused.
 */
export function parseGoDuration(raw: string): number | undefined {
  const textValue = raw.trim();
  if (textValue === '0') return 0;
  // µs: the micro sign (U+00B5) and the Greek mu (U+03BC), both of which Go accepts.
  const part = /(\d+(?:\.\d*)?|\.\d+)(ns|us|\u00b5s|\u03bcs|ms|s|m|h)/y;
  let seconds = 0;
  let at = 0;
  while (at < textValue.length) {
    part.lastIndex = at;
    const match = part.exec(textValue);
    if (!match) return undefined;
    seconds += Number(match[1]) * UNIT_SECONDS[match[2]!]!;
    at = part.lastIndex;
  }
  return at > 0 ? seconds : undefined;
}

/** Seconds as Cabinet's duration syntax: the largest whole unit of d, h, m, else seconds. */
export function formatDuration(seconds: number): string {
  for (const [unit, size] of [
    ['d', 86400],
    ['h', 3600],
    ['m', 60],
  ] as const) {
    if (seconds >= size && seconds % size === 0) return `${seconds / size}${unit}`;
  }
  return `${seconds}s`;
}
