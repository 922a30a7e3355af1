// The proof of work, solved by the waiting page's own solver (pages/solver/): where the platform has
// Web Workers, the very script the room serves its pages, started as a Worker from its text (a blob:
// URL, so it works whatever origin serves the app); else, or when the Worker cannot start (a
// Content-Security-Policy without `worker-src blob:`), its solving function on this thread, yielding
// every few thousand counters so the app stays responsive. `none` when neither can solve.
import { source as solverScript } from 'waiting-room:solver';
import { workFrom, type Work } from '../pages/solver/challenge.js';
import { type Report, solveAll } from '../pages/solver/solve.js';
import type { ProofSolver } from './types.js';

/** The header's value for "this client cannot solve" (docs/bots.md). */
export const CANNOT_SOLVE = 'none';

/** Counters between yields on the main thread: about 30 ms on a low-end phone, a few on a laptop. */
const YIELD_EVERY = 1024;

let scriptUrl: string | undefined;

/** The page's solver as a Worker; rejects when the platform has none or it fails to start. */
function inWorker(work: Work, signal: AbortSignal): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    if (typeof Worker === 'undefined' || typeof Blob === 'undefined' || typeof URL.createObjectURL !== 'function') {
      reject(new Error('no Web Worker here'));
      return;
    }
    let worker: Worker;
    try {
      scriptUrl ??= URL.createObjectURL(new Blob([solverScript], { type: 'text/javascript' }));
      worker = new Worker(scriptUrl);
    } catch (error) {
      reject(error);
      return;
    }
    const stop = (): void => {
      worker.terminate();
      reject(signal.reason);
    };
    const end = (): void => {
      signal.removeEventListener('abort', stop);
      worker.terminate();
    };
    signal.addEventListener('abort', stop, { once: true });
    worker.onmessage = (event: MessageEvent<Report>) => {
      const r = event.data;
      if ('s' in r) {
        end();
        resolve(r.s);
      } else if ('e' in r) {
        end();
        reject(new Error(r.e));
      }
    };
    worker.onerror = (event) => {
      event.preventDefault?.();
      end();
      reject(new Error('the solver worker failed to start'));
    };
    worker.postMessage(work);
  });
}

/** A task boundary: other work (input, rendering, timers) runs before the solver goes on. */
function nextTask(): Promise<void> {
  if (typeof MessageChannel === 'undefined') return new Promise((resolve) => setTimeout(resolve, 0));
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/** The page's solving function on this thread, yielding every YIELD_EVERY counters. */
async function onThisThread(work: Work, signal: AbortSignal): Promise<string> {
  let solution = CANNOT_SOLVE;
  await solveAll(
    work,
    (r) => {
      if ('s' in r) solution = r.s;
      else if ('p' in r && r.n > 0) return nextTask();
      return undefined;
    },
    { every: YIELD_EVERY, signal },
  );
  return solution;
}

/** The default solver: the waiting page's, in a Worker where there is one, else on this thread. */
export const pageSolver: ProofSolver = async (proof, signal) => {
  const work = workFrom(proof);
  if (work === null) return CANNOT_SOLVE;
  try {
    return await inWorker(work, signal);
  } catch {
    signal.throwIfAborted();
  }
  try {
    return await onThisThread(work, signal);
  } catch {
    signal.throwIfAborted();
    return CANNOT_SOLVE;
  }
};
