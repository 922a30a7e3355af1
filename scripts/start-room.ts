// What `npm start` says when the room does not come up: it reads the Fastly CLI's last lines, so an
// offline `npm run start:viceroy` is told that Viceroy could not be fetched, not that the room was
// slow, and is shown the local host that needs no download.
import type { Readable, Writable } from 'node:stream';

export interface Tail {
  lines(): string[];
}

/** Copies `from` to `to` as it comes and keeps its last `keep` lines (spinner frames included). */
export function tailLines(from: Readable, to: Writable, keep = 40): Tail {
  const kept: string[] = [];
  let partial = '';
  from.on('data', (chunk: Buffer) => {
    to.write(chunk);
    const text = partial + chunk.toString('utf8');
    const lines = text.split(/\r?\n|\r/);
    partial = lines.pop() ?? '';
    kept.push(...lines.filter((l) => l.trim() !== ''));
    if (kept.length > keep) kept.splice(0, kept.length - keep);
  });
  return { lines: () => (partial.trim() === '' ? [...kept] : [...kept, partial]) };
}

const LOCAL_HOST_FIX =
  "Run the project's local host instead, which needs no download: npm start\n" +
  'or, with a Viceroy binary of your own: npm start -- --host /path/to/viceroy (passed to the Fastly CLI as --viceroy-path)';

/** True when the CLI's output says it could not download Viceroy. */
export function viceroyFetchFailed(lines: readonly string[]): boolean {
  return lines.some(
    (l) =>
      /error downloading Viceroy|(fetch|download|install)ing Viceroy.*(fail|error)|failed to request GitHub metadata/i.test(
        l,
      ) || /✗ Fetching Viceroy/.test(l),
  );
}

/** Why the room (the Fastly CLI) stopped before or while serving, and what to do. */
export function roomExitMessage(how: string, lines: readonly string[], viceroy: boolean): string {
  if (viceroyFetchFailed(lines)) {
    return `Viceroy could not be fetched: the Fastly CLI downloads it on first use of --viceroy, and it could not reach the internet (${how}).\n${LOCAL_HOST_FIX}`;
  }
  const hint = viceroy
    ? `\n(--viceroy: the Fastly CLI fetches Viceroy on first use; offline, ${LOCAL_HOST_FIX.charAt(0).toLowerCase()}${LOCAL_HOST_FIX.slice(1)})`
    : '';
  return `the room stopped (${how}); stopping the shop too${hint}`;
}

/** Why the room is not listening after `seconds` while the CLI still runs. */
export function roomSlowMessage(addr: string, seconds: number, lines: readonly string[]): string {
  const last = [...lines].reverse().find((l) => /Viceroy/i.test(l));
  if (last !== undefined && /Fetching Viceroy/i.test(last) && !/✓/.test(last)) {
    return `the Fastly CLI is still fetching Viceroy after ${seconds} s (no internet?), so the room is not listening on ${addr}.\n${LOCAL_HOST_FIX}`;
  }
  return `the room did not listen on ${addr} within ${seconds} s; its last lines:\n${lines.slice(-5).join('\n')}`;
}
