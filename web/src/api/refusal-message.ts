import i18next from 'i18next';

/**
 * Server reasons (the text of "400 Bad Request (reason)") that people meet, each with the
 * catalogue key that says it in a sentence; a capture group becomes {{value}}. The server's own
 * words are written for logs and scripts, not for a person looking at a form.
 */
const REASONS: readonly (readonly [RegExp, string])[] = [
  [/^the current password is incorrect$/i, 'refusals.currentPasswordWrong'],
  [/^the current password is required$/i, 'firstWeek.currentPasswordRequired'],
  [/^password is too short, minimum length is (\d+)$/i, 'refusals.passwordTooShort'],
  [/^password is too easy$/i, 'refusals.passwordTooEasy'],
  [/^password is required$/i, 'refusals.passwordRequired'],
  [/^username is required$/i, 'refusals.usernameRequired'],
  [/^username and password are required$/i, 'refusals.credentialsRequired'],
  [/^username contains characters that are not allowed$/i, 'refusals.usernameCharacters'],
  [/^username cannot start or end with spaces$/i, 'refusals.usernameSpaces'],
  [/^this username cannot be used as a home folder name$/i, 'refusals.usernameHome'],
  [/^the last administrator cannot lose administrator rights$/i, 'refusals.lastAdmin'],
  [/^permission to share requires permission to download$/i, 'refusals.shareNeedsDownload'],
  [/^minimumPasswordLength must be at most (\d+)$/i, 'refusals.minimumLengthTooBig'],
  [/^invalid rule regex: (.*)$/i, 'refusals.ruleRegex'],
  [/^source is parent$/i, 'refusals.intoItself'],
  [/^name too long$/i, 'refusals.nameTooLong'],
  [/^path is a directory$/i, 'refusals.isFolder'],
  [/^path is not a directory$/i, 'refusals.isNotFolder'],
  [/^invalid (path|destination)$/i, 'refusals.invalidPath'],
  [/^no files selected$/i, 'refusals.nothingSelected'],
  [/^upload interrupted$/i, 'refusals.uploadInterrupted'],
];

/** The reason of a 507, as server/src/services/quota/quota-words.ts writes it. */
const QUOTA_REASON = /^this would exceed your quota: (.+) of (.+) used$/i;
/** The reason of a 507 for want of disk space (server/src/errors.ts, DISK_FULL_REASON). */
const DISK_FULL_REASON = /^the disk is full\b/i;

/** The sentence for a status when the server gave no reason we know. */
function statusKey(status: number): string {
  if (status === 0) return 'errors.network';
  if (status === 401) return 'refusals.sessionEnded';
  if (status === 403) return 'errors.forbidden';
  if (status === 404) return 'errors.notFound';
  if (status === 409) return 'refusals.conflict';
  if (status === 413) return 'refusals.tooLarge';
  if (status === 429) return 'refusals.tooManyRequests';
  if (status >= 400 && status < 500) return 'refusals.badRequest';
  return 'errors.internal';
}

/** The reason inside a filebrowser status body, "400 Bad Request (reason)", if there is one. */
export function reasonOf(body: string): string | undefined {
  return /^\d{3} [^(]*\((.+)\)\s*$/s.exec(body)?.[1];
}

/**
 * What a person reads when the server refuses or fails a call: a known reason in the interface's
 * words, an unknown 400 reason quoted inside a sentence, anything else the sentence for its status.
 */
export function refusalMessage(status: number, reason: string | undefined): string {
  // A quota refusal (507): the server's sentence names the usage and the quota.
  const quota = status === 507 && reason ? QUOTA_REASON.exec(reason) : null;
  if (status === 507) {
    if (reason && DISK_FULL_REASON.test(reason)) return i18next.t('refusals.diskFull');
    return quota
      ? i18next.t('quota.wouldExceed', { used: quota[1], quota: quota[2] })
      : i18next.t('quota.full');
  }
  if (reason && status === 400) {
    for (const [pattern, key] of REASONS) {
      const match = pattern.exec(reason);
      if (match) return i18next.t(key, { value: match[1] ?? '' });
    }
    return i18next.t('refusals.badRequestBecause', { reason });
  }
  return i18next.t(statusKey(status));
}
