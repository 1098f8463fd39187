import http from 'node:http';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * Sends a request with the path exactly as given (no URL normalisation, unlike fetch, which
 * resolves `..` and `%2e%2e` itself), so hostile paths reach the server untouched.
 */
export function rawRequest(
  baseUrl: string,
  method: string,
  rawPath: string,
  options: { token?: string; body?: string | Buffer; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path: url.pathname.replace(/\/$/, '') + rawPath,
        headers: { ...(options.token ? { 'X-Auth': options.token } : {}), ...options.headers },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}
