import type { OutgoingHttpHeaders } from 'node:http';
import { WebSocket } from 'ws';

/** How a command socket ended: the messages received, then the close code and reason. */
export interface CommandEnd {
  messages: string[];
  code: number;
  reason: string;
}

/** An open command socket: messages as they arrive, and the end once the server closes it. */
export interface CommandSocket {
  socket: WebSocket;
  messages: string[];
  /** Resolves once a message satisfying `test` has arrived (at once if one already has). */
  waitFor(test: (message: string) => boolean): Promise<string>;
  end: Promise<CommandEnd>;
}

/** `ws://…/api/command/<dir>` of a server URL. */
export function commandUrl(serverUrl: string, dir: string, query = ''): string {
  return `${serverUrl.replace(/^http/, 'ws')}/api/command/${dir}${query}`;
}

/**
 * Opens `/api/command/<dir>` and sends `line` once open (the reference client's protocol). Rejects
 * with the HTTP status when the upgrade is refused.
 */
export function openCommand(
  url: string,
  line: string,
  headers: OutgoingHttpHeaders = {},
): Promise<CommandSocket> {
  const socket = new WebSocket(url, { headers });
  const messages: string[] = [];
  const waiters: { test: (m: string) => boolean; resolve: (m: string) => void }[] = [];
  socket.on('message', (data: Buffer) => {
    const message = data.toString('utf8');
    messages.push(message);
    for (const waiter of [...waiters]) {
      if (waiter.test(message)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(message);
      }
    }
  });
  const end = new Promise<CommandEnd>((resolve) => {
    socket.on('close', (code: number, reason: Buffer) =>
      resolve({ messages, code, reason: reason.toString('utf8') }),
    );
  });
  return new Promise((resolve, reject) => {
    socket.on('unexpected-response', (_request: unknown, response: { statusCode: number }) => {
      reject(new Error(`HTTP ${response.statusCode}`));
      socket.terminate();
    });
    socket.on('error', reject);
    socket.on('open', () => {
      socket.send(line);
      resolve({
        socket,
        messages,
        end,
        waitFor(test) {
          const found = messages.find(test);
          if (found !== undefined) return Promise.resolve(found);
          return new Promise((res) => waiters.push({ test, resolve: res }));
        },
      });
    });
  });
}

/** Runs one line to its end. */
export async function runCommand(
  url: string,
  line: string,
  headers: OutgoingHttpHeaders = {},
): Promise<CommandEnd> {
  const open = await openCommand(url, line, headers);
  return open.end;
}
