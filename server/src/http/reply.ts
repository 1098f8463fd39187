import type { FastifyReply } from 'fastify';
import { statusBody } from '../errors.ts';

/** Replies with filebrowser's plain-text status body, e.g. "200 OK\n". */
export function sendStatus(reply: FastifyReply, status: number, reason?: string): FastifyReply {
  return reply
    .code(status)
    .header('content-type', 'text/plain; charset=utf-8')
    .header('x-content-type-options', 'nosniff')
    .send(statusBody(status, reason));
}
