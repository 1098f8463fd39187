import { expect } from 'vitest';

/** One parsed server-sent event. */
export interface StreamEvent {
  id: string | undefined;
  type: string;
  data: unknown;
}

export interface EventStreamClient {
  status: number;
  /** Every event received so far, in order. */
  readonly events: StreamEvent[];
  /** Resolves with the first event (counting those already received) that matches. */
  next(match: (event: StreamEvent) => boolean): Promise<StreamEvent>;
  /** Resolves when the server has ended the stream. */
  readonly ended: Promise<void>;
  close(): void;
}

/**
 * Opens `GET /api/events` with fetch and parses the stream as EventSource does (fields `id`,
 * `event`, `data`; comments ignored). Waits are on arriving events, never on time.
 */
export async function openEvents(
  url: string,
  options: { token?: string; query?: string; lastEventId?: string } = {},
): Promise<EventStreamClient> {
  const abort = new AbortController();
  const headers = new Headers();
  if (options.token) headers.set('X-Auth', options.token);
  if (options.lastEventId !== undefined) headers.set('Last-Event-ID', options.lastEventId);
  const response = await fetch(`${url}/api/events${options.query ?? ''}`, {
    headers,
    signal: abort.signal,
  });
  const events: StreamEvent[] = [];
  const waiters: { match: (e: StreamEvent) => boolean; resolve: (e: StreamEvent) => void }[] = [];
  const push = (event: StreamEvent) => {
    events.push(event);
    for (const waiter of [...waiters]) {
      if (waiter.match(event)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(event);
      }
    }
  };
  const ended = (async () => {
    if (!response.ok || !response.body) return;
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let id: string | undefined;
          let type = 'message';
          let data: string | undefined;
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) continue;
            const colon = line.indexOf(':');
            const field = colon < 0 ? line : line.slice(0, colon);
            const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
            if (field === 'id') id = text;
            else if (field === 'event') type = text;
            else if (field === 'data') data = text;
          }
          if (data !== undefined) push({ id, type, data: JSON.parse(data) as unknown });
        }
      }
    } catch {
      // Aborted by close().
    }
  })();
  return {
    status: response.status,
    events,
    next(match) {
      const found = events.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ match, resolve }));
    },
    ended,
    close: () => abort.abort(),
  };
}

/** Opens a stream that must be accepted and waits for its first event (`ready` or `resync`). */
export async function openReady(
  url: string,
  options: Parameters<typeof openEvents>[1] = {},
): Promise<EventStreamClient & { first: StreamEvent }> {
  const client = await openEvents(url, options);
  expect(client.status).toBe(200);
  const first = await client.next(() => true);
  return Object.assign(client, { first });
}
