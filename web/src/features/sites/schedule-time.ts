/** Two digits, zero-padded. */
const pad = (n: number) => String(Math.trunc(Math.abs(n))).padStart(2, '0');

/**
 * A date and a time typed in the user's time zone (`<input type="date">` "2026-11-27" and
 * `<input type="time">` "14:30") as ISO 8601 with that zone's offset at that moment
 * ("2026-11-27T14:30:00+01:00"), which POST …/schedule expects. Null when either is not a valid
 * date or time, or the time does not exist there (skipped by a daylight-saving change).
 */
export function localToIsoWithOffset(date: string, time: string): string | null {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const t = /^(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(time);
  if (!d || !t) return null;
  const [year, month, day] = [Number(d[1]), Number(d[2]), Number(d[3])];
  const [hours, minutes, seconds] = [Number(t[1]), Number(t[2]), Number(t[3] ?? 0)];
  const local = new Date(year, month - 1, day, hours, minutes, seconds);
  // Date rolls invalid parts over (Feb 30 → Mar 2, 02:30 in a spring gap → 03:30): refuse those.
  if (
    local.getFullYear() !== year ||
    local.getMonth() !== month - 1 ||
    local.getDate() !== day ||
    local.getHours() !== hours ||
    local.getMinutes() !== minutes
  ) {
    return null;
  }
  const offset = -local.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  return (
    `${date}T${pad(hours)}:${pad(minutes)}:${pad(seconds)}` +
    `${sign}${pad(offset / 60)}:${pad(offset % 60)}`
  );
}

/** The inputs' values for a moment in the user's time zone: ["2026-11-27", "14:30"]. */
export function isoToLocalInputs(moment: Date): [string, string] {
  return [
    `${moment.getFullYear()}-${pad(moment.getMonth() + 1)}-${pad(moment.getDate())}`,
    `${pad(moment.getHours())}:${pad(moment.getMinutes())}`,
  ];
}
