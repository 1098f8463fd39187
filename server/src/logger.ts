import { pino, type Logger } from 'pino';
import type { ServerConfig } from './config/options.ts';

/** Removes `auth=` tokens from URLs so that query tokens never reach the logs. */
export function redactUrl(url: string): string {
  return url.replace(/([?&](?:auth|token)=)[^&]*/gi, '$1[redacted]');
}

/** Builds the process logger from the configured level and format. */
export function createLogger(config: Pick<ServerConfig, 'logLevel' | 'logFormat'>): Logger {
  return pino({
    level: config.logLevel,
    ...(config.logFormat === 'pretty' && {
      transport: {
        target: 'pino-pretty',
        options: { colorize: false, translateTime: 'SYS:standard', ignore: 'pid,hostname' },
      },
    }),
  });
}
