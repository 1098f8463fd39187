import * as z from 'zod/mini';

/** Reply of `GET /api/usage` (Cabinet addition): the signed-in user's storage use. */
export const QuotaUsage = z.object({
  /** Bytes counted against the quota: the files under the user's scope (docs/quotas.md). */
  used: z.number().check(z.nonnegative()),
  /** The user's quota in bytes; 0 = none (then `used` is 0 too: nothing is counted). */
  quota: z.number().check(z.nonnegative()),
});
export type QuotaUsage = z.infer<typeof QuotaUsage>;
