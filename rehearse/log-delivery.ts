// An HTTPS log endpoint's deliveries, as Fastly makes them: before the first batch, a GET of the
// receiver's challenge (/.well-known/fastly/logging/challenge), which must list the SHA-256 of the
// service's id or `*`; then batches every second, POSTed (or the endpoint's method) as the endpoint's
// json_format says: 1 a JSON array, 2 one JSON value a line, 0 the lines as text; with the endpoint's
// header_name/header_value and content_type. A batch refused (or sent before the receiver proved it
// wants the logs) is counted and dropped, as Fastly drops what a receiver will not take.
import { createHash } from 'node:crypto';
import { request } from 'node:https';
import type { Fields } from '../fastly-api/version-parts.js';

const CHALLENGE = '/.well-known/fastly/logging/challenge';

export interface LogDelivery {
  /** A line the room sent to log endpoint `name` (its fields: undefined when the version has none by that name). */
  push(name: string, line: string, endpoint: Fields | undefined): void;
  /** Batches delivered and refused, per endpoint name; lines for an endpoint the version lacks. */
  counts(): { delivered: Record<string, number>; refused: Record<string, number>; unknown: number; failed: number };
  stop(): Promise<void>;
}

interface Pending {
  endpoint: Fields;
  lines: string[];
}

function send(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string,
  ca: string | undefined,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve) => {
    const req = request(url, { method, headers, ...(ca === undefined ? {} : { ca }), timeout: 5000 }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', (error) => resolve({ status: 0, text: error.message }));
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.end(body);
  });
}

function batchBody(endpoint: Fields, lines: string[]): string {
  const format = endpoint.json_format ?? '0';
  if (format === '1') return `[${lines.join(',')}]`;
  return `${lines.join('\n')}\n`;
}

export function deliverHttpsLogs(serviceId: string, ca?: string): LogDelivery {
  const digest = createHash('sha256').update(serviceId).digest('hex');
  const pending = new Map<string, Pending>();
  const challenged = new Map<string, Promise<boolean>>();
  const delivered: Record<string, number> = {};
  const refused: Record<string, number> = {};
  let unknown = 0;
  let flushing = Promise.resolve();

  const accepts = (url: URL): Promise<boolean> => {
    let check = challenged.get(url.origin);
    if (check === undefined) {
      check = send(new URL(CHALLENGE, url), 'GET', {}, '', ca).then((r) => {
        const ok = r.status === 200 && r.text.split(/\r?\n/).some((l) => l.trim() === digest || l.trim() === '*');
        // A receiver that is not up yet, or refuses, is asked again before the next batch.
        if (!ok) challenged.delete(url.origin);
        return ok;
      });
      challenged.set(url.origin, check);
    }
    return check;
  };

  async function flush(): Promise<void> {
    const batches = [...pending];
    pending.clear();
    for (const [name, { endpoint, lines }] of batches) {
      const url = new URL(endpoint.url!);
      const headers: Record<string, string> = {
        'Content-Type': endpoint.content_type || (endpoint.json_format === '1' ? 'application/json' : 'text/plain'),
      };
      if (endpoint.header_name) headers[endpoint.header_name] = endpoint.header_value ?? '';
      const ok =
        (await accepts(url)) &&
        (await send(url, endpoint.method ?? 'POST', headers, batchBody(endpoint, lines), ca)).status < 300;
      const tally = ok ? delivered : refused;
      tally[name] = (tally[name] ?? 0) + 1;
    }
  }

  let failed = 0;
  // A batch that cannot even be sent (a URL Node refuses) is counted, never an unhandled rejection.
  const next = (): void => {
    flushing = flushing.then(flush).catch(() => void (failed += 1));
  };
  const timer = setInterval(next, 1000);
  return {
    push(name, line, endpoint) {
      if (endpoint === undefined || endpoint.url === undefined) {
        unknown += 1;
        return;
      }
      const p = pending.get(name) ?? { endpoint, lines: [] };
      p.lines.push(line);
      pending.set(name, p);
    },
    counts: () => ({ delivered: { ...delivered }, refused: { ...refused }, unknown, failed }),
    async stop() {
      clearInterval(timer);
      next(); // the lines still waiting for their batch
      await flushing;
    },
  };
}
