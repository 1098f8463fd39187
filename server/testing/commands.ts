// The commands' runner and the environment Hugo runs in, for the site-preview bench
// (bench/src/site-preview.ts): Hugo started exactly as the server starts it, measured beside the
// same command line started by a plain execFile.
export { runLine } from '../src/commands/run-line.ts';
export { commandEnvironment } from '../src/commands/environment.ts';
export { HUGO_POLICY } from '../src/services/sites/hugo-policy.ts';
