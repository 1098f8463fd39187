import { useQuery } from '@tanstack/react-query';
import { Resource, type ChecksumAlgorithm } from '@cabinet/protocol';
import { ApiError } from '../api-error.ts';
import { apiJson } from '../client.ts';
import { encodePath } from '../encode-path.ts';
import { resourceKeys } from './resource-keys.ts';

/** GET /api/resources/{path}?checksum=algo: the file's digest as lowercase hex. */
export async function fetchChecksum(
  path: string,
  algorithm: ChecksumAlgorithm,
  signal?: AbortSignal,
): Promise<string> {
  const reply = await apiJson(`/resources${encodePath(path)}?checksum=${algorithm}`, Resource, {
    signal,
  });
  const digest = reply.checksums?.[algorithm];
  if (!digest) throw new ApiError(200, 'The server sent no checksum', 'bad-reply');
  return digest;
}

/**
 * A file's checksum, computed only once `enabled` turns true (hashing a big file takes a while,
 * so the info dialog asks for it on demand) and kept for the file's path and modification time.
 */
export function useResourceChecksumQuery(
  path: string,
  modified: string,
  algorithm: ChecksumAlgorithm,
  enabled: boolean,
) {
  return useQuery({
    queryKey: resourceKeys.checksum(path, modified, algorithm),
    queryFn: ({ signal }) => fetchChecksum(path, algorithm, signal),
    enabled,
    staleTime: Infinity,
    retry: false,
  });
}
