import type * as z from 'zod/mini';
import { errors } from '../../errors.ts';

/** A JSON body checked against its schema (a schema error answers 400 through the error handler). */
export function parseBody<T extends z.ZodMiniType>(schema: T, body: unknown): z.infer<T> {
  if (body === undefined || body === null) {
    throw errors.badRequest('the request body is empty; send a JSON document');
  }
  return schema.parse(body) as z.infer<T>;
}
