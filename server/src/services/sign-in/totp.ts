import { createHash, randomInt } from 'node:crypto';
import {
  TWO_FACTOR_POLICIES,
  type TwoFactorPolicy,
  type TwoFactorSetup,
  type TwoFactorStatus,
} from '@cabinet/protocol';
import type { Store } from '../../store/store.ts';
import type { SettingsRepo } from '../../store/settings.repo.ts';
import { errors, TwoFactorError } from '../../errors.ts';
import { verifyPassword } from '../../credentials/password.ts';
import type { AttemptCounter } from '../../coordination/index.ts';
import type { UserRecord } from '../../store/users.repo.ts';
import { isAdmin } from '../permissions.ts';
import { assertUnderLimit } from './rate-limit.ts';
import { decryptSecret, encryptSecret } from './totp-secret.ts';

/** otplib, loaded at the first setup or code, not with the server (~0.8 MiB of heap). */
const otp = () => import('otplib');

const POLICY_KEY = 'twoFactorPolicy';
const RECOVERY_CODES = 10;
/** Base32 letters without look-alikes' confusion: what people type from a printout. */
const RECOVERY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
/** One step either side of now: a phone clock a little off, or a code typed as it changed. */
const TOLERANCE_SECONDS = 30;

const digest = (code: string) => createHash('sha256').update(code).digest('hex');

/** Recovery codes are read back with dashes, spaces and capitals however the user typed them. */
const normaliseRecovery = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');

function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < 10; i++) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** What this uses of the runtime's context, by name (runtime.ts passes it; docs/architecture.md). */
export interface TwoFactorDeps {
  store: Pick<Store, 'kv' | 'sessions' | 'twoFactor' | 'users'>;
  settings: SettingsRepo;
  signingKey: Uint8Array;
}

/**
 * Two-factor sign-in with TOTP (docs/two-factor.md): enrolment, the code check of the login, the
 * recovery codes, and the administrator's policy and reset.
 */
export class TwoFactorService {
  constructor(
    private readonly ctx: TwoFactorDeps,
    /** Failed codes per user and per address, shared by every instance. */
    private readonly attempts: AttemptCounter,
  ) {}

  /** The flag other sign-in paths read (WebDAV refuses the account password when it is set). */
  async hasTwoFactor(userId: number): Promise<boolean> {
    return (await this.ctx.store.twoFactor.get(userId))?.enabled ?? false;
  }

  async policy(): Promise<TwoFactorPolicy> {
    const stored = await this.ctx.store.kv.get<string>(POLICY_KEY);
    return TWO_FACTOR_POLICIES.find((p) => p === stored) ?? 'off';
  }

  async setPolicy(policy: TwoFactorPolicy): Promise<void> {
    await this.ctx.store.kv.set(POLICY_KEY, policy);
  }

  /** Whether the policy asks this user to have two-factor sign-in. */
  async requiredFor(user: UserRecord): Promise<boolean> {
    const policy = await this.policy();
    return policy === 'everyone' || (policy === 'admins' && isAdmin(user));
  }

  /** A session opened now may only enrol: the policy requires two-factor and the user has none. */
  async enrolOnly(user: UserRecord): Promise<boolean> {
    return (await this.requiredFor(user)) && !(await this.hasTwoFactor(user.id));
  }

  async status(user: UserRecord, enrolOnly: boolean): Promise<TwoFactorStatus> {
    const record = await this.ctx.store.twoFactor.get(user.id);
    const enabled = record?.enabled ?? false;
    return {
      enabled,
      required: await this.requiredFor(user),
      enrolOnly,
      recoveryCodesLeft: enabled ? (record?.recoveryCodes.length ?? 0) : 0,
    };
  }

  /**
   * POST /api/two-factor/setup: a new secret for the authenticator app. It is shown this once; a
   * second setup before confirming replaces it. A user who has two-factor sign-in gets a 409.
   */
  async setup(user: UserRecord): Promise<TwoFactorSetup> {
    const { generateSecret, generateURI } = await otp();
    const secret = generateSecret();
    const stored = encryptSecret(this.ctx.signingKey, secret);
    if (!(await this.ctx.store.twoFactor.startEnrolment(user.id, stored))) {
      throw errors.conflict('two-factor sign-in is already on');
    }
    const issuer = (await this.ctx.settings.get()).branding.name || 'Cabinet';
    return { secret, uri: generateURI({ issuer, label: user.username, secret }) };
  }

