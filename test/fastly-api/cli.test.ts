import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { callSummary, main } from '../../fastly-api/cli.js';
import type { ApiCall } from '../../fastly-api/server.js';

const dir = mkdtempSync(join(tmpdir(), 'wr-fastly-api-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the stand-in until `whileUp` is done with its address; returns what it printed. */
async function session(argv: string[], whileUp: (url: string) => Promise<void>): Promise<string[]> {
  const printed: string[] = [];
  const stop = new AbortController();
  let up: (url: string) => void;
  const url = new Promise<string>((resolve) => (up = resolve));
  const running = main(argv, {
    signal: stop.signal,
    print: (line) => {
      printed.push(line);
      const m = /export FASTLY_API_ENDPOINT=(\S+)/.exec(line);
      if (m) up(m[1]!);
    },
  });
  await whileUp(await url);
  stop.abort();
  expect(await running).toBe(0);
  return printed;
}

describe('npm run fastly-api', () => {
  it('seeds the service from a store file and prints the environment that points the Fastly CLI at it', async () => {
    const config = join(dir, 'config.json');
    writeFileSync(config, JSON.stringify({ settings: '{"enabled":"true"}' }));
    const home = join(dir, 'home');
    let items: unknown;
    const printed = await session(
      ['--seed-from', config, '--service', 'SHOP', '--home', home, '--calls-per-hour', '5'],
      async (url) => {
        const r = await fetch(`${url}/resources/stores/config/SHOP-config/items`, { headers: { 'Fastly-Key': 'k' } });
        expect(r.headers.get('Fastly-RateLimit-Remaining')).toBe('4');
        items = await r.json();
      },
    );
    expect(items).toMatchObject([{ item_key: 'settings', item_value: '{"enabled":"true"}', store_id: 'SHOP-config' }]);
    expect(printed).toContain(`  export HOME=${home}`);
    expect(printed).toContain('  export FASTLY_API_TOKEN=standin-token');
    expect(printed).toContain('  npm run tune -- --service SHOP --show');
    expect(printed.some((l) => /GET \/resources\/stores\/config\/SHOP-config\/items 200$/.test(l))).toBe(true);
    expect(printed.slice(-2)).toEqual(['1 calls:', '    1  GET /resources/stores/config/SHOP-config/items 200']);
  });

  it("leaves a local controller's heartbeat out of the seeded store, and holds a key for each active_key", async () => {
    const config = join(dir, 'with-heartbeat.json');
    writeFileSync(
      config,
      JSON.stringify({
        settings: '{"active_key":"key1"}',
        'room.shop': '{"active_key":"shop7"}',
        routing: '{"rooms":[{"id":"shop","routes":["/"]}],"default_room":"shop"}',
        controller: '{"id":"3f2a9c1e","host":"laptop","pid":1,"started":1,"beat":2,"lease":600}',
      }),
    );
    let keys: unknown;
    let items: unknown;
    const printed = await session(['--seed-from', config, '--quiet'], async (url) => {
      const get = (path: string) => fetch(`${url}${path}`, { headers: { 'Fastly-Key': 'k' } }).then((r) => r.json());
      items = await get('/resources/stores/config/SVC-config/items');
      keys = await get('/resources/stores/secret/SVC-keys/secrets');
    });
    expect((items as Array<{ item_key: string }>).map((i) => i.item_key).sort()).toEqual([
      'room.shop',
      'routing',
      'settings',
    ]);
    expect((keys as { data: Array<{ name: string }> }).data.map((k) => k.name).sort()).toEqual(['key1', 'shop7']);
    expect(printed[0]).toMatch(/waiting_room_keys SVC-keys \(key1, shop7\)/);
  });

  it('--empty holds no service, for fastly compute publish to make one', async () => {
    let services: unknown;
    const printed = await session(['--empty', '--quiet'], async (url) => {
      services = await fetch(`${url}/service`, { headers: { 'Fastly-Key': 'k' } }).then((r) => r.json());
    });
    expect(services).toEqual([]);
    expect(printed[0]).toMatch(/no service yet/);
    expect(printed.some((l) => l.includes('npx fastly compute publish --non-interactive'))).toBe(true);
    await expect(main(['--empty', '--seed-from', 'x.json'])).rejects.toThrow(/--empty holds no service/);
    await expect(main(['--empty', '--service', 'SHOP'])).rejects.toThrow(/--empty holds no service/);
  });

  it('refuses a seed file that is not a store file, saying what it must be', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"settings": {"enabled": true}}');
    await expect(main(['--seed-from', bad])).rejects.toThrow(
      `--seed-from ${bad} must be a store file: one JSON object whose values are all strings`,
    );
    await expect(main(['--seed-from', join(dir, 'missing.json')])).rejects.toThrow(
      /cannot read --seed-from .*missing\.json.*npm start makes local\/config\.json/,
    );
    await expect(main(['--calls-per-hour', 'lots'])).rejects.toThrow(
      '--calls-per-hour must be a whole number, not "lots"',
    );
  });

  it('answers the calls --fault names with the fault, and says which faults are in force', async () => {
    const statuses: number[] = [];
    const printed = await session(
      [
        '--fault',
        'PATCH /resources/stores/config/*/items 400',
        '--fault',
        '* /resources/stores/config/*/items 503 1',
        '--quiet',
      ],
      async (url) => {
        const items = `${url}/resources/stores/config/SVC-config/items`;
        for (const method of ['GET', 'GET', 'PATCH', 'PATCH'])
          statuses.push((await fetch(items, { method, headers: { 'Fastly-Key': 'k' } })).status);
      },
    );
    // The first GET meets the 503 (once); then a GET answers, and every PATCH meets the 400.
    expect(statuses).toEqual([503, 200, 400, 400]);
    expect(printed).toContain('fault in force: PATCH /resources/stores/config/*/items 400');
    await expect(main(['--fault', 'PATCH /items twice'])).rejects.toThrow(
      '--fault "PATCH /items twice": the answer must be a status of 400 to 599, wrong-json, not-json or late:SECONDS, not "twice"',
    );
  });

  it('sums the calls by endpoint, items and secrets by their kind', () => {
    const call = (method: string, path: string, status: number): ApiCall => ({
      method,
      path,
      status,
      query: '',
      at: 0,
      ms: 1,
      limited: true,
    });
    expect(
      callSummary([
        call('PUT', '/resources/stores/config/C/item/a', 200),
        call('PUT', '/resources/stores/config/C/item/b', 200),
        call('PUT', '/resources/stores/config/C/item/b', 429),
        call('DELETE', '/resources/stores/secret/S/secrets/k1', 204),
      ]),
    ).toEqual([
      '    2  PUT /resources/stores/config/C/item/KEY 200',
      '    1  PUT /resources/stores/config/C/item/KEY 429',
      '    1  DELETE /resources/stores/secret/S/secrets/NAME 204',
    ]);
  });
});
