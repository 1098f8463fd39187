/**
 * When a post is on its site, read from its front matter the way Hugo reads it, so the posts list,
 * the built-in generator and a Hugo build agree: `draft`, then `publishDate` (or `date` when there
 * is none) and `expiryDate`. Hugo matches front-matter keys without regard to case.
 */
export type PostVisibility = 'draft' | 'scheduled' | 'expired' | 'published';

export interface PostTimes {
  draft: boolean;
  /** The front matter's `date` as written (ISO 8601), null when missing or not a date. */
  date: string | null;
  /** When the post goes live (`publishDate`, else `date`), in ms; null when undated. */
  publishAt: number | null;
  /** When the post leaves the site (`expiryDate`), in ms; null when it never does. */
  expiresAt: number | null;
}

/** The key of `data` matching `name` case-insensitively (Hugo's rule), or undefined. */
export function fieldKey(data: Record<string, unknown>, name: string): string | undefined {
  const lower = name.toLowerCase();
  return Object.keys(data).find((key) => key.toLowerCase() === lower);
}

function dateField(data: Record<string, unknown>, name: string): string | null {
  const key = fieldKey(data, name);
  const value = key === undefined ? undefined : data[key];
  return typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? value : null;
}

export function postTimes(data: Record<string, unknown>): PostTimes {
  const date = dateField(data, 'date');
  const publish = dateField(data, 'publishDate') ?? date;
  const expiry = dateField(data, 'expiryDate');
  return {
    draft: data[fieldKey(data, 'draft') ?? 'draft'] === true,
    date,
    publishAt: publish === null ? null : Date.parse(publish),
    expiresAt: expiry === null ? null : Date.parse(expiry),
  };
}

export function visibility(times: PostTimes, now: number): PostVisibility {
  if (times.draft) return 'draft';
  if (times.expiresAt !== null && times.expiresAt <= now) return 'expired';
  if (times.publishAt !== null && times.publishAt > now) return 'scheduled';
  return 'published';
}

/**
 * The front-matter changes that put a post on the site at `at` (an ISO 8601 time): not a draft;
 * `date` and a `publishDate` set to `at`, except that Publish (`keepDue`) keeps a date already due
 * (a post keeps its first date); an `expiryDate` not after `at` removed. So the last action wins
 * over whatever the front matter said before (a Publish on a scheduled post publishes it now).
 */
export function goLiveFields(
  data: Record<string, unknown>,
  at: string,
  keepDue: boolean,
): Record<string, unknown> {
  const when = Date.parse(at);
  const due = (value: string | null) =>
    keepDue && value !== null && Date.parse(value) <= when ? value : at;
  const fields: Record<string, unknown> = { draft: false, date: due(dateField(data, 'date')) };
  const publishKey = fieldKey(data, 'publishDate');
  if (publishKey !== undefined) fields[publishKey] = due(dateField(data, 'publishDate'));
  const expiryKey = fieldKey(data, 'expiryDate');
  const expiry = dateField(data, 'expiryDate');
  if (expiryKey !== undefined && expiry !== null && Date.parse(expiry) <= when) {
    fields[expiryKey] = undefined;
  }
  return fields;
}
