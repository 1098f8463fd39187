import { SearchHit } from '@cabinet/protocol';
import { apiRequest } from '../client.ts';
import { encodePath } from '../encode-path.ts';
import { parseReply } from '../parse-reply.ts';

/**
 * Runs a search in a folder and yields its hits as they arrive, a batch per network chunk
 * (the server streams NDJSON, docs/search.md). Aborting the signal ends the request, which
 * stops the search on the server too. Blank lines (the reference's heartbeat) and lines that do
 * not fit the protocol are skipped.
 */
export async function* streamSearch(
  folder: string,
  query: string,
  signal: AbortSignal,
): AsyncGenerator<SearchHit[]> {
  const dir = folder.endsWith('/') ? folder : `${folder}/`;
  const response = await apiRequest(
    `/search${encodePath(dir)}?query=${encodeURIComponent(query)}`,
    { signal },
  );
  if (!response.body) return;
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let pending = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      pending += decoder.decode(value, { stream: !done });
      const lines = pending.split('\n');
      pending = done ? '' : (lines.pop() ?? '');
      const hits: SearchHit[] = [];
      for (const line of lines) {
        if (line.trim() === '') continue;
        const hit = parseReply(SearchHit, line);
        if (hit) hits.push(hit);
      }
      if (hits.length > 0) yield hits;
      if (done) return;
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}
