import * as z from 'zod/mini';

/** Who the administrator requires to use two-factor sign-in (docs/two-factor.md). */
export const TWO_FACTOR_POLICIES = ['off', 'admins', 'everyone'] as const;
export const TwoFactorPolicy = z.enum(TWO_FACTOR_POLICIES);
export type TwoFactorPolicy = z.infer<typeof TwoFactorPolicy>;

/** GET and PUT /api/two-factor/policy (administrators). */
export const TwoFactorPolicyBody = z.object({ require: TwoFactorPolicy });
export type TwoFactorPolicyBody = z.infer<typeof TwoFactorPolicyBody>;

/** GET /api/two-factor: the signed-in user's state. */
export const TwoFactorStatus = z.object({
  enabled: z.boolean(),
  /** The administrator's policy asks this user to have it. */
  required: z.boolean(),
  /** This session may only enrol (and sign out) until enrolment is done. */
  enrolOnly: z.boolean(),
  recoveryCodesLeft: z.number(),
});
export type TwoFactorStatus = z.infer<typeof TwoFactorStatus>;

/** POST /api/two-factor/setup: shown once, for the authenticator app. */
export const TwoFactorSetup = z.object({ secret: z.string(), uri: z.string() });
export type TwoFactorSetup = z.infer<typeof TwoFactorSetup>;

/** POST /api/two-factor/enable. */
export const TwoFactorEnableRequest = z.object({ code: z.string() });
/** The answer of POST /api/two-factor/enable: ten one-time recovery codes, shown once. */
export const TwoFactorRecoveryCodes = z.object({ recoveryCodes: z.array(z.string()) });
export type TwoFactorRecoveryCodes = z.infer<typeof TwoFactorRecoveryCodes>;

/** POST /api/two-factor/disable: the password and a code (or a recovery code). */
export const TwoFactorDisableRequest = z.object({ password: z.string(), code: z.string() });

/** GET /api/users/{id}/two-factor (administrators). */
export const UserTwoFactor = z.object({ enabled: z.boolean() });
export type UserTwoFactor = z.infer<typeof UserTwoFactor>;

/**
 * Header on a 401 of POST /api/login when the password was right but a code is missing
 * (`required`) or wrong or already used (`invalid`).
 */
export const TWO_FACTOR_HEADER = 'x-cabinet-two-factor';
