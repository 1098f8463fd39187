import type { DetailedError, Upload } from 'tus-js-client';
import { ApiError } from '../api-error.ts';
import { apiUrl, renewSession } from '../client.ts';
import { isServerAwayStatus, markUnreachable, onReconnect } from '../connection-monitor.ts';
import { encodePath } from '../encode-path.ts';
import { session } from '../session-link.ts';
import { pageConfig } from '../../config/page-config.ts';
import { isTransientStatus, retryDelays } from './retry-delays.ts';

/** A running transfer: settles when the file is complete; cancel stops it. */
export interface Transfer {
  done: Promise<void>;
  /** Stops sending and removes what the server holds of it, so no partial file is left. */
  cancel(): Promise<void>;
}

export interface TransferOptions {
  /** Replace an existing file of the same name (needs the modify permission). */
  override: boolean;
  /** Bytes the server has taken so far. */
  onProgress(loaded: number): void;
}

/**
 * Retries only what a retry can fix (isTransientStatus): no reply, a proxy's 502/504, a 503 or
 * 423 from a server that is stopping. A refusal (507 quota, 413, 403, 409, any other 4xx) is
 * the server's answer and is shown at once. Unlike tus-js-client's default this also retries
 * while the browser says it is offline, so a short network cut does not fail the upload.
 */
function shouldRetry(error: DetailedError): boolean {
  const status = error.originalResponse?.getStatus() ?? 0;
  // No reply: the offline banner shows and the connection monitor starts watching for the server.
  if (status === 0) markUnreachable();
  return isTransientStatus(status);
}

/**
 * Whether a failure that outlasted the retries means the server went away rather than refused:
 * no reply, a proxy's 502/504, or what Cabinet answers while it shuts down (503; 423 to tus
 * requests, so tus-js-client keeps the offset). The upload then pauses instead of failing; should
 * the 423 be a real lock on a server still up, the first probe finds it and the upload goes on.
 */
function isServerAway(failure: ApiError): boolean {
  return failure.kind === 'network' || failure.status === 423 || isServerAwayStatus(failure.status);
}

/** The server's text for a failed tus request, as an ApiError the panel can show. */
function toApiError(error: Error | DetailedError): ApiError {
  if ('originalResponse' in error) {
    const response = error.originalResponse;
    if (response) {
      const status = response.getStatus();
      const body = response.getBody()?.trim();
      return new ApiError(status, body || `${status}`);
    }
    return new ApiError(0, error.causingError?.message ?? error.message, 'network');
  }
  return new ApiError(0, error.message, 'network');
}

/**
 * Sends one non-empty file through the resumable tus routes (docs/uploads.md), in chunks of the
 * server's TusSettings.chunkSize, with the session's X-Auth on every request.
 */
export function startTusTransfer(path: string, file: File, options: TransferOptions): Transfer {
  let upload: Upload | undefined;
  let isCancelled = false;
  // tus-js-client (~17 KB gzipped with its helpers) is loaded with the first upload, not with the
  // app: most visits never upload.
  const done = import('tus-js-client').then(
    (tus) =>
      new Promise<void>((resolve, reject) => {
        if (isCancelled) {
          reject(new ApiError(0, 'cancelled', 'network'));
          return;
        }
        upload = new tus.Upload(file, {
          endpoint: apiUrl(`/tus${encodePath(path)}?override=${options.override}`),
          chunkSize: pageConfig.TusSettings.chunkSize,
          retryDelays: retryDelays(pageConfig.TusSettings.retryCount),
          parallelUploads: 1,
          // Resuming works within the page's life (retries); a new page starts a new upload,
          // which the server allows for the same user and path.
          storeFingerprintForResuming: false,
          metadata: { filename: file.name, filetype: file.type },
          onBeforeRequest(request) {
            // Read at each request: the token may have been renewed during a long upload.
            const token = session().token();
            if (token) request.setHeader('X-Auth', token);
          },
          onAfterResponse(_request, response) {
            if (response.getHeader('X-Renew-Token') === 'true') void renewSession();
          },
          onShouldRetry: shouldRetry,
          onProgress: (sent) => options.onProgress(sent),
          onSuccess: () => resolve(),
          onError: (error) => {
            const failure = toApiError(error);
            // The server stayed away longer than the retries: the upload pauses where it is and
            // goes on from the server's offset once the server answers again.
            if (isServerAway(failure) && !isCancelled && upload?.url) {
              markUnreachable();
              const stop = onReconnect(() => {
                stop();
                if (!isCancelled) upload?.start();
              });
              return;
            }
            reject(failure);
          },
        });
        upload.start();
      }),
  );
  return {
    done,
    cancel: async () => {
      isCancelled = true;
      // abort(true) also sends DELETE for an upload the server already knows.
      await upload?.abort(true);
    },
  };
}
