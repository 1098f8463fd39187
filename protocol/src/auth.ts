import * as z from 'zod/mini';

/** Body of POST /api/login with the json method. Missing fields read as empty strings. */
export const LoginRequest = z.object({
  username: z._default(z.string(), ''),
  password: z._default(z.string(), ''),
  recaptcha: z._default(z.string(), ''),
  /** Cabinet: the two-factor code (or a recovery code) of a user who has two-factor sign-in. */
  otp: z._default(z.string(), ''),
});
export type LoginRequest = z.infer<typeof LoginRequest>;

/** Body of POST /api/signup. */
export const SignupRequest = z.object({
  username: z.string(),
  password: z.string(),
});
export type SignupRequest = z.infer<typeof SignupRequest>;

/** Authentication methods a server may run with. */
export const AUTH_METHODS = ['json', 'proxy', 'noauth'] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];
