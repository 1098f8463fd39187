import { z } from 'zod';

/** Body of POST /api/login with the json method. Missing fields read as empty strings. */
export const LoginRequest = z.object({
  username: z.string().default(''),
  password: z.string().default(''),
  recaptcha: z.string().default(''),
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
