/** One server-sent event as written on the wire; an id makes it replayable after a reconnect. */
export function sseEvent(type: string, data: unknown, id?: number): string {
  const idLine = id === undefined ? '' : `id: ${id}\n`;
  // JSON.stringify never emits a raw newline, so the data is one `data:` line.
  return `${idLine}event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** A comment line: ignored by EventSource, keeps proxies from closing an idle stream. */
export const SSE_HEARTBEAT = ': keep-alive\n\n';

/** How long a browser waits before reconnecting a dropped stream (the `retry` field). */
export const SSE_RETRY_MS = 2000;

/**
 * The Last-Event-ID a client sent: a whole number, null when absent, NaN when it is not one of
 * ours (the stream then asks for a resync).
 */
export function parseLastEventId(value: string | undefined): number | null {
  if (value === undefined || value === '') return null;
  return /^\d{1,15}$/.test(value) ? Number(value) : Number.NaN;
}
