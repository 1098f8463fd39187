import { PublicUploadReply } from '@cabinet/protocol';
import { ApiError } from '../api-error.ts';
import { apiUrl } from '../client.ts';
import { parseReply } from '../parse-reply.ts';

/**
 * POST /api/public/upload/{hash}/{name}: one file into a file request, with progress (fetch
 * reports none for request bodies, so this is XMLHttpRequest). Resolves to the saved name.
 */
export function uploadToRequest(
  hash: string,
  file: File,
  password: string,
  onProgress: (loaded: number) => void,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', apiUrl(`/public/upload/${hash}/${encodeURIComponent(file.name)}`));
    if (password) xhr.setRequestHeader('X-SHARE-PASSWORD', encodeURIComponent(password));
    xhr.upload.onprogress = (event) => onProgress(event.loaded);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        const reply = parseReply(PublicUploadReply, xhr.responseText);
        if (reply) resolve(reply.name);
        else reject(new ApiError(xhr.status, 'The server sent an unexpected reply', 'bad-reply'));
      } else {
        reject(new ApiError(xhr.status, xhr.responseText.trim() || `${xhr.status}`));
      }
    };
    xhr.onerror = () => reject(new ApiError(0, 'No connection', 'network'));
    xhr.send(file);
  });
}
