/** A media length or position as players write it: 83.4 → "1:23", 4000 → "1:06:40". */
export function formatClock(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** The same length as an ISO 8601 duration for `<time dateTime>`: 187 → "PT187S". */
export function isoDuration(seconds: number): string {
  return `PT${Math.max(0, Math.round(seconds))}S`;
}
