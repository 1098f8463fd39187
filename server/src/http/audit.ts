import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuditAction, AuditOutcome } from '@cabinet/protocol';
import { AppError } from '../errors.ts';
import type { AuditLog } from '../services/audit/audit-log.ts';

/** What a route said it does; recorded with the reply's outcome once the reply is sent. */
export interface PendingAudit {
  action: AuditAction;
  target: string;
  /**
   * The target's human name, set by a route that removes its target (asked before it acts);
   * otherwise it is looked up once the reply is sent.
   */
  targetName?: string;
  /** Filled in by the route when it knows more (changed fields, into the trash or not). */
  details: Record<string, unknown>;
  /** Who acted, for routes that sign in on their own (WebDAV's Basic); else the session's user. */
  actor?: { id: number; username: string };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The audited action of this request (docs/audit.md), or null. */
    audited: PendingAudit | null;
    /** The reason of the error this request ended with, for the audit entry. */
    auditReason: string | null;
  }
}

/**
 * Marks the request as an audited action, before the route calls its service: the entry is
 * written after the reply with its outcome (a refusal and a failure are recorded too), the
 * signed-in user and the client address (after trusted proxies). Returns the entry so a route can
 * add details once its service answered.
 */
export function audit(request: FastifyRequest, action: AuditAction, target = ''): PendingAudit {
  request.audited = { action, target, details: {} };
  return request.audited;
}

/** 2xx/3xx: ok; refused credentials, permissions and throttles; anything else failed. */
export function outcomeOf(status: number): AuditOutcome {
  if (status < 400) return 'ok';
  return status === 401 || status === 403 || status === 429 ? 'refused' : 'failed';
}

/** Records every marked request after its reply (so the entry never delays the reply). */
export function useAuditLog(app: FastifyInstance, log: AuditLog): void {
  app.decorateRequest('audited', null);
  app.decorateRequest('auditReason', null);
  app.addHook('onError', async (request, _reply, error) => {
    request.auditReason = error instanceof AppError ? (error.reason ?? null) : error.message;
  });
  app.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
    const pending = request.audited;
    if (!pending) return;
    const outcome = outcomeOf(reply.statusCode);
    const reason = request.auditReason;
    const targetName = pending.targetName ?? (await log.nameOf(pending.target));
    log.record({
      action: pending.action,
      outcome,
      actor:
        pending.actor ?? (request.user && { id: request.user.id, username: request.user.username }),
      address: request.ip,
      target: pending.target,
      targetName,
      details:
        outcome === 'ok'
          ? pending.details
          : { ...pending.details, status: reply.statusCode, ...(reason ? { reason } : {}) },
    });
  });
}
