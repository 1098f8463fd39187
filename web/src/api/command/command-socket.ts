import { COMMAND_CLOSE } from '@cabinet/protocol';
import { apiUrl } from '../client.ts';
import { encodePath } from '../encode-path.ts';

/** How a command ended, from the close frame (docs/commands.md). */
export type CommandEnd =
  | { kind: 'success' }
  | { kind: 'refused' }
  | { kind: 'failed'; reason: string }
  | { kind: 'stopped' };

export interface CommandHandlers {
  onLine(line: string): void;
  onEnd(end: CommandEnd): void;
}

/**
 * Runs one command line in a folder over `/api/command/{dir}`. The browser sends the `auth` cookie
 * with the handshake, so the token never goes into the URL. Returns a function that stops the
 * command: closing the socket makes the server kill it.
 */
export function runCommand(folder: string, line: string, handlers: CommandHandlers): () => void {
  const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  const url = `${scheme}//${window.location.host}${apiUrl(`/command${encodePath(folder)}`)}`;
  const socket = new WebSocket(url);
  let stopped = false;
  socket.addEventListener('open', () => socket.send(line));
  socket.addEventListener('message', (event: MessageEvent) => {
    if (!stopped && typeof event.data === 'string') handlers.onLine(event.data);
  });
  socket.addEventListener('close', (event: CloseEvent) => {
    if (stopped) return;
    if (event.code === COMMAND_CLOSE.success) handlers.onEnd({ kind: 'success' });
    else if (event.code === COMMAND_CLOSE.notAllowed) handlers.onEnd({ kind: 'refused' });
    else handlers.onEnd({ kind: 'failed', reason: event.reason });
  });
  return () => {
    if (stopped) return;
    stopped = true;
    socket.close();
    handlers.onEnd({ kind: 'stopped' });
  };
}
