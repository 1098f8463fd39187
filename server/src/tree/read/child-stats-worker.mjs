// The stat worker: takes jobs from child-stats.ts and stats their entries beside the main thread
// until none are left to claim. Its `fs.Stats` garbage stays in this thread's own small heap.
import { parentPort } from 'node:worker_threads';
import { jobViews, pathsFromNames, statChunk } from './child-stats-core.mjs';

parentPort.on('message', (job) => {
  const views = jobViews(job.buffer, job);
  const pathOf = pathsFromNames(job, new Uint8Array(job.names));
  while (statChunk(job, views, pathOf));
});
