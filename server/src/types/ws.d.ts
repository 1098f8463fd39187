/**
 * The part of the `ws` package (the WebSocket implementation under @fastify/websocket) that the
 * command socket and its tests use; the package ships no types and @types/ws is not a dependency.
 */
declare module 'ws' {
  import { EventEmitter } from 'node:events';
  import type { OutgoingHttpHeaders } from 'node:http';

  export class WebSocket extends EventEmitter {
    constructor(address: string, options?: { headers?: OutgoingHttpHeaders });
    static readonly CONNECTING: 0;
    static readonly OPEN: 1;
    static readonly CLOSING: 2;
    static readonly CLOSED: 3;
    readonly OPEN: 1;
    readonly readyState: 0 | 1 | 2 | 3;
    send(data: string | Buffer): void;
    close(code?: number, reason?: string): void;
    terminate(): void;
  }
  export default WebSocket;
}