  /** POST /api/two-factor/enable: the first code confirms; returns the recovery codes, once. */
  async enable(user: UserRecord, code: string, ip: string): Promise<string[]> {
    const record = await this.ctx.store.twoFactor.get(user.id);
    if (!record) throw errors.conflict('start the set-up first');
    if (record.enabled) throw errors.conflict('two-factor sign-in is already on');
    await this.guarded(user, ip, () => this.acceptTotp(user.id, record.secret, code));
    const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
    if (
      !(await this.ctx.store.twoFactor.enable(user.id, codes.map(normaliseRecovery).map(digest)))
    ) {
      throw errors.conflict('two-factor sign-in is already on');
    }
    await this.ctx.store.sessions.clearEnrolOnly(user.id);
    return codes;
  }

  /** POST /api/two-factor/disable: the password and a code (or a recovery code) turn it off. */
  async disable(user: UserRecord, password: string, code: string, ip: string): Promise<void> {
    if (!(await this.hasTwoFactor(user.id))) throw errors.conflict('two-factor sign-in is off');
    if (await this.requiredFor(user)) throw errors.forbidden('two-factor sign-in is required');
    await this.guarded(user, ip, async () => {
      const passwordOk = await verifyPassword(user.passwordHash, password);
      return (await this.acceptCode(user.id, code)) && passwordOk;
    });
    await this.ctx.store.twoFactor.remove(user.id);
  }

  /** DELETE /api/users/{id}/two-factor: an administrator removes a user's enrolment. */
  async reset(userId: number): Promise<void> {
    if (!(await this.ctx.store.users.byId(userId))) throw errors.notFound();
    await this.ctx.store.twoFactor.remove(userId);
  }

  /**
   * The second step of a password login: nothing to do without two-factor sign-in; otherwise the
   * login body's `otp` must be a fresh TOTP code or an unused recovery code.
   */
  async checkSignIn(user: UserRecord, otp: string, ip: string): Promise<void> {
    if (!(await this.hasTwoFactor(user.id))) return;
    if (otp.trim() === '') throw new TwoFactorError('required');
    await this.guarded(user, ip, () => this.acceptCode(user.id, otp), 'unauthorized');
  }

  /**
   * Counts the attempt against the user and the address; a refused check is a TwoFactorError, a
   * 401 at login and a 403 where the session is fine (enrolment, turning it off).
   */
  private async guarded(
    user: UserRecord,
    ip: string,
    check: () => Promise<boolean>,
    refusal: 'unauthorized' | 'forbidden' = 'forbidden',
  ) {
    const keys = [`user:${user.id}`, `ip:${ip}`];
    await assertUnderLimit(this.attempts, keys);
    if (await check()) return;
    for (const key of keys) await this.attempts.hit(key);
    throw new TwoFactorError('invalid', refusal);
  }

  /** A six-digit code is a TOTP code; anything else is tried as a recovery code. */
  private async acceptCode(userId: number, code: string): Promise<boolean> {
    const record = await this.ctx.store.twoFactor.get(userId);
    if (!record?.enabled) return false;
    const trimmed = code.trim();
    if (/^\d{6}$/.test(trimmed)) return this.acceptTotp(userId, record.secret, trimmed);
    const normalised = normaliseRecovery(trimmed);
    if (normalised.length !== 10) return false;
    return this.ctx.store.twoFactor.consumeRecovery(
      userId,
      record.recoveryCodes,
      digest(normalised),
    );
  }

  /** Valid now (± one step) and of a later time step than the last accepted code. */
  private async acceptTotp(userId: number, storedSecret: string, code: string): Promise<boolean> {
    if (!/^\d{6}$/.test(code.trim())) return false;
    const secret = decryptSecret(this.ctx.signingKey, storedSecret);
    const { verify } = await otp();
    const result = await verify({
      secret,
      token: code.trim(),
      epochTolerance: TOLERANCE_SECONDS,
    });
    if (!result.valid || !('timeStep' in result)) return false;
    return this.ctx.store.twoFactor.claimStep(userId, result.timeStep);
  }
}
