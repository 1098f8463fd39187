/** The refusal reasons the server writes that the page shows in words (docs/audit.md). */
const REASONS: Record<string, string> = {
  'wrong password': 'wrongPassword',
  'unknown user': 'unknownUser',
  throttled: 'throttled',
  'two-factor code needed': 'twoFactorNeeded',
  'wrong two-factor code': 'twoFactorWrong',
};

/** The catalogue key (in the audit section's reasons) of an entry's reason, or undefined. */
export function auditReasonKey(reason: unknown): string | undefined {
  return typeof reason === 'string' ? REASONS[reason] : undefined;
}

/**
 * The catalogue key of an entry's action in words: a sign-in that did not happen is not "Signed
 * in" but "Sign-in refused" (wrong password, throttled) or "Sign-in failed" (an error).
 */
export function auditActionKey(action: string, outcome: string): string {
  if (action === 'login' && outcome === 'refused') return 'audit.loginRefused';
  if (action === 'login' && outcome === 'failed') return 'audit.loginFailed';
  return `audit.actions.${action}`;
}

/** Midnight at the start of a `YYYY-MM-DD` day in this browser's time zone, as RFC 3339. */
export function dayStart(day: string): string {
  return new Date(`${day}T00:00:00`).toISOString();
}

/** Midnight after the day (the API's `to` is exclusive), as RFC 3339. */
export function dayEnd(day: string): string {
  const end = new Date(`${day}T00:00:00`);
  end.setDate(end.getDate() + 1);
  return end.toISOString();
}
