import type { FastifyReply } from 'fastify';
import { statusBody } from '../errors.ts';

/**
 * Replies with filebrowser's plain-text status body, e.g. "200 OK\n"; the reason is in it on 400
 * and 507, or when `shown`.
 */
export function sendStatus(
  reply: FastifyReply,
  status: number,
  reason?: string,
  shown = false,
): FastifyReply {
  return reply
    .code(status)
    .header('content-type', 'text/plain; charset=utf-8')
    .header('x-content-type-options', 'nosniff')
    .send(statusBody(status, reason, shown));
}
