import {
  AUDIT_ACTIONS,
  AUDIT_OUTCOMES,
  AUDIT_PAGE,
  type AuditAction,
  type AuditOutcome,
  type AuditQuery,
} from '@cabinet/protocol';
import { errors } from '../../errors.ts';
import type { AuditSelection } from '../../store/audit.repo.ts';

/** A time filter: an RFC 3339 time or a date (midnight UTC); anything else is a 400. */
function timeOf(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const ms = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value)
    ? Date.parse(value)
    : Number.NaN;
  if (Number.isNaN(ms)) throw errors.badRequest(`${name} must be an RFC 3339 time`);
  return ms;
}

function integerOf(name: string, value: string | undefined, max: number): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^\d{1,15}$/.test(value) || Number(value) < 1 || Number(value) > max) {
    throw errors.badRequest(`${name} must be a whole number from 1 to ${max}`);
  }
  return Number(value);
}

/** The query of GET /api/audit(.csv) as a repository selection; a bad value is a 400. */
export function selectionOf(query: AuditQuery, pageSize: number | 'all'): AuditSelection {
  const action = query.action || undefined;
  if (action !== undefined && !AUDIT_ACTIONS.includes(action as AuditAction)) {
    throw errors.badRequest('unknown action');
  }
  const outcome = query.outcome || undefined;
  if (outcome !== undefined && !AUDIT_OUTCOMES.includes(outcome as AuditOutcome)) {
    throw errors.badRequest('outcome must be ok, refused or failed');
  }
  const user = query.user?.trim();
  return {
    username: user ? user : undefined,
    action,
    outcome,
    from: timeOf('from', query.from),
    to: timeOf('to', query.to),
    before: integerOf('before', query.before, Number.MAX_SAFE_INTEGER),
    limit:
      pageSize === 'all'
        ? AUDIT_PAGE.max
        : (integerOf('limit', query.limit, AUDIT_PAGE.max) ?? pageSize),
  };
}
