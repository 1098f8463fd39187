import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/**
 * Opens a connection and sends a request's head without its final blank line, so the request is
 * in progress (not an idle connection the shutdown would simply close). `finish` completes it and
 * resolves with the status line and headers of the answer.
 */
async function startRequest(
  server: TestServer,
  method: string,
  path: string,
): Promise<{ finish(): Promise<string> }> {
  const { hostname, port } = new URL(server.url);
  // The server's end of the connection, to see when it has read the partial head.
  const accepted: net.Socket[] = [];
  const onConnection = (connection: net.Socket) => accepted.push(connection);
  server.app.server.on('connection', onConnection);
  const socket = net.connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let answer = '';
  // The head of the answer is complete at its blank line (or when the server closes).
  const answered = new Promise<void>((resolve) => {
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
      if (answer.includes('\r\n\r\n')) resolve();
    });
    socket.once('close', () => resolve());
  });
  const head = `${method} ${path} HTTP/1.1\r\nHost: ${hostname}\r\nTus-Resumable: 1.0.0\r\n`;
  socket.write(head);
  // The shutdown must start only once the server has read the partial head (its HTTP parser runs
  // on the bytes as they are read), or the connection would count as idle and simply be closed.
  const ours = () => accepted.find((connection) => connection.remotePort === socket.localPort);
  while ((ours()?.bytesRead ?? 0) < Buffer.byteLength(head)) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  server.app.server.off('connection', onConnection);
  return {
    async finish() {
      socket.write('\r\n');
      await answered;
      socket.destroy();
      return answer.split('\r\n\r\n')[0] ?? '';
    },
  };
}

describe('requests during shutdown', () => {
  it('tells a resumable upload to retry later (423) and refuses the rest with 503', async () => {
    server = await startTestServer();
    const tusHead = await startRequest(server, 'HEAD', '/api/tus/movie.bin');
    const listing = await startRequest(server, 'GET', '/api/resources/');
    const closing = server.app.close();
    const [tus, other] = await Promise.all([tusHead.finish(), listing.finish()]);
    await closing;
    // tus-js-client starts an upload again from byte 0 when its HEAD gets anything but 2xx or 423.
    expect(tus).toMatch(/^HTTP\/1\.1 423 /);
    expect(tus).toMatch(/^tus-resumable: 1\.0\.0$/im);
    expect(tus).toMatch(/^connection: close$/im);
    expect(other).toMatch(/^HTTP\/1\.1 503 /);
  });

  it('answers the same requests as usual before the shutdown', async () => {
    server = await startTestServer();
    const tusHead = await startRequest(server, 'HEAD', '/api/tus/movie.bin');
    const listing = await startRequest(server, 'GET', '/api/resources/');
    // Without a token both are 401, and the connection stays open.
    expect(await tusHead.finish()).toMatch(/^HTTP\/1\.1 401 /);
    const other = await listing.finish();
    expect(other).toMatch(/^HTTP\/1\.1 401 /);
    expect(other).not.toMatch(/^connection: close$/im);
  });
});
