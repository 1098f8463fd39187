import type { FastifyRequest } from 'fastify';

/** The Content-Length of a body, when the client sent a valid one (quotas refuse early by it). */
export function declaredLength(request: FastifyRequest): number | undefined {
  const header = request.headers['content-length'];
  if (header === undefined || !/^\d+$/.test(header)) return undefined;
  const length = Number(header);
  return Number.isSafeInteger(length) ? length : undefined;
}
