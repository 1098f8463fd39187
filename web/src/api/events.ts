import { apiUrl } from './client.ts';
import { session } from './session-link.ts';

/** What the event stream tells the page (docs/jobs.md). */
export interface EventStreamHandlers {
  /** The stream is (again) connected; `resumed` is false the first time. */
  onOpen(resumed: boolean): void;
  /** Something at `path` (a scope path) changed on disk. */
  onChanged(path: string): void;
  /** Events were missed and cannot be replayed: re-read what is on screen. */
  onResync(): void;
  /** The browser gave up (the server refused the stream); it will not reconnect by itself. */
  onClosed(): void;
  /** Any other named event with its data (jobs, …). */
  onEvent?(type: string, data: unknown): void;
}

/**
 * Event names the stream sends besides `ready`, `changed` and `resync`: jobs, sites' changes, and
 * `shared` when the user's shared set changed (a grant, change, revocation or leave; docs/teams.md).
 */
const OTHER_EVENTS = ['job', 'site', 'shared'] as const;

function parse(event: MessageEvent): unknown {
  try {
    return JSON.parse(String(event.data)) as unknown;
  } catch {
    return null;
  }
}

/**
 * Opens `GET /api/events` with the session's token in `?auth=` (EventSource sends no headers) and
 * `lastEventId` when resuming an earlier stream. The browser reconnects by itself after a network
 * failure, sending Last-Event-ID; returns the function that closes the stream and the id of the
 * last event received (to resume from after reopening, for example with a renewed token).
 */
export function openEventStream(
  handlers: EventStreamHandlers,
  resumeFrom: string | null,
): { close(): string | null } {
  const token = session().token();
  const query = new URLSearchParams();
  if (token) query.set('auth', token);
  if (resumeFrom) query.set('lastEventId', resumeFrom);
  const source = new EventSource(`${apiUrl('/events')}?${query.toString()}`);
  let lastId = resumeFrom;
  let opened = resumeFrom !== null;
  const remember = (event: MessageEvent) => {
    if (event.lastEventId) lastId = event.lastEventId;
  };
  source.addEventListener('ready', (event) => {
    remember(event);
    handlers.onOpen(opened);
    opened = true;
  });
  source.addEventListener('resync', (event) => {
    remember(event);
    opened = true;
    handlers.onResync();
  });
  source.addEventListener('changed', (event) => {
    const data = parse(event);
    if (data && typeof data === 'object' && 'path' in data && typeof data.path === 'string') {
      handlers.onChanged(data.path);
    }
  });
  source.addEventListener('error', () => {
    if (source.readyState === EventSource.CLOSED) handlers.onClosed();
  });
  for (const type of OTHER_EVENTS) {
    source.addEventListener(type, (event) => {
      remember(event);
      handlers.onEvent?.(type, parse(event));
    });
  }
  return {
    close() {
      source.close();
      return lastId;
    },
  };
}
