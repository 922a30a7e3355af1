// The controller as Fastly's HTTPS log endpoint, over real HTTP on a free port.
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { CHALLENGE_PATH, httpsSource, type HttpsSource } from '../../../control/sources/https-source.js';

const open: HttpsSource[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.stop();
});

async function start(
  extra: Partial<Parameters<typeof httpsSource>[0]> = {},
): Promise<{ source: HttpsSource; lines: string[]; logs: string[] }> {
  const lines: string[] = [];
  const logs: string[] = [];
  const source = await httpsSource(
    { port: 0, host: '127.0.0.1', serviceIds: [], log: (m) => logs.push(m), ...extra },
    (l) => lines.push(l),
  );
  open.push(source);
  return { source, lines, logs };
}

const line = (n: number): string => JSON.stringify({ wr: 1, n });

describe('the HTTPS log endpoint', () => {
  it("answers Fastly's challenge with the hex SHA-256 of each accepted service id, or * for any", async () => {
    const { source } = await start({ serviceIds: ['SU1Z0isxPaozGVKXdv0eY', 'other'] });
    const res = await fetch(new URL(CHALLENGE_PATH, source.url));
    expect(res.status).toBe(200);
    const body = (await res.text()).trim().split('\n');
    expect(body).toEqual(['SU1Z0isxPaozGVKXdv0eY', 'other'].map((id) => createHash('sha256').update(id).digest('hex')));
    const any = await start();
    expect((await (await fetch(new URL(CHALLENGE_PATH, any.source.url))).text()).trim()).toBe('*');
  });

  it('hands over a newline-delimited batch line by line, and a JSON array entry by entry', async () => {
    const { source, lines } = await start();
    expect((await fetch(source.url, { method: 'POST', body: `${line(1)}\n${line(2)}\n\n` })).status).toBe(200);
    expect(
      (
        await fetch(source.url, {
          method: 'PUT',
          body: JSON.stringify([
            { wr: 1, n: 3 },
            { wr: 1, n: 4 },
          ]),
        })
      ).status,
    ).toBe(200);
    expect(lines.map((l) => JSON.parse(l).n)).toEqual([1, 2, 3, 4]);
    expect(source.counts.batches).toBe(2);
  });

  it('reads gzip-compressed batches', async () => {
    const { source, lines } = await start();
    const res = await fetch(source.url, {
      method: 'POST',
      body: gzipSync(`${line(5)}\n`),
      headers: { 'content-encoding': 'gzip' },
    });
    expect(res.status).toBe(200);
    expect(lines).toEqual([line(5)]);
  });

  it('refuses a batch without the shared secret header, and never reads it', async () => {
    const { source, lines } = await start({ secret: { name: 'X-Room-Log', value: 's3cret' } });
    expect((await fetch(source.url, { method: 'POST', body: line(1) })).status).toBe(401);
    expect(
      (await fetch(source.url, { method: 'POST', body: line(1), headers: { 'x-room-log': 'wrong!' } })).status,
    ).toBe(401);
    expect(
      (await fetch(source.url, { method: 'POST', body: line(2), headers: { 'x-room-log': 's3cret' } })).status,
    ).toBe(200);
    expect(lines).toEqual([line(2)]);
    expect(source.counts.refused).toBe(2);
  });

  it('refuses an oversized batch with 413 and a broken one with 400, says so once, and keeps serving', async () => {
    const { source, lines, logs } = await start({ maxBodyBytes: 100 });
    expect((await fetch(source.url, { method: 'POST', body: 'x'.repeat(500) })).status).toBe(413);
    expect((await fetch(source.url, { method: 'POST', body: '[{"wr":1,' })).status).toBe(400);
    expect(
      (
        await fetch(source.url, {
          method: 'POST',
          body: Buffer.from('not gzip'),
          headers: { 'content-encoding': 'gzip' },
        })
      ).status,
    ).toBe(400);
    expect((await fetch(source.url, { method: 'POST', body: line(7) })).status).toBe(200);
    expect(lines).toEqual([line(7)]);
    expect(source.counts).toMatchObject({ tooLarge: 1, malformed: 2, batches: 1 });
    expect(logs.filter((l) => l.includes('could not be read'))).toHaveLength(1);
  });

  it('answers 405 to anything but a batch or the challenge', async () => {
    const { source } = await start();
    expect((await fetch(source.url)).status).toBe(405);
  });

  it('names the port when it is taken', async () => {
    const { source } = await start();
    const port = Number(new URL(source.url).port);
    await expect(httpsSource({ port, host: '127.0.0.1', serviceIds: [], log: () => {} }, () => {})).rejects.toThrow(
      `port ${port} is in use`,
    );
  });

  it('is dead once stopped', async () => {
    const { source } = await start();
    source.stop();
    await source.closed;
    expect(source.dead).toBe(true);
  });
});
