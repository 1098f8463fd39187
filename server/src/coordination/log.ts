/** What the coordination primitives report; pino's and Fastify's loggers fit. */
export interface CoordinationLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export const silentLog: CoordinationLog = {
  warn() {},
  error() {},
};
