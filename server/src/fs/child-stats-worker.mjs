// The stat worker: takes jobs from child-stats.ts and stats their entries beside the main thread
// until none are left to claim. Its `fs.Stats` garbage stays in this thread's own small heap.
import { setImmediate } from 'node:timers';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort } from 'node:worker_threads';
import { jobViews, pathsFromNames, statChunk } from './child-stats-core.mjs';

// A job's shared buffer is freed only once both threads have collected their views of it, and this
// thread allocates too little to collect on its own: it collects after each job.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc');

parentPort.on('message', (job) => {
  const views = jobViews(job.buffer, job);
  const pathOf = pathsFromNames(job, new Uint8Array(job.names));
  while (statChunk(job, views, pathOf));
  setImmediate(collect);
});
