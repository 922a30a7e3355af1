// `--source stdin`: `npm start`'s output piped in; the source is dead once stdin closes.
import type { Readable } from 'node:stream';
import { readLines, type Source } from './source.js';

export function stdinSource(onLine: (text: string) => void, input: Readable = process.stdin): Source {
  const source: Source = { name: 'stdin', error: null, dead: false, stop: () => input.destroy() };
  void readLines(input, onLine).then(() => {
    source.dead = true;
    source.error = 'stdin closed: no more decision lines';
  });
  return source;
}
