/**
 * What the scale-out runner checks before it times anything: the instances behind the balancer
 * behave as one (a token from a sign-in through the balancer works on each instance, a file
 * uploaded through the balancer is read back from each), and the balancer's configuration passes
 * what Cabinet needs (streamed uploads, the command socket's WebSocket upgrade with its same-origin
 * check). Each check throws with a message saying what did not hold.
 */
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { Duplex } from 'node:stream';
import { getJson } from './measure.ts';

type Headers = Record<string, string>;

/** Entries of a listing answer (Cabinet's `items`, or nginx's JSON autoindex array). */
export async function listedEntries(url: string, headers: Headers): Promise<number> {
  const body = await getJson(url, headers);
  return Array.isArray(body) ? body.length : ((body as { items?: unknown[] }).items?.length ?? -1);
}

/** Throws unless the listing at `url` holds exactly `expected` entries. */
export async function checkListing(
  label: string,
  url: string,
  headers: Headers,
  expected: number,
): Promise<void> {
  const count = await listedEntries(url, headers);
  if (count !== expected) throw new Error(`${label} listed ${count} entries, expected ${expected}`);
}

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

/**
 * Uploads `bytes` of random data through `balancer` (one POST body, streamed by the balancer), reads
 * the file back from every instance directly and compares, then deletes it through the balancer.
 */
export async function checkUploadSeenByAll(
  balancer: string,
  instances: readonly string[],
  headers: Headers,
  file: string,
  bytes: number,
): Promise<void> {
  const data = randomBytes(bytes);
  const resource = `/api/resources/${file}`;
  const posted = await fetch(`${balancer}${resource}?override=true`, {
    method: 'POST',
    headers,
    body: data,
    signal: AbortSignal.timeout(60_000),
  });
  await posted.arrayBuffer();
  if (!posted.ok) throw new Error(`upload through the balancer answered ${posted.status}`);
  const expected = sha256(data);
  for (const instance of instances) {
    const read = await fetch(`${instance}/api/raw/${file}`, {
      headers,
      signal: AbortSignal.timeout(60_000),
    });
    const body = new Uint8Array(await read.arrayBuffer());
    if (read.status !== 200 || sha256(body) !== expected)
      throw new Error(`${instance} answered ${read.status} with other bytes for ${file}`);
  }
  const removed = await fetch(`${balancer}${resource}`, {
    method: 'DELETE',
    headers,
    signal: AbortSignal.timeout(60_000),
  });
  await removed.arrayBuffer();
  if (!removed.ok) throw new Error(`delete through the balancer answered ${removed.status}`);
}

/** A client's text frame (clients must mask theirs); `text` under 126 bytes. */
function textFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  const mask = randomBytes(4);
  const masked = payload.map((byte, i) => byte ^ (mask[i % 4] as number));
  return Buffer.concat([Buffer.from([0x81, 0x80 | payload.length]), mask, masked]);
}

/** Reads the server's frames until its close frame; resolves to the close code. */
function closeCode(socket: Duplex, head: Buffer, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let buffered = head;
    const timer = setTimeout(() => fail(new Error('no close frame in time')), timeoutMs);
    const fail = (error: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    const parse = () => {
      while (buffered.length >= 2) {
        const opcode = (buffered[0] as number) & 0x0f;
        let length = (buffered[1] as number) & 0x7f;
        let offset = 2;
        if (length === 126) {
          if (buffered.length < 4) return;
          length = buffered.readUInt16BE(2);
          offset = 4;
        } else if (length === 127) {
          return fail(new Error('unexpectedly long frame from the command socket'));
        }
        if (buffered.length < offset + length) return;
        const payload = buffered.subarray(offset, offset + length);
        buffered = buffered.subarray(offset + length);
        if (opcode === 0x8) {
          clearTimeout(timer);
          socket.destroy();
          return resolve(payload.length >= 2 ? payload.readUInt16BE(0) : 1005);
        }
      }
    };
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      parse();
    });
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('the command socket closed without a close frame')));
    parse();
  });
}

/**
 * Opens the command socket through the balancer as a browser on the balancer's page would (its
 * Origin), sends a line, and expects Cabinet's answer for a server without `--enable-exec`: a close
 * with 1008 (not allowed). That proves the upgrade, the Host header Cabinet compares Origin with,
 * and frames both ways pass the balancer.
 */
export function checkCommandSocket(balancer: string, token: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${balancer}/api/command/?auth=${encodeURIComponent(token)}`, {
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': randomBytes(16).toString('base64'),
        origin: balancer,
      },
      timeout: 10_000,
    });
    request.on('upgrade', (_response, socket, head) => {
      socket.write(textFrame('ls'));
      closeCode(socket, head, 10_000).then((code) => {
        if (code === 1008) resolve();
        else reject(new Error(`the command socket closed with ${code}, expected 1008`));
      }, reject);
    });
    request.on('response', (response) => {
      response.resume();
      reject(new Error(`the command socket answered ${response.statusCode} instead of upgrading`));
    });
    request.on('timeout', () => request.destroy(new Error('the command socket did not answer')));
    request.on('error', reject);
    request.end();
  });
}
