// What both benches need to put load on a host: one GET, and clients that send one after another.
import http from 'node:http';

/** One GET over a keep-alive agent; resolves once the body has been read (and dropped). */
export function get(
  agent: http.Agent,
  url: string | URL,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/**
 * Closed-loop load: `concurrency` clients, each starting its next `send` as soon as the last one is
 * done, for as long as `more()` says so.
 */
export async function closedLoop(concurrency: number, more: () => boolean, send: () => Promise<void>): Promise<void> {
  const client = async (): Promise<void> => {
    while (more()) await send();
  };
  await Promise.all(Array.from({ length: concurrency }, client));
}
