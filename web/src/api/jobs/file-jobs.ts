import * as z from 'zod/mini';
import { FileJob, FileJobCreated, type FileJobAnswer, type NewFileJob } from '@cabinet/protocol';
import { apiJson } from '../client.ts';

// Background copy, move and delete jobs (Cabinet addition, docs/jobs.md).

const json = (body: unknown) => ({ method: 'POST' as const, json: body });

/** POST /api/jobs: queues a job; resolves with its id. */
export async function startFileJob(body: NewFileJob): Promise<string> {
  return (await apiJson('/jobs', FileJobCreated, json(body))).id;
}

/** GET /api/jobs: the user's recent jobs, newest first. */
export function listFileJobs(signal?: AbortSignal): Promise<FileJob[]> {
  return apiJson('/jobs', z.array(FileJob), { signal });
}

/** GET /api/jobs/{id}. */
export function getFileJob(id: string): Promise<FileJob> {
  return apiJson(`/jobs/${encodeURIComponent(id)}`, FileJob);
}

export function cancelFileJob(id: string): Promise<FileJob> {
  return apiJson(`/jobs/${encodeURIComponent(id)}/cancel`, FileJob, { method: 'POST' });
}

export function retryFileJob(id: string): Promise<FileJob> {
  return apiJson(`/jobs/${encodeURIComponent(id)}/retry`, FileJob, { method: 'POST' });
}

export function answerFileJob(id: string, answer: FileJobAnswer): Promise<FileJob> {
  return apiJson(`/jobs/${encodeURIComponent(id)}/answer`, FileJob, json(answer));
}
