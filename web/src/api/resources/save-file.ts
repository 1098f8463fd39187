import { apiRequest } from '../client.ts';
import { encodePath } from '../encode-path.ts';

/** PUT /api/resources/{path} with the text as the body: replaces the file's content. */
export async function saveFile(path: string, text: string): Promise<void> {
  await apiRequest(`/resources${encodePath(path)}`, {
    method: 'PUT',
    body: text,
    headers: { 'Content-Type': 'text/plain; charset=utf-8' },
  });
}
