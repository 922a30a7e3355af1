// The waiting page's proof-of-work solver (docs/bots.md), one file in two roles: loaded by the page
// (<script src=… data-proof=…>) it starts itself again as a Web Worker from its own URL, hands it
// the challenges and says in the page's #proof paragraph how far it is (in the sentences of the page's
// `<html data-t>`, English without); in the worker it solves the
// eight ALTCHA challenges (solve.ts, which the app client in client/ runs too).
// The page's check asks window.wrProof.get() for the header's value: the counters joined by '.', or
// 'none' when this browser cannot solve (no Worker, or the worker failed).
import { pageWords, progressWords, workFrom, workKey, type Work } from './challenge.js';
import { type Report, solveAll } from './solve.js';

interface Api {
  /** The proof header's value for the challenge set last: the solution once found, or 'none'. */
  get(): Promise<string>;
  /** A new challenge (compact text or the JSON answer's `proof`); the same one again keeps its solution. */
  set(challenge: unknown): void;
}

function pageMode(me: HTMLScriptElement): Api {
  let key = '';
  let answer: Promise<string> = Promise.resolve('none');
  let worker: Worker | undefined;
  const words = pageWords(document.documentElement.dataset.t);
  const say = (text: string): void => {
    const p = document.getElementById('proof');
    if (p && p.textContent !== text) p.textContent = text;
  };
  const set = (challenge: unknown): void => {
    const work = workFrom(challenge);
    if (work === null || workKey(work) === key) return;
    key = workKey(work);
    worker?.terminate();
    const of = work.challenges.length;
    answer = new Promise<string>((resolve) => {
      const fail = (): void => {
        say('');
        resolve('none');
      };
      try {
        const w = (worker = new Worker(me.src));
        w.onmessage = (event: MessageEvent<Report>) => {
          const r = event.data;
          if ('p' in r) say(progressWords(r.p, of, r.n, work.counters, words));
          else if ('s' in r) resolve(r.s);
          else fail();
        };
        w.onerror = fail;
        w.postMessage(work);
        say(progressWords(0, of, 0, work.counters, words));
      } catch {
        fail();
      }
    });
  };
  set(me.dataset.proof ?? '');
  return { get: () => answer, set };
}

declare const WorkerGlobalScope: unknown;

if (typeof WorkerGlobalScope !== 'undefined' && typeof document === 'undefined') {
  onmessage = (event: MessageEvent<Work>) => {
    solveAll(event.data, (r) => postMessage(r)).catch((error: unknown) => postMessage({ e: String(error) }));
  };
} else if (typeof document !== 'undefined' && document.currentScript) {
  (window as unknown as { wrProof: Api }).wrProof = pageMode(document.currentScript as HTMLScriptElement);
}
