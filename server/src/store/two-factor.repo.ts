import type { Db } from './db.ts';
import { isStorableInteger } from './engine.ts';

/** A user's two-factor enrolment as stored: the secret stays encrypted here. */
export interface TwoFactorRecord {
  userId: number;
  /** The encrypted TOTP secret (services/sign-in/totp-secret.ts). */
  secret: string;
  /** False while enrolment waits for its first code. */
  enabled: boolean;
  /** TOTP time step of the last accepted code, or null before the first. */
  lastStep: number | null;
  /** SHA-256 hex digests of the unused recovery codes. */
  recoveryCodes: string[];
}

/** The only code that reads and writes two-factor rows. */
export class TwoFactorRepo {
  constructor(private readonly db: Db) {}

  async get(userId: number): Promise<TwoFactorRecord | undefined> {
    if (!isStorableInteger(userId)) return undefined;
    const row = await this.db
      .selectFrom('two_factor')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return (
      row && {
        userId: Number(row.user_id),
        secret: row.secret,
        enabled: Number(row.enabled) === 1,
        lastStep: row.last_step === null ? null : Number(row.last_step),
        recoveryCodes: JSON.parse(row.recovery_codes) as string[],
      }
    );
  }

  /** Starts (or restarts) an enrolment that is not confirmed yet; an enabled one is kept. */
  async startEnrolment(userId: number, secret: string, now = Date.now()): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('two_factor')
        .where('user_id', '=', userId)
        .where('enabled', '=', 0)
        .execute();
      const result = await trx
        .insertInto('two_factor')
        .values({ user_id: userId, secret, created_at: now })
        .onConflict((oc) => oc.column('user_id').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    });
  }

  /** Confirms the enrolment with its recovery codes; false when it was not pending (any more). */
  async enable(userId: number, recoveryDigests: string[]): Promise<boolean> {
    const result = await this.db
      .updateTable('two_factor')
      .set({ enabled: 1, recovery_codes: JSON.stringify(recoveryDigests) })
      .where('user_id', '=', userId)
      .where('enabled', '=', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * Records `step` as the last accepted time step, only when it is later than the stored one: one
   * conditional update, so two instances given the same code at once accept it only once.
   */
  async claimStep(userId: number, step: number): Promise<boolean> {
    const result = await this.db
      .updateTable('two_factor')
      .set({ last_step: step })
      .where('user_id', '=', userId)
      .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * Removes one recovery code digest, only if the list is still the one read: a code used at the
   * same time elsewhere makes this fail rather than count twice.
   */
  async consumeRecovery(userId: number, before: string[], digest: string): Promise<boolean> {
    const after = before.filter((d) => d !== digest);
    if (after.length === before.length) return false;
    const result = await this.db
      .updateTable('two_factor')
      .set({ recovery_codes: JSON.stringify(after) })
      .where('user_id', '=', userId)
      .where('recovery_codes', '=', JSON.stringify(before))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async remove(userId: number): Promise<void> {
    if (!isStorableInteger(userId)) return;
    await this.db.deleteFrom('two_factor').where('user_id', '=', userId).execute();
  }
}
