import * as z from 'zod/mini';

/** One active session of a user, as GET /api/users/{id}/sessions lists it (docs/api.md). */
export const SessionInfo = z.object({
  /** The session id (the token's jti); names the session in DELETE calls, grants nothing. */
  id: z.string(),
  /** The User-Agent of the browser or client that logged in ("" when unknown). */
  userAgent: z.string(),
  /** The client address it logged in from ("" when unknown). */
  address: z.string(),
  /** Unix milliseconds of the login. */
  createdAt: z.number(),
  /** Unix milliseconds of the last request, precise to a minute. */
  lastUsedAt: z.number(),
  /** Unix milliseconds when the session ends unless renewed. */
  expiresAt: z.number(),
  /** True for the session of the token that asked. */
  current: z.boolean(),
});
export type SessionInfo = z.infer<typeof SessionInfo>;

export const SessionList = z.array(SessionInfo);

/** Path parameters of `DELETE /api/users/{id}/sessions/{sid}`. */
export const SessionParams = z.object({
  /** The user's numeric id, in decimal (a malformed one is a 404 from the service). */
  id: z.string(),
  /** The session's id, as SessionInfo lists it. */
  sid: z.string(),
});
export type SessionParams = z.infer<typeof SessionParams>;
