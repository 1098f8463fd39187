import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long one visit of a share page may keep fetching its file without counting again. */
export const VISIT_TICKET_SECONDS = 6 * 3600;

/** A checked ticket: the visit it names and when it dies (milliseconds). */
export interface VisitTicket {
  id: string;
  expiresAt: number;
}

function signature(key: Uint8Array, hash: string, id: string, expires: number): string {
  return createHmac('sha256', key)
    .update(`share-visit\n${hash}\n${id}\n${expires}`)
    .digest('base64url');
}

/**
 * A ticket for one visit of a share page (docs/sharing.md): handed out with the link's info, carried
 * by the page's file requests as `?visit=`, so that everything one visit fetches to show and save
 * the file counts one download. Signed with the server key and bound to one link; which tickets
 * have counted is stored in the database, so every instance agrees.
 */
export function issueVisitTicket(key: Uint8Array, hash: string, now: number): string {
  const id = randomBytes(16).toString('base64url');
  const expires = Math.floor(now / 1000) + VISIT_TICKET_SECONDS;
  return `${id}.${expires}.${signature(key, hash, id, expires)}`;
}

/** The visit a ticket names, when it was issued for this link and has not expired. */
export function readVisitTicket(
  key: Uint8Array,
  hash: string,
  ticket: string,
  now: number,
): VisitTicket | undefined {
  const [id, expiresText, given, ...rest] = ticket.split('.');
  if (!id || !expiresText || !given || rest.length > 0) return undefined;
  const expires = Number(expiresText);
  if (!Number.isSafeInteger(expires) || expires * 1000 <= now) return undefined;
  const a = Buffer.from(given);
  const b = Buffer.from(signature(key, hash, id, expires));
  if (a.length !== b.length || !timingSafeEqual(a, b)) return undefined;
  return { id, expiresAt: expires * 1000 };
}
