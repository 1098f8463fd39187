import { readFileSync } from 'node:fs';
import type { Server as HttpsServer } from 'node:https';
import type { ServerConfig } from './options.ts';

export interface TlsFiles {
  cert: Buffer;
  key: Buffer;
}

/** The certificate and key files of the configuration, or null when Cabinet serves plain HTTP. */
export function readTlsFiles(config: Pick<ServerConfig, 'cert' | 'key'>): TlsFiles | null {
  if (!config.cert && !config.key) return null;
  if (!config.cert || !config.key) {
    throw new Error('TLS needs both --cert and --key (PEM files)');
  }
  try {
    return { cert: readFileSync(config.cert), key: readFileSync(config.key) };
  } catch (error) {
    throw new Error(`cannot read the TLS files: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * Reads the files again and serves new connections with them (a renewed certificate, on SIGHUP).
 * A bad pair is refused and the running one kept, so a failed renewal never takes the site down.
 */
export function reloadTls(server: HttpsServer, config: Pick<ServerConfig, 'cert' | 'key'>): void {
  const files = readTlsFiles(config);
  if (!files) return;
  server.setSecureContext(files);
}
