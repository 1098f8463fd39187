import type { FastifyInstance } from 'fastify';
import { errors } from '../errors.ts';

/** Largest JSON body any API endpoint reads (users, settings, shares). */
export const JSON_BODY_LIMIT = 1024 * 1024;

/**
 * Makes every route of `app` read its body as JSON whatever the Content-Type says (docs/api.md,
 * "Request bodies"): the filebrowser web client sends JSON without a Content-Type, which browsers
 * label `text/plain;charset=UTF-8`. This opens no cross-site write, because every state-changing
 * route needs the X-Auth header, which no form or simple request can carry. Route areas that read
 * raw bodies (uploads, login) replace these parsers in their own scope.
 */
export function acceptJsonBodies(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    '*',
    { parseAs: 'string', bodyLimit: JSON_BODY_LIMIT },
    (_request, text: string, done) => {
      if (text.trim() === '') {
        done(errors.badRequest('the request body is empty; send a JSON document'));
        return;
      }
      try {
        done(null, JSON.parse(text) as unknown);
      } catch {
        done(errors.badRequest('the request body is not valid JSON'));
      }
    },
  );
}
