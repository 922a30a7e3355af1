// The controller's Fastly store: every room's keys in one bulk API call, against a local stand-in
// for api.fastly.com; without a token, the CLI key by key.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fastlyStore } from '../../control/fastly-store.js';
import type { FastlyRunner } from '../../lib/fastly-cli.js';

interface Seen {
  method: string;
  url: string;
  key: string | undefined;
  body: unknown;
}
const seen: Seen[] = [];
let answer = { status: 200, body: '{"status":"ok"}' };
const server = createServer((req: IncomingMessage, res) => {
  let text = '';
  req.on('data', (c: Buffer) => (text += c.toString()));
  req.on('end', () => {
    seen.push({ method: req.method!, url: req.url!, key: req.headers['fastly-key'] as string | undefined, body: JSON.parse(text || 'null') });
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
  });
});
let endpoint = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => void server.close());

function fakeRunner(): FastlyRunner & { calls: string[][] } {
  const calls: string[][] = [];
  return { dryRun: false, calls, run: (args: readonly string[]) => (calls.push([...args]), '[]') } as unknown as FastlyRunner & { calls: string[][] };
}

const writes = { 'room.shop.allow_percentage': '40', 'room.checkout.live': '{"allow_schedule":"1800000000=12"}', 'room.blog.live': '' };

describe('the Fastly store', () => {
  it("writes every room's keys in one bulk call with the user's token", async () => {
    seen.length = 0;
    answer = { status: 200, body: '{"status":"ok"}' };
    const runner = fakeRunner();
    const store = fastlyStore({ serviceId: 'SVC', storeId: 'STORE1', dryRun: false, token: 'tok', endpoint: `${endpoint}/`, runner, log: () => {} });
    await store.write(writes);
    expect(seen).toEqual([
      {
        method: 'PATCH',
        url: '/resources/stores/config/STORE1/items',
        key: 'tok',
        body: {
          items: [
            { op: 'upsert', item_key: 'room.shop.allow_percentage', item_value: '40' },
            { op: 'upsert', item_key: 'room.checkout.live', item_value: '{"allow_schedule":"1800000000=12"}' },
            { op: 'delete', item_key: 'room.blog.live' },
          ],
        },
      },
    ]);
    expect(store.callsFor!(writes)).toBe(1);
    expect(runner.calls).toEqual([]);
  });

  it('says what the API answered, and what to do about a refused token', async () => {
    answer = { status: 403, body: '{"msg":"Forbidden"}' };
    const store = fastlyStore({ serviceId: 'SVC', storeId: 'STORE1', dryRun: false, token: 'bad', endpoint, runner: fakeRunner(), log: () => {} });
    await expect(store.write(writes)).rejects.toThrow(/answered 403 \(\{"msg":"Forbidden"\}\): check FASTLY_API_TOKEN/);
  });

  it('without a token, writes through the CLI one key a call, and counts each call', async () => {
    seen.length = 0;
    const runner = fakeRunner();
    const store = fastlyStore({ serviceId: 'SVC', storeId: 'STORE1', dryRun: false, token: null, endpoint, runner, log: () => {} });
    await store.write(writes);
    expect(seen).toEqual([]);
    expect(runner.calls.map((c) => c.slice(0, 2).concat(c[c.indexOf('--key') + 1]!))).toEqual([
      ['config-store-entry', 'update', 'room.shop.allow_percentage'],
      ['config-store-entry', 'update', 'room.checkout.live'],
      ['config-store-entry', 'delete', 'room.blog.live'],
    ]);
    expect(store.callsFor!(writes)).toBe(3);
  });

  it('with --dry-run, prints the bulk call instead of making it (never the token)', async () => {
    seen.length = 0;
    const logs: string[] = [];
    const store = fastlyStore({ serviceId: 'SVC', storeId: 'STORE1', dryRun: true, token: 'secret-token', endpoint, runner: fakeRunner(), log: (m) => logs.push(m) });
    await store.write({ 'room.shop.allow_percentage': '40' });
    expect(seen).toEqual([]);
    expect(logs.join('\n')).toMatch(/would PATCH .*\/resources\/stores\/config\/STORE1\/items .*room\.shop\.allow_percentage/);
    expect(logs.join('\n')).not.toContain('secret-token');
  });
});
