// A worker thread that runs a TypeScript module of this repository: tsx's loader is registered
// inside it, since Node does not hand a parent's --import hooks to workers. The simulator's
// scenario threads and the controller's planner thread start this way.
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** Starts `entry` (a .ts module's URL) in a new worker thread, with `options` (workerData, resourceLimits...). */
export function startTsWorker(entry: URL, options: Omit<WorkerOptions, 'eval'> = {}): Worker {
  const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(boot, { ...options, eval: true });
}
