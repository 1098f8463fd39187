import type { FastifyInstance, FastifySchemaCompiler, FastifyTypeProvider } from 'fastify';
import type * as z from 'zod/mini';

/**
 * Gives route handlers the output types of the protocol's zod schemas they declare in `schema`
 * (params, querystring, body): `app.withTypeProvider<ZodTypeProvider>()`.
 */
export interface ZodTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends z.ZodMiniType ? z.output<this['schema']> : unknown;
  serializer: this['schema'] extends z.ZodMiniType ? z.input<this['schema']> : unknown;
}

/**
 * Runs a route's zod schema on its part of the request and hands the handler the parsed value
 * (normalised: first of a repeated query key, flags as booleans). A failure is the ZodError
 * itself, which the error handler answers as 400 with a one-line description.
 */
const compileZod: FastifySchemaCompiler<z.ZodMiniType> =
  ({ schema }) =>
  (data) => {
    const result = schema.safeParse(data);
    return result.success ? { value: result.data } : { error: result.error };
  };

/** Makes `app` and every route area registered inside it validate with zod schemas. */
export function useZodValidation(app: FastifyInstance): void {
  app.setValidatorCompiler(compileZod);
}
